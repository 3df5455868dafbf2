"""Login: email and password for a session JWT."""

from __future__ import annotations

from typing import Any

from storage import audit, identity
from tessera.errors import Unauthorized
from tessera.i18n import N_
from tessera.runtime import Runtime

BAD_CREDENTIALS = N_("The email or password is incorrect.")


def login(rt: Runtime, email: str, password: str, request_id: str | None) -> dict[str, Any]:
    """Check the password (argon2id, constant work for unknown emails) and issue a JWT."""
    with rt.db.read() as conn:
        user = identity.find_user_by_email(conn, email)
        ok = rt.passwords.verify(user.password_hash if user else None, password)
        if user is None or not ok or user.status != "active":
            raise Unauthorized(BAD_CREDENTIALS)
        tenant_code = identity.default_tenant_code(conn, user)
        member = identity.membership(conn, user.id, tenant_code) if tenant_code else None
        if member is None:
            raise Unauthorized(BAD_CREDENTIALS)
    with rt.db.write() as conn:
        audit.append(conn, tenant_id=member.tenant_id, actor_user_id=user.id, actor=user.email,
                     action="auth.login", target_type="user", target_id=user.pid, request_id=request_id)
    return {
        "jwt": rt.session_tokens.issue(user.pid, member.tenant_code),
        "userId": user.pid,
        "userPid": user.pid,
        "username": user.username,
        "tenantId": member.tenant_code,
        "tenantStatus": member.status,
    }
