"""Audit log search with the list contract: tenant administrators, and application members for theirs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from storage import audit
from storage.openplatform.applications import member_application_ids
from tessera.access.actors import Actor
from tessera.core.clock import iso
from tessera.lists.contract import page_of, parse_list_request
from tessera.runtime import Runtime

PERMISSION = "audit:view"


async def search(rt: Runtime, actor: Actor, params: Mapping[str, Any]) -> dict[str, Any]:
    """Tenant administrators see the tenant's entries; application members their applications'."""
    request = parse_list_request(params, audit.LIST_FIELDS)
    async with rt.db.read() as conn:
        app_ids = [row[0] for row in await conn.execute(member_application_ids(actor.user_id))]
        if not app_ids:
            actor.require(PERMISSION)
        tenant_id = actor.tenant_id if actor.can(PERMISSION) else None
        rows, total = await audit.search(conn, tenant_id, app_ids, request)
    return page_of([_entry(r) for r in rows], total, request)


def _entry(row: audit.AuditRow) -> dict[str, Any]:
    return {"id": row.pid, "action": row.action, "actor": row.actor, "targetType": row.target_type,
            "targetId": row.target_id, "before": row.before, "after": row.after, "requestId": row.request_id,
            "created_at": iso(row.created_at)}
