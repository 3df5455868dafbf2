"""The Open Platform's OAuth 2 bearer check (Connexion calls it for ``accessToken``) and scopes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tessera.core.errors import InsufficientScope, OpenRateLimited
from tessera.openplatform.tokens import bearer
from tessera.web.context import current


async def access_token_info(token: str) -> dict[str, Any]:
    """Validate the token; raises ``invalid_token`` (never returns None, so the code is ours).

    One indexed read through the async database (``tessera.openplatform.tokens.bearer``); it never
    waits on a lock (SQLite WAL readers and PostgreSQL plain SELECTs don't).
    The caller is kept in the request state for the handler and the call audit. The call then
    counts against its installation's rate limit (``TESSERA_RATE_LIMIT_OPEN`` a minute): over it,
    429 ``rate_limit_exceeded`` with ``Retry-After``.
    """
    state = current()
    caller = await bearer.validate(state.runtime, token)
    state.caller = caller
    # Every business call counts against the installation's limit; the fields go on every answer.
    decision = await state.runtime.rate_limiter.check("open", f"installation:{caller.installation_id}")
    state.response_headers = decision.headers()
    if not decision.allowed:
        raise OpenRateLimited(headers=decision.headers())
    return {"sub": caller.client_id, "scope": list(caller.scopes)}


def validate_scopes(required_scopes: Iterable[str], token_scopes: Iterable[str]) -> bool:
    """The operation's scopes (from the document) must all be in the token: else 403 with them named."""
    required = sorted(set(required_scopes or ()))
    missing = sorted(set(required) - set(token_scopes or ()))
    if missing:
        raise InsufficientScope(*required, data={"requiredScope": missing[0], "missingScopes": missing})
    return True
