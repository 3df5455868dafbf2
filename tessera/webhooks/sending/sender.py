"""The HTTP sender: one client and one DNS pool per worker, and each attempt under its deadline.

A batch is sent concurrently, at most ``TESSERA_WEBHOOK_CONCURRENCY`` requests at a time, each
attempt under a hard wall-clock deadline (``TESSERA_WEBHOOK_TIMEOUT_SECONDS``, enforced by
cancellation, not only per socket operation: a receiver that drips its answer byte by byte is cut
off). Before every attempt (once per batch and URL) the URL is checked against the SSRF rules again,
on the sender's own thread pool because name resolution blocks, and the connection goes to the
addresses that check vetted, never resolved again (``tessera.webhooks.pinning``: no DNS rebinding
between the check and the send); redirects are not followed. An attempt's row is committed before
its request goes out (``journal``), and an attempt that fails, however it fails, is that attempt's
failure, never the batch's.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import datetime

import aiohttp

from storage import webhooks as store
from tessera import tracing
from tessera.runtime import Runtime
from tessera.webhooks.pinning import PinnedResolver
from tessera.webhooks.sending import traced
from tessera.webhooks.sending.journal import Journal
from tessera.webhooks.sending.outcomes import AttemptResult, retry_after_seconds
from tessera.webhooks.sending.signing import body_of, signature_headers
from tessera.webhooks.urls import UnsafeWebhookUrl, check_url

log = logging.getLogger("tessera.webhooks")

USER_AGENT = "Tessera-Webhooks/1"
EXCERPT_BYTES = 500


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
        journal = Journal(rt, worker)
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
        """An endpoint's active secrets in clear, opened once per batch."""
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


class _Flight:
    """One attempt's progress, readable after its deadline cancelled it."""

    begun = False


async def _attempt(rt: Runtime, sender: Sender, row: store.ClaimedDeliveryRow, sealed: list[str], timeout: float,
                   journal: Journal) -> AttemptResult:
    """Send one delivery under its deadline. Whatever ends it (an answer, the deadline, an error) is
    this attempt's result, with whether its in-flight row was written (``begun``), which the
    closing transaction completes."""
    with traced.attempt(row) as span:  # no span when tracing is off
        started = time.perf_counter()
        flight = _Flight()
        try:
            result = await asyncio.wait_for(_send(rt, sender, row, sealed, started, journal, flight), timeout)
        except TimeoutError:
            result = AttemptResult(None, _ms(started), "timeout")
        except Exception as exc:  # anything else is this attempt's failure, never the batch's
            log.warning("webhook.attempt_error", extra={"deliveryId": row.pid, "error": type(exc).__name__})
            result = AttemptResult(None, _ms(started), type(exc).__name__)
        traced.record(span, result)
    return replace(result, begun=flight.begun)


async def _send(rt: Runtime, sender: Sender, row: store.ClaimedDeliveryRow, sealed: list[str], started: float,
                journal: Journal, flight: _Flight) -> AttemptResult:
    """Send unless the endpoint, its installation, the SSRF rules or its secrets forbid it (nothing
    goes out then, and no row is written before); otherwise sign, record the attempt, and POST."""
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
    if tracing.tracer is not None:  # the attempt span's context; not signed (docs/operator/tracing.md)
        parent = tracing.traceparent()
        if parent is not None:
            headers["traceparent"] = parent
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


def _ms(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)
