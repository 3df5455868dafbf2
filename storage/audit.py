"""The audit log: append-only entries with actor, target, before/after and the request id."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, false, func, insert, or_, select

from storage.engine import Executor, Row, Statement, bound
from storage.listing import ListField, ListRequest, build_queries, like_escape, run_list
from storage.tables import audit_log
from tessera.core.ids import new_pid

_APPEND = Statement(insert(audit_log).values(bound(
    "pid", "tenant_id", "actor_user_id", "actor", "action", "target_type",
    "target_id", "before", "after", "request_id", "application_id", "created_at")))


async def append(
    conn: Executor,
    *,
    tenant_id: int | None,
    actor_user_id: int | None,
    actor: str | None,
    action: str,
    target_type: str | None = None,
    target_id: str | None = None,
    before: Any = None,
    after: Any = None,
    request_id: str | None = None,
    application_id: int | None = None,
    now: datetime,
) -> None:
    """Queued in the caller's transaction (nobody reads it back): on PostgreSQL it travels with the
    next statement or the COMMIT."""
    await conn.enqueue(_APPEND, {
        "pid": new_pid("aud"), "tenant_id": tenant_id, "actor_user_id": actor_user_id, "actor": actor,
        "action": action, "target_type": target_type, "target_id": target_id, "before": before, "after": after,
        "request_id": request_id, "application_id": application_id, "created_at": now,
    })


LIST_FIELDS: dict[str, ListField] = {
    "action": ListField("action", "string", audit_log.c.action),
    "actor": ListField("actor", "string", audit_log.c.actor),
    "targetType": ListField("targetType", "string", audit_log.c.target_type),
    "targetId": ListField("targetId", "string", audit_log.c.target_id),
    "requestId": ListField("requestId", "string", audit_log.c.request_id),
    "created_at": ListField("created_at", "timestamp", audit_log.c.created_at),
}


def _keyword(keyword: str) -> Any:
    pattern = f"%{like_escape(keyword.lower())}%"
    return or_(*(func.lower(col).like(pattern, escape="\\") for col in
                 (audit_log.c.action, audit_log.c.actor, audit_log.c.target_id, audit_log.c.request_id)))


async def search(conn: Executor, tenant_id: int | None, application_ids: list[int],
                 request: ListRequest) -> tuple[list[Row], int]:
    """Entries matching the request among those the caller may see (chosen by the caller's rights):
    the tenant's (``tenant_id``; None for none) and those of the applications ``application_ids``."""
    scopes: list[ColumnElement[bool]] = [audit_log.c.application_id.in_(application_ids)] if application_ids else []
    if tenant_id is not None:
        scopes.append(audit_log.c.tenant_id == tenant_id)
    queries = build_queries(select(audit_log), [or_(false(), *scopes)], request, audit_log.c.id, _keyword)
    rows, total = await run_list(conn, queries)
    return rows, total
