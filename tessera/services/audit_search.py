"""Audit log search with the list contract. Tenant administrators only (``audit:view``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from storage import audit
from storage.records import iso
from tessera.listing import parse_list_request
from tessera.runtime import Runtime
from tessera.services.actors import Actor

PERMISSION = "audit:view"


def search(rt: Runtime, actor: Actor, params: Mapping[str, Any]) -> dict[str, Any]:
    actor.require(PERMISSION)
    request = parse_list_request(params, audit.LIST_FIELDS)
    with rt.db.read() as conn:
        rows, total = audit.search(conn, actor.tenant_id, request)
    return {
        "records": [
            {
                "id": r.pid, "action": r.action, "actor": r.actor, "targetType": r.target_type,
                "targetId": r.target_id, "before": r.before, "after": r.after, "requestId": r.request_id,
                "created_at": iso(r.created_at),
            }
            for r in rows
        ],
        "total": total,
        "pageNum": request.page_num,
        "pageSize": request.page_size,
    }
