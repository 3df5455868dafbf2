"""Prometheus metrics of one runtime: its own registry, the metric objects, and what is sampled at scrape.

Each runtime owns a ``Metrics`` with a registry of its own (never prometheus_client's global one),
so several apps in one process (the tests) count apart. The web layer serves ``render()`` at
``/metrics`` (``tessera/web/metrics.py``); the layers that see an event count it here:

- requests, by surface, operation (the document's operationId, or ``unrouted``; never the raw
  path, so the number of series stays bounded) and status, with a latency histogram
  (``tessera/web/context.py``);
- access tokens issued, and refused by RFC 6749 error (``tessera/openplatform/tokens/grants.py``);
- rate-limit refusals by policy (``tessera/ratelimit.py``);
- webhook attempt latency by the delivery's next status (``tessera/webhooks/sending/batch.py``).

Queue depths, delivery lag, pool use and the credentials past the rotation baseline (per tenant,
``tessera/runtime.py``) are gauges set by samplers just before a scrape is
rendered (``refresh``): coroutines registered by the runtime, each run at most once per its own
interval, so a burst of scrapes costs one query.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector, disable_created_metrics
from prometheus_client.exposition import choose_encoder

log = logging.getLogger("tessera.metrics")

UNROUTED = "unrouted"  # a request no operation answered (404, 405, 413 before routing, static files)
# Request latency: from a cached read (about a millisecond) to a slow write or a timeout.
REQUEST_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
# Webhook attempts: a receiver on the same network to the timeout (10 s by default).
ATTEMPT_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


@dataclass
class _Sampler:
    sample: Callable[[], Awaitable[None]]
    every: float
    last: float = float("-inf")


class Metrics:
    def __init__(self) -> None:
        # No ``*_created`` series beside each counter and histogram: Prometheus would store each as
        # one more series, and the process start time says the same (a flag of the library's).
        disable_created_metrics()  # type: ignore[no-untyped-call]  # the library leaves it unannotated
        registry = self.registry = CollectorRegistry(auto_describe=True)
        ProcessCollector(registry=registry)  # CPU, memory, open files of this process
        self.requests = Counter("tessera_http_requests", "HTTP requests answered.",
                                ["surface", "operation", "status"], registry=registry)
        self.request_seconds = Histogram("tessera_http_request_duration_seconds",
                                         "Time from a request's arrival to the end of its answer.",
                                         ["surface", "operation"], buckets=REQUEST_BUCKETS, registry=registry)
        self.tokens_issued = Counter("tessera_oauth_tokens_issued", "Open Platform access tokens issued.",
                                     registry=registry)
        self.tokens_refused = Counter("tessera_oauth_tokens_refused",
                                      "Token requests refused, by RFC 6749 error (rate limits not included).",
                                      ["error"], registry=registry)
        self.rate_limited = Counter("tessera_rate_limit_refusals", "Requests refused by a rate limit (429).",
                                    ["policy"], registry=registry)
        self.rate_limit_fallbacks = Counter("tessera_rate_limit_degraded",
                                            "Rate-limit decisions made by this process alone (Redis unreachable).",
                                            registry=registry)
        self.events_served = Counter("tessera_open_events_served",
                                     "Events the Open Platform's events API returned, by operation "
                                     "(listEvents pages, getEvent reads).", ["operation"], registry=registry)
        self.attempt_seconds = Histogram("tessera_webhook_attempt_duration_seconds",
                                         "Webhook delivery attempts, by the delivery's status after it.",
                                         ["outcome"], buckets=ATTEMPT_BUCKETS, registry=registry)
        self.deliveries = Gauge("tessera_webhook_deliveries",
                                "Webhook deliveries waiting (pending, retrying) or dead-lettered (dead).",
                                ["status"], registry=registry)
        self.delivery_lag = Gauge("tessera_webhook_delivery_lag_seconds",
                                  "How long the oldest due delivery has been waiting (0: none is late).",
                                  registry=registry)
        self.outbox = Gauge("tessera_outbox_undispatched", "Events not yet fanned out to webhook deliveries.",
                            registry=registry)
        self.outbox_lag = Gauge("tessera_outbox_lag_seconds", "Age of the oldest event not yet fanned out.",
                                registry=registry)
        self.automation_runs = Gauge("tessera_automation_runs",
                                     "Automation runs waiting (pending, retrying) or parked after their last retry.",
                                     ["status"], registry=registry)
        self.inbound = Gauge("tessera_inbound_undispatched", "Inbound events not yet turned into automation runs.",
                             registry=registry)
        self.inbound_lag = Gauge("tessera_inbound_lag_seconds", "Age of the oldest inbound event not yet dispatched.",
                                 registry=registry)
        self.pool = Gauge("tessera_db_pool_connections",
                          "Database connections of this process's pool: in use, idle, and the maximum.",
                          ["state"], registry=registry)
        self.pool_waiting = Gauge("tessera_db_pool_requests_waiting", "Requests waiting for a pool connection.",
                                  registry=registry)
        self.credentials_rotation_due = Gauge(
            "tessera_credentials_rotation_due",
            "Open Platform credentials in use (active, not rotated) past the rotation baseline, per tenant.",
            ["tenant"], registry=registry)
        self.scrape_errors = Counter("tessera_metrics_sample_errors",
                                     "Scrape-time samples that failed (their gauges keep the last value).",
                                     registry=registry)
        self._samplers: list[_Sampler] = []
        self._lock: asyncio.Lock | None = None
        # Children by label values: ``labels()`` builds a key and takes a lock on every call.
        self._request_children: dict[tuple[str, str, int], tuple[Counter, Histogram]] = {}

    # -- counted where it happens ------------------------------------------------------------------
    def request(self, surface: str, operation: str | None, status: int, seconds: float) -> None:
        key = (surface, operation or UNROUTED, status)
        children = self._request_children.get(key)
        if children is None:
            children = self._request_children[key] = (
                self.requests.labels(key[0], key[1], str(status)), self.request_seconds.labels(key[0], key[1]))
        children[0].inc()
        children[1].observe(seconds)

    def event_served(self, operation: str, count: int = 1) -> None:
        """``count`` events returned by the events API's ``operation`` (``listEvents``, ``getEvent``)."""
        self.events_served.labels(operation).inc(count)

    def token_issued(self) -> None:
        self.tokens_issued.inc()

    def token_refused(self, error: str) -> None:
        self.tokens_refused.labels(error).inc()

    def rate_limit_refused(self, policy: str) -> None:
        self.rate_limited.labels(policy).inc()

    def rate_limit_degraded(self) -> None:
        self.rate_limit_fallbacks.inc()

    def delivery_attempt(self, seconds: float, outcome: str) -> None:
        self.attempt_seconds.labels(outcome).observe(seconds)

    # -- sampled at scrape ---------------------------------------------------------------------------
    def add_sampler(self, sample: Callable[[], Awaitable[None]], every: float = 0.0) -> None:
        """Run ``sample`` before a scrape is rendered, at most once every ``every`` seconds."""
        self._samplers.append(_Sampler(sample, every))

    def forget_samples(self) -> None:
        """Make every sampler due again (the next scrape queries afresh)."""
        for sampler in self._samplers:
            sampler.last = float("-inf")

    async def refresh(self) -> None:
        """Run the samplers that are due (one scrape at a time; a failed sample keeps old values)."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            for sampler in self._samplers:
                now = time.monotonic()
                if now - sampler.last < sampler.every:
                    continue
                sampler.last = now
                try:
                    await sampler.sample()
                except Exception as exc:  # a scrape must answer even while the database does not
                    self.scrape_errors.inc()
                    log.warning("metrics.sample_failed", extra={"error": type(exc).__name__})

    async def render(self, accept: str | None = None) -> tuple[bytes, str]:
        """The exposition (text format, or OpenMetrics when ``accept`` asks for it) and its media type."""
        await self.refresh()
        encoder, media_type = choose_encoder(accept or "")
        return encoder(self.registry), media_type
