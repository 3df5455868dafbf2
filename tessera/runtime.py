"""The runtime: the infrastructure every request and worker shares, built once per process.

Settings in, everything below out: the clock, the database, the two registries (``models.yaml`` and
``capabilities.yaml``), the purpose keys and what is built on them (digests, sealed boxes, session
JWTs, password hashing), the rate limiter and the call-audit writer. Services are functions of
``(rt, ...)``; handlers reach the runtime through the request scope. There is no module-level
state, so tests build as many independent runtimes as they like, each with its own clock.

It holds infrastructure only (nothing from a feature package), so every feature may depend on it
and it depends on none of them.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from datetime import timedelta

from storage.backlog import backlog
from storage.drivers.db import open_database
from storage.drivers.engine import Database
from storage.drivers.traced import TracedDatabase
from storage.openplatform.call_audit import CallAudit
from storage.openplatform.credentials import rotation_due_by_tenant
from storage.openplatform.token_refusals import TokenRefusals
from tessera import tracing
from tessera.core.clock import Clock, SystemClock
from tessera.core.crypto import KeyedDigest, Passwords, SealedBox, SessionTokens, derive_key
from tessera.core.metrics import Metrics
from tessera.core.settings import Settings
from tessera.ratelimit import FallbackStore, InProcessStore, RateLimiter, RedisStore, Store
from tessera.registry.capabilities import Capabilities, load_capabilities
from tessera.registry.models import Declarations, load_declarations


class WorkSignal:
    """Wakes this process's workers as soon as work for them is committed.

    Services call ``notify`` after committing outbox events, inbound events or deliveries; a worker
    waits on the event it subscribed. Across processes PostgreSQL carries the same news (a NOTIFY
    sent by a trigger at commit, see ``storage.drivers.postgres.PostgresDatabase.notifications``); polling
    stays as the fallback (a separate worker process on SQLite).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: dict[asyncio.Event, asyncio.AbstractEventLoop] = {}

    def subscribe(self) -> asyncio.Event:
        event = asyncio.Event()
        with self._lock:
            self._waiters[event] = asyncio.get_running_loop()
        return event

    def unsubscribe(self, event: asyncio.Event) -> None:
        with self._lock:
            self._waiters.pop(event, None)

    def notify(self) -> None:
        with self._lock:
            waiters = list(self._waiters.items())
        for event, loop in waiters:
            if not loop.is_closed():
                loop.call_soon_threadsafe(event.set)


@dataclass
class Runtime:
    settings: Settings
    clock: Clock
    db: Database
    declarations: Declarations
    capabilities: Capabilities
    rate_limiter: RateLimiter
    passwords: Passwords
    session_tokens: SessionTokens
    # Client secrets and access tokens are stored as these digests only.
    digests: KeyedDigest
    # Open Platform list cursors (they carry database ids, so they are encrypted, not only signed).
    cursor_box: SealedBox
    # Webhook signing secrets at rest: the service signs with them, so they are sealed, not hashed.
    secret_box: SealedBox
    call_audit: CallAudit
    # Refusals of the OAuth endpoints, audited per client, error and minute (storage/openplatform/token_refusals.py).
    token_refusals: TokenRefusals
    work: WorkSignal = field(default_factory=WorkSignal)
    metrics: Metrics = field(default_factory=Metrics)

    async def aclose(self) -> None:
        """Release what the current event loop opened: queued audit rows, the pool, Redis."""
        await self.call_audit.close()
        await self.token_refusals.close()
        await self.rate_limiter.close()
        await self.db.close()

    def close(self) -> None:
        """Forget every connection (at process exit; pools of finished loops are dropped)."""
        self.db.dispose()


def build_runtime(settings: Settings, clock: Clock | None = None) -> Runtime:
    clock = clock or SystemClock()
    metrics = Metrics()
    store: Store = (FallbackStore(RedisStore(settings.redis_url, settings.redis_prefix), metrics)
                    if settings.redis_url else InProcessStore())
    limiter = RateLimiter(
        store,
        {
            "read": settings.rate_limit_read,
            "write": settings.rate_limit_write,
            "login": settings.rate_limit_login,
            "token": settings.rate_limit_token,
            "open": settings.rate_limit_open,
        },
        clock,
        settings.rate_limit_window_seconds,
        metrics=metrics,
    )
    declarations = load_declarations(settings.models_file)
    raw = open_database(settings.database_url, pool_size=settings.database_pool_size,
                        unavailable_seconds=settings.database_unavailable_seconds)
    # With tracing on, the requests' and workers' statements have spans; the call-audit writer and
    # the metrics' samplers keep the bare database (their statements belong to no request).
    db: Database = raw if tracing.tracer is None else TracedDatabase(raw)
    _watch(metrics, raw, clock)
    _watch_credentials(metrics, raw, clock, settings.credential_rotation_days)
    key = settings.secret_key
    return Runtime(
        settings=settings,
        clock=clock,
        db=db,
        declarations=declarations,
        capabilities=load_capabilities(settings.capabilities_file, declarations),
        rate_limiter=limiter,
        passwords=Passwords(settings.password_hash_cost),
        session_tokens=SessionTokens(derive_key(key, "session-jwt"), settings.jwt_ttl_seconds, clock),
        digests=KeyedDigest(derive_key(key, "secret-digest")),
        cursor_box=SealedBox(derive_key(key, "list-cursor"), clock),
        secret_box=SealedBox(derive_key(key, "webhook-secret"), clock),
        call_audit=CallAudit(raw, clock),
        token_refusals=TokenRefusals(raw, clock),
        metrics=metrics,
    )


BACKLOG_SAMPLE_SECONDS = 5.0  # scrapes closer together than this share one backlog query


def _watch(metrics: Metrics, db: Database, clock: Clock) -> None:
    """The gauges sampled when metrics are scraped: the queues' backlog (two indexed queries, at
    most once every few seconds) and this process's connection pool (in memory, every scrape)."""

    async def sample_backlog() -> None:
        found = await backlog(db)
        now = clock.now()
        for status, count in found.deliveries.items():
            metrics.deliveries.labels(status).set(count)
        metrics.delivery_lag.set(max(0.0, (now - found.oldest_due).total_seconds()) if found.oldest_due else 0.0)
        metrics.outbox.set(found.undispatched)
        metrics.outbox_lag.set(
            max(0.0, (now - found.oldest_undispatched).total_seconds()) if found.oldest_undispatched else 0.0)
        for status, count in found.runs.items():
            metrics.automation_runs.labels(status).set(count)
        metrics.inbound.set(found.inbound_undispatched)
        metrics.inbound_lag.set(max(0.0, (now - found.oldest_inbound).total_seconds()) if found.oldest_inbound else 0.0)

    async def sample_pool() -> None:
        pool_stats = getattr(db, "pool_stats", None)  # PostgreSQL's pools; SQLite has none to watch
        stats: dict[str, int] = pool_stats() if pool_stats is not None else {}
        if stats:
            metrics.pool.labels("in_use").set(stats.get("pool_size", 0) - stats.get("pool_available", 0))
            metrics.pool.labels("idle").set(stats.get("pool_available", 0))
            metrics.pool.labels("max").set(stats.get("pool_max", 0))
            metrics.pool_waiting.set(stats.get("requests_waiting", 0))

    metrics.add_sampler(sample_backlog, every=BACKLOG_SAMPLE_SECONDS)
    metrics.add_sampler(sample_pool)


CREDENTIALS_SAMPLE_SECONDS = 60.0  # credentials cross the baseline by the day: one query a minute is plenty


def _watch_credentials(metrics: Metrics, db: Database, clock: Clock, rotation_days: int) -> None:
    """The credentials past the rotation baseline, per tenant code (tenants that have none are
    dropped from the gauge rather than kept at their last count)."""

    async def sample_rotation_due() -> None:
        found = await rotation_due_by_tenant(db, clock.now() - timedelta(days=rotation_days))
        metrics.credentials_rotation_due.clear()
        for tenant, count in found.items():
            metrics.credentials_rotation_due.labels(tenant).set(count)

    metrics.add_sampler(sample_rotation_due, every=CREDENTIALS_SAMPLE_SECONDS)
