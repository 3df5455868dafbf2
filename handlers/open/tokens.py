"""POST /oauth2/token: the HTTP side of the client credentials grant.

Client authentication arrives as form fields or HTTP Basic (RFC 6749 section 2.3.1: the id and the
secret are form-urlencoded inside the Basic credentials), never both, and never in the query
string: secrets in URLs end up in logs and proxies, so such a request is refused rather than
served once. Each client id is rate-limited before its secret is checked.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from werkzeug.datastructures import Authorization

from handlers.open.base import request_id, runtime
from tessera.core.errors import InvalidClient, InvalidRequest, OpenRateLimited
from tessera.core.i18n import N_
from tessera.openplatform.tokens import grants
from tessera.web.context import current

FORBIDDEN_QUERY = frozenset({"client_id", "client_secret", "grant_type", "scope"})
NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}


def issueToken(body: dict[str, Any]) -> tuple[dict[str, Any], int, dict[str, str]]:
    rt = runtime()
    request = current()
    if FORBIDDEN_QUERY & set(request.query_params):
        raise InvalidRequest(N_("Send token parameters in the form body, never in the query string."))
    form = dict(body)
    basic = _basic_credentials(request.headers.get("authorization"))
    if basic is not None and ("client_id" in form or "client_secret" in form):
        raise InvalidRequest(N_("Use one client authentication method, not both."))
    client_id, secret = basic if basic is not None else (form.get("client_id"), form.get("client_secret"))
    if isinstance(client_id, str) and 0 < len(client_id) <= grants.MAX_FIELD:
        decision = rt.rate_limiter.check("token", f"client:{client_id}")
        if not decision.allowed:
            raise OpenRateLimited(headers=decision.headers())
    wanted = grants.TokenRequest(form.get("grant_type"), client_id, secret, form.get("scope"))
    return grants.issue(rt, wanted, request_id()), 200, NO_STORE


def _basic_credentials(authorization: str | None) -> tuple[str, str] | None:
    """client_id and client_secret from an ``Authorization: Basic`` header; None without the header."""
    if not authorization:
        return None
    parsed = Authorization.from_header(authorization)
    if parsed is None:  # not decodable: the client meant Basic but sent garbage
        raise InvalidClient()
    if parsed.type != "basic":
        raise InvalidRequest(N_("Only Basic client authentication is accepted in the Authorization header."))
    return unquote(parsed.username or ""), unquote(parsed.password or "")
