"""Login, the current session, and switching tenants: email and password (or a JWT) for a JWT."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

from storage import audit, identity
from tessera.access.actors import Actor
from tessera.core.clock import iso
from tessera.core.errors import TenantForbidden, Unauthorized
from tessera.core.i18n import N_
from tessera.runtime import Runtime

BAD_CREDENTIALS = N_("The email or password is incorrect.")


async def login(rt: Runtime, email: str, password: str, request_id: str | None,
                tenant_code: str | None = None) -> dict[str, Any]:
    """Check the password (argon2id, constant work for unknown emails) and issue a JWT.

    The JWT acts in ``tenant_code`` when given, else in the user's default tenant. A tenant the
    user does not belong to is ``TENANT_FORBIDDEN``, but only once the password is right, so the
    answer says nothing about memberships to someone who does not know it.
    """
    user = await identity.find_user_by_email(rt.db, email)
    # argon2 is deliberately slow (tens of milliseconds): it runs on a thread, never on the loop.
    ok = await asyncio.to_thread(rt.passwords.verify, user.password_hash if user else None, password)
    if user is None or not ok or user.status != "active":
        raise Unauthorized(BAD_CREDENTIALS)
    if tenant_code:
        member = await identity.membership(rt.db, user.id, tenant_code)
        if member is None:
            raise TenantForbidden()
    else:
        default = await identity.default_tenant_code(rt.db, user)
        member = await identity.membership(rt.db, user.id, default) if default else None
        if member is None:
            raise Unauthorized(BAD_CREDENTIALS)
    await audit.append(rt.db, tenant_id=member.tenant_id, actor_user_id=user.id, actor=user.email,
                       action="auth.login", target_type="user", target_id=user.pid, request_id=request_id,
                       now=rt.clock.now())
    return _login_result(rt, user.pid, user.username, member)


def _login_result(rt: Runtime, user_pid: str, username: str, member: identity.Membership) -> dict[str, Any]:
    return {
        "jwt": rt.session_tokens.issue(user_pid, member.tenant_code),
        "userId": user_pid,
        "userPid": user_pid,
        "username": username,
        "tenantId": member.tenant_code,
        "tenantStatus": member.status,
    }


async def switch_tenant(rt: Runtime, actor: Actor, tenant_code: str, request_id: str | None) -> dict[str, Any]:
    """A new JWT for another tenant of the signed-in user (a client's tenant switch).

    Not being a member and the tenant not existing are the same ``TENANT_FORBIDDEN``, as for
    ``X-Tenant-Id``: the answer never tells which tenants exist.
    """
    member = await identity.membership(rt.db, actor.user_id, tenant_code)
    if member is None:
        raise TenantForbidden()
    async with rt.db.write() as conn:
        await audit.append(conn, tenant_id=member.tenant_id, actor_user_id=actor.user_id, actor=actor.email,
                           action="auth.switch_tenant", target_type="tenant", target_id=member.tenant_code,
                           before={"tenantId": actor.tenant_code}, after={"tenantId": member.tenant_code},
                           request_id=request_id, now=rt.clock.now())
    return _login_result(rt, actor.user_pid, actor.username, member)


async def session_info(rt: Runtime, actor: Actor, expires_at: int) -> dict[str, Any]:
    """Who is signed in, where the call acts, what the user may do there, and their other tenants.

    Clients (the admin console) use it to show only what the user may do; every operation still
    checks for itself, so this is a convenience, never the access decision.
    """
    tenants = await identity.memberships_of(rt.db, actor.user_id)
    current = next((t for t in tenants if t.code == actor.tenant_code), None)
    return {
        "userPid": actor.user_pid,
        "email": actor.email,
        "username": actor.username,
        "tenantId": actor.tenant_code,
        "tenantName": current.name if current is not None else actor.tenant_code,
        "tenantRole": actor.role_code,
        "permissions": sorted(actor.permissions),
        "platformRoles": sorted(actor.platform_roles),
        "tenants": [{"tenantId": t.code, "name": t.name, "role": t.role_code, "status": t.status} for t in tenants],
        "expiresAt": iso(datetime.fromtimestamp(expires_at, UTC)),
    }
