"""Webhook delivery: outbox fan-out, signed POSTs, retries with backoff, dead-letter, replay.

1. ``dispatch`` turns each new outbox event into one delivery per enabled endpoint (of an enabled
   installation of the event's tenant) subscribed to its type, and stamps the event dispatched, in
   one transaction.
2. ``deliver_due`` leases due deliveries, then sends them concurrently outside any transaction,
   each under a hard wall-clock deadline, so a batch always ends inside its lease: the body is the
   same bytes on every attempt (event id, type, schemaVersion, occurredAt, tenant-free payload);
   ``X-Webhook-Timestamp`` and ``X-Webhook-Signature`` (``sha256=`` HMAC of ``<timestamp>.<body>``,
   one per active secret, newest first) are computed per attempt; ``X-Webhook-Delivery`` is the
   delivery id, the same on retries and replays. Every attempt is recorded with time, status and
   latency. A 2xx delivers; anything else retries after the next delay of the retry schedule (with
   +-20% jitter so failed receivers are not hit in lockstep), and after the last retry the delivery
   is dead (the dead-letter queue) until an owner replays it.
3. The URL is checked against the SSRF rules again before every attempt; redirects are not followed.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import random
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import httpx
from sqlalchemy import Row

from storage import webhooks as store
from tessera.core.clock import iso
from tessera.events.urls import UnsafeWebhookUrl, check_url
from tessera.runtime import Runtime

log = logging.getLogger("tessera.webhooks")

LEASE_MARGIN_SECONDS = 30
USER_AGENT = "Tessera-Webhooks/1"


def signature(secret: str, timestamp: int, body: bytes) -> str:
    digest = hmac.new(secret.encode(), str(timestamp).encode() + b"." + body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def body_of(row: Row[Any]) -> bytes:
    """The delivery body: identical on every attempt of the same event."""
    document = {"id": row.event_pid, "type": row.event_type, "schemaVersion": 1,
                "occurredAt": iso(row.occurred_at), "data": row.payload}
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()


def dispatch(rt: Runtime, limit: int = 200) -> int:
    """Fan new outbox events out to subscribed endpoints; returns the number of deliveries made."""
    made = 0
    now = rt.clock.now()
    with rt.db.write() as conn:
        events = store.pending_events(conn, limit)
        endpoints_by_tenant: dict[int, list[Row[Any]]] = {}
        for event in events:
            if event.tenant_id not in endpoints_by_tenant:
                endpoints_by_tenant[event.tenant_id] = store.subscribed_endpoints(conn, event.tenant_id)
            published = rt.capabilities.webhook_events.get(event.event_type)
            for endpoint in endpoints_by_tenant[event.tenant_id]:
                # Scopes may have been narrowed since the endpoint subscribed: check them now.
                if published is not None and event.event_type in endpoint.event_types \
                        and published.resource.read_scope in endpoint.scopes:
                    store.create_delivery(conn, event.id, endpoint.id, now)
                    made += 1
        if events:
            store.mark_dispatched(conn, [e.id for e in events], now)
    return made


@dataclass(frozen=True)
class AttemptResult:
    http_status: int | None
    latency_ms: int
    error: str | None

    @property
    def ok(self) -> bool:
        return self.http_status is not None and 200 <= self.http_status < 300


class Sender:
    """An event loop, an HTTP client and a resolver pool kept for a worker's lifetime.

    Building them per batch cost more CPU than the deliveries themselves; a worker makes one and
    reuses it for every pass. Not thread-safe: one per worker thread.
    """

    def __init__(self, timeout: float) -> None:
        self.loop = asyncio.new_event_loop()
        self.client = httpx.AsyncClient(headers={"User-Agent": USER_AGENT}, timeout=timeout, follow_redirects=False)
        # DNS lookups (the SSRF check) block; a pool the batch never waits on keeps a hung resolver
        # from holding a batch past its deadline.
        self.resolver = ThreadPoolExecutor(max_workers=4, thread_name_prefix="tessera-dns")

    def send_all(self, rt: Runtime, rows: list[Row[Any]], sealed: dict[int, list[str]]) -> list[AttemptResult]:
        timeout = rt.settings.webhook_timeout_seconds

        async def batch() -> list[AttemptResult]:
            return list(await asyncio.gather(*(_attempt(rt, self, row, sealed[row.id], timeout) for row in rows)))

        return self.loop.run_until_complete(batch())

    def close(self) -> None:
        self.loop.run_until_complete(self.client.aclose())
        self.loop.close()
        self.resolver.shutdown(wait=False, cancel_futures=True)


def deliver_due(rt: Runtime, sender: Sender | None = None, limit: int = 50) -> int:
    """Lease due deliveries, send them concurrently, record each outcome; returns how many.

    Every attempt has a hard wall-clock deadline (``TESSERA_WEBHOOK_TIMEOUT_SECONDS``, enforced by
    cancellation, not only per socket operation: a receiver that drips its answer byte by byte is
    cut off), and the batch runs concurrently, so the whole batch ends well inside its lease and no
    other worker can claim a delivery while it is being sent.
    """
    now = rt.clock.now()
    lease = now + timedelta(seconds=rt.settings.webhook_timeout_seconds + LEASE_MARGIN_SECONDS)
    with rt.db.write() as conn:
        claimed = store.claim_due(conn, now, lease, limit)
        sealed = {row.id: store.active_secrets(conn, row.endpoint_id, now) for row in claimed}
    if not claimed:
        return 0
    started = rt.clock.now()
    own = sender is None
    active = sender or Sender(rt.settings.webhook_timeout_seconds)
    try:
        results = active.send_all(rt, claimed, sealed)
    finally:
        if own:
            active.close()
    for row, result in zip(claimed, results, strict=True):
        _finish(rt, row, result, started)
    return len(claimed)


def _finish(rt: Runtime, row: Row[Any], result: AttemptResult, started: datetime) -> None:
    schedule = rt.settings.webhook_retry_schedule
    attempts = row.attempts + 1
    values: dict[str, Any] = {"attempts": attempts, "last_http_status": result.http_status}
    if result.ok:
        values.update(status="delivered", next_attempt_at=None)
    elif attempts <= len(schedule):
        delay = schedule[attempts - 1] * random.uniform(0.8, 1.2)  # jitter, not security
        values.update(status="retrying", next_attempt_at=rt.clock.now() + timedelta(seconds=delay))
    else:
        values.update(status="dead", next_attempt_at=None)
    with rt.db.write() as conn:
        store.record_attempt(conn, row.id, started, result.http_status, result.latency_ms, result.error)
        if not store.finish_attempt(conn, row.id, row.attempts, values, now=rt.clock.now()):
            log.warning("webhook.outcome_superseded", extra={"deliveryId": row.pid})
    log.info("webhook.attempt", extra={"deliveryId": row.pid, "eventId": row.event_pid, "status": values["status"],
                                       "httpStatus": result.http_status, "latencyMs": result.latency_ms,
                                       "requestId": row.request_id})


async def _attempt(rt: Runtime, sender: Sender, row: Row[Any], sealed: list[str], timeout: float) -> AttemptResult:
    started = time.perf_counter()
    try:
        return await asyncio.wait_for(_send(rt, sender, row, sealed, started), timeout)
    except TimeoutError:
        return AttemptResult(None, _ms(started), "timeout")
    except Exception as exc:  # anything else is this attempt's failure, never the batch's
        log.warning("webhook.attempt_error", extra={"deliveryId": row.pid, "error": type(exc).__name__})
        return AttemptResult(None, _ms(started), type(exc).__name__)


async def _send(rt: Runtime, sender: Sender, row: Row[Any], sealed: list[str], started: float) -> AttemptResult:
    if not row.enabled or row.endpoint_deleted_at is not None:
        return AttemptResult(None, 0, "endpoint disabled")
    if row.installation_status != "enabled":
        return AttemptResult(None, 0, "installation disabled")
    loop = asyncio.get_running_loop()
    try:
        allow_loopback = rt.settings.webhook_allow_loopback
        await loop.run_in_executor(sender.resolver, lambda: check_url(row.url, allow_loopback=allow_loopback))
    except UnsafeWebhookUrl as exc:
        return AttemptResult(None, 0, f"refused: {exc.message}")
    secrets = [rt.secret_box.open(s).decode() for s in sealed]
    if not secrets:
        return AttemptResult(None, 0, "no active secret")
    body = body_of(row)
    timestamp = int(rt.clock.time())
    headers = {
        "Content-Type": "application/json",
        "X-Webhook-Timestamp": str(timestamp),
        "X-Webhook-Signature": ",".join(signature(s, timestamp, body) for s in secrets),
        "X-Webhook-Delivery": row.pid,
    }
    try:
        request = sender.client.build_request("POST", row.url, content=body, headers=headers)
        # Only the status matters: the response body is never read.
        response = await sender.client.send(request, stream=True)
        await response.aclose()
        return AttemptResult(response.status_code, _ms(started), None)
    except httpx.HTTPError as exc:
        return AttemptResult(None, _ms(started), type(exc).__name__)


def _ms(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)
