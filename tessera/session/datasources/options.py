"""Data sources: option lists for forms and dashboards, in the list contract's shape."""

from __future__ import annotations

from typing import Any

from storage.records import RecordRepository
from tessera.access.actors import Actor
from tessera.core.errors import NotFound
from tessera.core.i18n import translate
from tessera.lists.contract import FirstPage, page_of
from tessera.runtime import Runtime

MAX_ITEMS = 500


async def list_items(rt: Runtime, actor: Actor, datasource_id: str, max_items: int | None) -> dict[str, Any]:
    source = rt.declarations.datasources.get(datasource_id)
    if source is None:
        raise NotFound()
    actor.require(source.permission)
    limit = max_items or 100
    if source.kind == "enum":
        items = [{"id": value, "value": value, "label": translate(label)} for value, label in source.options.items()]
        total = len(items)
        items = items[:limit]
    else:
        assert source.page is not None and source.label_field is not None
        async with rt.db.read() as conn:
            repo = RecordRepository(conn, actor.tenant_id, source.page.model)
            options = await repo.options(source.label_field, limit)
            total = await repo.count()
        items = [{"id": pid, "value": pid, "label": label} for pid, label in options]
    return page_of(items, total, FirstPage(limit))
