"""Webhook delivery: outbox fan-out, signed POSTs, retries with backoff, dead-letter, replay.

1. ``dispatch`` turns each new outbox event into one delivery per enabled endpoint (of an enabled
   installation of the event's tenant) subscribed to its type, and stamps the event dispatched, in
   one transaction.
2. ``deliver_due`` leases due deliveries, then sends them concurrently outside any transaction,
   each under a hard wall-clock deadline, so a batch always ends inside its lease: the body is the
   same bytes on every attempt (event id, type, schemaVersion, occurredAt, tenant-free payload);
   the signature headers are computed per attempt, in the endpoint's ``signature_format``:
   ``tessera``: ``X-Webhook-Timestamp`` and ``X-Webhook-Signature`` (``sha256=`` HMAC of
   ``<timestamp>.<body>``, one per active secret, newest first, comma-separated) and
   ``X-Webhook-Delivery``, the delivery id, the same on retries and replays; ``standard-webhooks``
   (the Standard Webhooks specification): ``webhook-id`` (the delivery id), ``webhook-timestamp``
   and ``webhook-signature`` (``v1,`` base64 HMAC of ``<id>.<timestamp>.<body>``, one per active
   secret, newest first, space-separated). Every attempt is recorded with time, status and
   latency, and recorded before its request goes out (see 4). A 2xx delivers; anything else
   retries after the next delay of the retry schedule (with +-20% jitter so failed receivers are
   not hit in lockstep), and after the last retry the delivery is dead (the dead-letter queue)
   until an owner replays it.
3. The URL is checked against the SSRF rules again before every attempt (once per batch), and the
   connection goes to the addresses that check vetted, never resolved again (``tessera.events.
   pinning``: no DNS rebinding between the check and the send); redirects are not followed.
4. Every request a worker sends has its attempt row committed first, with outcome ``sending`` and
   its start time (``_Journal``), and completed with status, latency and outcome (``succeeded`` or
   ``failed``) in the batch's closing transaction. A worker killed between the two leaves the row:
   when the delivery's lease lapses it reads ``unknown`` ("worker stopped..."), and claiming the
   delivery again stores that, so the delivery log lists every request a receiver may have got;
   the delivery is sent again under the same delivery id. The cost: the rows of the requests that
   start together go in one write (group commit: one write at a time per batch, the requests that
   start while it runs join the next), so a batch makes one more transaction per group, at least
   one and at most one per request; on PostgreSQL each is one round trip (BEGIN to COMMIT
   pipelined). A 32-wide batch to a fast receiver makes a few. Each request waits for its row's
   commit. Completing the row is an UPDATE in the closing transaction instead of the INSERT it
   replaced, and marking a lapsed worker's rows ``unknown`` rides the claim's transaction: neither
   adds a round trip.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import json
import logging
import os
import random
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from email.utils import parsedate_to_datetime
from typing import Any

import aiohttp

from storage import audit, outbox
from storage import webhooks as store
from storage.engine import Executor
from tessera.core.clock import iso
from tessera.events import throttle
from tessera.events.pinning import PinnedResolver
from tessera.events.urls import UnsafeWebhookUrl, check_url
from tessera.events.verify import STANDARD_WEBHOOKS, sign_standard
from tessera.registry.operational import ENDPOINT_DISABLED, OPERATIONAL_EVENTS
from tessera.runtime import Runtime

log = logging.getLogger("tessera.webhooks")

LEASE_MARGIN_SECONDS = 30
USER_AGENT = "Tessera-Webhooks/1"


def signature(secret: str, timestamp: int, body: bytes) -> str:
    digest = hmac.new(secret.encode(), str(timestamp).encode() + b"." + body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def signature_headers(signature_format: str, secrets: list[str], timestamp: int, delivery_id: str,
                      body: bytes) -> dict[str, str]:
    """The headers that sign one attempt, in the endpoint's format, one signature per active secret."""
    if signature_format == STANDARD_WEBHOOKS:
        return {"webhook-id": delivery_id, "webhook-timestamp": str(timestamp),
                "webhook-signature": " ".join(sign_standard(body, s, timestamp, delivery_id) for s in secrets)}
    return {"X-Webhook-Timestamp": str(timestamp),
            "X-Webhook-Signature": ",".join(signature(s, timestamp, body) for s in secrets),
            "X-Webhook-Delivery": delivery_id}


def body_of(row: store.ClaimedDeliveryRow) -> bytes:
    """The delivery body: identical on every attempt of the same event."""
    document = {"id": row.event_pid, "type": row.event_type, "schemaVersion": 1,
                "occurredAt": iso(row.occurred_at), "data": row.payload}
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()


async def dispatch(rt: Runtime, limit: int = 200, tenant_id: int | None = None) -> int:
    """Fan new outbox events (only the tenant's when one is given) out to subscribed endpoints;
    returns the number of deliveries made."""
    made = 0
    now = rt.clock.now()
    async with rt.db.write() as conn:
        events = await store.pending_events(conn, limit, tenant_id)
        endpoints_by_tenant: dict[int, list[store.SubscriberRow]] = {}
        for event in events:
            if event.tenant_id not in endpoints_by_tenant:
                endpoints_by_tenant[event.tenant_id] = await store.subscribed_endpoints(conn, event.tenant_id)
            for endpoint in endpoints_by_tenant[event.tenant_id]:
                if _receives(rt, endpoint, event):
                    await store.create_delivery(conn, event.id, endpoint.id, now)
                    made += 1
        if events:
            await store.mark_dispatched(conn, [e.id for e in events], now)
    return made


def _receives(rt: Runtime, endpoint: store.SubscriberRow, event: outbox.OutboxEventRow) -> bool:
    """A subscribed endpoint receives a published event if its installation may still read the
    resource (scopes may have been narrowed since it subscribed), and an operational event if it
    concerns the endpoint's own application."""
    if event.event_type not in endpoint.event_types:
        return False
    if event.event_type in OPERATIONAL_EVENTS:
        return bool(event.payload.get("applicationId") == endpoint.application_pid)
    published = rt.capabilities.webhook_events.get(event.event_type)
    return published is not None and published.resource.read_scope in endpoint.scopes


EXCERPT_BYTES = 500
GONE = 410
THROTTLED = (429, 503)  # statuses whose Retry-After is honoured


@dataclass(frozen=True)
class AttemptResult:
    http_status: int | None
    latency_ms: int
    error: str | None
    retry_after: float | None = None  # seconds the receiver asked us to wait (429/503)
    excerpt: str | None = None  # the start of the receiver's answer
    begun: bool = False  # its in-flight attempt row was written before sending: complete that row

    @property
    def ok(self) -> bool:
        return self.http_status is not None and 200 <= self.http_status < 300


class _Flight:
    """One attempt's progress, readable after its deadline cancelled it."""

    begun = False


class _Journal:
    """Writes in-flight attempt rows before their requests go out, grouped: one write at a time, and
    the requests that begin while it runs go together in the next (group commit)."""

    def __init__(self, rt: Runtime, worker: str) -> None:
        self.rt = rt
        self.worker = worker
        self._waiting: list[tuple[int, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def begin(self, delivery_id: int) -> None:
        """Return once the delivery's ``sending`` attempt is committed; raise if it cannot be."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        future.add_done_callback(lambda f: f.cancelled() or f.exception())  # retrieved even if nobody waits
        self._waiting.append((delivery_id, future))
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write())
        await asyncio.shield(future)  # an attempt cut by its deadline does not cut the others' write

    async def _write(self) -> None:
        while self._waiting:
            group, self._waiting = self._waiting, []
            try:
                async with self.rt.db.write() as conn:
                    await store.begin_attempts(conn, [delivery_id for delivery_id, _ in group], self.rt.clock.now(),
                                               self.worker)
            except Exception as exc:  # each request of the group gives up: nothing is sent unrecorded
                for _, future in group:
                    future.set_exception(exc)
            else:
                for _, future in group:
                    future.set_result(None)


class Sender:
    """An HTTP client and a resolver pool kept for a worker's lifetime, on the worker's loop.

    Building them per batch cost more CPU than the deliveries themselves; a worker makes one and
    reuses it for every pass. The client is aiohttp's: measured on loopback receivers, httpx's
    async client spent about 2 ms of CPU per delivery in its connection pool alone.
    """

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self._session: aiohttp.ClientSession | None = None  # opened on the worker's loop, when first used
        # DNS lookups (the SSRF check) block; a pool the batch never waits on keeps a hung resolver
        # from holding a batch past its deadline.
        self.resolver = ThreadPoolExecutor(max_workers=4, thread_name_prefix="tessera-dns")
        # Per batch: each distinct URL is checked once, each endpoint's secrets opened once.
        self._checks: dict[str, asyncio.Task[str | None]] = {}
        self._opened: dict[tuple[str, ...], list[str]] = {}
        # Per batch: each checked host name -> the addresses its check vetted, the only ones the
        # HTTP client connects to (its resolver).
        self.pins = PinnedResolver()
        # When the first delivery a rate limit held back is due: the worker wakes then, not at its poll.
        self.wake_at: datetime | None = None

    async def send_all(self, rt: Runtime, planned: list[tuple[store.ClaimedDeliveryRow, float]],
                       sealed: dict[int, list[str]], worker: str) -> list[AttemptResult]:
        """Send a batch concurrently, at most ``TESSERA_WEBHOOK_CONCURRENCY`` requests at a time,
        each delivery no sooner than its rate limit's slot (seconds from now), each request's
        attempt recorded as ``worker``'s before it is sent."""
        timeout = rt.settings.webhook_timeout_seconds
        gate = asyncio.Semaphore(rt.settings.webhook_concurrency)
        journal = _Journal(rt, worker)
        self._checks, self._opened = {}, {}
        self.pins.clear()

        async def one(row: store.ClaimedDeliveryRow, wait: float) -> AttemptResult:
            if wait > 0:
                await asyncio.sleep(wait)
            async with gate:
                return await _attempt(rt, self, row, sealed[row.id], timeout, journal)

        return list(await asyncio.gather(*(one(row, wait) for row, wait in planned)))

    async def refusal(self, url: str, allow_loopback: bool) -> str | None:
        """Why the SSRF rules refuse ``url`` (None: allowed), checked once per batch on a thread
        (name resolution blocks)."""
        task = self._checks.get(url)
        if task is None:
            task = self._checks[url] = asyncio.get_running_loop().create_task(self._check(url, allow_loopback))
        return await asyncio.shield(task)  # one attempt's deadline must not cancel the others' check

    async def _check(self, url: str, allow_loopback: bool) -> str | None:
        try:
            vetted = await asyncio.get_running_loop().run_in_executor(
                self.resolver, functools.partial(check_url, url, allow_loopback=allow_loopback))
        except UnsafeWebhookUrl as exc:
            return exc.message
        self.pins.pin(vetted)
        return None

    def opened(self, rt: Runtime, sealed: list[str]) -> list[str]:
        key = tuple(sealed)
        found = self._opened.get(key)
        if found is None:
            found = self._opened[key] = [rt.secret_box.open(s).decode() for s in sealed]
        return found

    def session(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                headers={"User-Agent": USER_AGENT}, timeout=aiohttp.ClientTimeout(total=self.timeout),
                auto_decompress=False,
                connector=aiohttp.TCPConnector(limit=0, resolver=self.pins, use_dns_cache=False),
            )
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
        self.resolver.shutdown(wait=False, cancel_futures=True)


async def deliver_due(rt: Runtime, sender: Sender | None = None, limit: int = 200, worker: str | None = None,
                      tenant_id: int | None = None) -> int:
    """Lease due deliveries (only the tenant's when one is given), send them concurrently, record
    each outcome; returns how many.

    Every attempt has a hard wall-clock deadline (``TESSERA_WEBHOOK_TIMEOUT_SECONDS``, enforced by
    cancellation, not only per socket operation: a receiver that drips its answer byte by byte is
    cut off), and the batch runs concurrently, so the whole batch ends well inside its lease and no
    other worker can claim a delivery while it is being sent.
    """
    now = rt.clock.now()
    # The batch goes out in waves of at most the concurrency, each wave within the timeout.
    waves = -(-limit // rt.settings.webhook_concurrency)
    lease = now + timedelta(seconds=rt.settings.webhook_timeout_seconds * waves + LEASE_MARGIN_SECONDS)
    async with rt.db.write() as conn:
        claimed = await store.claim_due(conn, now, lease, limit, tenant_id)
        await store.forget_in_flight(conn, [row.id for row in claimed])  # a lapsed worker's: unknown
        planned = await throttle.plan(conn, claimed, now, lease)
        secrets = await store.active_secrets_of(conn, [row.endpoint_id for row, _ in planned.send], now)
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


def _outcome(rt: Runtime, row: store.ClaimedDeliveryRow, result: AttemptResult) -> dict[str, Any]:
    """The delivery's next state: delivered; dead (410 Gone, or no retry left); or retrying after
    the schedule's next delay, or after the receiver's Retry-After when it asked for longer."""
    schedule = rt.settings.webhook_retry_schedule
    attempts = row.attempts + 1
    values: dict[str, Any] = {"attempts": attempts, "last_http_status": result.http_status}
    if result.ok:
        values.update(status="delivered", next_attempt_at=None)
    elif result.http_status != GONE and attempts <= len(schedule):
        delay = schedule[attempts - 1] * random.uniform(0.8, 1.2)  # jitter, not security
        if result.http_status in THROTTLED and result.retry_after is not None:
            delay = max(delay, min(result.retry_after, rt.settings.webhook_max_retry_after_seconds))
        values.update(status="retrying", next_attempt_at=rt.clock.now() + timedelta(seconds=delay))
    else:
        values.update(status="dead", next_attempt_at=None)
    return values


async def _finish_all(rt: Runtime, rows: list[store.ClaimedDeliveryRow], results: list[AttemptResult],
                      started: datetime, worker: str) -> None:
    """Every outcome of a batch in one transaction: its attempts, the deliveries' next states and
    (rarely) an endpoint disabled by a 410. On PostgreSQL the batch is one round trip."""
    now = rt.clock.now()
    outcomes = [_outcome(rt, row, result) for row, result in zip(rows, results, strict=True)]
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
        await _judge_endpoints(rt, conn, rows, results, now)
    for row, result, values in zip(rows, results, outcomes, strict=True):
        log.info("webhook.attempt", extra={"deliveryId": row.pid, "eventId": row.event_pid, "status": values["status"],
                                           "httpStatus": result.http_status, "latencyMs": result.latency_ms,
                                           "requestId": row.request_id})
        rt.metrics.delivery_attempt(result.latency_ms / 1000, values["status"])


async def _judge_endpoints(rt: Runtime, conn: Executor, rows: list[store.ClaimedDeliveryRow],
                           results: list[AttemptResult], now: datetime) -> None:
    """Per endpoint of the batch: a success ends its failing streak, a failure starts one; a 410
    Gone (Standard Webhooks: the endpoint is gone) or a streak longer than the setting (5 days by
    default) disables it, audited like an owner's change, until an owner re-enables it."""
    by_endpoint: dict[int, list[tuple[store.ClaimedDeliveryRow, AttemptResult]]] = {}
    for row, result in zip(rows, results, strict=True):
        by_endpoint.setdefault(row.endpoint_id, []).append((row, result))
    limit = timedelta(seconds=rt.settings.webhook_disable_after_seconds)
    for endpoint_id, pairs in by_endpoint.items():
        row = pairs[0][0]
        ok = any(result.ok for _, result in pairs)
        gone = any(result.http_status == GONE for _, result in pairs)
        await store.note_health(conn, endpoint_id, ok, now)
        if gone:
            await _disable(conn, row, "410 Gone", now)
        elif not ok and row.failing_since is not None and now - row.failing_since >= limit:
            await _disable(conn, row, f"failing since {iso(row.failing_since)}", now)


async def _disable(conn: Executor, row: store.ClaimedDeliveryRow, reason: str, now: datetime) -> None:
    """Disable the endpoint, audit it, and announce it to the application's other endpoints (the
    ``webhook.endpoint.disabled`` operational event) in the same transaction."""
    if await store.disable_endpoint(conn, row.endpoint_id, reason, now=now):
        await audit.append(conn, tenant_id=row.tenant_id, actor_user_id=None, actor="system:webhooks",
                           action="webhook_endpoint.disabled", target_type="webhook_endpoint",
                           target_id=row.endpoint_pid, after={"enabled": False, "reason": reason},
                           request_id=row.request_id, application_id=row.application_id, now=now)
        await outbox.append(conn, tenant_id=row.tenant_id, event_type=ENDPOINT_DISABLED, request_id=row.request_id,
                            payload={"endpointId": row.endpoint_pid, "installationId": row.installation_pid,
                                     "applicationId": row.application_pid, "url": row.url, "reason": reason,
                                     "disabledAt": iso(now)}, now=now)
        log.warning("webhook.endpoint_disabled", extra={"endpointId": row.endpoint_pid, "reason": reason})


async def _attempt(rt: Runtime, sender: Sender, row: store.ClaimedDeliveryRow, sealed: list[str], timeout: float,
                   journal: _Journal) -> AttemptResult:
    started = time.perf_counter()
    flight = _Flight()
    try:
        result = await asyncio.wait_for(_send(rt, sender, row, sealed, started, journal, flight), timeout)
    except TimeoutError:
        result = AttemptResult(None, _ms(started), "timeout")
    except Exception as exc:  # anything else is this attempt's failure, never the batch's
        log.warning("webhook.attempt_error", extra={"deliveryId": row.pid, "error": type(exc).__name__})
        result = AttemptResult(None, _ms(started), type(exc).__name__)
    return replace(result, begun=flight.begun)


async def _send(rt: Runtime, sender: Sender, row: store.ClaimedDeliveryRow, sealed: list[str], started: float,
                journal: _Journal, flight: _Flight) -> AttemptResult:
    if not row.enabled or row.endpoint_deleted_at is not None:
        return AttemptResult(None, 0, "endpoint disabled")
    if row.installation_status != "enabled":
        return AttemptResult(None, 0, "installation disabled")
    refused = await sender.refusal(row.url, rt.settings.webhook_allow_loopback)
    if refused is not None:
        return AttemptResult(None, 0, f"refused: {refused}")
    secrets = sender.opened(rt, sealed)
    if not secrets:
        return AttemptResult(None, 0, "no active secret")
    body = body_of(row)
    timestamp = int(rt.clock.time())
    headers = {"Content-Type": "application/json",
               **signature_headers(row.signature_format, secrets, timestamp, row.pid, body)}
    flight.begun = True  # from here its row may be written, even if the deadline cuts the wait
    try:
        await journal.begin(row.id)
    except Exception as exc:  # the database refused the row: the request is not sent unrecorded
        flight.begun = False
        return AttemptResult(None, _ms(started), f"not sent: the attempt could not be recorded ({type(exc).__name__})")
    try:
        async with sender.session().post(row.url, data=body, headers=headers, allow_redirects=False) as response:
            excerpt = await _excerpt(response)
            return AttemptResult(response.status, _ms(started), None,
                                 retry_after=retry_after_seconds(response.headers.get("Retry-After"), rt.clock.now()),
                                 excerpt=excerpt)
    except aiohttp.ClientError as exc:
        return AttemptResult(None, _ms(started), type(exc).__name__)


async def _excerpt(response: aiohttp.ClientResponse) -> str | None:
    """At most ``EXCERPT_BYTES`` of the answer, as text: enough to see why, never a whole page."""
    taken = b""
    while len(taken) < EXCERPT_BYTES:
        chunk = await response.content.read(EXCERPT_BYTES - len(taken))
        if not chunk:
            break
        taken += chunk
    return taken.decode("utf-8", errors="replace") or None


def retry_after_seconds(value: str | None, now: datetime) -> float | None:
    """``Retry-After`` as seconds from now: delta-seconds or an HTTP date (RFC 9110, 10.2.3)."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, (when - now).total_seconds())


def _ms(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)
