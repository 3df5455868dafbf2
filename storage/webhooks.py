"""Webhook endpoints, their sealed secrets, deliveries and attempts.

Deliveries are claimed by workers with a lease (``locked_until``), through the shared queue
mechanics of ``storage.queues``: several workers never hold the same delivery at once, and a worker
that dies leaves a lapsed lease, so the delivery is claimed again and nothing is lost.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row, and_, insert, or_, select, update

from storage import queues
from storage.listing import ListField, ListRequest, build_queries, keyword_in, run_list
from storage.tables import (
    applications,
    deliveries,
    delivery_attempts,
    installations,
    outbox_events,
    webhook_endpoints,
    webhook_secrets,
)
from tessera.core.ids import new_pid


# -- endpoints and secrets -------------------------------------------------------------------------
def create_endpoint(conn: Connection, installation_id: int, url: str, event_types: list[str],
                    *, now: datetime) -> Row[Any]:
    return conn.execute(
        insert(webhook_endpoints)
        .values(pid=new_pid("whe"), installation_id=installation_id, url=url, event_types=event_types, enabled=1,
                created_at=now, updated_at=now)
        .returning(*webhook_endpoints.c)
    ).one()


def endpoint_by_pid(conn: Connection, pid: str) -> Row[Any] | None:
    """The live endpoint with its installation's tenant and status and its application's pid."""
    return conn.execute(
        select(webhook_endpoints, installations.c.pid.label("installation_pid"),
               installations.c.tenant_id, installations.c.status.label("installation_status"),
               applications.c.pid.label("application_pid"))
        .select_from(webhook_endpoints.join(installations, installations.c.id == webhook_endpoints.c.installation_id)
                     .join(applications, applications.c.id == installations.c.application_id))
        .where(and_(webhook_endpoints.c.pid == pid, webhook_endpoints.c.deleted_at.is_(None)))
    ).first()


ENDPOINT_FIELDS: dict[str, ListField] = {
    "url": ListField("url", "string", webhook_endpoints.c.url),
    "enabled": ListField("enabled", "integer", webhook_endpoints.c.enabled),
    "created_at": ListField("created_at", "timestamp", webhook_endpoints.c.created_at),
}


def endpoints_page(conn: Connection, installation_id: int, request: ListRequest) -> tuple[list[Row[Any]], int]:
    """One page of the installation's live endpoints and the total."""
    base = select(webhook_endpoints).where(and_(webhook_endpoints.c.installation_id == installation_id,
                                                webhook_endpoints.c.deleted_at.is_(None)))
    return run_list(conn, build_queries(base, [], request, webhook_endpoints.c.id, keyword_in(webhook_endpoints.c.url)))


def update_endpoint(conn: Connection, endpoint_id: int, values: dict[str, Any], *, now: datetime) -> None:
    conn.execute(update(webhook_endpoints).where(webhook_endpoints.c.id == endpoint_id)
                 .values(**values, updated_at=now))


def add_secret(conn: Connection, endpoint_id: int, sealed: str, *, now: datetime) -> None:
    conn.execute(insert(webhook_secrets).values(endpoint_id=endpoint_id, secret_encrypted=sealed,
                                                created_at=now, expires_at=None))


def expire_secrets(conn: Connection, endpoint_id: int, at: datetime, *, now: datetime) -> None:
    """End the overlap of every currently active secret at ``at`` (now, or later for an overlap)."""
    conn.execute(
        update(webhook_secrets)
        .where(and_(webhook_secrets.c.endpoint_id == endpoint_id,
                    or_(webhook_secrets.c.expires_at.is_(None), webhook_secrets.c.expires_at > at),
                    or_(webhook_secrets.c.expires_at.is_(None), webhook_secrets.c.expires_at > now)))
        .values(expires_at=at)
    )


def active_secrets(conn: Connection, endpoint_id: int, now: datetime) -> list[str]:
    """Sealed secrets in force at ``now``, newest first (the order of the signatures)."""
    rows = conn.execute(
        select(webhook_secrets.c.secret_encrypted)
        .where(and_(webhook_secrets.c.endpoint_id == endpoint_id,
                    or_(webhook_secrets.c.expires_at.is_(None), webhook_secrets.c.expires_at > now)))
        .order_by(webhook_secrets.c.id.desc())
    )
    return [r.secret_encrypted for r in rows]


# -- fan-out of the outbox -------------------------------------------------------------------------
def pending_events(conn: Connection, limit: int) -> list[Row[Any]]:
    return queues.undispatched(conn, outbox_events, limit)


def subscribed_endpoints(conn: Connection, tenant_id: int) -> list[Row[Any]]:
    """Enabled endpoints of the tenant's enabled installations (event types filtered by the caller)."""
    return list(conn.execute(
        select(webhook_endpoints.c.id, webhook_endpoints.c.event_types, installations.c.scopes)
        .select_from(webhook_endpoints.join(installations, installations.c.id == webhook_endpoints.c.installation_id))
        .where(and_(installations.c.tenant_id == tenant_id, installations.c.status == "enabled",
                    webhook_endpoints.c.enabled == 1, webhook_endpoints.c.deleted_at.is_(None)))
    ))


def create_delivery(conn: Connection, event_id: int, endpoint_id: int, now: datetime) -> None:
    conn.execute(insert(deliveries).values(
        pid=new_pid("dlv"), endpoint_id=endpoint_id, event_id=event_id, status="pending", attempts=0,
        next_attempt_at=now, created_at=now, updated_at=now,
    ))


def mark_dispatched(conn: Connection, event_ids: list[int], now: datetime) -> None:
    queues.mark_dispatched(conn, outbox_events, event_ids, now)


# -- delivery ----------------------------------------------------------------------------------------
def claim_due(conn: Connection, now: datetime, lease_until: datetime, limit: int) -> list[Row[Any]]:
    """Lease up to ``limit`` due deliveries to this worker; returns them with event and endpoint."""
    ids = queues.lease_due(conn, deliveries, now, lease_until, limit)
    if not ids:
        return []
    return list(conn.execute(
        select(deliveries, outbox_events.c.event_id.label("event_pid"), outbox_events.c.event_type,
               outbox_events.c.payload, outbox_events.c.occurred_at, outbox_events.c.request_id,
               webhook_endpoints.c.url, webhook_endpoints.c.enabled,
               webhook_endpoints.c.deleted_at.label("endpoint_deleted_at"),
               installations.c.status.label("installation_status"))
        .select_from(deliveries.join(outbox_events, outbox_events.c.id == deliveries.c.event_id)
                     .join(webhook_endpoints, webhook_endpoints.c.id == deliveries.c.endpoint_id)
                     .join(installations, installations.c.id == webhook_endpoints.c.installation_id))
        .where(deliveries.c.id.in_(ids))
        .order_by(deliveries.c.next_attempt_at, deliveries.c.id)
    ))


def record_attempt(conn: Connection, delivery_id: int, attempted_at: datetime, http_status: int | None,
                   latency_ms: int | None, error: str | None) -> None:
    conn.execute(insert(delivery_attempts).values(
        delivery_id=delivery_id, attempted_at=attempted_at, http_status=http_status, latency_ms=latency_ms,
        error=(error or None) and error[:300],
    ))


def finish_attempt(conn: Connection, delivery_id: int, attempts_before: int, values: dict[str, Any],
                   *, now: datetime) -> bool:
    """Apply the attempt's outcome unless another attempt's outcome was applied since the claim.

    Conditional on the attempt count, not on the lease: an outcome that arrives after its lease
    lapsed still moves the retry schedule on, so a delivery can't loop without ever dying.
    """
    result = conn.execute(
        update(deliveries)
        .where(and_(deliveries.c.id == delivery_id, deliveries.c.attempts == attempts_before))
        .values(**values, locked_until=None, updated_at=now)
    )
    return result.rowcount == 1


def delivery_by_pid(conn: Connection, pid: str) -> Row[Any] | None:
    return conn.execute(
        select(deliveries, webhook_endpoints.c.pid.label("endpoint_pid"),
               webhook_endpoints.c.installation_id, installations.c.tenant_id,
               installations.c.status.label("installation_status"),
               applications.c.pid.label("application_pid"))
        .select_from(deliveries.join(webhook_endpoints, webhook_endpoints.c.id == deliveries.c.endpoint_id)
                     .join(installations, installations.c.id == webhook_endpoints.c.installation_id)
                     .join(applications, applications.c.id == installations.c.application_id))
        .where(deliveries.c.pid == pid)
    ).first()


def requeue(conn: Connection, delivery_id: int, now: datetime) -> None:
    """Replay: deliver again now, with the same delivery and event ids and a fresh retry budget."""
    conn.execute(update(deliveries).where(deliveries.c.id == delivery_id).values(
        status="pending", attempts=0, next_attempt_at=now, locked_until=None, updated_at=now))


DELIVERY_STATUSES = ("pending", "delivered", "retrying", "dead")
DELIVERY_FIELDS: dict[str, ListField] = {
    "status": ListField("status", "enum", deliveries.c.status, DELIVERY_STATUSES),
    "attempts": ListField("attempts", "integer", deliveries.c.attempts),
    "created_at": ListField("created_at", "timestamp", deliveries.c.created_at),
    "updated_at": ListField("updated_at", "timestamp", deliveries.c.updated_at),
}


def deliveries_page(conn: Connection, endpoint_id: int, request: ListRequest) -> tuple[list[Row[Any]], int]:
    """One page of the endpoint's deliveries (with the event's id and type) and the total."""
    base = (
        select(deliveries, outbox_events.c.event_id.label("event_pid"), outbox_events.c.event_type)
        .select_from(deliveries.join(outbox_events, outbox_events.c.id == deliveries.c.event_id))
        .where(deliveries.c.endpoint_id == endpoint_id)
    )
    return run_list(conn, build_queries(base, [], request, deliveries.c.id, keyword_in(deliveries.c.pid)))


def attempts_of(conn: Connection, delivery_ids: list[int]) -> dict[int, list[Row[Any]]]:
    found: dict[int, list[Row[Any]]] = {i: [] for i in delivery_ids}
    if delivery_ids:
        for row in conn.execute(select(delivery_attempts).where(delivery_attempts.c.delivery_id.in_(delivery_ids))
                                .order_by(delivery_attempts.c.id)):
            found[row.delivery_id].append(row)
    return found
