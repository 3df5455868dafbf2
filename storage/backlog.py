"""The work queues' backlog, for the metrics: deliveries waiting or dead, events not yet fanned
out, automation runs waiting or parked, inbound events not yet dispatched to automations.

Four statements, each served by an index (``ix_deliveries_due`` and ``ix_automation_runs_due``:
status, next_attempt_at; ``ix_outbox_events_pending`` and ``ix_inbound_events_pending``:
dispatched_at, id), so a scrape never scans finished rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import func, select

from storage.drivers.engine import Executor, Statement
from storage.schema.tables import automation_runs, deliveries, inbound_events, outbox_events

WAITING = ("pending", "retrying")
COUNTED = (*WAITING, "dead")


class _StatusCount(NamedTuple):
    status: str
    n: int
    oldest: datetime | None  # the earliest next attempt of the status's deliveries


class _Pending(NamedTuple):
    n: int
    oldest: datetime | None


class _RunCount(NamedTuple):
    status: str
    n: int


_DELIVERIES = Statement(
    select(deliveries.c.status, func.count().label("n"), func.min(deliveries.c.next_attempt_at).label("oldest"))
    .where(deliveries.c.status.in_(COUNTED))
    .group_by(deliveries.c.status),
    row=_StatusCount,
)
_OUTBOX = Statement(
    select(func.count().label("n"), func.min(outbox_events.c.occurred_at).label("oldest"))
    .where(outbox_events.c.dispatched_at.is_(None)),
    row=_Pending,
)


RUNS_COUNTED = ("pending", "retrying", "parked")
_RUNS = Statement(
    select(automation_runs.c.status, func.count().label("n"))
    .where(automation_runs.c.status.in_(RUNS_COUNTED))
    .group_by(automation_runs.c.status),
    row=_RunCount,
)
_INBOUND = Statement(
    select(func.count().label("n"), func.min(inbound_events.c.received_at).label("oldest"))
    .where(inbound_events.c.dispatched_at.is_(None)),
    row=_Pending,
)


@dataclass(frozen=True)
class Backlog:
    deliveries: dict[str, int]  # pending, retrying and dead, each present (0 when none)
    oldest_due: datetime | None  # the earliest next attempt of a waiting delivery
    undispatched: int
    oldest_undispatched: datetime | None
    runs: dict[str, int]  # automation runs pending, retrying and parked, each present
    inbound_undispatched: int
    oldest_inbound: datetime | None


async def backlog(conn: Executor) -> Backlog:
    counts = dict.fromkeys(COUNTED, 0)
    oldest: datetime | None = None
    for row in await conn.execute(_DELIVERIES):
        counts[row.status] = int(row.n)
        if row.status in WAITING and row.oldest is not None and (oldest is None or row.oldest < oldest):
            oldest = row.oldest
    outbox = (await conn.execute(_OUTBOX)).one()
    runs = dict.fromkeys(RUNS_COUNTED, 0)
    for run in await conn.execute(_RUNS):
        runs[run.status] = int(run.n)
    inbound = (await conn.execute(_INBOUND)).one()
    return Backlog(counts, oldest, int(outbox.n), outbox.oldest, runs, int(inbound.n), inbound.oldest)
