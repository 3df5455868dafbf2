"""Webhook delivery: outbox fan-out, signed POSTs, retries with backoff, dead-letter, replay.

1. ``dispatch`` turns each new outbox event into one delivery per enabled endpoint (of an enabled
   installation of the event's tenant) subscribed to its type, and stamps the event dispatched, in
   one transaction.
2. ``deliver_due`` leases due deliveries, then sends each outside any transaction: the body is the
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

import hashlib
import hmac
import json
import logging
import random
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import httpx
from sqlalchemy import Row

from storage import webhooks as store
from storage.records import iso
from storage.types import utcnow
from tessera.runtime import Runtime
from tessera.webhook_urls import UnsafeWebhookUrl, check_url

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
    now = utcnow()
    with rt.db.write() as conn:
        events = store.pending_events(conn, limit)
        endpoints_by_tenant: dict[int, list[Row[Any]]] = {}
        for event in events:
            if event.tenant_id not in endpoints_by_tenant:
                endpoints_by_tenant[event.tenant_id] = store.subscribed_endpoints(conn, event.tenant_id)
            for endpoint in endpoints_by_tenant[event.tenant_id]:
                if event.event_type in endpoint.event_types:
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


def deliver_due(rt: Runtime, client: httpx.Client, limit: int = 20) -> int:
    """Lease and attempt due deliveries; returns how many were attempted."""
    now = utcnow()
    lease = now + timedelta(seconds=rt.settings.webhook_timeout_seconds + LEASE_MARGIN_SECONDS)
    with rt.db.write() as conn:
        claimed = store.claim_due(conn, now, lease, limit)
        secrets = {row.id: store.active_secrets(conn, row.endpoint_id, now) for row in claimed}
    timeout = timedelta(seconds=rt.settings.webhook_timeout_seconds)
    for index, row in enumerate(claimed):
        if utcnow() + timeout >= lease:
            # Slow receivers used up the lease: an attempt started now could outlive it and race
            # another worker. Hand the rest back at once instead.
            with rt.db.write() as conn:
                store.release(conn, [r.id for r in claimed[index:]], lease)
            return index
        attempt(rt, client, row, [rt.sealed_secrets.open(s) for s in secrets[row.id]], lease)
    return len(claimed)


def attempt(rt: Runtime, client: httpx.Client, row: Row[Any], secrets: list[str], lease: Any) -> AttemptResult:
    started = utcnow()
    if not row.enabled or row.endpoint_deleted_at is not None:
        result = AttemptResult(None, 0, "endpoint disabled")
    else:
        result = _send(rt, client, row, secrets)
    schedule = rt.settings.webhook_retry_schedule
    attempts = row.attempts + 1
    values: dict[str, Any] = {"attempts": attempts, "last_http_status": result.http_status}
    if result.ok:
        values.update(status="delivered", next_attempt_at=None)
    elif attempts <= len(schedule):
        delay = schedule[attempts - 1] * random.uniform(0.8, 1.2)  # jitter, not security
        values.update(status="retrying", next_attempt_at=utcnow() + timedelta(seconds=delay))
    else:
        values.update(status="dead", next_attempt_at=None)
    with rt.db.write() as conn:
        store.record_attempt(conn, row.id, started, result.http_status, result.latency_ms, result.error)
        if not store.finish_attempt(conn, row.id, lease, values):
            log.warning("webhook.lease_lapsed", extra={"deliveryId": row.pid})
    log.info("webhook.attempt", extra={"deliveryId": row.pid, "eventId": row.event_pid, "status": values["status"],
                                       "httpStatus": result.http_status, "latencyMs": result.latency_ms,
                                       "requestId": row.request_id})
    return result


def _send(rt: Runtime, client: httpx.Client, row: Row[Any], secrets: list[str]) -> AttemptResult:
    try:
        check_url(row.url, allow_loopback=rt.settings.webhook_allow_loopback)
    except UnsafeWebhookUrl as exc:
        return AttemptResult(None, 0, f"refused: {exc.message}")
    if not secrets:
        return AttemptResult(None, 0, "no active secret")
    body = body_of(row)
    timestamp = int(time.time())
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "X-Webhook-Timestamp": str(timestamp),
        "X-Webhook-Signature": ",".join(signature(s, timestamp, body) for s in secrets),
        "X-Webhook-Delivery": row.pid,
    }
    if row.request_id:
        headers["X-Request-Id"] = row.request_id
    started = time.perf_counter()
    try:
        response = client.post(row.url, content=body, headers=headers, timeout=rt.settings.webhook_timeout_seconds,
                               follow_redirects=False)
        return AttemptResult(response.status_code, _ms(started), None)
    except httpx.HTTPError as exc:
        return AttemptResult(None, _ms(started), f"{type(exc).__name__}")


def _ms(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)
