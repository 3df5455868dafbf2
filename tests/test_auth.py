"""Login, JWT on every endpoint but login and health, and tenant selection."""

from __future__ import annotations

import time

import jwt as pyjwt

from tessera.security import derive_key
from tests.conftest import DEMO_PASSWORD, Env, TenantUsers


def test_login_returns_the_login_result(env: Env) -> None:
    response = env.client.post("/api/auth/login", json={"email": "viewer@demo.example", "password": DEMO_PASSWORD})
    assert response.status_code == 200
    body = response.json()
    assert body["code"] == "0"
    data = body["data"]
    assert set(data) == {"jwt", "userId", "userPid", "username", "tenantId", "tenantStatus"}
    assert data["tenantId"] == "demo"
    assert data["tenantStatus"] == "member"
    assert data["userPid"].startswith("usr_")


def test_login_with_a_wrong_password_is_unauthorized(env: Env) -> None:
    response = env.client.post("/api/auth/login", json={"email": "viewer@demo.example", "password": "nope"})
    assert response.status_code == 401
    assert response.json()["code"] == "UNAUTHORIZED"


def test_login_with_an_unknown_email_looks_the_same_as_a_wrong_password(env: Env) -> None:
    unknown = env.client.post("/api/auth/login", json={"email": "ghost@demo.example", "password": "nope"})
    wrong = env.client.post("/api/auth/login", json={"email": "viewer@demo.example", "password": "nope"})
    assert unknown.status_code == wrong.status_code == 401
    assert unknown.json()["message"] == wrong.json()["message"]


def test_login_without_fields_names_every_missing_field(env: Env) -> None:
    response = env.client.post("/api/auth/login", json={})
    assert response.status_code == 400
    assert set(response.json()["data"]["fieldErrors"]) == {"email", "password"}


def test_health_needs_no_authentication_and_reports_the_database(env: Env) -> None:
    response = env.client.get("/api/health")
    assert response.status_code == 200
    assert response.json()["data"] == {"status": "up", "database": "up"}


def test_endpoints_without_a_jwt_are_unauthorized(env: Env) -> None:
    for path in ("/api/dynamic/assets/list", "/api/datasource/list?datasourceId=asset-status", "/api/audit/list"):
        response = env.client.get(path)
        assert response.status_code == 401, path
        assert response.json() == {"code": "UNAUTHORIZED", "message": "Authentication is required.", "data": None}


def test_a_forged_jwt_is_unauthorized(env: Env) -> None:
    forged = pyjwt.encode({"sub": "usr_x", "tid": "demo", "exp": int(time.time()) + 60}, "wrong-key", algorithm="HS256")
    response = env.client.get("/api/dynamic/assets/list", headers={"Authorization": f"Bearer {forged}"})
    assert response.status_code == 401


def test_an_unsigned_jwt_is_unauthorized(env: Env, tenant: TenantUsers) -> None:
    good = tenant.headers()["Authorization"].split(" ", 1)[1]
    claims = pyjwt.decode(good, options={"verify_signature": False})
    unsigned = pyjwt.encode(claims, None, algorithm="none")
    response = env.client.get("/api/dynamic/assets/list", headers={"Authorization": f"Bearer {unsigned}"})
    assert response.status_code == 401


def test_an_expired_jwt_is_unauthorized(env: Env, tenant: TenantUsers) -> None:
    good = tenant.headers()["Authorization"].split(" ", 1)[1]
    claims = pyjwt.decode(good, options={"verify_signature": False})
    claims.update(iat=int(time.time()) - 7200, exp=int(time.time()) - 3600)
    key = derive_key(env.runtime.settings.secret_key, "session-jwt")
    expired = pyjwt.encode(claims, key, algorithm="HS256")
    response = env.client.get("/api/dynamic/assets/list", headers={"Authorization": f"Bearer {expired}"})
    assert response.status_code == 401


def test_x_tenant_id_of_a_tenant_the_user_belongs_to_is_accepted(env: Env, tenant: TenantUsers) -> None:
    headers = {**tenant.headers(), "X-Tenant-Id": tenant.code}
    assert env.client.get("/api/dynamic/assets/list", headers=headers).status_code == 200


def test_x_tenant_id_of_another_tenant_is_tenant_forbidden(env: Env, tenant: TenantUsers) -> None:
    headers = {**tenant.headers(), "X-Tenant-Id": "demo"}
    response = env.client.get("/api/dynamic/assets/list", headers=headers)
    assert response.status_code == 403
    assert response.json()["code"] == "TENANT_FORBIDDEN"


def test_x_tenant_id_of_a_tenant_that_does_not_exist_is_tenant_forbidden(env: Env, tenant: TenantUsers) -> None:
    headers = {**tenant.headers(), "X-Tenant-Id": "no-such-tenant"}
    assert env.client.get("/api/dynamic/assets/list", headers=headers).json()["code"] == "TENANT_FORBIDDEN"


def test_a_tenant_never_sees_another_tenants_records(env: Env, tenant: TenantUsers) -> None:
    other = env.new_tenant()
    record = other.create("assets", {"name": "Secret", "serialNo": "SECRET-1"})
    mine = env.client.get("/api/dynamic/assets/list?pageSize=500", headers=tenant.headers()).json()["data"]
    assert mine["total"] == 0
    detail = env.client.get(f"/api/dynamic/assets/{record['id']}", headers=tenant.headers())
    assert detail.status_code == 404


def test_acme_admin_sees_only_acme_demo_records(env: Env) -> None:
    headers = env.login("admin@acme.example")
    data = env.client.get("/api/dynamic/assets/list?pageSize=500", headers=headers).json()["data"]
    assert data["total"] == 30
    assert all(r["serialNo"].startswith("ACME-") for r in data["records"])
