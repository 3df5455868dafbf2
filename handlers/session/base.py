"""What every session handler needs: the runtime, the actor, the rate limit, the request's parts."""

from __future__ import annotations

from typing import Any

from tessera.access.actors import Actor, resolve_actor
from tessera.core.crypto import SessionClaims
from tessera.core.errors import RateLimited, Unauthorized
from tessera.runtime import Runtime
from tessera.web.context import current


def runtime() -> Runtime:
    return current().runtime


def request_id() -> str:
    return current().request_id


def header(name: str) -> str | None:
    return current().headers.get(name)


def query_params() -> dict[str, Any]:
    return dict(current().query_params)


async def enforce(rt: Runtime, policy: str, subject: str) -> dict[str, str]:
    """Count the call; raise ``RATE_LIMITED`` with ``Retry-After`` when over the limit."""
    decision = await rt.rate_limiter.check(policy, subject)
    if not decision.allowed:
        raise RateLimited(headers=decision.headers())
    return decision.headers()


def session_claims() -> SessionClaims:
    """The JWT's claims, as the bearer check verified them (once per request)."""
    claims = current().session
    if claims is None:  # pragma: no cover - Connexion runs the bearer check before any handler
        raise Unauthorized()
    return claims


async def authenticated(policy: str) -> tuple[Runtime, Actor, dict[str, str]]:
    """Resolve the caller from the claims the bearer check verified, then apply the rate limit."""
    state = current()
    rt = state.runtime
    actor = await resolve_actor(rt, session_claims(), state.headers.get("x-tenant-id"))
    headers = await enforce(rt, policy, f"user:{actor.user_id}")  # per user, whichever tenant they act in
    return rt, actor, headers
