"""The transactional outbox of webhook events.

``append`` is called inside the transaction of the change that emits the event, so the event
exists exactly when the change committed. Delivery (fan-out to endpoints, signing, retries) reads
these rows later and never inside the request.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import select

from storage.drivers.engine import Executor, Query, Statement, bound
from storage.schema.tables import outbox_events
from tessera import tracing
from tessera.core.ids import new_pid

EVENT_PREFIX = "evt"


class OutboxEventRow(NamedTuple):
    """A row of ``outbox_events``."""

    id: int
    event_id: str
    tenant_id: int
    event_type: str
    payload: dict[str, Any]
    request_id: str | None
    occurred_at: datetime
    dispatched_at: datetime | None
    feed_seq: int | None
    application_id: int | None
    traceparent: str | None


_APPEND = Statement(outbox_events.insert().values(bound(
    "event_id", "tenant_id", "event_type", "payload", "request_id", "occurred_at", "application_id", "traceparent")))


async def append(conn: Executor, *, tenant_id: int, event_type: str, payload: dict[str, Any],
                 request_id: str | None, now: datetime, application_id: int | None = None) -> str:
    """Append one event; ``application_id`` names the application an operational event concerns.

    With tracing on, the hand-off is a span of its own and the event keeps its ``traceparent``:
    the worker's fan-out and delivery attempts continue that trace (NULL when tracing is off)."""
    event_id = new_pid(EVENT_PREFIX)
    traceparent = None if tracing.tracer is None else tracing.hand_off(event_id, event_type)
    await conn.enqueue(_APPEND, {"event_id": event_id, "tenant_id": tenant_id, "event_type": event_type,
                                 "payload": payload, "request_id": request_id, "occurred_at": now,
                                 "application_id": application_id, "traceparent": traceparent})
    return event_id


async def for_tenant(conn: Executor, tenant_id: int, event_type: str | None = None) -> list[OutboxEventRow]:
    """The tenant's events, oldest first (for tests and the administration surface)."""
    query = select(outbox_events).where(outbox_events.c.tenant_id == tenant_id)
    if event_type is not None:
        query = query.where(outbox_events.c.event_type == event_type)
    return list(await conn.execute(Query(query.order_by(outbox_events.c.id), OutboxEventRow)))
