"""The transactional outbox of webhook events.

``append`` is called inside the transaction of the change that emits the event, so the event
exists exactly when the change committed. Delivery (fan-out to endpoints, signing, retries) reads
these rows later and never inside the request.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row, select

from storage.tables import outbox_events
from tessera.core.ids import new_pid

EVENT_PREFIX = "evt"


def append(conn: Connection, *, tenant_id: int, event_type: str, payload: dict[str, Any],
           request_id: str | None, now: datetime) -> str:
    event_id = new_pid(EVENT_PREFIX)
    conn.execute(
        outbox_events.insert().values(
            event_id=event_id, tenant_id=tenant_id, event_type=event_type, payload=payload,
            request_id=request_id, occurred_at=now,
        )
    )
    return event_id


def for_tenant(conn: Connection, tenant_id: int, event_type: str | None = None) -> list[Row[Any]]:
    """The tenant's events, oldest first (for tests and the administration surface)."""
    query = select(outbox_events).where(outbox_events.c.tenant_id == tenant_id)
    if event_type is not None:
        query = query.where(outbox_events.c.event_type == event_type)
    return list(conn.execute(query.order_by(outbox_events.c.id)))
