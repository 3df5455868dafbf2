"""Retention: what would otherwise grow forever, purged by the worker in bounded batches.

What goes, and when (each period is a setting in seconds; 0 keeps that kind forever):

- idempotency keys of both surfaces, once past their window (``TESSERA_IDEMPOTENCY_TTL_SECONDS``,
  24 h): an expired key is already treated as absent, so nothing a client sees changes (an Open
  Platform claim whose lease still runs is kept);
- access tokens ``TESSERA_RETENTION_TOKENS_SECONDS`` (1 day) after they expired, or after their
  credential was revoked (they stopped working then);
- the ``jti`` of each accepted client assertion (``private_key_jwt``) once the assertion expired:
  a replay of it is refused by its ``exp`` from then on (always purged, not a setting);
- call-audit rows older than ``TESSERA_RETENTION_CALL_AUDIT_SECONDS`` (90 days);
- delivery attempts older than ``TESSERA_RETENTION_DELIVERY_ATTEMPTS_SECONDS`` (30 days);
- ``TESSERA_RETENTION_EVENTS_SECONDS`` (30 days): a delivery finished (delivered or dead) that
  long ago, once none of its attempts is left; an outbox event dispatched that long ago, once none
  of its deliveries is left; an automation run that succeeded that long ago; an inbound event
  dispatched that long ago, once none of its runs is left (its ``Idempotency-Key`` may then be
  used again). Deliveries in flight or retrying keep their event; parked runs are never purged
  (they wait for an administrator), nor their events.

A row goes only when nothing references it, so a purge never violates a foreign key and never
cascades: with an attempts period longer than the events period, a delivery and its event simply
wait for their last attempt to go.

Bounded: each DELETE removes at most ``TESSERA_RETENTION_BATCH_SIZE`` rows (1,000), chosen by
primary key, in autocommit: on SQLite the writer lock is held for one batch and then other writers
get their turn. A purge runs at most ``MAX_BATCHES`` batches per rule; what is left waits for the
next purge, which the worker then runs on its next pass instead of an interval later, so a backlog
(the first purge of an old database) drains between deliveries rather than in one long pass.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from storage import retention as store
from tessera.core.settings import Settings
from tessera.runtime import Runtime

log = logging.getLogger("tessera.retention")

MAX_BATCHES = 10  # per rule and purge


@dataclass
class Purged:
    """What one purge deleted, per table, and which tables still hold rows past their period."""

    counts: dict[str, int] = field(default_factory=dict)
    unfinished: list[str] = field(default_factory=list)
    longest_batch_ms: float = 0.0

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def periods(settings: Settings) -> dict[str, float]:
    """Seconds each kind of row is kept past its reference time (0: forever)."""
    return {
        store.IDEMPOTENCY: float(settings.idempotency_ttl_seconds),
        store.TOKENS: settings.retention_tokens_seconds,
        store.CALL_AUDIT: settings.retention_call_audit_seconds,
        store.DELIVERY_ATTEMPTS: settings.retention_delivery_attempts_seconds,
        store.EVENTS: settings.retention_events_seconds,
        store.ASSERTIONS: 1.0,  # the row's expires_at already includes the assertion's leeway
    }


async def purge(rt: Runtime, now: datetime, *, batch_size: int | None = None,
                max_batches: int = MAX_BATCHES) -> Purged:
    """Delete what is past its period at ``now``, each rule in at most ``max_batches`` DELETEs of
    at most ``batch_size`` rows (default ``TESSERA_RETENTION_BATCH_SIZE``)."""
    limit = batch_size or rt.settings.retention_batch_size
    kept = periods(rt.settings)
    purged = Purged()
    for rule in store.RULES:
        purged.counts.setdefault(rule.table, 0)
        seconds = kept[rule.period]
        if seconds <= 0:
            continue
        cutoff = now - timedelta(seconds=seconds)
        for _ in range(max_batches):
            started = time.perf_counter()
            deleted = await store.purge_batch(rt.db, rule, cutoff=cutoff, now=now, limit=limit)
            purged.longest_batch_ms = max(purged.longest_batch_ms, (time.perf_counter() - started) * 1000)
            purged.counts[rule.table] += deleted
            if deleted < limit:
                break
        else:
            if rule.table not in purged.unfinished:
                purged.unfinished.append(rule.table)
    return purged


class Schedule:
    """When a worker purges next: every ``TESSERA_RETENTION_INTERVAL_SECONDS`` by the runtime's
    clock (the first one an interval after the worker starts), or on the next pass while a purge
    left rows past their period; never with an interval of 0."""

    def __init__(self, rt: Runtime) -> None:
        self.runtime = rt
        self.interval = timedelta(seconds=rt.settings.retention_interval_seconds)
        self.next_at = rt.clock.now() + self.interval

    async def run_if_due(self) -> int:
        """Purge if it is time; the rows deleted."""
        rt = self.runtime
        if not self.interval:
            return 0
        now = rt.clock.now()
        if now < self.next_at:
            return 0
        self.next_at = now + self.interval
        try:
            purged = await purge(rt, now)
        except Exception:  # a locked or restarting database: try again an interval later
            log.exception("retention.failed")
            return 0
        if purged.unfinished:
            self.next_at = now
        log.info("retention.purged", extra={"rows": purged.total, "counts": purged.counts,
                                            "unfinished": purged.unfinished,
                                            "longestBatchMs": round(purged.longest_batch_ms, 1)})
        return purged.total
