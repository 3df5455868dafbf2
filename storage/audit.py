"""The audit log: append-only entries with actor, target, before/after and the request id.

The search's total is counted by every request (an index-only scan of the matching entries), not
cached as record lists are (``storage.record_cache``): that needs a change log written with every
entry, and entries are written by every command and token issue, whose writers would then
queue on one stamp row per tenant. At 1,000,000 entries of a tenant the count is most of a
search's cost (``benchmarks/audit_search.py``); the page itself walks an index.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import ColumnElement, false, func, insert, or_, select

from storage.drivers.engine import Executor, Statement, bound
from storage.listing import ListField, ListQueries, ListRequest, build_queries, like_escape, run_list
from storage.schema.tables import audit_log
from tessera.core.ids import new_pid


class AuditRow(NamedTuple):
    """A row of ``audit_log``."""

    id: int
    pid: str
    tenant_id: int | None
    actor_user_id: int | None
    actor: str | None
    action: str
    target_type: str | None
    target_id: str | None
    before: Any
    after: Any
    request_id: str | None
    application_id: int | None
    created_at: datetime


COLUMNS = ("pid", "tenant_id", "actor_user_id", "actor", "action", "target_type", "target_id", "before", "after",
           "request_id", "application_id", "created_at")
_APPEND = Statement(insert(audit_log).values(bound(*COLUMNS)))


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
    await append_entry(conn, entry(tenant_id=tenant_id, actor_user_id=actor_user_id, actor=actor, action=action,
                                   target_type=target_type, target_id=target_id, before=before, after=after,
                                   request_id=request_id, application_id=application_id, now=now))


def entry(*, tenant_id: int | None, actor_user_id: int | None, actor: str | None, action: str,
          target_type: str | None = None, target_id: str | None = None, before: Any = None, after: Any = None,
          request_id: str | None = None, application_id: int | None = None, now: datetime) -> dict[str, Any]:
    """The values of one audit entry (``COLUMNS``), with a new pid: for ``append_entry``, or for a
    statement that writes the entry beside the change it records (``storage.openplatform.tokens``)."""
    return {
        "pid": new_pid("aud"), "tenant_id": tenant_id, "actor_user_id": actor_user_id, "actor": actor,
        "action": action, "target_type": target_type, "target_id": target_id, "before": before, "after": after,
        "request_id": request_id, "application_id": application_id, "created_at": now,
    }


async def append_entry(conn: Executor, values: dict[str, Any]) -> None:
    """Queue one entry built by ``entry`` in the caller's transaction."""
    await conn.enqueue(_APPEND, values)


LIST_FIELDS: dict[str, ListField] = {
    "action": ListField("action", "string", audit_log.c.action),
    "actor": ListField("actor", "string", audit_log.c.actor),
    "targetType": ListField("targetType", "string", audit_log.c.target_type),
    "targetId": ListField("targetId", "string", audit_log.c.target_id),
    "requestId": ListField("requestId", "string", audit_log.c.request_id),
    "created_at": ListField("created_at", "timestamp", audit_log.c.created_at),
}


# What ``keyword`` matches: a substring of these (the trigram index of migration 0013 holds exactly
# these, lower-cased), or the whole value of those.
KEYWORD_COLUMNS = (audit_log.c.action, audit_log.c.actor)
KEYWORD_IDS = (audit_log.c.target_id, audit_log.c.request_id)


def _keyword(keyword: str) -> Any:
    """A case-insensitive substring of the action or the actor (the two columns a person reads), or
    a target's or a request's whole id (what a person pastes: a client id, a record id, an
    ``X-Request-Id``). On PostgreSQL each ``lower(column) LIKE`` is a column of migration 0013's
    trigram index (as are the ``like`` filters on them) and each id comparison a range of its B-tree,
    so the planner ORs four index scans. Substrings of the ids are not matched: a trigram index over
    those random strings cost every command and token issue about 0.1-0.3 ms of index maintenance on
    its audit row (measured at 1,000,000 entries)."""
    pattern = f"%{like_escape(keyword.lower())}%"
    return or_(*(func.lower(col).like(pattern, escape="\\") for col in KEYWORD_COLUMNS),
               *(col == keyword for col in KEYWORD_IDS))


def search_queries(tenant_id: int | None, application_ids: list[int],
                   request: ListRequest) -> ListQueries[AuditRow]:
    """The page and count SQL of a search among the entries the caller may see (chosen by the
    caller's rights): the tenant's (``tenant_id``; None for none) and those of the applications
    ``application_ids``. Migration 0013 indexes what they filter, sort and search on."""
    scopes: list[ColumnElement[bool]] = [audit_log.c.application_id.in_(application_ids)] if application_ids else []
    if tenant_id is not None:
        scopes.append(audit_log.c.tenant_id == tenant_id)
    return build_queries(select(audit_log), [or_(false(), *scopes)], request, audit_log.c.id, _keyword, AuditRow)


async def search(conn: Executor, tenant_id: int | None, application_ids: list[int],
                 request: ListRequest) -> tuple[list[AuditRow], int]:
    """One page of ``search_queries`` and its exact total (counted by every request: see the module
    docstring)."""
    return await run_list(conn, search_queries(tenant_id, application_ids, request))
