"""Administrators see the tenant's roles, what each grants, and how it differs from its template."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from storage.schema.tables import role_permissions, roles
from tests.conftest import Env, TenantUsers


def _roles(env: Env, tenant: TenantUsers, role: str = "admin") -> dict[str, dict[str, object]]:
    response = env.client.get("/api/roles/list", headers=tenant.headers(role))
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    assert data["total"] == len(data["records"]) == data["pageSize"]
    return {r["code"]: r for r in data["records"]}


def test_an_administrator_sees_each_role_with_its_permissions_and_template(env: Env, tenant: TenantUsers) -> None:
    listed = _roles(env, tenant)
    templates = env.runtime.declarations.roles
    assert set(listed) == set(templates)
    viewer = listed["viewer"]
    assert viewer["permissions"] == viewer["template"] == sorted(templates["viewer"].permissions)
    assert (viewer["extra"], viewer["missing"]) == ([], [])
    assert listed["admin"]["permissions"] == ["*"]


def test_a_roles_drift_from_its_template_is_shown_both_ways(env: Env, tenant: TenantUsers) -> None:
    async def drift() -> None:
        async with env.runtime.db.write() as conn:
            role_id = (await conn.execute(select(roles.c.id).where(
                roles.c.tenant_id == tenant.tenant_id, roles.c.code == "viewer"))).scalar_one()
            await conn.execute(role_permissions.delete().where(role_permissions.c.role_id == role_id,
                                                               role_permissions.c.permission == "stock-ins:view"))
            await conn.execute(role_permissions.insert().values(role_id=role_id, permission="audit:view"))

    env.run(drift)
    viewer = _roles(env, tenant)["viewer"]
    assert (viewer["extra"], viewer["missing"]) == (["audit:view"], ["stock-ins:view"])


@pytest.mark.rule("session.error.forbidden")
def test_a_user_without_roles_view_is_forbidden(env: Env, tenant: TenantUsers) -> None:
    refused = env.client.get("/api/roles/list", headers=tenant.headers("viewer"))
    assert refused.status_code == 403
    assert refused.json()["data"]["permission"] == "roles:view"
