"""JSON Schema errors as translatable field errors, every bad field at once.

Both the request validators of the web layer and the services that check registry inputs (command
inputs, inbound event data, automation actions) report ``data.fieldErrors`` from ``iter_errors``;
this module turns each error into a message id of the catalogs, keyed by the dotted path of the
field it concerns.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from jsonschema import ValidationError

from tessera.core.errors import FieldError
from tessera.core.i18n import N_

# Type names in the order a union is reported by (``["integer", "null"]`` reads as an integer).
_TYPE_MESSAGES = (
    ("integer", N_("Must be an integer.")),
    ("number", N_("Must be a number.")),
    ("boolean", N_("Must be true or false.")),
    ("object", N_("Must be an object.")),
    ("array", N_("Must be an array.")),
)
# Keywords whose message names the keyword's value: (message id, placeholder).
_VALUED_MESSAGES = {
    "minimum": (N_("Must be at least {minimum}."), "minimum"),
    "maximum": (N_("Must be at most {maximum}."), "maximum"),
    "minLength": (N_("Must be at least {minLength} characters."), "minLength"),
    "maxLength": (N_("Must be at most {maxLength} characters."), "maxLength"),
}
REQUIRED = N_("This field is required.")
_PLAIN_MESSAGES = {
    "required": REQUIRED,
    "pattern": N_("Has an invalid format."),
    "additionalProperties": N_("Unknown field."),
}


def message_for(error: ValidationError) -> FieldError:
    """A translatable message for one JSON Schema error."""
    keyword, value = error.validator, cast(Any, error.validator_value)
    if keyword == "type":
        names = value if isinstance(value, list) else [value]
        return FieldError(next((text for name, text in _TYPE_MESSAGES if name in names), N_("Must be a string.")))
    if keyword == "enum":
        return FieldError(N_("Must be one of: {values}."), values=", ".join(map(str, value)))
    if keyword in _VALUED_MESSAGES:
        text, placeholder = _VALUED_MESSAGES[str(keyword)]
        return FieldError(text, **{placeholder: value})
    return FieldError(_PLAIN_MESSAGES.get(str(keyword), N_("Is not valid.")))


def collect(errors: Iterable[ValidationError]) -> dict[str, FieldError]:
    """Map each error to the dotted path of the field it concerns (first error per field wins)."""
    result: dict[str, FieldError] = {}
    for error in sorted(errors, key=lambda e: [str(p) for p in e.absolute_path]):
        path = [str(p) for p in error.absolute_path]
        for name in _named_fields(error):
            result.setdefault(".".join([*path, name]), message_for(error))
        if error.validator not in ("required", "additionalProperties") or not isinstance(error.instance, dict):
            result.setdefault(".".join(path) or "body", message_for(error))
    return result


def _named_fields(error: ValidationError) -> list[str]:
    """The fields a ``required`` or ``additionalProperties`` error is about (missing or unknown ones)."""
    instance: Any = error.instance
    if not isinstance(instance, dict):
        return []
    if error.validator == "required":
        return [name for name in cast(list[str], error.validator_value) if name not in instance]
    if error.validator == "additionalProperties":
        allowed = set((error.schema.get("properties") or {}).keys())  # type: ignore[union-attr]
        return [str(name) for name in instance if name not in allowed]
    return []
