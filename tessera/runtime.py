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

from dataclasses import dataclass

from storage.call_audit import CallAudit
from storage.db import make_engine
from storage.unit import Database
from tessera.core.clock import Clock, SystemClock
from tessera.core.crypto import KeyedDigest, Passwords, SealedBox, SessionTokens, derive_key
from tessera.core.settings import Settings
from tessera.ratelimit import InProcessStore, RateLimiter, RedisStore
from tessera.registry.capabilities import Capabilities, load_capabilities
from tessera.registry.models import Declarations, load_declarations


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

    def close(self) -> None:
        self.call_audit.close()
        self.db.dispose()


def build_runtime(settings: Settings, clock: Clock | None = None) -> Runtime:
    clock = clock or SystemClock()
    store = RedisStore(settings.redis_url, settings.redis_prefix) if settings.redis_url else InProcessStore()
    limiter = RateLimiter(
        store,
        {
            "read": settings.rate_limit_read,
            "write": settings.rate_limit_write,
            "login": settings.rate_limit_login,
            "token": settings.rate_limit_token,
        },
        clock,
        settings.rate_limit_window_seconds,
    )
    declarations = load_declarations(settings.models_file)
    db = Database(make_engine(settings.database_url))
    key = settings.secret_key
    return Runtime(
        settings=settings,
        clock=clock,
        db=db,
        declarations=declarations,
        capabilities=load_capabilities(settings.capabilities_file, declarations),
        rate_limiter=limiter,
        passwords=Passwords(),
        session_tokens=SessionTokens(derive_key(key, "session-jwt"), settings.jwt_ttl_seconds, clock),
        digests=KeyedDigest(derive_key(key, "secret-digest")),
        cursor_box=SealedBox(derive_key(key, "list-cursor"), clock),
        secret_box=SealedBox(derive_key(key, "webhook-secret"), clock),
        call_audit=CallAudit(db, clock),
    )
