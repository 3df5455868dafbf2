"""Connexion's bearer check for the session API: signature, algorithm, audience and expiry only.

It runs on the event loop, so it does no I/O; the user, tenant and permissions are resolved in the
handler's thread (``handlers.session.base.authenticated``).
"""

from __future__ import annotations

from typing import Any

from tessera.web.context import RUNTIME_KEY


def bearer_info(token: str, request: Any) -> dict[str, Any] | None:
    rt = request.scope[RUNTIME_KEY]
    claims = rt.session_tokens.verify(token)
    if claims is None:
        return None
    return {"sub": claims.user_pid, "tid": claims.tenant_code}
