"""Sign-in and the session: POST /api/auth/login, GET /api/auth/session, POST /api/auth/switch-tenant."""

from __future__ import annotations

from typing import Any

from handlers.session.base import authenticated, bearer_token, enforce, request_id, runtime
from tessera.core.errors import Unauthorized
from tessera.session.auth import login as login_service
from tessera.web.envelopes import ok

Reply = tuple[dict[str, Any], int, dict[str, str]]


def login(body: dict[str, Any]) -> Reply:
    rt = runtime()
    email = str(body["email"]).strip().lower()
    headers = enforce(rt, "login", f"email:{email}")
    return ok(login_service.login(rt, email, body["password"], request_id(), body.get("tenantId")), headers)


def getSession(**_: Any) -> Reply:
    rt, actor, headers = authenticated("read")
    claims = rt.session_tokens.verify(bearer_token())
    if claims is None:  # pragma: no cover - authenticated() has just verified the same token
        raise Unauthorized()
    return ok(login_service.session_info(rt, actor, claims.expires_at), headers)


def switchTenant(body: dict[str, Any]) -> Reply:
    rt, actor, headers = authenticated("write")
    return ok(login_service.switch_tenant(rt, actor, body["tenantId"], request_id()), headers)
