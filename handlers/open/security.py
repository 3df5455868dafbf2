"""The Open Platform's OAuth 2 bearer check (Connexion calls it for ``accessToken``) and scopes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tessera.core.errors import InsufficientScope, OpenRateLimited
from tessera.openplatform.resources.reads import ReadAhead
from tessera.openplatform.tokens import bearer
from tessera.web.connexion.routing import routed_operation_id
from tessera.web.context import RequestState, current


async def access_token_info(token: str) -> dict[str, Any]:
    """Validate the token; raises ``invalid_token`` (never returns None, so the code is ours).

    One indexed read through the async database (``tessera.openplatform.tokens.bearer``); it never
    waits on a lock (SQLite WAL readers and PostgreSQL plain SELECTs don't).
    The caller is kept in the request state for the handler and the call audit. A read by pid
    has its record read in the token's statement (``bearer.validate_reading``) and kept there too,
    for its handler: one round trip for the whole call. The call then
    counts against its installation's rate limit (``TESSERA_RATE_LIMIT_OPEN`` a minute): over it,
    429 ``rate_limit_exceeded`` with ``Retry-After``.
    """
    state = current()
    wanted = _record_wanted(state)
    if wanted is None:
        caller = await bearer.validate(state.runtime, token)
    else:
        caller, record = await bearer.validate_reading(state.runtime, token, *wanted)
        state.read_ahead = ReadAhead(*wanted, record)
    state.caller = caller
    # Every business call counts against the installation's limit; the fields go on every answer.
    decision = await state.runtime.rate_limiter.check("open", f"installation:{caller.installation_id}")
    state.response_headers = decision.headers()
    if not decision.allowed:
        raise OpenRateLimited(headers=decision.headers())
    return {"sub": caller.client_id, "scope": list(caller.scopes)}


def _record_wanted(state: RequestState) -> tuple[str, str] | None:
    """The model and pid of the record this request reads by pid, if it is a published read."""
    resource = state.runtime.capabilities.reads_by_operation.get(routed_operation_id(state.scope) or "")
    pid = (state.scope.get("path_params") or {}).get("pid")
    return (resource.model.code, pid) if resource is not None and isinstance(pid, str) else None


def validate_scopes(required_scopes: Iterable[str], token_scopes: Iterable[str]) -> bool:
    """The operation's scopes (from the document) must all be in the token: else 403 with them named."""
    required = sorted(set(required_scopes or ()))
    missing = sorted(set(required) - set(token_scopes or ()))
    if missing:
        raise InsufficientScope(*required, data={"requiredScope": missing[0], "missingScopes": missing})
    return True
