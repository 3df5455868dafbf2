"""Who is calling: the signed-in user, the tenant they act in, and what they may do."""

from __future__ import annotations

from dataclasses import dataclass

from storage import identity
from tessera.core.crypto import SessionClaims
from tessera.core.errors import Forbidden, TenantForbidden, Unauthorized
from tessera.runtime import Runtime


@dataclass(frozen=True)
class Actor:
    user_id: int
    user_pid: str
    email: str
    username: str
    tenant_id: int
    tenant_code: str
    role_code: str
    permissions: frozenset[str]
    platform_roles: frozenset[str]

    def can(self, permission: str) -> bool:
        return "*" in self.permissions or permission in self.permissions

    def require(self, permission: str) -> None:
        if not self.can(permission):
            raise Forbidden(permission)


async def resolve_actor(rt: Runtime, claims: SessionClaims, tenant_header: str | None) -> Actor:
    """The user behind verified session claims, acting in their token's tenant or ``X-Tenant-Id``'s.

    The JWT was verified once, by the bearer check; this reads the user, membership and
    permissions (one query). ``X-Tenant-Id`` overrides the token's tenant only where the user is a
    member; anything else is ``TENANT_FORBIDDEN``, whether or not that tenant exists.
    """
    tenant_code = tenant_header if tenant_header else claims.tenant_code
    return await _actor(rt, claims.user_pid, tenant_code, claims.tenant_code)


async def operator_actor(rt: Runtime, email: str, tenant_code: str) -> Actor:
    """The user with ``email`` acting in ``tenant_code``, for an operator command (``tessera
    op-quickstart``), which has database access instead of a session: the checks a session's actor
    passes (an active user, a member of the tenant), else ``Unauthorized``."""
    async with rt.db.read() as conn:
        user = await identity.find_user_by_email(conn, email)
    if user is None:
        raise Unauthorized()
    return await _actor(rt, user.pid, tenant_code, tenant_code)


async def _actor(rt: Runtime, user_pid: str, tenant_code: str, own_tenant: str) -> Actor:
    """The active user ``user_pid`` as a member of ``tenant_code``; one not a member there is
    ``TENANT_FORBIDDEN`` when it is not ``own_tenant`` (the token's), else ``Unauthorized``."""
    found = await identity.principal(rt.db, user_pid, tenant_code)  # two autocommit reads
    if found is None or found.user.status != "active":
        raise Unauthorized()
    user, member, roles = found.user, found.membership, found.platform_roles
    if member is None:
        if tenant_code != own_tenant:
            raise TenantForbidden()
        raise Unauthorized()
    return Actor(
        user_id=user.id, user_pid=user.pid, email=user.email, username=user.username,
        tenant_id=member.tenant_id, tenant_code=member.tenant_code, role_code=member.role_code,
        permissions=member.permissions, platform_roles=roles,
    )
