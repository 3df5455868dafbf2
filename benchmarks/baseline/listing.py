"""The session API's list contract, checked and turned into one WHERE clause, by hand.

``pageNum`` (1..100000, default 1), ``pageSize`` (1..500, default 10), ``keyword`` (trimmed, at most
200 characters, matched case-insensitively in the record's search text), ``sortField`` (a declared
field, ``created_at`` or ``updated_at``; default ``created_at``) and ``sortOrder`` (default ``desc``),
``filters`` (a JSON array of at most 20 ``{fieldName, operator, value}``), each bad parameter
reported at once, as Tessera's ``tessera/lists/contract.py`` does. The SQL is what Tessera's
``storage/listing.py`` runs: JSON fields typed per dialect (``data ->> 'f'``, cast to numeric for
numbers on PostgreSQL, so its expression indexes apply; ``json_extract`` on SQLite), ascending
sorts with nulls last and descending with nulls first, then the id, so pages never overlap.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from baseline.payloads import normalise_date, normalise_datetime
from baseline.registry import Model
from baseline.rules import BAD_TEXT, storable

OPERATORS = ("eq", "ne", "gt", "gte", "lt", "lte", "like", "in", "not_in", "is_null", "is_not_null")
COMPARE = {"eq": "=", "gt": ">", "gte": ">=", "lt": "<", "lte": "<="}
MISMATCH = "This value does not match the field type."
Checked = tuple[Any, str | None]


@dataclass(frozen=True)
class ListField:
    code: str
    type: str  # a model field type, or "timestamp" for the row's own columns
    sql: str


def fields_of(model: Model, dialect: str) -> dict[str, ListField]:
    """Every field a list may sort and filter on, with its SQL for ``dialect``."""
    def expr(code: str, ftype: str) -> str:
        if dialect != "postgresql":
            return f"json_extract(data, '$.{code}')"
        text = f"(data ->> '{code}')"
        casts = {"integer": "NUMERIC", "number": "NUMERIC", "boolean": "BOOLEAN"}
        return f"CAST({text} AS {casts[ftype]})" if ftype in casts else text

    found = {code: ListField(code, rule.type, expr(code, rule.type)) for code, rule in model.fields.items()}
    found["created_at"] = ListField("created_at", "timestamp", "created_at")
    found["updated_at"] = ListField("updated_at", "timestamp", "updated_at")
    return found


@dataclass
class Query:
    """A checked list request as SQL: the WHERE clause, its parameters, the ORDER BY, the page."""

    dialect: str
    page_num: int = 1
    page_size: int = 10
    where: list[str] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)
    order: str = ""
    errors: dict[str, str] = field(default_factory=dict)

    def bind(self, value: Any, cast: str = "") -> str:
        """A placeholder for ``value`` in this dialect's style (``%(p1)s`` or ``:p1``)."""
        name = f"p{len(self.params)}"
        self.params[name] = value
        return (f"%({name})s{cast}" if self.dialect == "postgresql" else f":{name}")

    @property
    def condition(self) -> str:
        return " AND ".join(self.where)


def _page_int(raw: Any, name: str, default: int, high: int, errors: dict[str, str]) -> int:
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except (TypeError, ValueError):
        errors[name] = "Must be an integer."
        return default
    if not 1 <= value <= high:  # worded as the document's bounds are reported
        errors[name] = "Must be at least 1." if value < 1 else f"Must be at most {high}."
        return default
    return value


def _keyword(raw: Any, errors: dict[str, str]) -> str | None:
    if raw is None:
        return None
    keyword = str(raw).strip()
    if len(keyword) > 200:
        errors["keyword"] = "Must be at most 200 characters."
    elif not storable(keyword):
        errors["keyword"] = BAD_TEXT
    return keyword or None


def like_pattern(text: str) -> str:
    """``%text%`` with the text's own ``%``, ``_`` and ``\\`` taken literally."""
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


# -- filter values ---------------------------------------------------------------------------------

def _text_value(value: Any) -> Checked:
    if not isinstance(value, str):
        return None, MISMATCH
    if len(value) > 1000:
        return None, "Must be at most 1000 characters."
    return (value, None) if storable(value) else (None, BAD_TEXT)


def _number_value(ftype: str, value: Any) -> Checked:
    if isinstance(value, bool) or not isinstance(value, int | float) or abs(value) > 1e15:
        return None, MISMATCH
    if isinstance(value, float) and (not math.isfinite(value) or (ftype == "integer" and not value.is_integer())):
        return None, MISMATCH
    return value, None


def _moment_value(ftype: str, value: Any) -> Checked:
    """date: ``YYYY-MM-DD`` text; datetime: UTC ``...Z`` text; timestamp: an aware datetime."""
    if ftype == "date":
        normal = normalise_date(value) if isinstance(value, str) else None
        return (normal, None) if normal else (None, "Must be a date in the form YYYY-MM-DD.")
    normal = normalise_datetime(value) if isinstance(value, str) else None
    if not normal:
        return None, "Must be an ISO 8601 date-time with a time zone."
    return (normal if ftype == "datetime" else datetime.fromisoformat(normal.replace("Z", "+00:00"))), None


def coerce(lf: ListField, value: Any) -> Checked:
    """One comparison value, checked against its field's type."""
    if lf.type in {"string", "enum"}:
        return _text_value(value)
    if lf.type in {"date", "datetime", "timestamp"}:
        return _moment_value(lf.type, value)
    if lf.type == "boolean":
        return (value, None) if isinstance(value, bool) else (None, MISMATCH)
    return _number_value(lf.type, value)


def _like_value(lf: ListField, value: Any) -> Checked:
    if lf.type not in {"string", "enum"} or not isinstance(value, str):
        return None, "like needs a text field and a text value."
    return (value[:1000], None) if storable(value) else (None, BAD_TEXT)


def _in_values(lf: ListField, value: Any) -> Checked:
    if not isinstance(value, list) or not value or len(value) > 100:
        return None, "Must be a list of 1 to 100 values."
    out = []
    for item in value:
        checked, problem = coerce(lf, item)
        if problem is not None:
            return None, problem
        out.append(checked)
    return tuple(out), None


VALUE_CHECKS: dict[str, Callable[[ListField, Any], Checked]] = {"like": _like_value, "in": _in_values,
                                                                 "not_in": _in_values}


# -- filters ---------------------------------------------------------------------------------------

def _conditions(raw: Any, errors: dict[str, str]) -> list[Any]:
    if raw is None or raw == "":
        return []
    try:
        found = json.loads(raw) if isinstance(raw, str) else raw
    except (ValueError, RecursionError):
        found = None
    if not isinstance(found, list):
        errors["filters"] = "Must be a JSON array of filter conditions."
        return []
    if len(found) > 20:
        errors["filters"] = "At most 20 filter conditions are allowed."
        return []
    return found


def _shape(where: str, cond: Any, fields: Mapping[str, ListField], errors: dict[str, str]) -> tuple[
        ListField | None, str | None]:
    """The condition's field and operator (both checked, so one answer names both)."""
    if not isinstance(cond, dict):
        errors[where] = "Must be an object with fieldName, operator and value."
        return None, None
    if unknown := set(cond) - {"fieldName", "operator", "value"}:
        errors[where] = f"Unknown keys: {', '.join(sorted(map(str, unknown)))}."
        return None, None
    name, operator = cond.get("fieldName"), cond.get("operator")
    lf = fields.get(name) if isinstance(name, str) else None
    if lf is None:
        errors[f"{where}.fieldName"] = "Unknown field."
    if not isinstance(operator, str) or operator not in OPERATORS:
        errors[f"{where}.operator"] = f"Must be one of: {', '.join(OPERATORS)}."
        return lf, None
    return lf, operator


def _sql_value(query: Query, lf: ListField, value: Any) -> str:
    """A bound comparison value: timestamps as each dialect stores them, numbers cast on PostgreSQL."""
    if isinstance(value, datetime):
        naive = value.astimezone(UTC).replace(tzinfo=None)
        return query.bind(naive if query.dialect == "postgresql" else naive.isoformat(sep=" ", timespec="microseconds"))
    numeric = query.dialect == "postgresql" and lf.type in {"integer", "number"}
    return query.bind(value, "::NUMERIC" if numeric else "")


def _filter_sql(query: Query, lf: ListField, operator: str, value: Any) -> str:
    expr = lf.sql
    if operator in COMPARE:
        return f"{expr} {COMPARE[operator]} {_sql_value(query, lf, value)}"
    if operator == "ne":
        return f"({expr} != {_sql_value(query, lf, value)} OR {expr} IS NULL)"
    if operator == "like":
        return f"lower({expr}) LIKE {query.bind(like_pattern(value.lower()))} ESCAPE '\\'"
    if operator in {"in", "not_in"}:
        listed = ", ".join(_sql_value(query, lf, item) for item in value)
        return f"{expr} IN ({listed})" if operator == "in" else f"({expr} NOT IN ({listed}) OR {expr} IS NULL)"
    return f"{expr} IS NULL" if operator == "is_null" else f"{expr} IS NOT NULL"


def _add_filter(query: Query, where: str, cond: Any, fields: Mapping[str, ListField]) -> None:
    lf, operator = _shape(where, cond, fields, query.errors)
    if lf is None or operator is None:
        return
    if operator in {"is_null", "is_not_null"}:
        query.where.append(_filter_sql(query, lf, operator, None))
        return
    if cond.get("value") is None:
        query.errors[f"{where}.value"] = "This field is required."
        return
    value, problem = VALUE_CHECKS.get(operator, coerce)(lf, cond["value"])
    if problem is not None:
        query.errors[f"{where}.value"] = problem
        return
    query.where.append(_filter_sql(query, lf, operator, value))


def _sort(params: Mapping[str, Any], fields: Mapping[str, ListField], errors: dict[str, str]) -> str:
    name = params.get("sortField") or "created_at"
    lf = fields.get(name)
    if lf is None:
        errors["sortField"] = "Unknown field."
        lf = fields["created_at"]
    order = params.get("sortOrder") or "desc"
    if order not in {"asc", "desc"}:
        errors["sortOrder"] = "Must be one of: asc, desc."
        order = "desc"
    return f"{lf.sql} ASC NULLS LAST, id ASC" if order == "asc" else f"{lf.sql} DESC NULLS FIRST, id DESC"


def parse(params: Mapping[str, Any], fields: Mapping[str, ListField], dialect: str, tenant_id: int,
          model: str) -> Query:
    """The list request as SQL over the tenant's live records of ``model``; ``errors`` holds every bad parameter."""
    query = Query(dialect)
    query.where = [f"tenant_id = {query.bind(tenant_id)}", f"model = {query.bind(model)}", "deleted_at IS NULL"]
    query.page_num = _page_int(params.get("pageNum"), "pageNum", 1, 100_000, query.errors)
    query.page_size = _page_int(params.get("pageSize"), "pageSize", 10, 500, query.errors)
    if keyword := _keyword(params.get("keyword"), query.errors):
        query.where.append(f"search_text LIKE {query.bind(like_pattern(keyword.lower()))} ESCAPE '\\'")
    query.order = _sort(params, fields, query.errors)
    for index, cond in enumerate(_conditions(params.get("filters"), query.errors)):
        _add_filter(query, f"filters[{index}]", cond, fields)
    return query


def statements(query: Query) -> tuple[tuple[str, dict[str, Any]], tuple[str, dict[str, Any]]]:
    """(count SQL and parameters, page SQL and parameters): the count over the same conditions as the page."""
    limit, offset = ("%(limit)s", "%(offset)s") if query.dialect == "postgresql" else (":limit", ":offset")
    count = f"SELECT count(*) FROM (SELECT id FROM records WHERE {query.condition}) AS matched"
    page = (f"SELECT pid, data, created_at, updated_at FROM records WHERE {query.condition} ORDER BY {query.order} "
            f"LIMIT {limit} OFFSET {offset}")
    paging = {"limit": query.page_size, "offset": (query.page_num - 1) * query.page_size}
    return (count, dict(query.params)), (page, {**query.params, **paging})
