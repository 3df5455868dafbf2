"""A create's payload checked and normalised against its model, every bad field reported at once.

The rules of Tessera's ``tessera/records/payloads.py`` (create only: every declared field is set,
absent ones to their default or null): strings are storable text within ``maxLength`` (a required
one more than blanks), enums one of their values, dates ``YYYY-MM-DD``, date-times any zoned ISO
8601 stored as UTC ``...Z`` with milliseconds, integers whole (``3.0`` is ``3``) up to 2**53,
numbers finite up to 1e15, bounds checked in the order minimum, exclusiveMinimum, maximum.
"""

from __future__ import annotations

import math
import re
from datetime import UTC, date, datetime
from typing import Any

from baseline.registry import FieldRule, Model, Registry, events_of
from baseline.rules import BAD_TEXT, new_pid, storable
from baseline.store import Parts

DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class Invalid(Exception):
    def __init__(self, field_errors: dict[str, str]) -> None:
        super().__init__(", ".join(field_errors))
        self.field_errors = field_errors


def normalise_datetime(value: str) -> str | None:
    """A zoned ISO 8601 date-time as UTC ``...Z`` with milliseconds (sortable text); None otherwise."""
    text = value.strip()
    if len(text) < 16 or "T" not in text.upper():
        return None
    try:
        parsed = datetime.fromisoformat(text.replace("z", "Z").replace("Z", "+00:00"))
        utc = parsed.astimezone(UTC) if parsed.tzinfo is not None else None
    except (ValueError, OverflowError):
        return None
    return None if utc is None else utc.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def normalise_date(value: str) -> str | None:
    if not DATE.fullmatch(value):
        return None
    try:
        return date.fromisoformat(value).isoformat()
    except ValueError:
        return None


def _bound(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _bounds(rule: FieldRule, value: float) -> str | None:
    if rule.minimum is not None and value < rule.minimum:
        return f"Must be at least {_bound(rule.minimum)}."
    if rule.exclusive_minimum is not None and value <= rule.exclusive_minimum:
        return f"Must be greater than {_bound(rule.exclusive_minimum)}."
    if rule.maximum is not None and value > rule.maximum:
        return f"Must be at most {_bound(rule.maximum)}."
    return None


def _number(rule: FieldRule, value: Any) -> tuple[Any, str | None]:
    """An integer or number field: a finite JSON number (not a boolean) in range."""
    wrong = "Must be an integer." if rule.type == "integer" else "Must be a number."
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None, wrong
    if isinstance(value, float) and not math.isfinite(value):
        return None, "Must be a number."
    if rule.type == "integer":
        if isinstance(value, float):
            if not value.is_integer():
                return None, wrong
            value = int(value)
        if abs(value) > 2**53:
            return None, f"Must be at most {2**53}."
    elif abs(value) > 1e15:
        return None, "Must be at most 1e15."
    problem = _bounds(rule, value)
    return (None, problem) if problem else (value, None)


def _text(rule: FieldRule, value: str) -> tuple[Any, str | None]:
    """String, enum, date and date-time fields (the value is a string)."""
    if rule.type == "enum":
        return (value, None) if value in rule.values else (None, f"Must be one of: {', '.join(rule.values)}.")
    if rule.type == "date":
        normal = normalise_date(value)
        return (normal, None) if normal else (None, "Must be a date in the form YYYY-MM-DD.")
    if rule.type == "datetime":
        normal = normalise_datetime(value)
        return (normal, None) if normal else (None, "Must be an ISO 8601 date-time with a time zone.")
    if not storable(value):
        return None, BAD_TEXT
    if rule.required and not value.strip():
        return None, "Must not be empty."
    if rule.max_length is not None and len(value) > rule.max_length:
        return None, f"Must be at most {rule.max_length} characters."
    return value, None


NOT_A_STRING = {"string": "Must be a string.", "date": "Must be a date in the form YYYY-MM-DD.",
                "datetime": "Must be an ISO 8601 date-time with a time zone."}


def coerce(rule: FieldRule, value: Any) -> tuple[Any, str | None]:
    """One non-null value: its stored form, or the message for it."""
    if rule.type in {"string", "enum", "date", "datetime"}:
        if isinstance(value, str):
            return _text(rule, value)
        return None, NOT_A_STRING.get(rule.type, f"Must be one of: {', '.join(rule.values)}.")
    if rule.type == "boolean":
        return (value, None) if isinstance(value, bool) else (None, "Must be true or false.")
    return _number(rule, value)


def _field(rule: FieldRule, payload: dict[str, Any]) -> tuple[Any, str | None]:
    if rule.code not in payload:
        return (None, "This field is required.") if rule.required else (rule.default, None)
    value = payload[rule.code]
    if value is None:
        if rule.required:
            return None, "This field is required."
        return (None, None) if rule.nullable else (None, "This field cannot be null.")
    return coerce(rule, value)


def for_create(model: Model, payload: Any) -> dict[str, Any]:
    """The stored data of a new record, or ``Invalid`` naming every bad field."""
    if not isinstance(payload, dict):
        raise Invalid({"payload": "Must be an object."})
    errors = {key: "Unknown field." for key in payload if key not in model.fields}
    data: dict[str, Any] = {}
    for code, rule in model.fields.items():
        value, problem = _field(rule, payload)
        if problem is not None:
            errors[code] = problem
        else:
            data[code] = value
    if errors:
        raise Invalid(errors)
    return data


def search_text(model: Model, data: dict[str, Any]) -> str:
    """The searchable fields' values, lower-cased, one per line: what keyword search matches."""
    return "\n".join(str(data[code]).lower() for code in model.searchable if data.get(code) is not None)


def new_record(registry: Registry, model: Model, pid: str, data: dict[str, Any], at: datetime) -> Parts:
    """A create's record, unique-value claims, audit entry pid and outbox events, for either surface."""
    return Parts(model=model.code, pid=pid, data=data, search_text=search_text(model, data), now=at,
                 claims=[(code, str(data[code])) for code in model.unique if data.get(code) is not None],
                 audit_pid=new_pid("aud"), events=events_of(registry, model.code, pid, data))
