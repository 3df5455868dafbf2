"""What every session handler needs: the runtime, the actor, the rate limit, the envelope."""

from __future__ import annotations

from typing import Any

from connexion import request

from tessera.core.errors import RateLimited
from tessera.ratelimit import Decision
from tessera.runtime import Runtime
from tessera.session.auth.actors import Actor, resolve_actor
from tessera.web.context import RUNTIME_KEY


def runtime() -> Runtime:
    return request.scope[RUNTIME_KEY]


def request_id() -> str | None:
    return request.scope.get("tessera.request_id")


def enforce(rt: Runtime, policy: str, subject: str) -> dict[str, str]:
    """Count the call; raise ``RATE_LIMITED`` with ``Retry-After`` when over the limit."""
    decision: Decision = rt.rate_limiter.check(policy, subject)
    if not decision.allowed:
        raise RateLimited(headers=decision.headers())
    return decision.headers()


def bearer_token() -> str:
    """The JWT of the ``Authorization: Bearer`` header ("" when there is none)."""
    authorization = request.headers.get("authorization", "")
    return authorization.split(" ", 1)[1].strip() if " " in authorization else ""


def authenticated(policy: str) -> tuple[Runtime, Actor, dict[str, str]]:
    """Resolve the caller from the JWT Connexion already checked, then apply the rate limit."""
    rt = runtime()
    actor = resolve_actor(rt, bearer_token(), request.headers.get("x-tenant-id"))
    headers = enforce(rt, policy, f"{actor.tenant_id}:{actor.user_id}")
    return rt, actor, headers


def query_params() -> dict[str, Any]:
    return dict(request.query_params)
