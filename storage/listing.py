"""SQL for the list contract: typed fields, filter conditions, keyset-safe ordering, page and count.

A list source describes its fields as SQL expressions (``ListField``); ``build_queries`` turns a
checked ``ListRequest`` into the page and count queries. Field codes and operators only ever come
from the source's declaration, never from the request, so no request value reaches SQL as text.
Parsing and checking the request (with translated errors) is the session API's: ``tessera.lists.contract``.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic

from sqlalchemy import (
    BigInteger,
    Boolean,
    ColumnElement,
    Integer,
    Numeric,
    Select,
    and_,
    cast,
    func,
    literal_column,
    or_,
    select,
    true,
    type_coerce,
)
from sqlalchemy.types import NullType

from storage.drivers.engine import Executor, Query, R

OPERATORS = ("eq", "ne", "gt", "gte", "lt", "lte", "like", "in", "not_in", "is_null", "is_not_null")


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


# A declared model or field code, safe to render into SQL as a literal (the registry checks a
# stricter pattern at start; this is storage's own guard).
_CODE = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}")


def model_literal(code: str) -> ColumnElement[Any]:
    """A model code as a SQL string literal, so a planner can match partial indexes on it."""
    if not _CODE.fullmatch(code):
        raise ValueError(f"not a declared code: {code!r}")
    return literal_column(f"'{code}'")


def like_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _ne(expr: ColumnElement[Any], value: Any) -> ColumnElement[bool]:
    """``ne`` also matches rows where the field is empty: SQL's ``NULL <> x`` is never true."""
    return or_(expr != value, expr.is_(None))


def _like(expr: ColumnElement[Any], value: Any) -> ColumnElement[bool]:
    """Case-insensitive substring match, with the value's own ``%``, ``_`` and ``\\`` taken literally."""
    return func.lower(expr).like(f"%{like_escape(value.lower())}%", escape="\\")


def _in(expr: ColumnElement[Any], value: Any) -> ColumnElement[bool]:
    return expr.in_(value)


def _not_in(expr: ColumnElement[Any], value: Any) -> ColumnElement[bool]:
    """``not_in`` also matches rows where the field is empty, like ``ne``."""
    return or_(expr.not_in(value), expr.is_(None))


def _is_null(expr: ColumnElement[Any], _value: Any) -> ColumnElement[bool]:
    return expr.is_(None)


def _is_not_null(expr: ColumnElement[Any], _value: Any) -> ColumnElement[bool]:
    return expr.is_not(None)


# One SQL builder per operator of ``OPERATORS``: (field expression, checked value) -> condition.
_CONDITIONS: dict[str, Callable[[ColumnElement[Any], Any], ColumnElement[bool]]] = {
    "eq": operator.eq,
    "ne": _ne,
    "gt": operator.gt,
    "gte": operator.ge,
    "lt": operator.lt,
    "lte": operator.le,
    "like": _like,
    "in": _in,
    "not_in": _not_in,
    "is_null": _is_null,
    "is_not_null": _is_not_null,
}


def filter_condition(flt: Filter) -> ColumnElement[bool]:
    """The SQL condition of one checked filter (an operator outside the table is ``is_not_null``)."""
    build = _CONDITIONS.get(flt.operator, _is_not_null)
    expr = flt.field.expr
    if isinstance(expr.type, Integer) and not isinstance(expr.type, BigInteger):
        # A 32-bit column (``enabled``, ``attempts``): the documents allow values up to 1e15, which
        # PostgreSQL would refuse to bind as int4 ("out of range"); as bigint they simply match nothing.
        expr = cast(expr, BigInteger)
    return build(expr, flt.value)


@dataclass(frozen=True)
class ListQueries(Generic[R]):
    page: Select[Any]
    count: Select[Any]
    ordered: Select[Any]  # every match's id and sort value, in the page query's order
    conditions: ColumnElement[bool]  # the keyword's and the filters' (not the scope's)
    sort: ColumnElement[Any]  # the sort field's expression
    row: type[R]  # the class of the page's rows


def build_queries(
    base: Select[Any],
    scope: list[ColumnElement[bool]],
    request: ListRequest,
    id_column: ColumnElement[Any],
    keyword_condition: Callable[[str], ColumnElement[bool]],
    row: type[R],
) -> ListQueries[R]:
    """The page query (ordered on the sort field, then the row id, so pages never overlap) and
    the count query over the same conditions; ``row`` is the class of the page's rows (a
    ``NamedTuple`` of ``base``'s columns)."""
    conditions = [keyword_condition(request.keyword)] if request.keyword else []
    conditions.extend(filter_condition(f) for f in request.filters)
    where = and_(true(), *scope, *conditions)
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
    ordered = base.where(where).with_only_columns(id_column, sort_value(sort)).order_by(*order)
    return ListQueries(page=page, count=count, ordered=ordered, conditions=and_(true(), *conditions), sort=sort,
                       row=row)


def sort_value(expr: ColumnElement[Any]) -> ColumnElement[Any]:
    """``expr`` as a result column: a number as the driver gives it (PostgreSQL's ``numeric``: a
    ``Decimal``), which a statement compiled ahead of execution can read (``storage.drivers.engine``)."""
    return type_coerce(expr, NullType()) if isinstance(expr.type, Numeric) else expr


async def run_list(conn: Executor, queries: ListQueries[R]) -> tuple[list[R], int]:
    """The total and the rows of the page (of ``queries.row``); the page query is skipped when
    nothing matches."""
    total = (await conn.execute(queries.count)).scalar_one()
    if not total:
        return [], total
    return (await conn.execute(Query(queries.page, queries.row))).rows, total


def keyword_like(expr: ColumnElement[Any]) -> Callable[[str], ColumnElement[bool]]:
    """Keyword search on a lower-cased text column (case-insensitive substring)."""

    def condition(keyword: str) -> ColumnElement[bool]:
        return expr.like(f"%{like_escape(keyword.lower())}%", escape="\\")

    return condition


def keyword_in(expr: ColumnElement[Any]) -> Callable[[str], ColumnElement[bool]]:
    """Keyword search on a column stored as typed: lower-cased on both sides, so it is
    case-insensitive on PostgreSQL too (whose LIKE, unlike SQLite's, is case-sensitive)."""
    return keyword_like(func.lower(expr))
