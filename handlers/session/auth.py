"""POST /api/auth/login."""

from __future__ import annotations

from typing import Any

from handlers.session.base import enforce, request_id, runtime
from tessera.envelope import ok
from tessera.services import login as login_service


def login(body: dict[str, Any]) -> tuple[dict[str, Any], int, dict[str, str]]:
    rt = runtime()
    email = str(body["email"]).strip().lower()
    headers = enforce(rt, "login", f"email:{email}")
    return ok(login_service.login(rt, email, body["password"], request_id()), headers)
