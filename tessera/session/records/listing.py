"""The list contract of the session API: pageNum, pageSize, keyword, sortField, sortOrder, filters.

One implementation serves every list endpoint (dynamic pages, audit search, data sources). A list
source describes its fields as SQL expressions; this module checks the request against them,
collecting every error, and builds the page and count queries. Field codes and operators only ever
come from the declaration, never from the request, so no request value reaches SQL as text.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    ColumnElement,
    Connection,
    Numeric,
    Select,
    and_,
    cast,
    func,
    literal_column,
    or_,
    select,
    true,
)

from tessera.core.errors import FieldError, ValidationFailed
from tessera.core.i18n import N_
from tessera.records.payloads import normalise_date, normalise_datetime, storable_text

OPERATORS = ("eq", "ne", "gt", "gte", "lt", "lte", "like", "in", "not_in", "is_null", "is_not_null")
MAX_PAGE_SIZE = 500
DEFAULT_PAGE_SIZE = 10
MAX_PAGE_NUM = 100_000
MAX_FILTERS = 20
MAX_IN_VALUES = 100
MAX_KEYWORD = 200
BAD_TEXT = N_("Must not contain NUL characters or invalid Unicode.")


@dataclass(frozen=True)
class ListField:
    """A field a list can sort and filter on: its code, declared type and SQL expression."""

    code: str
    type: str
    expr: ColumnElement[Any]
    values: tuple[str, ...] = ()


@dataclass(frozen=True)
class Filter:
    field: ListField
    operator: str
    value: Any


@dataclass(frozen=True)
class ListRequest:
    page_num: int
    page_size: int
    keyword: str | None
    sort_field: ListField
    sort_order: str
    filters: tuple[Filter, ...]


def json_field(column: ColumnElement[Any], code: str, ftype: str, dialect: str) -> ColumnElement[Any]:
    """SQL for one field of a JSON document column, typed for comparison and sorting.

    The key is rendered as a literal (it is a declared field code, checked against a strict
    pattern at start) so PostgreSQL can use the expression indexes of the migration.
    """
    if dialect == "postgresql":
        text = column.op("->>")(literal_column(f"'{code}'"))
        if ftype in {"integer", "number"}:
            return cast(text, Numeric)
        if ftype == "boolean":
            return cast(text, Boolean)
        return text
    return func.json_extract(column, literal_column(f"'$.{code}'"))


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
    bad = FieldError(N_("This value does not match the field type."))
    ftype = field.type
    if ftype in {"string", "enum"}:
        if not isinstance(value, str):
            return None, bad
        if len(value) > 1000:
            return None, FieldError(N_("Must be at most {maxLength} characters."), maxLength=1000)
        if not storable_text(value):
            return None, FieldError(BAD_TEXT)
        return value, None
    if ftype == "date":
        normal = normalise_date(value) if isinstance(value, str) else None
        return (normal, None) if normal else (None, FieldError(N_("Must be a date in the form YYYY-MM-DD.")))
    if ftype == "datetime":
        normal = normalise_datetime(value) if isinstance(value, str) else None
        return (normal, None) if normal else (None, FieldError(N_("Must be an ISO 8601 date-time with a time zone.")))
    if ftype == "timestamp":
        normal = normalise_datetime(value) if isinstance(value, str) else None
        if not normal:
            return None, FieldError(N_("Must be an ISO 8601 date-time with a time zone."))
        return datetime.fromisoformat(normal.replace("Z", "+00:00")), None
    if ftype == "boolean":
        return (value, None) if isinstance(value, bool) else (None, bad)
    if isinstance(value, bool) or not isinstance(value, int | float) or abs(value) > 1e15:
        return None, bad
    if isinstance(value, float) and not math.isfinite(value):  # json.loads takes NaN
        return None, bad
    if ftype == "integer" and isinstance(value, float) and not value.is_integer():
        return None, bad
    return value, None


def _parse_filters(raw: Any, fields: Mapping[str, ListField], errors: dict[str, FieldError]) -> list[Filter]:
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
    result: list[Filter] = []
    for index, cond in enumerate(raw):
        where = f"filters[{index}]"
        if not isinstance(cond, dict):
            errors[where] = FieldError(N_("Must be an object with fieldName, operator and value."))
            continue
        unknown = set(cond) - {"fieldName", "operator", "value"}
        if unknown:
            errors[where] = FieldError(N_("Unknown keys: {keys}."), keys=", ".join(sorted(map(str, unknown))))
            continue
        name, operator = cond.get("fieldName"), cond.get("operator")
        field = fields.get(name) if isinstance(name, str) else None
        if field is None:
            errors[f"{where}.fieldName"] = FieldError(N_("Unknown field."))
        if not isinstance(operator, str) or operator not in OPERATORS:
            errors[f"{where}.operator"] = FieldError(N_("Must be one of: {values}."), values=", ".join(OPERATORS))
            continue
        if field is None:
            continue
        if operator in {"is_null", "is_not_null"}:
            result.append(Filter(field, operator, None))
            continue
        if "value" not in cond or cond["value"] is None:
            errors[f"{where}.value"] = FieldError(N_("This field is required."))
            continue
        value = cond["value"]
        if operator == "like":
            if field.type not in {"string", "enum"} or not isinstance(value, str):
                errors[f"{where}.value"] = FieldError(N_("like needs a text field and a text value."))
                continue
            if not storable_text(value):
                errors[f"{where}.value"] = FieldError(BAD_TEXT)
                continue
            result.append(Filter(field, operator, value[:1000]))
            continue
        if operator in {"in", "not_in"}:
            if not isinstance(value, list) or not value or len(value) > MAX_IN_VALUES:
                errors[f"{where}.value"] = FieldError(
                    N_("Must be a list of 1 to {count} values."), count=MAX_IN_VALUES
                )
                continue
            coerced = []
            for item in value:
                item_value, error = _coerce_filter_value(field, item)
                if error is not None:
                    errors[f"{where}.value"] = error
                    break
                coerced.append(item_value)
            else:
                result.append(Filter(field, operator, tuple(coerced)))
            continue
        coerced_value, error = _coerce_filter_value(field, value)
        if error is not None:
            errors[f"{where}.value"] = error
            continue
        result.append(Filter(field, operator, coerced_value))
    return result


def parse_list_request(
    params: Mapping[str, Any], fields: Mapping[str, ListField], default_sort: str = "created_at"
) -> ListRequest:
    """Check every list parameter; raise one ``ValidationFailed`` naming all bad ones."""
    errors: dict[str, FieldError] = {}
    page_num = _as_int(params.get("pageNum"), "pageNum", 1, 1, MAX_PAGE_NUM, errors)
    page_size = _as_int(params.get("pageSize"), "pageSize", DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE, errors)
    keyword = params.get("keyword")
    if keyword is not None and not isinstance(keyword, str):
        errors["keyword"] = FieldError(N_("Must be a string."))
        keyword = None
    elif isinstance(keyword, str):
        keyword = keyword.strip()
        if len(keyword) > MAX_KEYWORD:
            errors["keyword"] = FieldError(N_("Must be at most {maxLength} characters."), maxLength=MAX_KEYWORD)
        elif not storable_text(keyword):
            errors["keyword"] = FieldError(BAD_TEXT)
        keyword = keyword or None
    sort_name = params.get("sortField") or default_sort
    sort_field = fields.get(sort_name) if isinstance(sort_name, str) else None
    if sort_field is None:
        errors["sortField"] = FieldError(N_("Unknown field."))
        sort_field = fields[default_sort]
    sort_order = params.get("sortOrder") or "desc"
    if sort_order not in {"asc", "desc"}:
        errors["sortOrder"] = FieldError(N_("Must be one of: {values}."), values="asc, desc")
        sort_order = "desc"
    filters = _parse_filters(params.get("filters"), fields, errors)
    if errors:
        raise ValidationFailed(errors)
    return ListRequest(page_num, page_size, keyword, sort_field, sort_order, tuple(filters))


def like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def filter_condition(flt: Filter) -> ColumnElement[bool]:
    expr, value = flt.field.expr, flt.value
    match flt.operator:
        case "eq":
            return expr == value
        case "ne":
            return or_(expr != value, expr.is_(None))
        case "gt":
            return expr > value
        case "gte":
            return expr >= value
        case "lt":
            return expr < value
        case "lte":
            return expr <= value
        case "like":
            return func.lower(expr).like(f"%{like_escape(value.lower())}%", escape="\\")
        case "in":
            return expr.in_(value)
        case "not_in":
            return or_(expr.not_in(value), expr.is_(None))
        case "is_null":
            return expr.is_(None)
        case _:
            return expr.is_not(None)


@dataclass(frozen=True)
class ListQueries:
    page: Select[Any]
    count: Select[Any]


def build_queries(
    base: Select[Any],
    scope: list[ColumnElement[bool]],
    request: ListRequest,
    id_column: ColumnElement[Any],
    keyword_condition: Callable[[str], ColumnElement[bool]],
) -> ListQueries:
    """The page query (ordered on the sort field, then the row id, so pages never overlap) and
    the count query over the same conditions."""
    conditions = list(scope)
    if request.keyword:
        conditions.append(keyword_condition(request.keyword))
    conditions.extend(filter_condition(f) for f in request.filters)
    where = and_(true(), *conditions)
    sort = request.sort_field.expr
    if request.sort_order == "asc":
        order = [sort.asc().nulls_last(), id_column.asc()]
    else:
        order = [sort.desc().nulls_first(), id_column.desc()]
    page = (
        base.where(where)
        .order_by(*order)
        .limit(request.page_size)
        .offset((request.page_num - 1) * request.page_size)
    )
    count = select(func.count()).select_from(base.where(where).with_only_columns(id_column).subquery())
    return ListQueries(page=page, count=count)


def run_list(conn: Connection, queries: ListQueries) -> tuple[list[Any], int]:
    """The total and the rows of the page; the page query is skipped when nothing matches."""
    total = conn.execute(queries.count).scalar_one()
    return (list(conn.execute(queries.page)) if total else []), total


def keyword_like(expr: ColumnElement[Any]) -> Callable[[str], ColumnElement[bool]]:
    """Keyword search on a lower-cased text column (case-insensitive substring)."""

    def condition(keyword: str) -> ColumnElement[bool]:
        return expr.like(f"%{like_escape(keyword.lower())}%", escape="\\")

    return condition


def keyword_in(expr: ColumnElement[Any]) -> Callable[[str], ColumnElement[bool]]:
    """Keyword search on a column stored as typed: lower-cased on both sides, so it is
    case-insensitive on PostgreSQL too (whose LIKE, unlike SQLite's, is case-sensitive)."""
    return keyword_like(func.lower(expr))
