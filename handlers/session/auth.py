"""Sign-in and the session: POST /api/auth/login, GET /api/auth/session, POST /api/auth/switch-tenant."""

from __future__ import annotations

from typing import Any

from handlers.session.base import authenticated, enforce, request_id, runtime, session_claims
from tessera.session.auth import login as login_service
from tessera.web.envelopes import Reply, ok


async def login(body: dict[str, Any]) -> Reply:
    rt = runtime()
    email = str(body["email"]).strip().lower()
    headers = await enforce(rt, "login", f"email:{email}")
    return ok(await login_service.login(rt, email, body["password"], request_id(), body.get("tenantId")), headers)


async def getSession(**_: Any) -> Reply:
    rt, actor, headers = await authenticated("read")
    return ok(await login_service.session_info(rt, actor, session_claims().expires_at), headers)


async def switchTenant(body: dict[str, Any]) -> Reply:
    rt, actor, headers = await authenticated("write")
    return ok(await login_service.switch_tenant(rt, actor, body["tenantId"], request_id()), headers)
