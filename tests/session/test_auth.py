"""Login, JWT on every endpoint but login and health, and tenant selection."""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

import jwt as pyjwt
import pytest

from tessera.core.clock import ShiftedClock
from tests.conftest import DEMO_PASSWORD, USER_PASSWORD, Env, TenantUsers
from tests.support.tenants import member_of_two_tenants


@pytest.mark.rule(
    "session.envelope.fields",
    "session.login.result-fields",
    "session.login.endpoint",
    "session.error.success",
)
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


@pytest.mark.rule("session.login.endpoint")
def test_login_with_an_unknown_email_looks_the_same_as_a_wrong_password(env: Env) -> None:
    unknown = env.client.post("/api/auth/login", json={"email": "ghost@demo.example", "password": "nope"})
    wrong = env.client.post("/api/auth/login", json={"email": "viewer@demo.example", "password": "nope"})
    assert unknown.status_code == wrong.status_code == 401
    assert unknown.json()["message"] == wrong.json()["message"]


@pytest.mark.rule("session.login.endpoint", "session.error.validation")
def test_login_without_fields_names_every_missing_field(env: Env) -> None:
    response = env.client.post("/api/auth/login", json={})
    assert response.status_code == 400
    assert set(response.json()["data"]["fieldErrors"]) == {"email", "password"}


@pytest.mark.rule("session.health.no-auth")
def test_health_needs_no_authentication(env: Env) -> None:
    response = env.client.get("/api/health")
    assert response.status_code == 200
    assert response.json()["data"] == {"status": "up"}


@pytest.mark.rule("session.envelope.every-response", "session.auth.jwt-required", "session.error.unauthorized")
def test_endpoints_without_a_jwt_are_unauthorized(env: Env) -> None:
    for path in ("/api/dynamic/assets/list", "/api/datasource/list?datasourceId=asset-status", "/api/audit/list"):
        response = env.client.get(path)
        assert response.status_code == 401, path
        assert response.json() == {"code": "UNAUTHORIZED", "message": "Authentication is required.", "data": None}


@pytest.mark.rule("session.auth.jwt-required")
def test_a_forged_jwt_is_unauthorized(env: Env) -> None:
    forged = pyjwt.encode({"sub": "usr_x", "tid": "demo", "exp": int(time.time()) + 60}, "wrong-key", algorithm="HS256")
    response = env.client.get("/api/dynamic/assets/list", headers={"Authorization": f"Bearer {forged}"})
    assert response.status_code == 401


@pytest.mark.rule("session.auth.jwt-required")
def test_an_unsigned_jwt_is_unauthorized(env: Env, tenant: TenantUsers) -> None:
    good = tenant.headers()["Authorization"].split(" ", 1)[1]
    claims = pyjwt.decode(good, options={"verify_signature": False})
    unsigned = pyjwt.encode(claims, "", algorithm="none")
    response = env.client.get("/api/dynamic/assets/list", headers={"Authorization": f"Bearer {unsigned}"})
    assert response.status_code == 401


@pytest.mark.rule("session.error.unauthorized")
def test_a_jwt_works_until_its_lifetime_ends(env: Env, tenant: TenantUsers, clock: ShiftedClock) -> None:
    headers = tenant.headers()
    clock.advance(env.runtime.settings.jwt_ttl_seconds - 5)
    assert env.client.get("/api/dynamic/assets/list", headers=headers).status_code == 200
    clock.advance(5)
    response = env.client.get("/api/dynamic/assets/list", headers=headers)
    assert response.status_code == 401


@pytest.mark.rule("session.tenant.header-override")
def test_x_tenant_id_of_a_tenant_the_user_belongs_to_is_accepted(env: Env, tenant: TenantUsers) -> None:
    headers = {**tenant.headers(), "X-Tenant-Id": tenant.code}
    assert env.client.get("/api/dynamic/assets/list", headers=headers).status_code == 200


@pytest.mark.rule("session.tenant.membership-check", "session.error.tenant-forbidden")
def test_x_tenant_id_of_another_tenant_is_tenant_forbidden(env: Env, tenant: TenantUsers) -> None:
    headers = {**tenant.headers(), "X-Tenant-Id": "demo"}
    response = env.client.get("/api/dynamic/assets/list", headers=headers)
    assert response.status_code == 403
    assert response.json()["code"] == "TENANT_FORBIDDEN"


@pytest.mark.rule("session.tenant.membership-check")
def test_x_tenant_id_of_a_tenant_that_does_not_exist_is_tenant_forbidden(env: Env, tenant: TenantUsers) -> None:
    headers = {**tenant.headers(), "X-Tenant-Id": "no-such-tenant"}
    assert env.client.get("/api/dynamic/assets/list", headers=headers).json()["code"] == "TENANT_FORBIDDEN"


@pytest.mark.rule("session.error.not-found")
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


# -- the session and switching tenants (the admin console's tenant switch) -------------------------

def _login(env: Env, email: str, **extra: str) -> Any:
    return env.client.post("/api/auth/login", json={"email": email, "password": USER_PASSWORD, **extra})


def test_login_into_a_given_tenant_acts_there(env: Env) -> None:
    home, other = member_of_two_tenants(env)
    response = _login(env, home.emails["admin"], tenantId=other.code)
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    assert data["tenantId"] == other.code
    auth = {"Authorization": f"Bearer {data['jwt']}"}
    assert env.client.get("/api/auth/session", headers=auth).json()["data"]["tenantRole"] == "viewer"


def test_login_into_a_tenant_of_which_the_user_is_not_a_member_is_tenant_forbidden(env: Env) -> None:
    home, stranger = env.new_tenant(), env.new_tenant()
    for tenant_code in (stranger.code, "no-such-tenant"):
        response = _login(env, home.emails["admin"], tenantId=tenant_code)
        assert response.status_code == 403
        assert response.json()["code"] == "TENANT_FORBIDDEN"


def test_login_with_a_wrong_password_says_nothing_about_tenants(env: Env, tenant: TenantUsers) -> None:
    response = env.client.post("/api/auth/login", json={"email": tenant.emails["admin"], "password": "nope",
                                                        "tenantId": "no-such-tenant"})
    assert response.status_code == 401
    assert response.json()["code"] == "UNAUTHORIZED"


def test_the_session_names_the_user_tenant_permissions_and_every_tenant(env: Env) -> None:
    home, other = member_of_two_tenants(env)
    data = env.client.get("/api/auth/session", headers=home.headers()).json()["data"]
    assert data["email"] == home.emails["admin"]
    assert data["userPid"].startswith("usr_")
    assert (data["tenantId"], data["tenantRole"], data["permissions"]) == (home.code, "admin", ["*"])
    assert data["platformRoles"] == ["sys.connector.update"]
    assert data["tenants"] == sorted([
        {"tenantId": home.code, "name": data["tenantName"], "role": "admin", "status": "member"},
        {"tenantId": other.code, "name": f"Tenant {other.code[2:]}", "role": "viewer", "status": "member"},
    ], key=lambda t: t["tenantId"])
    claims = pyjwt.decode(home.headers()["Authorization"].split(" ", 1)[1], options={"verify_signature": False})
    assert datetime.fromisoformat(data["expiresAt"]).timestamp() == claims["exp"]


def test_the_session_of_a_viewer_lists_only_its_permissions(env: Env, tenant: TenantUsers) -> None:
    data = env.client.get("/api/auth/session", headers=tenant.headers("viewer")).json()["data"]
    assert data["tenantRole"] == "viewer"
    assert data["permissions"] == ["assets:view", "stock-ins:view"]
    assert data["platformRoles"] == []


@pytest.mark.rule("session.tenant.header-override")
def test_the_session_follows_x_tenant_id(env: Env) -> None:
    home, other = member_of_two_tenants(env)
    data = env.client.get("/api/auth/session", headers={**home.headers(), "X-Tenant-Id": other.code}).json()["data"]
    assert (data["tenantId"], data["tenantRole"]) == (other.code, "viewer")
    assert env.client.get("/api/auth/session").status_code == 401


@pytest.mark.rule("session.login.result-fields")
def test_switching_tenant_issues_a_jwt_acting_in_the_other_tenant_and_is_audited(env: Env) -> None:
    home, other = member_of_two_tenants(env)
    response = env.client.post("/api/auth/switch-tenant", json={"tenantId": other.code},
                               headers={**home.headers(), "X-Request-Id": "switch-1"})
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    assert set(data) == {"jwt", "userId", "userPid", "username", "tenantId", "tenantStatus"}
    assert data["tenantId"] == other.code
    switched = {"Authorization": f"Bearer {data['jwt']}"}
    assert env.client.get("/api/auth/session", headers=switched).json()["data"]["tenantId"] == other.code
    # The viewer role of the new tenant applies: no audit permission there.
    assert env.client.get("/api/audit/list", headers=switched).status_code == 403
    entries = env.client.get("/api/audit/list", headers=other.headers(),
                             params={"filters": '[{"fieldName":"requestId","operator":"eq","value":"switch-1"}]'})
    [entry] = entries.json()["data"]["records"]
    assert (entry["action"], entry["actor"], entry["targetId"]) == ("auth.switch_tenant", home.emails["admin"],
                                                                   other.code)
    assert (entry["before"], entry["after"]) == ({"tenantId": home.code}, {"tenantId": other.code})


def test_switching_to_a_tenant_of_which_the_user_is_not_a_member_is_tenant_forbidden(env: Env,
                                                                                     tenant: TenantUsers) -> None:
    stranger = env.new_tenant()
    for tenant_code in (stranger.code, "no-such-tenant"):
        response = env.client.post("/api/auth/switch-tenant", json={"tenantId": tenant_code}, headers=tenant.headers())
        assert response.status_code == 403
        assert response.json()["code"] == "TENANT_FORBIDDEN"


def test_the_demo_administrator_is_a_member_of_both_demo_tenants(env: Env, demo_admin: dict[str, str]) -> None:
    tenants = env.client.get("/api/auth/session", headers=demo_admin).json()["data"]["tenants"]
    assert [(t["tenantId"], t["role"]) for t in tenants] == [("acme", "viewer"), ("demo", "admin")]
