"""The list contract of the session API: pageNum, pageSize, keyword, sortField, sortOrder, filters.

One implementation serves every list endpoint (dynamic pages, audit search, data sources, the
administration lists). ``parse_list_request`` checks the request against a source's fields,
collecting every error, into a ``storage.listing.ListRequest``; ``page_of`` builds the one page
envelope every list answers with.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from storage.listing import OPERATORS, Filter, ListField, ListRequest
from tessera.core.bounds import (
    DEFAULT_PAGE_SIZE,
    MAX_FILTER_TEXT,
    MAX_FILTERS,
    MAX_IN_VALUES,
    MAX_KEYWORD,
    MAX_NUMBER,
    MAX_PAGE_NUM,
    MAX_PAGE_SIZE,
)
from tessera.core.errors import FieldError, ValidationFailed
from tessera.core.i18n import N_
from tessera.core.text import BAD_TEXT, storable_text
from tessera.records.payloads import normalise_date, normalise_datetime


def _as_int(raw: Any, name: str, default: int, low: int, high: int, errors: dict[str, FieldError]) -> int:
    if raw is None or raw == "":
        return default
    if isinstance(raw, bool):
        errors[name] = FieldError(N_("Must be an integer."))
        return default
    try:
        value = int(raw)
    except (TypeError, ValueError):
        errors[name] = FieldError(N_("Must be an integer."))
        return default
    if value < low or value > high:
        errors[name] = FieldError(N_("Must be between {low} and {high}."), low=low, high=high)
        return default
    return value


def _coerce_filter_value(field: ListField, value: Any) -> tuple[Any, FieldError | None]:
    """One comparison value, checked against its field's type and converted to what the SQL compares."""
    ftype = field.type
    if ftype in {"string", "enum"}:
        return _text_value(value)
    if ftype == "date":
        return _date_value(value)
    if ftype == "datetime":
        return _datetime_value(value)
    if ftype == "timestamp":
        return _timestamp_value(value)
    if ftype == "boolean":
        return (value, None) if isinstance(value, bool) else (None, _type_mismatch())
    return _number_value(ftype, value)


def _type_mismatch() -> FieldError:
    return FieldError(N_("This value does not match the field type."))


def _text_value(value: Any) -> tuple[Any, FieldError | None]:
    """Storable text of at most ``MAX_FILTER_TEXT`` characters."""
    if not isinstance(value, str):
        return None, _type_mismatch()
    if len(value) > MAX_FILTER_TEXT:
        return None, FieldError(N_("Must be at most {maxLength} characters."), maxLength=MAX_FILTER_TEXT)
    if not storable_text(value):
        return None, FieldError(BAD_TEXT)
    return value, None


def _date_value(value: Any) -> tuple[Any, FieldError | None]:
    """A date field stores ``YYYY-MM-DD`` text, so the value is compared in that form."""
    normal = normalise_date(value) if isinstance(value, str) else None
    return (normal, None) if normal else (None, FieldError(N_("Must be a date in the form YYYY-MM-DD.")))


def _datetime_value(value: Any) -> tuple[Any, FieldError | None]:
    """A datetime field stores UTC ``...Z`` text, so the value is compared in that form."""
    normal = normalise_datetime(value) if isinstance(value, str) else None
    return (normal, None) if normal else (None, FieldError(N_("Must be an ISO 8601 date-time with a time zone.")))


def _timestamp_value(value: Any) -> tuple[Any, FieldError | None]:
    """A timestamp is a real date-time column (e.g. ``created_at``), so the value becomes an aware ``datetime``."""
    normal = normalise_datetime(value) if isinstance(value, str) else None
    if not normal:
        return None, FieldError(N_("Must be an ISO 8601 date-time with a time zone."))
    return datetime.fromisoformat(normal.replace("Z", "+00:00")), None


def _number_value(ftype: str, value: Any) -> tuple[Any, FieldError | None]:
    """A finite JSON number (not a boolean) of at most ``MAX_NUMBER`` in size; whole for an integer field."""
    if isinstance(value, bool) or not isinstance(value, int | float) or abs(value) > MAX_NUMBER:
        return None, _type_mismatch()
    if isinstance(value, float) and not math.isfinite(value):  # json.loads takes NaN
        return None, _type_mismatch()
    if ftype == "integer" and isinstance(value, float) and not value.is_integer():
        return None, _type_mismatch()
    # Compared as a double, exact for every value up to MAX_NUMBER (below 2**53): PostgreSQL types
    # an IN list's parameters by its first one, so [1, 3000000000] bound as Python ints overflowed.
    return float(value), None


def _parse_filters(raw: Any, fields: Mapping[str, ListField], errors: dict[str, FieldError]) -> list[Filter]:
    """The ``filters`` parameter: a JSON array (or its text) of conditions, each checked on its own."""
    result: list[Filter] = []
    for index, cond in enumerate(_filter_conditions(raw, errors)):
        flt = _parse_filter(f"filters[{index}]", cond, fields, errors)
        if flt is not None:
            result.append(flt)
    return result


def _filter_conditions(raw: Any, errors: dict[str, FieldError]) -> list[Any]:
    """The conditions of ``filters``, decoded from JSON text when given as a query string; none on error."""
    if raw is None or raw == "":
        return []
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except (ValueError, RecursionError):  # RecursionError: nested deeper than the decoder's stack
            errors["filters"] = FieldError(N_("Must be a JSON array of filter conditions."))
            return []
    if not isinstance(raw, list):
        errors["filters"] = FieldError(N_("Must be a JSON array of filter conditions."))
        return []
    if len(raw) > MAX_FILTERS:
        errors["filters"] = FieldError(N_("At most {count} filter conditions are allowed."), count=MAX_FILTERS)
        return []
    return raw


def _parse_filter(
    where: str, cond: Any, fields: Mapping[str, ListField], errors: dict[str, FieldError]
) -> Filter | None:
    """One condition, or None with its errors recorded under ``where`` (``filters[i]``)."""
    shape_error = _condition_shape_error(cond)
    if shape_error is not None:
        errors[where] = shape_error
        return None
    field, operator = _field_and_operator(where, cond, fields, errors)
    if field is None or operator is None:
        return None
    if operator in {"is_null", "is_not_null"}:
        if "value" in cond:  # the documents say a null test has no value: one sent is a mistake
            errors[f"{where}.value"] = FieldError(N_("Must be omitted for is_null and is_not_null."))
            return None
        return Filter(field, operator, None)
    if "value" not in cond or cond["value"] is None:
        errors[f"{where}.value"] = FieldError(N_("This field is required."))
        return None
    parse_value = _VALUE_PARSERS.get(operator, _coerce_filter_value)
    value, error = parse_value(field, cond["value"])
    if error is not None:
        errors[f"{where}.value"] = error
        return None
    return Filter(field, operator, value)


def _condition_shape_error(cond: Any) -> FieldError | None:
    """A condition is an object with no keys but ``fieldName``, ``operator`` and ``value``."""
    if not isinstance(cond, dict):
        return FieldError(N_("Must be an object with fieldName, operator and value."))
    unknown = set(cond) - {"fieldName", "operator", "value"}
    if unknown:
        return FieldError(N_("Unknown keys: {keys}."), keys=", ".join(sorted(map(str, unknown))))
    return None


def _field_and_operator(
    where: str, cond: dict[str, Any], fields: Mapping[str, ListField], errors: dict[str, FieldError]
) -> tuple[ListField | None, str | None]:
    """The condition's field and operator; both are checked, so one answer can name both as bad."""
    name, operator = cond.get("fieldName"), cond.get("operator")
    field = fields.get(name) if isinstance(name, str) else None
    if field is None:
        errors[f"{where}.fieldName"] = FieldError(N_("Unknown field."))
    if not isinstance(operator, str) or operator not in OPERATORS:
        errors[f"{where}.operator"] = FieldError(N_("Must be one of: {values}."), values=", ".join(OPERATORS))
        return field, None
    return field, operator


def _like_value(field: ListField, value: Any) -> tuple[Any, FieldError | None]:
    """``like`` searches text: a text field and storable text, of which the first 1000 characters count."""
    if field.type not in {"string", "enum"} or not isinstance(value, str):
        return None, FieldError(N_("like needs a text field and a text value."))
    if not storable_text(value):
        return None, FieldError(BAD_TEXT)
    return value[:MAX_FILTER_TEXT], None


def _in_values(field: ListField, value: Any) -> tuple[Any, FieldError | None]:
    """``in`` and ``not_in`` take a list of 1 to ``MAX_IN_VALUES`` values; the first bad one is reported."""
    if not isinstance(value, list) or not value or len(value) > MAX_IN_VALUES:
        return None, FieldError(N_("Must be a list of 1 to {count} values."), count=MAX_IN_VALUES)
    coerced = []
    for item in value:
        item_value, error = _coerce_filter_value(field, item)
        if error is not None:
            return None, error
        coerced.append(item_value)
    return tuple(coerced), None


# How each operator family checks its value; the comparison operators take one value of the field's type.
_VALUE_PARSERS: dict[str, Callable[[ListField, Any], tuple[Any, FieldError | None]]] = {
    "like": _like_value,
    "in": _in_values,
    "not_in": _in_values,
}


def parse_list_request(
    params: Mapping[str, Any], fields: Mapping[str, ListField], default_sort: str = "created_at"
) -> ListRequest:
    """Check every list parameter; raise one ``ValidationFailed`` naming all bad ones."""
    errors: dict[str, FieldError] = {}
    page_num = _as_int(params.get("pageNum"), "pageNum", 1, 1, MAX_PAGE_NUM, errors)
    page_size = _as_int(params.get("pageSize"), "pageSize", DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE, errors)
    keyword = _keyword(params.get("keyword"), errors)
    sort_field, sort_order = _sort(params, fields, default_sort, errors)
    filters = _parse_filters(params.get("filters"), fields, errors)
    if errors:
        raise ValidationFailed(errors)
    return ListRequest(page_num, page_size, keyword, sort_field, sort_order, tuple(filters))


# What a list query body (``POST /api/dynamic/<page>/query``) may hold: the query string's
# parameters, each as its JSON type, and the message for a value of another type.
_BODY_TYPES: dict[str, tuple[type, str]] = {
    "pageNum": (int, N_("Must be an integer.")),
    "pageSize": (int, N_("Must be an integer.")),
    "keyword": (str, N_("Must be a string.")),
    "sortField": (str, N_("Must be a string.")),
    "sortOrder": (str, N_("Must be a string.")),
    "filters": (list, N_("Must be a JSON array of filter conditions.")),
}


def list_body(body: Any) -> dict[str, Any]:
    """A list query body, checked for what JSON adds to the query string (an object holding only the
    list's parameters, each of its JSON type: ``"2"`` is no page number here, nor ``null`` an absent
    one); ``parse_list_request`` then checks its values as it checks the query string's."""
    if not isinstance(body, dict):
        raise ValidationFailed({"body": FieldError(N_("Must be an object."))})
    errors: dict[str, FieldError] = {}
    for name, value in body.items():
        expected = _BODY_TYPES.get(name)
        if expected is None:
            errors[name] = FieldError(N_("Unknown parameter."))
        elif not _json_type(value, expected[0]):
            errors[name] = FieldError(expected[1])
    if errors:
        raise ValidationFailed(errors)
    return body


def _json_type(value: Any, expected: type) -> bool:
    """JSON Schema's type test: ``true`` is no integer, ``2.0`` is one."""
    if isinstance(value, bool):
        return False
    if expected is int and isinstance(value, float):
        return value.is_integer()
    return isinstance(value, expected)


def _keyword(raw: Any, errors: dict[str, FieldError]) -> str | None:
    """The search text without the spaces around it, at most ``MAX_KEYWORD`` characters of storable
    text; None when absent or blank."""
    if raw is None:
        return None
    if not isinstance(raw, str):
        errors["keyword"] = FieldError(N_("Must be a string."))
        return None
    keyword = raw.strip()
    if len(keyword) > MAX_KEYWORD:
        errors["keyword"] = FieldError(N_("Must be at most {maxLength} characters."), maxLength=MAX_KEYWORD)
    elif not storable_text(keyword):
        errors["keyword"] = FieldError(BAD_TEXT)
    return keyword or None


def _sort(params: Mapping[str, Any], fields: Mapping[str, ListField], default_sort: str,
          errors: dict[str, FieldError]) -> tuple[ListField, str]:
    """The sort field and order; a bad one is reported and the default stands in for it, so the
    other parameters are still checked."""
    # Absent means the default; sent empty is not a field (the documents' enums have no "").
    sort_name = params.get("sortField", default_sort)
    sort_field = fields.get(sort_name) if isinstance(sort_name, str) else None
    if sort_field is None:
        errors["sortField"] = FieldError(N_("Unknown field."))
        sort_field = fields[default_sort]
    sort_order = params.get("sortOrder", "desc")
    if sort_order not in {"asc", "desc"}:
        errors["sortOrder"] = FieldError(N_("Must be one of: {values}."), values="asc, desc")
        sort_order = "desc"
    return sort_field, sort_order


class Paged(Protocol):
    """Where a page stands: a checked ``ListRequest``, or a ``FirstPage`` for sources without paging."""

    @property
    def page_num(self) -> int: ...

    @property
    def page_size(self) -> int: ...


@dataclass(frozen=True)
class FirstPage:
    """The only page of a source that is not paged (a data source's first ``maxItems`` options)."""

    page_size: int
    page_num: int = 1


def page_of(records: list[Any], total: int, position: Paged) -> dict[str, Any]:
    """The list result every list endpoint answers with: the page's records and where it stands."""
    return {"records": records, "total": total, "pageNum": position.page_num, "pageSize": position.page_size}
