"""Validates and normalises command payloads against a declared model, collecting every error.

Every bad field is reported at once (``data.fieldErrors``), each with a translatable message, so a
form can mark all of them in one round trip.
"""

from __future__ import annotations

import math
import re
from datetime import date
from typing import Any

from tessera.core.bounds import MAX_INTEGER, MAX_NUMBER
from tessera.core.clock import iso
from tessera.core.errors import FieldError, ValidationFailed
from tessera.core.i18n import N_
from tessera.core.text import BAD_TEXT, storable_text
from tessera.core.timestamps import parse_timestamp
from tessera.registry.models import FieldDecl, ModelDecl

REQUIRED = N_("This field is required.")
UNKNOWN = N_("Unknown field.")
NOT_NULL = N_("This field cannot be null.")
NOT_STRING = N_("Must be a string.")
NOT_INTEGER = N_("Must be an integer.")
NOT_NUMBER = N_("Must be a number.")
NOT_BOOLEAN = N_("Must be true or false.")
NOT_DATE = N_("Must be a date in the form YYYY-MM-DD.")
NOT_DATETIME = N_("Must be an ISO 8601 date-time with a time zone.")
NOT_IN_ENUM = N_("Must be one of: {values}.")
TOO_SMALL = N_("Must be at least {minimum}.")
NOT_GREATER = N_("Must be greater than {minimum}.")
TOO_LARGE = N_("Must be at most {maximum}.")
TOO_LONG = N_("Must be at most {maxLength} characters.")
EMPTY = N_("Must not be empty.")

_DATE_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def normalise_datetime(value: str) -> str | None:
    """A date-time of ``TIMESTAMP_PATTERN`` as stored: UTC ``...Z`` text to the millisecond, which
    sorts in time order; None for anything else."""
    parsed = parse_timestamp(value)
    return None if parsed is None else iso(parsed)


def normalise_date(value: str) -> str | None:
    # Exactly YYYY-MM-DD: Python 3.11's fromisoformat also takes "20260115xx" and "2026-W03-4".
    if not _DATE_RE.fullmatch(value):
        return None
    try:
        return date.fromisoformat(value).isoformat()
    except ValueError:
        return None


def coerce_value(decl: FieldDecl, value: Any) -> tuple[Any, FieldError | None]:
    """Check one non-null value against its declaration; return the stored form or an error."""
    ftype = decl.type
    if ftype in {"string", "enum", "date", "datetime"} and not isinstance(value, str):
        return None, FieldError(NOT_STRING if ftype == "string" else _type_message(ftype))
    if ftype == "string":
        return _coerce_string(decl, value)
    if ftype == "enum":
        return _coerce_enum(decl, value)
    if ftype == "date":
        return _coerce_date(value)
    if ftype == "datetime":
        return _coerce_datetime(value)
    if ftype == "boolean":
        return _coerce_boolean(value)
    return _coerce_number(decl, value)


def _coerce_string(decl: FieldDecl, value: str) -> tuple[Any, FieldError | None]:
    """Storable text; a required field needs more than blanks, and ``maxLength`` counts characters."""
    if not storable_text(value):
        return None, FieldError(BAD_TEXT)
    if decl.required and not value.strip():
        return None, FieldError(EMPTY)
    if decl.max_length is not None and len(value) > decl.max_length:
        return None, FieldError(TOO_LONG, maxLength=decl.max_length)
    return value, None


def _coerce_enum(decl: FieldDecl, value: str) -> tuple[Any, FieldError | None]:
    if value not in decl.values:
        return None, FieldError(NOT_IN_ENUM, values=", ".join(decl.values))
    return value, None


def _coerce_date(value: str) -> tuple[Any, FieldError | None]:
    """A calendar date, stored as ``YYYY-MM-DD``."""
    normal = normalise_date(value)
    return (normal, None) if normal else (None, FieldError(NOT_DATE))


def _coerce_datetime(value: str) -> tuple[Any, FieldError | None]:
    """A zoned date-time, stored as UTC text so stored values sort in time order."""
    normal = normalise_datetime(value)
    return (normal, None) if normal else (None, FieldError(NOT_DATETIME))


def _coerce_boolean(value: Any) -> tuple[Any, FieldError | None]:
    return (value, None) if isinstance(value, bool) else (None, FieldError(NOT_BOOLEAN))


def _coerce_number(decl: FieldDecl, value: Any) -> tuple[Any, FieldError | None]:
    """An integer or number field (and any type not handled above): a finite JSON number in range.

    ``bool`` is an ``int`` in Python, so ``true`` is refused explicitly.
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None, FieldError(NOT_INTEGER if decl.type == "integer" else NOT_NUMBER)
    if isinstance(value, float) and not math.isfinite(value):
        return None, FieldError(NOT_NUMBER)
    number, error = _integer_value(value) if decl.type == "integer" else _number_value(value)
    if error is None:
        error = _bounds_error(decl, number)
    return (None, error) if error is not None else (number, None)


def _integer_value(value: int | float) -> tuple[Any, FieldError | None]:
    """A whole number (``3.0`` is stored as ``3``) no larger than JSON clients can hold exactly (2**53)."""
    if isinstance(value, float):
        if not value.is_integer():
            return None, FieldError(NOT_INTEGER)
        value = int(value)
    if abs(value) > MAX_INTEGER:
        return None, FieldError(TOO_LARGE, maximum=MAX_INTEGER)
    return value, None


def _number_value(value: int | float) -> tuple[Any, FieldError | None]:
    """A number at most 1e15 in size (15 digits, all of which a double holds exactly)."""
    if abs(value) > MAX_NUMBER:
        return None, FieldError(TOO_LARGE, maximum="1e15")
    return value, None


def _bounds_error(decl: FieldDecl, value: int | float) -> FieldError | None:
    """The declared ``minimum``, ``exclusiveMinimum`` and ``maximum``, checked in that order."""
    if decl.minimum is not None and value < decl.minimum:
        return FieldError(TOO_SMALL, minimum=_num(decl.minimum))
    if decl.exclusive_minimum is not None and value <= decl.exclusive_minimum:
        return FieldError(NOT_GREATER, minimum=_num(decl.exclusive_minimum))
    if decl.maximum is not None and value > decl.maximum:
        return FieldError(TOO_LARGE, maximum=_num(decl.maximum))
    return None


def _type_message(ftype: str) -> str:
    """The message for a non-string value given to a field whose values are written as strings."""
    if ftype == "enum":
        return NOT_IN_ENUM
    return NOT_DATE if ftype == "date" else NOT_DATETIME


def _num(value: float) -> int | float:
    """A bound as the message shows it: ``5``, not ``5.0``."""
    return int(value) if float(value).is_integer() else value


# What ``_field_value`` returns for a field an update leaves alone: it stays out of the result.
_LEAVE_OUT: Any = object()


def validate_payload(model: ModelDecl, payload: Any, *, partial: bool, field_prefix: str = "") -> dict[str, Any]:
    """Return the normalised payload, or raise ``ValidationFailed`` naming every bad field.

    ``partial`` is for updates: absent fields keep their stored value, but a present field must be
    valid, and a required field can't be cleared.
    """
    errors: dict[str, FieldError] = {}
    if not isinstance(payload, dict):
        raise ValidationFailed({"payload": FieldError(N_("Must be an object."))})
    result: dict[str, Any] = {}
    for key in payload:
        if key not in model.fields:
            errors[field_prefix + key] = FieldError(UNKNOWN)
    for code, decl in model.fields.items():
        stored, error = _field_value(decl, payload, code, partial=partial)
        if error is not None:
            errors[field_prefix + code] = error
        elif stored is not _LEAVE_OUT:
            result[code] = stored
    if errors:
        raise ValidationFailed(errors)
    return result


def _field_value(
    decl: FieldDecl, payload: dict[str, Any], code: str, *, partial: bool
) -> tuple[Any, FieldError | None]:
    """The stored value of one declared field (or ``_LEAVE_OUT``), or its error."""
    if code not in payload:
        return _absent_value(decl, partial=partial)
    value = payload[code]
    if value is None:
        return _null_value(decl)
    return coerce_value(decl, value)


def _absent_value(decl: FieldDecl, *, partial: bool) -> tuple[Any, FieldError | None]:
    """An update leaves an absent field alone; a create needs it if required, else takes its default or null."""
    if partial:
        return _LEAVE_OUT, None
    if decl.required:
        return None, FieldError(REQUIRED)
    if decl.default is not None:
        return decl.default, None
    return None, None


def _null_value(decl: FieldDecl) -> tuple[Any, FieldError | None]:
    """Only fields declared ``nullable`` can be set to null; leaving a field out is how an optional
    one stays empty (or takes its default)."""
    if decl.required:
        return None, FieldError(REQUIRED)
    if not decl.nullable:
        return None, FieldError(NOT_NULL)
    return None, None
