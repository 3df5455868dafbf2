"""The items of a data source as a list: fixed options or a page's records, under the list contract.

A data source lists ``{value, label}`` items. The two kinds share one query shape so that one list
contract (keyword on the label, sort by label or value, filters on both, pages, an exact total)
serves them alike: a page's records are read from ``records`` (the label is a declared field of
their data, the value their public id); fixed options become a literal row set (``VALUES`` by
another name: one SELECT per option, joined by UNION ALL), whose ``position`` keeps the declared
order, the order items come in when no ``sortField`` is asked for.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from sqlalchemy import Integer, String, and_, literal, select, union_all

from storage.drivers.engine import Executor
from storage.listing import ListField, ListRequest, build_queries, json_field, keyword_in, model_literal, run_list
from storage.schema.tables import records


class OptionRow(NamedTuple):
    """One item: its place in the natural order, its value and its label."""

    position: Any
    value: str
    label: Any


def fixed_fields(options: list[tuple[str, str]]) -> tuple[Any, dict[str, ListField]]:
    """The literal row set of ``(value, label)`` options (labels already translated) and its fields."""
    rows = [select(literal(index, Integer).label("position"), literal(value, String).label("value"),
                   literal(label, String).label("label"))
            for index, (value, label) in enumerate(options)]
    table = (union_all(*rows) if len(rows) > 1 else rows[0]).subquery("options")
    return table, {"position": ListField("position", "integer", table.c.position),
                   "value": ListField("value", "string", table.c.value),
                   "label": ListField("label", "string", table.c.label)}


async def fixed_page(conn: Executor, table: Any, request: ListRequest) -> tuple[list[OptionRow], int]:
    """One page of fixed options and their total: ``table`` and the fields ``request`` was built
    over are one ``fixed_fields`` (a second row set would be a second FROM item of the same name)."""
    base = select(table.c.position, table.c.value, table.c.label)
    return await run_list(conn, build_queries(base, [], request, table.c.position, keyword_in(table.c.label),
                                              OptionRow))


def record_fields(label_field: str, dialect: str) -> dict[str, ListField]:
    """The fields of a page's records as items: ``label`` (the declared field), ``value`` (the public id)."""
    label = json_field(records.c.data, label_field, "string", dialect)
    return {"position": ListField("position", "string", label),
            "value": ListField("value", "string", records.c.pid),
            "label": ListField("label", "string", label)}


async def record_page(conn: Executor, tenant_id: int, model: str, label_field: str,
                      request: ListRequest) -> tuple[list[OptionRow], int]:
    """One page of the tenant's live records of ``model`` as items, and their total."""
    label = json_field(records.c.data, label_field, "string", conn.dialect)
    base = select(label.label("position"), records.c.pid.label("value"), label.label("label"))
    scope = [and_(records.c.tenant_id == tenant_id, records.c.model == model_literal(model),
                  records.c.deleted_at.is_(None))]
    return await run_list(conn, build_queries(base, scope, request, records.c.id, keyword_in(label), OptionRow))
