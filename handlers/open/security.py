"""Connexion's bearer check for the Open Platform: a database lookup, run off the event loop."""

from __future__ import annotations

from typing import Any

from anyio import to_thread

from tessera.requestctx import RUNTIME_KEY, STATE_KEY
from tessera.services import op_tokens


async def access_token_info(token: str, request: Any) -> dict[str, Any]:
    """Validate the token; raises ``invalid_token`` (never returns None, so the code is ours)."""
    rt = request.scope[RUNTIME_KEY]
    caller = await to_thread.run_sync(op_tokens.validate, rt, token)
    request.scope[STATE_KEY]["caller"] = caller
    return {"sub": caller.client_id, "caller": caller}
