"""Reading records of dynamic pages: the list contract and single-record reads."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from storage.records import RecordRepository, present
from tessera.access.actors import Actor
from tessera.core.errors import NotFound
from tessera.lists.contract import page_of, parse_list_request
from tessera.registry.models import PageDecl
from tessera.runtime import Runtime


def page_for(rt: Runtime, page_key: str) -> PageDecl:
    page = rt.declarations.pages.get(page_key)
    if page is None:
        raise NotFound()
    return page


async def list_records(rt: Runtime, actor: Actor, page_key: str, params: Mapping[str, Any]) -> dict[str, Any]:
    page = page_for(rt, page_key)
    actor.require(page.permission)
    repo = RecordRepository(rt.db, actor.tenant_id, page.model)
    request = parse_list_request(params, repo.list_fields())
    rows, total = await repo.page(request)
    return page_of([present(r, page.model) for r in rows], total, request)


async def get_record(rt: Runtime, actor: Actor, page_key: str, record_id: str) -> dict[str, Any]:
    page = page_for(rt, page_key)
    actor.require(page.permission)
    row = await RecordRepository(rt.db, actor.tenant_id, page.model).get(record_id)
    if row is None:
        raise NotFound()
    return present(row, page.model)
