"""Deliveries, attempts and audited calls written straight into the tables at chosen times, for
the hourly statistics (the service would stamp them with the time it runs at)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import Engine, insert, select

from storage.schema.tables import (
    deliveries,
    delivery_attempts,
    installations,
    open_api_calls,
    outbox_events,
    webhook_endpoints,
)
from tessera.core.ids import new_pid


@dataclass
class Attempt:
    at: datetime
    http_status: int | None
    latency_ms: int | None
    error: str | None = None
    worker: str | None = "test-host:1/0"
    excerpt: str | None = None
    outcome: str | None = None  # None: succeeded for a 2xx, else failed (``sending``: a worker's in flight)

    @property
    def stored_outcome(self) -> str:
        if self.outcome is not None:
            return self.outcome
        return "succeeded" if self.http_status is not None and 200 <= self.http_status < 300 else "failed"


@dataclass
class Seeded:
    """One delivery: its attempts, oldest first, and its status now; it was last changed at its
    last attempt unless ``updated`` says otherwise (a replay)."""

    status: str
    attempts: list[Attempt] = field(default_factory=list)
    created: datetime | None = None
    updated: datetime | None = None
    locked_until: datetime | None = None  # a worker's lease on it (one is sending it now)


def seed_deliveries(engine: Engine, endpoint_pid: str, seeded: list[Seeded]) -> list[str]:
    """Write the deliveries (each with an event of its own) to the endpoint; their pids."""
    pids = []
    with engine.begin() as conn:
        endpoint = conn.execute(
            select(webhook_endpoints.c.id, installations.c.tenant_id)
            .select_from(webhook_endpoints.join(installations,
                                                installations.c.id == webhook_endpoints.c.installation_id))
            .where(webhook_endpoints.c.pid == endpoint_pid)).one()
        for item in seeded:
            created = item.created or item.attempts[0].at
            updated = item.updated or (item.attempts[-1].at if item.attempts else created)
            event_id = conn.execute(insert(outbox_events).values(
                event_id=new_pid("evt"), tenant_id=endpoint.tenant_id, event_type="assets.assignment.changed",
                payload={"seeded": True}, occurred_at=created, dispatched_at=created,
            ).returning(outbox_events.c.id)).scalar_one()
            pid = new_pid("dlv")
            delivery_id = conn.execute(insert(deliveries).values(
                pid=pid, endpoint_id=endpoint.id, event_id=event_id, status=item.status,
                attempts=len(item.attempts), next_attempt_at=None, locked_until=item.locked_until,
                last_http_status=item.attempts[-1].http_status if item.attempts else None,
                created_at=created, updated_at=updated,
            ).returning(deliveries.c.id)).scalar_one()
            for attempt in item.attempts:
                conn.execute(insert(delivery_attempts).values(
                    delivery_id=delivery_id, attempted_at=attempt.at, http_status=attempt.http_status,
                    latency_ms=attempt.latency_ms, error=attempt.error, worker=attempt.worker,
                    response_excerpt=attempt.excerpt, outcome=attempt.stored_outcome))
            pids.append(pid)
    return pids


def seed_calls(engine: Engine, installation_pid: str, calls: list[tuple[datetime, int]]) -> None:
    """Audited Open Platform calls of the installation at the given times, with the given statuses."""
    with engine.begin() as conn:
        inst = conn.execute(select(installations.c.id, installations.c.tenant_id)
                            .where(installations.c.pid == installation_pid)).one()
        conn.execute(insert(open_api_calls), [
            {"installation_id": inst.id, "tenant_id": inst.tenant_id, "client_id": None, "method": "GET",
             "path": "/api/open/v1/whoami", "status": status, "request_id": f"seeded-{new_pid('req')}",
             "created_at": at}
            for at, status in calls])
