"""A delivery batch, end to end: lease the due deliveries and apply the owners' throttles (one
transaction), send them (``sender``), then record every attempt, every delivery's next state
(``outcomes``) and any endpoint disabled (``disabling``) in one closing transaction."""

from __future__ import annotations

import logging
import os
import socket
from datetime import datetime, timedelta

from storage import webhooks as store
from tessera.runtime import Runtime
from tessera.webhooks import throttle
from tessera.webhooks.sending.disabling import judge_endpoints
from tessera.webhooks.sending.outcomes import AttemptResult, next_state
from tessera.webhooks.sending.sender import Sender

log = logging.getLogger("tessera.webhooks")

LEASE_MARGIN_SECONDS = 30


async def deliver_due(rt: Runtime, sender: Sender | None = None, limit: int = 200, worker: str | None = None,
                      tenant_id: int | None = None) -> int:
    """Lease due deliveries (only the tenant's when one is given), send them concurrently, record
    each outcome; returns how many.

    Every attempt has a hard wall-clock deadline (``TESSERA_WEBHOOK_TIMEOUT_SECONDS``, enforced by
    cancellation, not only per socket operation: a receiver that drips its answer byte by byte is
    cut off), and the batch runs concurrently, so the whole batch ends well inside its lease and no
    other worker can claim a delivery while it is being sent.
    """
    planned, secrets = await _claim(rt, limit, tenant_id)
    own = sender is None
    active = sender or Sender(rt.settings.webhook_timeout_seconds)
    worker = worker or f"{socket.gethostname()}:{os.getpid()}/-"
    if planned.wake_at is not None:  # kept until the worker wakes for it (a pass finding nothing keeps it)
        active.wake_at = planned.wake_at
    if not planned.send:
        return 0
    rows = [row for row, _ in planned.send]
    sealed = {row.id: secrets[row.endpoint_id] for row in rows}
    started = rt.clock.now()
    try:
        results = await active.send_all(rt, planned.send, sealed, worker)
    finally:
        if own:
            await active.close()
    await _finish_all(rt, rows, results, started, worker)
    return len(rows)


async def _claim(rt: Runtime, limit: int, tenant_id: int | None) -> tuple[throttle.Plan, dict[int, list[str]]]:
    """Lease up to ``limit`` due deliveries and plan them under their throttles, with the sealed
    secrets of the endpoints sent to, in one transaction. The lease covers every wave of the batch
    (at most the concurrency each, each within the timeout) and a margin."""
    now = rt.clock.now()
    waves = -(-limit // rt.settings.webhook_concurrency)
    lease = now + timedelta(seconds=rt.settings.webhook_timeout_seconds * waves + LEASE_MARGIN_SECONDS)
    async with rt.db.write() as conn:
        claimed = await store.claim_due(conn, now, lease, limit, tenant_id)
        await store.forget_in_flight(conn, [row.id for row in claimed])  # a lapsed worker's: unknown
        planned = await throttle.plan(conn, claimed, now, lease)
        secrets = await store.active_secrets_of(conn, [row.endpoint_id for row, _ in planned.send], now)
    return planned, secrets


async def _finish_all(rt: Runtime, rows: list[store.ClaimedDeliveryRow], results: list[AttemptResult],
                      started: datetime, worker: str) -> None:
    """Every outcome of a batch in one transaction: its attempts, the deliveries' next states and
    (rarely) an endpoint disabled by a 410. On PostgreSQL the batch is one round trip."""
    now = rt.clock.now()
    outcomes = [next_state(rt, row, result) for row, result in zip(rows, results, strict=True)]
    async with rt.db.write() as conn:
        for row, result in zip(rows, results, strict=True):
            if result.begun:  # its in-flight row was committed before the request: complete it
                await store.complete_attempt(conn, row.id, worker, result.http_status, result.latency_ms,
                                             result.error, excerpt=result.excerpt)
            else:  # nothing was sent (refused URL, disabled endpoint): recorded as it ended
                await store.record_attempt(conn, row.id, started, result.http_status, result.latency_ms,
                                           result.error, worker=worker, excerpt=result.excerpt)
        await store.finish_attempts(conn, [(row.id, row.attempts, values) for row, values in
                                           zip(rows, outcomes, strict=True)], now=now)
        await judge_endpoints(rt, conn, rows, results, now)
    for row, result, values in zip(rows, results, outcomes, strict=True):
        log.info("webhook.attempt", extra={"deliveryId": row.pid, "eventId": row.event_pid, "status": values["status"],
                                           "httpStatus": result.http_status, "latencyMs": result.latency_ms,
                                           "requestId": row.request_id})
        rt.metrics.delivery_attempt(result.latency_ms / 1000, values["status"])
