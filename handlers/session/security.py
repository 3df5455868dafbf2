"""The session API's bearer check (Connexion calls it for ``bearerAuth``): the JWT, verified once.

Signature, algorithm, audience and expiry only, on the event loop, so it does no I/O; the claims
are kept in the request state, where handlers find them (``handlers.session.base.authenticated``
resolves the user, tenant and permissions from them without verifying the token again).
"""

from __future__ import annotations

from typing import Any

from tessera.web.context import current


def bearer_info(token: str) -> dict[str, Any] | None:
    state = current()
    claims = state.runtime.session_tokens.verify(token)
    if claims is None:
        return None
    state.session = claims
    return {"sub": claims.user_pid, "tid": claims.tenant_code}
