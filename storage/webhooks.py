"""Webhook endpoints, their sealed secrets, deliveries and attempts.

Deliveries are claimed by workers with a lease (``locked_until``), through the shared queue
mechanics of ``storage.queues``: several workers never hold the same delivery at once, and a worker
that dies leaves a lapsed lease, so the delivery is claimed again and nothing is lost.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import ColumnElement, and_, bindparam, func, insert, or_, select, update

from storage import queues
from storage.drivers.engine import Executor, Query, Statement, bound
from storage.listing import ListField, ListRequest, build_queries, keyword_in, run_list
from storage.outbox import OutboxEventRow
from storage.schema.tables import (
    applications,
    deliveries,
    delivery_attempts,
    installations,
    outbox_events,
    outbox_feed,
    webhook_endpoints,
    webhook_secrets,
)
from tessera.core.ids import new_pid


# -- endpoints and secrets -------------------------------------------------------------------------
class EndpointRow(NamedTuple):
    """A row of ``webhook_endpoints``."""

    id: int
    pid: str
    installation_id: int
    url: str
    event_types: list[str]
    enabled: int
    created_at: datetime
    updated_at: datetime
    deleted_at: datetime | None
    disabled_reason: str | None
    disabled_at: datetime | None
    failing_since: datetime | None
    rate_limit: int | None
    max_in_flight: int | None
    paced_until: datetime | None
    signature_format: str


class EndpointDetailRow(NamedTuple):
    """An endpoint with its installation's pid, tenant and status and its application's pid."""

    id: int
    pid: str
    installation_id: int
    url: str
    event_types: list[str]
    enabled: int
    created_at: datetime
    updated_at: datetime
    deleted_at: datetime | None
    disabled_reason: str | None
    disabled_at: datetime | None
    failing_since: datetime | None
    rate_limit: int | None
    max_in_flight: int | None
    paced_until: datetime | None
    signature_format: str
    installation_pid: str
    tenant_id: int
    installation_status: str
    application_pid: str


class _Secret(NamedTuple):
    endpoint_id: int
    secret_encrypted: str


async def create_endpoint(conn: Executor, installation_id: int, url: str, event_types: list[str],
                          *, now: datetime, signature_format: str = "tessera") -> EndpointRow:
    return (await conn.execute(Query(
        insert(webhook_endpoints)
        .values(pid=new_pid("whe"), installation_id=installation_id, url=url, event_types=event_types, enabled=1,
                signature_format=signature_format, created_at=now, updated_at=now)
        .returning(*webhook_endpoints.c), EndpointRow,
    ))).one()


async def endpoint_by_pid(conn: Executor, pid: str) -> EndpointDetailRow | None:
    """The live endpoint with its installation's tenant and status and its application's pid."""
    return (await conn.execute(Query(
        select(webhook_endpoints, installations.c.pid.label("installation_pid"),
               installations.c.tenant_id, installations.c.status.label("installation_status"),
               applications.c.pid.label("application_pid"))
        .select_from(webhook_endpoints.join(installations, installations.c.id == webhook_endpoints.c.installation_id)
                     .join(applications, applications.c.id == installations.c.application_id))
        .where(and_(webhook_endpoints.c.pid == pid, webhook_endpoints.c.deleted_at.is_(None))), EndpointDetailRow,
    ))).first()


ENDPOINT_FIELDS: dict[str, ListField] = {
    "url": ListField("url", "string", webhook_endpoints.c.url),
    "enabled": ListField("enabled", "integer", webhook_endpoints.c.enabled),
    "created_at": ListField("created_at", "timestamp", webhook_endpoints.c.created_at),
}


async def endpoints_page(conn: Executor, installation_id: int,
                         request: ListRequest) -> tuple[list[EndpointRow], int]:
    """One page of the installation's live endpoints and the total."""
    base = select(webhook_endpoints).where(and_(webhook_endpoints.c.installation_id == installation_id,
                                                webhook_endpoints.c.deleted_at.is_(None)))
    return await run_list(conn, build_queries(base, [], request, webhook_endpoints.c.id,
                                              keyword_in(webhook_endpoints.c.url), EndpointRow))


async def update_endpoint(conn: Executor, endpoint_id: int, values: dict[str, Any], *, now: datetime) -> None:
    await conn.execute(update(webhook_endpoints).where(webhook_endpoints.c.id == endpoint_id)
                       .values(**values, updated_at=now))


async def add_secret(conn: Executor, endpoint_id: int, sealed: str, *, now: datetime) -> None:
    await conn.execute(insert(webhook_secrets).values(endpoint_id=endpoint_id, secret_encrypted=sealed,
                                                      created_at=now, expires_at=None))


async def expire_secrets(conn: Executor, endpoint_id: int, at: datetime, *, now: datetime) -> None:
    """End the overlap of every currently active secret at ``at`` (now, or later for an overlap)."""
    await conn.execute(
        update(webhook_secrets)
        .where(and_(webhook_secrets.c.endpoint_id == endpoint_id,
                    or_(webhook_secrets.c.expires_at.is_(None), webhook_secrets.c.expires_at > at),
                    or_(webhook_secrets.c.expires_at.is_(None), webhook_secrets.c.expires_at > now)))
        .values(expires_at=at)
    )


async def active_secrets_of(conn: Executor, endpoint_ids: list[int], now: datetime) -> dict[int, list[str]]:
    """Each endpoint's sealed secrets in force at ``now``, newest first, in one query (a batch)."""
    found: dict[int, list[str]] = {i: [] for i in endpoint_ids}
    if endpoint_ids:
        rows = await conn.execute(Query(
            select(webhook_secrets.c.endpoint_id, webhook_secrets.c.secret_encrypted)
            .where(and_(webhook_secrets.c.endpoint_id.in_(sorted(set(endpoint_ids))),
                        or_(webhook_secrets.c.expires_at.is_(None), webhook_secrets.c.expires_at > now)))
            .order_by(webhook_secrets.c.id.desc()), _Secret,
        ))
        for row in rows:
            found[row.endpoint_id].append(row.secret_encrypted)
    return found


# -- fan-out of the outbox -------------------------------------------------------------------------
class SubscriberRow(NamedTuple):
    """An endpoint that may receive the tenant's events, with its installation's granted scopes."""

    id: int
    event_types: list[str]
    scopes: list[str]
    application_pid: str


async def pending_events(conn: Executor, limit: int, tenant_id: int | None = None) -> list[OutboxEventRow]:
    """Outbox events not yet fanned out, oldest first; only the tenant's when one is given."""
    where = None if tenant_id is None else outbox_events.c.tenant_id == tenant_id
    return await queues.undispatched(conn, outbox_events, OutboxEventRow, limit, where)


async def subscribed_endpoints(conn: Executor, tenant_id: int) -> list[SubscriberRow]:
    """Enabled endpoints of the tenant's enabled installations (event types filtered by the caller)."""
    return list(await conn.execute(Query(
        select(webhook_endpoints.c.id, webhook_endpoints.c.event_types, installations.c.scopes,
               applications.c.pid.label("application_pid"))
        .select_from(webhook_endpoints.join(installations, installations.c.id == webhook_endpoints.c.installation_id)
                     .join(applications, applications.c.id == installations.c.application_id))
        .where(and_(installations.c.tenant_id == tenant_id, installations.c.status == "enabled",
                    webhook_endpoints.c.enabled == 1, webhook_endpoints.c.deleted_at.is_(None))), SubscriberRow,
    )))


async def create_delivery(conn: Executor, event_id: int, endpoint_id: int, now: datetime,
                          request_id: str | None = None) -> None:
    """A pending delivery of the event to the endpoint, under the request id of the call behind the event."""
    await conn.execute(insert(deliveries).values(
        pid=new_pid("dlv"), endpoint_id=endpoint_id, event_id=event_id, status="pending", attempts=0,
        request_id=request_id,
        next_attempt_at=now, created_at=now, updated_at=now,
    ))


class _FeedBatch(NamedTuple):
    last: int


# The next batch number; the row's lock, held until the fan-out commits, orders the batches' commits.
_NEXT_FEED_BATCH = Statement(update(outbox_feed).where(outbox_feed.c.id == 1)
                             .values(last=outbox_feed.c.last + 1).returning(outbox_feed.c.last), row=_FeedBatch)


async def mark_dispatched(conn: Executor, event_ids: list[int], now: datetime) -> None:
    """Stamp the fanned-out events dispatched and number them as one batch of the events API's
    feed (``storage/openplatform/event_feed.py``): a reader that sees batch n has seen every batch before it."""
    if not event_ids:
        return
    batch = (await conn.execute(_NEXT_FEED_BATCH)).one().last
    await conn.execute(update(outbox_events).where(outbox_events.c.id.in_(event_ids))
                       .values(dispatched_at=now, feed_seq=batch))


# -- delivery ----------------------------------------------------------------------------------------
class ClaimedDeliveryRow(NamedTuple):
    """A leased delivery with what sending it needs: its event, endpoint, installation and application."""

    id: int
    pid: str
    endpoint_id: int
    event_id: int
    status: str
    attempts: int
    next_attempt_at: datetime | None
    locked_until: datetime | None
    last_http_status: int | None
    created_at: datetime
    updated_at: datetime
    request_id: str | None
    event_pid: str
    event_type: str
    payload: dict[str, Any]
    occurred_at: datetime
    url: str
    enabled: int
    endpoint_pid: str
    failing_since: datetime | None
    rate_limit: int | None
    max_in_flight: int | None
    signature_format: str
    endpoint_deleted_at: datetime | None
    installation_status: str
    tenant_id: int
    application_id: int
    installation_pid: str
    application_pid: str
    traceparent: str | None  # the event's outbox hand-off: each attempt's span is its child


class ThrottleRow(NamedTuple):
    """An endpoint's throttles and its rate limit's next free send slot."""

    id: int
    rate_limit: int | None
    max_in_flight: int | None
    paced_until: datetime | None


class _InFlight(NamedTuple):
    endpoint_id: int
    n: int


def _tenants_deliveries(tenant_id: int) -> ColumnElement[bool]:
    """Deliveries to the endpoints of the tenant's installations."""
    return deliveries.c.endpoint_id.in_(
        select(webhook_endpoints.c.id)
        .select_from(webhook_endpoints.join(installations, installations.c.id == webhook_endpoints.c.installation_id))
        .where(installations.c.tenant_id == tenant_id))


# Deliveries to the endpoints of an application an owner disabled wait, unclaimed, until it is
# enabled again: paused, not dropped (their retries are not spent on it).
_PAUSED_ENDPOINTS = (
    select(webhook_endpoints.c.id)
    .select_from(webhook_endpoints.join(installations, installations.c.id == webhook_endpoints.c.installation_id)
                 .join(applications, applications.c.id == installations.c.application_id))
    .where(applications.c.status == "disabled")
)


async def claim_due(conn: Executor, now: datetime, lease_until: datetime, limit: int,
                    tenant_id: int | None = None) -> list[ClaimedDeliveryRow]:
    """Lease up to ``limit`` due deliveries (only the tenant's when one is given) to this worker;
    returns them with event and endpoint. Those of a disabled application's endpoints wait."""
    where: ColumnElement[bool] = deliveries.c.endpoint_id.not_in(_PAUSED_ENDPOINTS)
    if tenant_id is not None:
        where = and_(where, _tenants_deliveries(tenant_id))
    ids = await queues.lease_due(conn, deliveries, now, lease_until, limit, where)
    if not ids:
        return []
    return list(await conn.execute(Query(
        select(deliveries, outbox_events.c.event_id.label("event_pid"), outbox_events.c.event_type,
               outbox_events.c.payload, outbox_events.c.occurred_at,
               webhook_endpoints.c.url, webhook_endpoints.c.enabled,
               webhook_endpoints.c.pid.label("endpoint_pid"), webhook_endpoints.c.failing_since,
               webhook_endpoints.c.rate_limit, webhook_endpoints.c.max_in_flight,
               webhook_endpoints.c.signature_format,
               webhook_endpoints.c.deleted_at.label("endpoint_deleted_at"),
               installations.c.status.label("installation_status"), installations.c.tenant_id,
               installations.c.application_id, installations.c.pid.label("installation_pid"),
               applications.c.pid.label("application_pid"), outbox_events.c.traceparent)
        .select_from(deliveries.join(outbox_events, outbox_events.c.id == deliveries.c.event_id)
                     .join(webhook_endpoints, webhook_endpoints.c.id == deliveries.c.endpoint_id)
                     .join(installations, installations.c.id == webhook_endpoints.c.installation_id)
                     .join(applications, applications.c.id == installations.c.application_id))
        .where(deliveries.c.id.in_(ids))
        .order_by(deliveries.c.next_attempt_at, deliveries.c.id), ClaimedDeliveryRow,
    )))


async def lock_throttles(conn: Executor, endpoint_ids: list[int]) -> dict[int, ThrottleRow]:
    """The throttles of these endpoints and their next free send slot, locked until the claim
    commits (PostgreSQL), so workers claiming for one throttled endpoint take turns."""
    query = (select(webhook_endpoints.c.id, webhook_endpoints.c.rate_limit, webhook_endpoints.c.max_in_flight,
                    webhook_endpoints.c.paced_until)
             .where(webhook_endpoints.c.id.in_(endpoint_ids)).order_by(webhook_endpoints.c.id))
    if conn.dialect == "postgresql":
        query = query.with_for_update()
    return {row.id: row for row in await conn.execute(Query(query, ThrottleRow))}


async def in_flight(conn: Executor, endpoint_ids: list[int], now: datetime, excluding: list[int]) -> dict[int, int]:
    """Per endpoint, deliveries another claim holds a live lease on (awaiting an answer)."""
    found = dict.fromkeys(endpoint_ids, 0)
    if endpoint_ids:
        rows = await conn.execute(Query(
            select(deliveries.c.endpoint_id, func.count().label("n"))
            .where(and_(deliveries.c.endpoint_id.in_(endpoint_ids), deliveries.c.status.in_(queues.DUE),
                        deliveries.c.locked_until >= now, deliveries.c.id.not_in(excluding)))
            .group_by(deliveries.c.endpoint_id), _InFlight))
        found.update({row.endpoint_id: int(row.n) for row in rows})
    return found


_SET_PACED = Statement(update(webhook_endpoints).where(webhook_endpoints.c.id == bindparam("endpoint_id"))
                       .values(paced_until=bindparam("until")))


async def set_paced(conn: Executor, endpoint_id: int, until: datetime) -> None:
    """Move the endpoint's next free send slot (enqueued: it rides with the claim's commit)."""
    await conn.enqueue(_SET_PACED, {"endpoint_id": endpoint_id, "until": until})


async def defer(conn: Executor, delivery_ids: list[int], until: datetime, lease_until: datetime) -> None:
    """Hand claimed deliveries back unsent, due again at ``until`` (a throttle held them back)."""
    if delivery_ids:
        await conn.execute(update(deliveries)
                           .where(and_(deliveries.c.id.in_(delivery_ids), deliveries.c.locked_until == lease_until))
                           .values(locked_until=None, next_attempt_at=until))


# An attempt's outcome: ``sending`` is written (and committed) before the request goes out and
# completed after; a worker that stops in between leaves it, and it reads ``unknown``.
SENDING, SUCCEEDED, FAILED, UNKNOWN = "sending", "succeeded", "failed", "unknown"
WORKER_STOPPED = "worker stopped before recording the outcome (the request may have been sent)"

_RECORD_ATTEMPT = Statement(insert(delivery_attempts).values(bound(
    "delivery_id", "attempted_at", "http_status", "latency_ms", "error", "worker", "response_excerpt", "outcome")))
_BEGIN_ATTEMPT = Statement(insert(delivery_attempts).values(bound("delivery_id", "attempted_at", "worker", "outcome")))
_COMPLETE_ATTEMPT = Statement(
    update(delivery_attempts)
    .where(and_(delivery_attempts.c.delivery_id == bindparam("delivery_id"),
                delivery_attempts.c.worker == bindparam("by_worker"), delivery_attempts.c.outcome == SENDING))
    .values(bound("http_status", "latency_ms", "error", "response_excerpt", "outcome")))


def _completed(http_status: int | None, latency_ms: int | None, error: str | None,
               excerpt: str | None) -> dict[str, Any]:
    return {"http_status": http_status, "latency_ms": latency_ms, "error": (error or None) and error[:300],
            "response_excerpt": excerpt and excerpt[:500],
            "outcome": SUCCEEDED if http_status is not None and 200 <= http_status < 300 else FAILED}


async def record_attempt(conn: Executor, delivery_id: int, attempted_at: datetime, http_status: int | None,
                         latency_ms: int | None, error: str | None, *, worker: str | None = None,
                         excerpt: str | None = None) -> None:
    """An attempt recorded only once it ended: one that sent nothing (refused URL, disabled endpoint)."""
    await conn.enqueue(_RECORD_ATTEMPT, {"delivery_id": delivery_id, "attempted_at": attempted_at,
                                         "worker": worker and worker[:100],
                                         **_completed(http_status, latency_ms, error, excerpt)})


async def begin_attempts(conn: Executor, delivery_ids: list[int], attempted_at: datetime, worker: str) -> None:
    """In-flight attempts (``sending``) of ``worker``, one per delivery, about to send their requests."""
    await conn.execute_many(_BEGIN_ATTEMPT, [{"delivery_id": delivery_id, "attempted_at": attempted_at,
                                              "worker": worker[:100], "outcome": SENDING}
                                             for delivery_id in delivery_ids])


async def complete_attempt(conn: Executor, delivery_id: int, worker: str, http_status: int | None,
                           latency_ms: int | None, error: str | None, *, excerpt: str | None = None) -> None:
    """The answer (or failure) of ``worker``'s in-flight attempt of the delivery (a worker has at most
    one per delivery: it holds the delivery's lease until it records the outcome)."""
    await conn.enqueue(_COMPLETE_ATTEMPT, {"delivery_id": delivery_id, "by_worker": worker[:100],
                                           **_completed(http_status, latency_ms, error, excerpt)})


async def forget_in_flight(conn: Executor, delivery_ids: list[int]) -> None:
    """Attempts still ``sending`` of deliveries just claimed again: their worker's lease lapsed
    without an outcome, so it stopped (killed, crashed): ``unknown``, and they stay listed."""
    if delivery_ids:
        await conn.enqueue(update(delivery_attempts)
                           .where(and_(delivery_attempts.c.delivery_id.in_(delivery_ids),
                                       delivery_attempts.c.outcome == SENDING))
                           .values(outcome=UNKNOWN, error=WORKER_STOPPED))


async def disable_endpoint(conn: Executor, endpoint_id: int, reason: str, *, now: datetime) -> bool:
    """Disable an enabled endpoint on the service's own initiative; false if it already was."""
    result = await conn.execute(
        update(webhook_endpoints)
        .where(and_(webhook_endpoints.c.id == endpoint_id, webhook_endpoints.c.enabled == 1))
        .values(enabled=0, disabled_reason=reason[:200], disabled_at=now, updated_at=now)
    )
    return result.rowcount == 1


_FINISH = Statement(
    update(deliveries)
    .where(and_(deliveries.c.id == bindparam("delivery_id"), deliveries.c.attempts == bindparam("attempts_before")))
    .values(attempts=bindparam("attempts"), last_http_status=bindparam("last_http_status"),
            status=bindparam("status"), next_attempt_at=bindparam("next_attempt_at"), locked_until=None,
            updated_at=bindparam("now"))
)


async def finish_attempts(conn: Executor, outcomes: list[tuple[int, int, dict[str, Any]]], *, now: datetime) -> None:
    """Apply a batch of outcomes ``(delivery id, attempts before, values)`` in the caller's
    transaction, each unless another attempt's outcome was applied since the claim (then it changes
    nothing). Enqueued: on PostgreSQL the whole batch travels with the COMMIT."""
    for delivery_id, attempts_before, values in outcomes:
        await conn.enqueue(_FINISH, {"delivery_id": delivery_id, "attempts_before": attempts_before, "now": now,
                                     **values})


class DeliveryDetailRow(NamedTuple):
    """A delivery with its endpoint's pid and installation, the installation's tenant and status,
    and the application's pid."""

    id: int
    pid: str
    endpoint_id: int
    event_id: int
    status: str
    attempts: int
    next_attempt_at: datetime | None
    locked_until: datetime | None
    last_http_status: int | None
    created_at: datetime
    updated_at: datetime
    request_id: str | None
    endpoint_pid: str
    installation_id: int
    tenant_id: int
    installation_status: str
    application_pid: str


async def delivery_by_pid(conn: Executor, pid: str) -> DeliveryDetailRow | None:
    return (await conn.execute(Query(
        select(deliveries, webhook_endpoints.c.pid.label("endpoint_pid"),
               webhook_endpoints.c.installation_id, installations.c.tenant_id,
               installations.c.status.label("installation_status"),
               applications.c.pid.label("application_pid"))
        .select_from(deliveries.join(webhook_endpoints, webhook_endpoints.c.id == deliveries.c.endpoint_id)
                     .join(installations, installations.c.id == webhook_endpoints.c.installation_id)
                     .join(applications, applications.c.id == installations.c.application_id))
        .where(deliveries.c.pid == pid), DeliveryDetailRow,
    ))).first()


async def requeue(conn: Executor, delivery_id: int, now: datetime) -> None:
    """Replay: deliver again now, with the same delivery and event ids and a fresh retry budget."""
    await conn.execute(update(deliveries).where(deliveries.c.id == delivery_id).values(
        status="pending", attempts=0, next_attempt_at=now, locked_until=None, updated_at=now))


_HEALTHY = Statement(update(webhook_endpoints).where(and_(
    webhook_endpoints.c.id == bindparam("endpoint_id"), webhook_endpoints.c.failing_since.is_not(None)))
    .values(failing_since=None))
_FAILING = Statement(update(webhook_endpoints).where(and_(
    webhook_endpoints.c.id == bindparam("endpoint_id"), webhook_endpoints.c.failing_since.is_(None)))
    .values(failing_since=bindparam("now")))


async def note_health(conn: Executor, endpoint_id: int, ok: bool, now: datetime) -> None:
    """A success ends a failing streak; a failure starts one (unless one is running). Enqueued."""
    if ok:
        await conn.enqueue(_HEALTHY, {"endpoint_id": endpoint_id})
    else:
        await conn.enqueue(_FAILING, {"endpoint_id": endpoint_id, "now": now})


async def recover_since(conn: Executor, endpoint_id: int, since: datetime, limit: int,
                        now: datetime) -> tuple[int, bool]:
    """Requeue up to ``limit`` of the endpoint's dead or retrying deliveries created since
    ``since``, oldest first; returns how many, and whether more remain."""
    ids = (await conn.execute(
        select(deliveries.c.id)
        .where(and_(deliveries.c.endpoint_id == endpoint_id, deliveries.c.status.in_(("dead", "retrying")),
                    deliveries.c.created_at >= since))
        .order_by(deliveries.c.id).limit(limit + 1)
    )).scalars()
    chosen = ids[:limit]
    if chosen:
        await conn.execute(update(deliveries).where(and_(deliveries.c.id.in_(chosen),
                                                         deliveries.c.status.in_(("dead", "retrying"))))
                           .values(status="pending", attempts=0, next_attempt_at=now, locked_until=None,
                                   updated_at=now))
    return len(chosen), len(ids) > limit


DELIVERY_STATUSES = ("pending", "delivered", "retrying", "dead")
DELIVERY_FIELDS: dict[str, ListField] = {
    "status": ListField("status", "enum", deliveries.c.status, DELIVERY_STATUSES),
    "attempts": ListField("attempts", "integer", deliveries.c.attempts),
    "created_at": ListField("created_at", "timestamp", deliveries.c.created_at),
    "updated_at": ListField("updated_at", "timestamp", deliveries.c.updated_at),
    "requestId": ListField("requestId", "string", deliveries.c.request_id),
}


class ListedDeliveryRow(NamedTuple):
    """A delivery as administrators list it: its row and its event's id and type."""

    id: int
    pid: str
    endpoint_id: int
    event_id: int
    status: str
    attempts: int
    next_attempt_at: datetime | None
    locked_until: datetime | None
    last_http_status: int | None
    created_at: datetime
    updated_at: datetime
    request_id: str | None
    event_pid: str
    event_type: str


class AttemptRow(NamedTuple):
    """A row of ``delivery_attempts``."""

    id: int
    delivery_id: int
    attempted_at: datetime
    http_status: int | None
    latency_ms: int | None
    error: str | None
    worker: str | None
    response_excerpt: str | None
    outcome: str


async def deliveries_page(conn: Executor, endpoint_id: int, request: ListRequest,
                          request_id: str | None = None) -> tuple[list[ListedDeliveryRow], int]:
    """One page of the endpoint's deliveries (with the event's id and type) and the total; only
    those of one request id when ``request_id`` is given."""
    base = (
        select(deliveries, outbox_events.c.event_id.label("event_pid"), outbox_events.c.event_type)
        .select_from(deliveries.join(outbox_events, outbox_events.c.id == deliveries.c.event_id))
        .where(deliveries.c.endpoint_id == endpoint_id)
    )
    if request_id is not None:
        base = base.where(deliveries.c.request_id == request_id)
    return await run_list(conn, build_queries(base, [], request, deliveries.c.id, keyword_in(deliveries.c.pid),
                                              ListedDeliveryRow))


async def attempts_of(conn: Executor, delivery_ids: list[int]) -> dict[int, list[AttemptRow]]:
    found: dict[int, list[AttemptRow]] = {i: [] for i in delivery_ids}
    if delivery_ids:
        for row in await conn.execute(Query(
                select(delivery_attempts).where(delivery_attempts.c.delivery_id.in_(delivery_ids))
                .order_by(delivery_attempts.c.id), AttemptRow)):
            found[row.delivery_id].append(row)
    return found
