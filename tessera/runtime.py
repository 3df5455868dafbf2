"""The runtime: everything a request needs, built once by the app factory from settings.

Handlers reach it through the request scope; there is no module-level state, so tests build as
many independent apps as they like.
"""

from __future__ import annotations

from dataclasses import dataclass

from storage.call_audit import CallAudit
from storage.db import make_engine
from storage.unit import Database
from tessera.core.crypto import Passwords, SessionTokens
from tessera.core.secrets import SealedSecrets, SecretDigests
from tessera.core.settings import Settings
from tessera.openplatform.resources.cursors import Cursors
from tessera.ratelimit import InProcessStore, RateLimiter, RedisStore
from tessera.registry.capabilities import Capabilities, load_capabilities
from tessera.registry.models import Declarations, load_declarations


@dataclass
class Runtime:
    settings: Settings
    db: Database
    declarations: Declarations
    rate_limiter: RateLimiter
    passwords: Passwords
    session_tokens: SessionTokens
    capabilities: Capabilities
    digests: SecretDigests
    cursors: Cursors
    sealed_secrets: SealedSecrets
    call_audit: CallAudit

    def close(self) -> None:
        self.call_audit.close()
        self.db.dispose()


def build_runtime(settings: Settings) -> Runtime:
    store = RedisStore(settings.redis_url, settings.redis_prefix) if settings.redis_url else InProcessStore()
    limiter = RateLimiter(
        store,
        {
            "read": settings.rate_limit_read,
            "write": settings.rate_limit_write,
            "login": settings.rate_limit_login,
            "token": settings.rate_limit_token,
        },
        settings.rate_limit_window_seconds,
    )
    declarations = load_declarations(settings.models_file)
    db = Database(make_engine(settings.database_url))
    return Runtime(
        settings=settings,
        db=db,
        declarations=declarations,
        rate_limiter=limiter,
        passwords=Passwords(),
        session_tokens=SessionTokens(settings.secret_key, settings.jwt_ttl_seconds),
        capabilities=load_capabilities(settings.capabilities_file, declarations),
        digests=SecretDigests(settings.secret_key),
        cursors=Cursors(settings.secret_key),
        sealed_secrets=SealedSecrets(settings.secret_key),
        call_audit=CallAudit(db),
    )
