"""What every session handler needs: the runtime, the actor, the rate limit, the request's parts."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from tessera.access.actors import Actor, resolve_actor
from tessera.core.crypto import SessionClaims
from tessera.core.errors import RateLimited, Unauthorized
from tessera.registry.query_forms import LIST_PARAMETERS
from tessera.runtime import Runtime
from tessera.web.context import current


def runtime() -> Runtime:
    return current().runtime


def request_id() -> str:
    return current().request_id


def header(name: str) -> str | None:
    return current().headers.get(name)


# A list's parameters from a query form's JSON body (``handlers/session/queries.py``), for this request.
_LIST_BODY: ContextVar[dict[str, Any] | None] = ContextVar("list_body", default=None)


def query_params() -> dict[str, Any]:
    """The request's query parameters; under a query form, its body's list parameters in place of
    the query string's (which keeps the others: a path's ``datasourceId``, ``requestId``)."""
    params = dict(current().query_params)
    body = _LIST_BODY.get()
    if body is None:
        return params
    return {**{k: v for k, v in params.items() if k not in LIST_PARAMETERS}, **body}


@contextmanager
def list_parameters_from(body: dict[str, Any]) -> Iterator[None]:
    """Within this block, ``query_params`` gives ``body``'s list parameters."""
    token = _LIST_BODY.set(body)
    try:
        yield
    finally:
        _LIST_BODY.reset(token)


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
