"""The two surfaces do not take each other's credentials: human sessions never appear on the Open
Platform, and machine identities never act as employees on the session API."""

from __future__ import annotations

import pytest

from tests.conftest import Env, TenantUsers, bearer, issue_token

OPEN_PLATFORM_CALLS = [("GET", "/api/open/v1/whoami"), ("GET", "/api/open/v1/resources/assets"),
                       ("GET", "/api/open/v1/events")]
SESSION_CALLS = [("GET", "/api/dynamic/assets/list"), ("GET", "/api/auth/session"),
                 ("GET", "/api/open-platform/applications/list"), ("GET", "/api/audit/list")]


@pytest.mark.rule("both.cross-surface.no-human-sessions")
def test_a_signed_in_users_jwt_is_no_token_of_the_open_platform(env: Env, tenant: TenantUsers) -> None:
    session = tenant.headers("admin")  # an administrator of the tenant, with sys.connector.update
    for method, path in OPEN_PLATFORM_CALLS:
        response = env.client.request(method, path, headers=session)
        assert response.status_code == 401, (path, response.text)
        assert response.json()["code"] == "invalid_token"
    jwt = session["Authorization"].removeprefix("Bearer ")
    introspected = env.client.post("/oauth2/introspect", data={"token": jwt}, auth=_client(tenant))
    assert introspected.json() == {"active": False}


@pytest.mark.rule("both.cross-surface.no-human-sessions")
def test_a_users_email_and_password_are_no_client_credentials(env: Env, tenant: TenantUsers) -> None:
    response = issue_token(env, tenant.emails["admin"], "user-password-for-tests")
    assert response.status_code == 401
    assert response.json()["code"] == "invalid_client"


@pytest.mark.rule("both.cross-surface.machines-not-employees")
def test_an_access_token_is_no_session_of_the_session_api(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install(scopes=("assets.read", "assets.manage"))
    token = bearer(issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"])
    for method, path in SESSION_CALLS:
        response = env.client.request(method, path, headers=token)
        assert response.status_code == 401, (path, response.text)
        assert response.json()["code"] == "UNAUTHORIZED"
    command = env.client.post("/api/meta/commands/execute/assets:create", headers=token,
                              json={"payload": {"name": "Machine", "serialNo": "SN-MACHINE"}})
    assert command.status_code == 401
    assert command.json()["code"] == "UNAUTHORIZED"


@pytest.mark.rule("both.cross-surface.machines-not-employees")
def test_client_credentials_do_not_sign_in_to_the_session_api(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    response = env.client.post("/api/auth/login", json={"email": cred["clientId"], "password": cred["clientSecret"]})
    assert response.status_code in (400, 401)
    assert response.json()["code"] in ("VALIDATION_ERROR", "UNAUTHORIZED")
    assert "jwt" not in (response.json()["data"] or {})


def _client(tenant: TenantUsers) -> tuple[str, str]:
    cred = tenant.install()
    return cred["clientId"], cred["clientSecret"]
