"""Checks of request bodies and keys, with Tessera's field errors, every bad field at once.

Why written out: the answers to bad requests are part of the semantics the baseline keeps (an
inbound event with an unknown ``type`` is 400 ``invalid_request`` naming ``type``; a command input
that breaks its JSON Schema names ``input.<property>``), and the work done to reach them (a compiled
Draft 4 validator per schema, run on every request) is part of what a request costs.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from baseline import refusals
from baseline.registry import EventSource, OpenCommand
from baseline.rules import bad_text_paths, storable

REQUIRED = "This field is required."
NOT_OBJECT = "Must be an object."
EVENT_FIELDS = {"type", "schemaVersion", "occurredAt", "data"}
TYPE_MESSAGES = (("integer", "Must be an integer."), ("number", "Must be a number."),
                 ("boolean", "Must be true or false."), ("object", NOT_OBJECT), ("array", "Must be an array."))
VALUED = {"minimum": "Must be at least {}.", "maximum": "Must be at most {}.",
          "minLength": "Must be at least {} characters.", "maxLength": "Must be at most {} characters."}
PLAIN = {"required": REQUIRED, "pattern": "Has an invalid format.", "additionalProperties": "Unknown field."}


# -- JSON Schema errors as field errors ------------------------------------------------------------

def message_for(error: Any) -> str:
    keyword, value = error.validator, error.validator_value
    if keyword == "type":
        names = value if isinstance(value, list) else [value]
        return next((text for name, text in TYPE_MESSAGES if name in names), "Must be a string.")
    if keyword == "enum":
        return f"Must be one of: {', '.join(map(str, value))}."
    if keyword in VALUED:
        return VALUED[keyword].format(value)
    return PLAIN.get(str(keyword), "Is not valid.")


def _named(error: Any) -> list[str]:
    """The fields a ``required`` or ``additionalProperties`` error is about."""
    instance = error.instance
    if not isinstance(instance, dict):
        return []
    if error.validator == "required":
        return [name for name in error.validator_value if name not in instance]
    if error.validator == "additionalProperties":
        allowed = set((error.schema.get("properties") or {}).keys())
        return [str(name) for name in instance if name not in allowed]
    return []


def collect(found: Iterable[Any]) -> dict[str, str]:
    """Each error under the dotted path of the field it concerns (the first per field wins)."""
    result: dict[str, str] = {}
    for error in sorted(found, key=lambda e: [str(p) for p in e.absolute_path]):
        path = [str(p) for p in error.absolute_path]
        for name in _named(error):
            result.setdefault(".".join([*path, name]), message_for(error))
        if error.validator not in ("required", "additionalProperties") or not isinstance(error.instance, dict):
            result.setdefault(".".join(path) or "body", message_for(error))
    return result


def _document(validator: Any, value: dict[str, Any], prefix: str, into: dict[str, str]) -> None:
    """A JSON document checked against its schema and for text the database would refuse."""
    for name, message in collect(validator.iter_errors(value)).items():
        into[prefix if name == "body" else f"{prefix}.{name}"] = message
    into.update(bad_text_paths(value, prefix))


# -- the Open Platform -----------------------------------------------------------------------------

def idempotency_key(key: str | None) -> str:
    """Required, 1 to 255 visible ASCII characters (it travels in a header)."""
    if not key:
        raise refusals.invalid_request({"Idempotency-Key": REQUIRED})
    if len(key) > 255 or not all("\x21" <= ch <= "\x7e" for ch in key):
        raise refusals.invalid_request({"Idempotency-Key": "Must be 1 to 255 visible ASCII characters."})
    return key


def _occurred_at(value: Any, found: dict[str, str]) -> datetime | None:
    """ISO 8601 with a zero UTC offset (``Z`` or ``+00:00``)."""
    if not isinstance(value, str):
        found["occurredAt"] = REQUIRED if value is None else "Must be a string."
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        parsed = None
    offset = parsed.utcoffset() if parsed is not None else None
    if parsed is None or offset is None or offset.total_seconds() != 0:
        found["occurredAt"] = "Must be an ISO 8601 UTC timestamp, e.g. 2026-11-22T08:00:00Z."
        return None
    return parsed


def _event_validator(source: EventSource, event_type: Any, version: Any, found: dict[str, str]) -> Any:
    if not isinstance(event_type, str) or event_type not in source.versions:
        found["type"] = f"Must be one of: {', '.join(source.versions)}."
        return None
    versions = source.versions[event_type]
    if not isinstance(version, int) or isinstance(version, bool) or version not in versions:
        found["schemaVersion"] = f"Must be one of: {', '.join(map(str, versions))}."
        return None
    return source.validators[(event_type, version)]


def event(source: EventSource, body: Any) -> tuple[str, int, datetime, dict[str, Any]]:
    """(type, schemaVersion, occurredAt, data) of a valid event; ``invalid_request`` naming every problem."""
    if not isinstance(body, dict):
        raise refusals.invalid_request({"body": NOT_OBJECT})
    found = {name: "Unknown field." for name in sorted(set(body) - EVENT_FIELDS)}
    event_type, version, data = body.get("type"), body.get("schemaVersion"), body.get("data")
    validator = _event_validator(source, event_type, version, found)
    occurred = _occurred_at(body.get("occurredAt"), found)
    if not isinstance(data, dict):
        found["data"] = REQUIRED if data is None else NOT_OBJECT
    elif validator is not None:
        _document(validator, data, "data", found)
    if found or occurred is None or not isinstance(data, dict) or not isinstance(version, int):
        raise refusals.invalid_request(found)
    return str(event_type), version, occurred, data


def command_input(command: OpenCommand, body: Any) -> dict[str, Any]:
    """The ``input`` of a create command's body, checked against the command's schema."""
    if not isinstance(body, dict):
        raise refusals.invalid_request({"body": NOT_OBJECT})
    found = {name: "Unknown field." for name in sorted(set(body) - {"input"})}
    given = body.get("input")
    if not isinstance(given, dict):
        found["input"] = REQUIRED if given is None else NOT_OBJECT
    else:
        _document(command.validator, given, "input", found)
    if found or not isinstance(given, dict):
        raise refusals.invalid_request(found)
    return given


# -- the session API -------------------------------------------------------------------------------

def create_shape(body: Any) -> dict[str, Any]:
    """A create command's envelope: no ``operationType`` or ``targetRecordId``, a ``payload`` object."""
    if not isinstance(body, dict):
        raise refusals.validation_failed({"body": NOT_OBJECT})
    found = {}
    if body.get("operationType") is not None:
        found["operationType"] = "Must be omitted for a create command."
    if body.get("targetRecordId") is not None:
        found["targetRecordId"] = "Must be omitted for a create command."
    if "payload" not in body:
        found["payload"] = REQUIRED
    elif not isinstance(body["payload"], dict):
        found["payload"] = NOT_OBJECT
    if found:
        raise refusals.validation_failed(found)
    return body


def session_key(header: str | None, body: dict[str, Any]) -> str | None:
    """``X-Idempotent-Key`` or ``clientRequestId``: at most 200 storable characters; None without one."""
    key = header or body.get("clientRequestId") or None
    if key is None:
        return None
    if not isinstance(key, str) or len(key) > 200:
        raise refusals.validation_failed({"clientRequestId": "Must be at most 200 characters."})
    if not storable(key):
        raise refusals.validation_failed({"clientRequestId": "Must not contain NUL characters or invalid Unicode."})
    return key
