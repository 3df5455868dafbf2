"""Tenants arranged for a test: one user who is a member of two of them."""

from __future__ import annotations

from storage import identity
from tests.conftest import Env, TenantUsers


def member_of_two_tenants(env: Env) -> tuple[TenantUsers, TenantUsers]:
    """Two new tenants; ``home``'s admin is also a viewer in ``other``."""
    home, other = env.new_tenant(), env.new_tenant()

    async def join() -> None:
        async with env.runtime.db.write() as conn:
            user = await identity.find_user_by_email(conn, home.emails["admin"])
            assert user is not None
            await identity.add_membership(conn, other.tenant_id, user.id, "viewer", now=env.runtime.clock.now())

    env.run(join)
    return home, other
