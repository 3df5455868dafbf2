"""Data sources: option lists for forms and dashboards, under the list contract every list follows.

``pageNum``, ``pageSize``, ``keyword`` (a substring of the label), ``sortField`` (``label`` or
``value``), ``sortOrder`` and ``filters`` (on ``label`` and ``value``) work as on every list, and the
answer is ``{records, total, pageNum, pageSize}`` with the exact total. ``maxItems``, the name the
specification gives the endpoint, keeps its meaning: the most items one answer holds (a page is
``pageSize`` items, at most ``maxItems``; without ``pageSize``, ``maxItems`` of them, 100 by default).
Without ``sortField`` the items come in their natural order: fixed options as declared, records by
label.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from storage import options as option_store
from storage.listing import ListRequest
from tessera.access.actors import Actor
from tessera.core.errors import NotFound
from tessera.core.i18n import translate
from tessera.lists.contract import page_of, parse_list_request
from tessera.runtime import Runtime

MAX_ITEMS = 500
DEFAULT_ITEMS = 100


def _max_items(params: Mapping[str, Any]) -> int:
    """``maxItems`` (the document bounds it to 1..500 before this runs), or its default."""
    try:
        return min(max(int(params.get("maxItems") or DEFAULT_ITEMS), 1), MAX_ITEMS)
    except (TypeError, ValueError):
        return DEFAULT_ITEMS


def _list_params(params: Mapping[str, Any], most: int) -> dict[str, Any]:
    """The list parameters with the data source's defaults: the natural order ascending, and a page
    of ``maxItems`` when no ``pageSize`` is asked for."""
    found = dict(params)
    if "sortField" not in found:
        found["sortField"] = "position"
        found.setdefault("sortOrder", "asc")
    if found.get("pageSize") in (None, ""):
        found["pageSize"] = most
    return found


def _at_most(request: ListRequest, most: int) -> ListRequest:
    """The request with its page no larger than ``maxItems``."""
    return replace(request, page_size=min(request.page_size, most))


async def list_items(rt: Runtime, actor: Actor, datasource_id: str, params: Mapping[str, Any]) -> dict[str, Any]:
    source = rt.declarations.datasources.get(datasource_id)
    if source is None:
        raise NotFound()
    actor.require(source.permission)
    most = _max_items(params)
    wanted = _list_params(params, most)
    async with rt.db.read() as conn:
        if source.kind == "enum":
            options = [(value, translate(label)) for value, label in source.options.items()]
            table, fields = option_store.fixed_fields(options)
            request = _at_most(parse_list_request(wanted, fields, default_sort="position"), most)
            rows, total = await option_store.fixed_page(conn, table, request)
        else:
            assert source.page is not None and source.label_field is not None
            fields = option_store.record_fields(source.label_field, conn.dialect)
            request = _at_most(parse_list_request(wanted, fields, default_sort="position"), most)
            rows, total = await option_store.record_page(conn, actor.tenant_id, source.page.model.code,
                                                         source.label_field, request)
    items = [{"id": row.value, "value": row.value, "label": row.label} for row in rows]
    return page_of(items, total, request)
