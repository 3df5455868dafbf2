"""POST /oauth2/token."""

from __future__ import annotations

from typing import Any

from connexion import request

from handlers.open.base import runtime
from tessera.openplatform.tokens import grants as op_tokens


def issueToken(body: dict[str, Any]) -> tuple[dict[str, Any], int, dict[str, str]]:
    rt = runtime()
    result = op_tokens.issue(
        rt, dict(body), request.headers.get("authorization"), dict(request.query_params),
        request.scope.get("tessera.request_id"),
    )
    return result, 200, {"Cache-Control": "no-store", "Pragma": "no-cache"}
