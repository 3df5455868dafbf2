"""Tenant automations, their runs, and the queue of inbound events they consume.

A run exists per (automation, inbound event): pending -> succeeded, or retrying -> parked after the
last retry. Runs are leased to workers through ``storage.queues``; every outcome is written only
while the worker still holds the lease, so a run is never executed twice.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import and_, bindparam, insert, select, update

from storage import queues
from storage.drivers.engine import Executor, Query, Statement, bound, insert_or_skip
from storage.listing import ListField, ListRequest, build_queries, keyword_in, run_list
from storage.schema.tables import automation_runs, automations, inbound_events
from tessera import tracing
from tessera.core.ids import new_pid

RUN_STATUSES = ("pending", "retrying", "succeeded", "parked")


class AutomationRow(NamedTuple):
    """A row of ``automations``."""

    id: int
    pid: str
    tenant_id: int
    name: str
    trigger_source: str
    trigger_type: str
    actions: list[dict[str, Any]]
    enabled: int
    created_at: datetime
    updated_at: datetime
    deleted_at: datetime | None


class RunRow(NamedTuple):
    """A row of ``automation_runs``."""

    id: int
    pid: str
    automation_id: int
    inbound_event_id: int
    status: str
    attempts: int
    next_attempt_at: datetime | None
    locked_until: datetime | None
    error: str | None
    result: list[dict[str, Any]] | None
    created_at: datetime
    updated_at: datetime


class ListedRunRow(NamedTuple):
    """A run as administrators list it: its row and its inbound event's pid."""

    id: int
    pid: str
    automation_id: int
    inbound_event_id: int
    status: str
    attempts: int
    next_attempt_at: datetime | None
    locked_until: datetime | None
    error: str | None
    result: list[dict[str, Any]] | None
    created_at: datetime
    updated_at: datetime
    event_pid: str


class LeasedRunRow(NamedTuple):
    """A run leased to a worker, with what executing it needs: its automation and inbound event."""

    id: int
    pid: str
    automation_id: int
    inbound_event_id: int
    status: str
    attempts: int
    next_attempt_at: datetime | None
    locked_until: datetime | None
    error: str | None
    result: list[dict[str, Any]] | None
    created_at: datetime
    updated_at: datetime
    automation_pid: str
    actions: list[dict[str, Any]]
    tenant_id: int
    automation_enabled: int
    automation_deleted_at: datetime | None
    event_pid: str
    source: str
    event_type: str
    schema_version: int
    occurred_at: datetime
    data: dict[str, Any]
    request_id: str | None
    traceparent: str | None  # of the request that stored the event: the run continues its trace


class InboundEventRow(NamedTuple):
    """A row of ``inbound_events``."""

    id: int
    pid: str
    installation_id: int
    tenant_id: int
    source: str
    event_type: str
    schema_version: int
    occurred_at: datetime
    data: dict[str, Any]
    idempotency_key: str
    request_hash: str
    request_id: str | None
    received_at: datetime
    dispatched_at: datetime | None
    traceparent: str | None


class InboundKeyRow(NamedTuple):
    """The stored event an idempotency key is bound to."""

    pid: str
    request_hash: str


class _Id(NamedTuple):
    id: int


AUTOMATION_FIELDS: dict[str, ListField] = {
    "name": ListField("name", "string", automations.c.name),
    "enabled": ListField("enabled", "integer", automations.c.enabled),
    "created_at": ListField("created_at", "timestamp", automations.c.created_at),
}
RUN_FIELDS: dict[str, ListField] = {
    "status": ListField("status", "enum", automation_runs.c.status, RUN_STATUSES),
    "attempts": ListField("attempts", "integer", automation_runs.c.attempts),
    "created_at": ListField("created_at", "timestamp", automation_runs.c.created_at),
}


# -- automations ------------------------------------------------------------------------------------
async def create_automation(conn: Executor, tenant_id: int, values: dict[str, Any], *,
                            now: datetime) -> AutomationRow:
    """``values``: name, trigger_source, trigger_type, actions and optionally enabled (1 or 0)."""
    return (await conn.execute(Query(insert(automations).values(
        pid=new_pid("aut"), tenant_id=tenant_id, enabled=values.get("enabled", 1), created_at=now,
        updated_at=now, **{k: v for k, v in values.items() if k != "enabled"},
    ).returning(*automations.c), AutomationRow))).one()


async def automation_by_pid(conn: Executor, tenant_id: int, pid: str) -> AutomationRow | None:
    """The tenant's live automation with this pid."""
    return (await conn.execute(Query(select(automations).where(and_(
        automations.c.pid == pid, automations.c.tenant_id == tenant_id, automations.c.deleted_at.is_(None))),
        AutomationRow))).first()


async def update_automation(conn: Executor, automation_id: int, values: dict[str, Any], *, now: datetime) -> None:
    await conn.execute(update(automations).where(automations.c.id == automation_id).values(**values, updated_at=now))


async def delete_automation(conn: Executor, automation_id: int, *, now: datetime) -> None:
    await conn.execute(update(automations).where(automations.c.id == automation_id)
                       .values(deleted_at=now, enabled=0, updated_at=now))


async def automations_page(conn: Executor, tenant_id: int,
                           request: ListRequest) -> tuple[list[AutomationRow], int]:
    scope = [automations.c.tenant_id == tenant_id, automations.c.deleted_at.is_(None)]
    return await run_list(conn, build_queries(select(automations), scope, request, automations.c.id,
                                              keyword_in(automations.c.name), AutomationRow))


# -- runs, as administrators see them -----------------------------------------------------------------
async def runs_page(conn: Executor, automation_id: int, request: ListRequest) -> tuple[list[ListedRunRow], int]:
    """One page of the automation's runs (with the inbound event's pid) and the total."""
    base = (select(automation_runs, inbound_events.c.pid.label("event_pid"))
            .select_from(automation_runs.join(inbound_events,
                                              inbound_events.c.id == automation_runs.c.inbound_event_id)))
    return await run_list(conn, build_queries(base, [automation_runs.c.automation_id == automation_id], request,
                                              automation_runs.c.id, keyword_in(automation_runs.c.pid), ListedRunRow))


async def run_in_tenant(conn: Executor, tenant_id: int, run_pid: str) -> RunRow | None:
    joined = automation_runs.join(automations, automations.c.id == automation_runs.c.automation_id)
    return (await conn.execute(Query(
        select(automation_runs).select_from(joined)
        .where(and_(automation_runs.c.pid == run_pid, automations.c.tenant_id == tenant_id)), RunRow,
    ))).first()


async def requeue_run(conn: Executor, run_id: int, *, now: datetime) -> None:
    """Back in the queue now, with a fresh retry budget."""
    await conn.execute(update(automation_runs).where(automation_runs.c.id == run_id).values(
        status="pending", attempts=0, next_attempt_at=now, locked_until=None, updated_at=now))


# -- the runner -------------------------------------------------------------------------------------
async def undispatched_events(conn: Executor, limit: int, tenant_id: int | None = None) -> list[InboundEventRow]:
    """Inbound events no run was made for yet, oldest first; only the tenant's when one is given."""
    where = None if tenant_id is None else inbound_events.c.tenant_id == tenant_id
    return await queues.undispatched(conn, inbound_events, InboundEventRow, limit, where)


async def mark_events_dispatched(conn: Executor, event_ids: list[int], *, now: datetime) -> None:
    await queues.mark_dispatched(conn, inbound_events, event_ids, now)


async def matching_automations(conn: Executor, tenant_id: int, source: str, event_type: str) -> list[int]:
    """Ids of the tenant's enabled automations triggered by this source and event type."""
    return [row.id for row in await conn.execute(Query(select(automations.c.id).where(and_(
        automations.c.tenant_id == tenant_id, automations.c.trigger_source == source,
        automations.c.trigger_type == event_type, automations.c.enabled == 1,
        automations.c.deleted_at.is_(None))), _Id))]


_CREATE_RUN = Statement(insert(automation_runs).values(
    bound("pid", "automation_id", "inbound_event_id", "status", "attempts", "next_attempt_at", "created_at",
          "updated_at")))


async def create_run(conn: Executor, automation_id: int, inbound_event_id: int, *, now: datetime) -> None:
    """Enqueued: on PostgreSQL a dispatch's runs travel with its commit, not one round trip each."""
    await conn.enqueue(_CREATE_RUN, {
        "pid": new_pid("run"), "automation_id": automation_id, "inbound_event_id": inbound_event_id,
        "status": "pending", "attempts": 0, "next_attempt_at": now, "created_at": now, "updated_at": now})


async def lease_due_runs(conn: Executor, now: datetime, lease_until: datetime, limit: int,
                         tenant_id: int | None = None) -> list[LeasedRunRow]:
    """Lease up to ``limit`` due runs (only the tenant's when one is given); each with its
    automation's actions and its inbound event."""
    where = None if tenant_id is None else automation_runs.c.automation_id.in_(
        select(automations.c.id).where(automations.c.tenant_id == tenant_id))
    ids = await queues.lease_due(conn, automation_runs, now, lease_until, limit, where)
    if not ids:
        return []
    return list(await conn.execute(Query(
        select(automation_runs, automations.c.pid.label("automation_pid"), automations.c.actions,
               automations.c.tenant_id, automations.c.enabled.label("automation_enabled"),
               automations.c.deleted_at.label("automation_deleted_at"),
               inbound_events.c.pid.label("event_pid"), inbound_events.c.source,
               inbound_events.c.event_type, inbound_events.c.schema_version, inbound_events.c.occurred_at,
               inbound_events.c.data, inbound_events.c.request_id, inbound_events.c.traceparent)
        .select_from(automation_runs.join(automations, automations.c.id == automation_runs.c.automation_id)
                     .join(inbound_events, inbound_events.c.id == automation_runs.c.inbound_event_id))
        .where(automation_runs.c.id.in_(ids)), LeasedRunRow,
    )))


async def release_runs(conn: Executor, run_ids: list[int], lease_until: datetime) -> None:
    await queues.release(conn, automation_runs, run_ids, lease_until)


async def update_leased_run(conn: Executor, run_id: int, lease_until: datetime, values: dict[str, Any], *,
                            now: datetime) -> bool:
    """Write ``values`` to the run only while the caller still holds its lease; false if it lost it.

    As the first statement of a run's transaction it also takes the row lock on PostgreSQL.
    """
    return (await conn.execute(
        update(automation_runs)
        .where(and_(automation_runs.c.id == run_id, automation_runs.c.locked_until == lease_until))
        .values(**values, updated_at=now)
    )).rowcount == 1


# -- inbound events ---------------------------------------------------------------------------------
# Stored in one INSERT that skips a key the installation already used; only a duplicate reads the
# stored event back (to replay it, or to refuse another body under the same key).
_STORE_INBOUND = insert_or_skip(inbound_events, (
    "pid", "installation_id", "tenant_id", "source", "event_type", "schema_version", "occurred_at", "data",
    "idempotency_key", "request_hash", "request_id", "received_at", "traceparent"), [inbound_events.c.id], _Id)
_INBOUND_BY_KEY = Statement(select(inbound_events.c.pid, inbound_events.c.request_hash).where(
    inbound_events.c.installation_id == bindparam("installation_id"),
    inbound_events.c.idempotency_key == bindparam("key")), row=InboundKeyRow)


async def store_inbound(conn: Executor, values: dict[str, Any]) -> bool:
    """Store an inbound event; false when its (installation, key) was already used. It keeps the
    ``traceparent`` of the current span (the request's; NULL when tracing is off), which the
    automation runs it starts continue."""
    return (await conn.execute(_STORE_INBOUND, {**values, "traceparent": tracing.traceparent()})).first() is not None


async def inbound_by_key(conn: Executor, installation_id: int, key: str) -> InboundKeyRow | None:
    return (await conn.execute(_INBOUND_BY_KEY, {"installation_id": installation_id, "key": key})).first()
