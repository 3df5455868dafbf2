"""The token endpoint (RFC 6749 client credentials) and token validation on business calls."""

from __future__ import annotations

import base64
import contextvars
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from starlette.testclient import TestClient

from storage import audit
from storage.drivers.engine import IntegrityError
from storage.openplatform import call_audit
from storage.schema.tables import access_tokens, audit_log, credentials, open_api_calls
from tessera.app import create_app
from tessera.core.clock import ShiftedClock
from tessera.openplatform.tokens import grants
from tessera.runtime import build_runtime
from tests.conftest import Env, TenantUsers, bearer, issue_token, make_settings

ALL = "assets.manage assets.read"


@pytest.mark.rule(
    "op.token.short-lived-opaque",
    "op.token-response.access-token",
    "op.token-response.token-type",
    "op.token-response.expires-in",
    "op.token-response.scope",
    "op.token-endpoint.client-credentials-required",
    "op.token-endpoint.responses",
    "op.token.scope-omitted-gives-grant",
    "op.token.lifetime-default",
)
def test_client_credentials_in_the_form_body_get_a_bearer_token(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    response = issue_token(env, cred["clientId"], cred["clientSecret"])
    assert response.status_code == 200
    body = response.json()
    assert body["token_type"] == "Bearer"
    assert body["expires_in"] == 3600
    assert body["scope"] == ALL
    assert body["access_token"].startswith("tat_")
    assert response.headers["Cache-Control"] == "no-store"


def test_client_credentials_by_http_basic_get_a_token(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    basic = base64.b64encode(f"{cred['clientId']}:{cred['clientSecret']}".encode()).decode()
    response = env.client.post("/oauth2/token", data={"grant_type": "client_credentials"},
                               headers={"Authorization": f"Basic {basic}"})
    assert response.status_code == 200


@pytest.mark.rule("op.token-response.scope", "op.token-endpoint.scope-optional")
def test_a_requested_subset_of_the_grant_is_given(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    assert issue_token(env, cred["clientId"], cred["clientSecret"], "assets.read").json()["scope"] == "assets.read"


@pytest.mark.rule(
    "op.token.scope-within-grant",
    "op.token-endpoint.responses",
    "op.error.envelope-fields",
    "op.error.invalid-scope",
)
def test_a_scope_outside_the_grant_is_invalid_scope(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    response = issue_token(env, cred["clientId"], cred["clientSecret"], "assets.read inventory.stockins.read")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == body["error"] == "invalid_scope"
    assert set(body) >= {"code", "message", "requestId", "details"}


@pytest.mark.rule("op.token-endpoint.responses", "op.error.invalid-client")
def test_a_wrong_secret_is_invalid_client(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    response = issue_token(env, cred["clientId"], cred["clientSecret"] + "x")
    assert response.status_code == 401
    assert response.json()["code"] == "invalid_client"


@pytest.mark.rule("op.token-endpoint.client-credentials-required", "op.error.invalid-client")
def test_an_unknown_client_is_invalid_client(env: Env) -> None:
    response = issue_token(env, "tcli_000000000000000000000000", "tsec_nothing")
    assert response.status_code == 401
    assert response.json()["code"] == "invalid_client"


@pytest.mark.rule("op.token-endpoint.grant-type")
def test_a_missing_grant_type_is_invalid_request(env: Env) -> None:
    response = env.client.post("/oauth2/token", data={"client_id": "a", "client_secret": "b"})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_request"


@pytest.mark.rule("op.token-endpoint.grant-type")
def test_another_grant_type_is_unsupported_grant_type(env: Env) -> None:
    response = env.client.post("/oauth2/token", data={"grant_type": "password", "username": "u", "password": "p"})
    assert response.status_code == 400
    assert response.json()["code"] == "unsupported_grant_type"
    assert response.json()["error"] == "unsupported_grant_type"


def test_another_grant_type_with_another_bad_field_is_invalid_request(env: Env) -> None:
    response = env.client.post("/oauth2/token", data={"grant_type": "password", "scope": "s" * 2001})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_request"
    assert set(response.json()["details"]["fieldErrors"]) == {"grant_type", "scope"}


def test_two_client_authentication_methods_at_once_are_invalid_request(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    basic = base64.b64encode(f"{cred['clientId']}:{cred['clientSecret']}".encode()).decode()
    response = env.client.post(
        "/oauth2/token", headers={"Authorization": f"Basic {basic}"},
        data={"grant_type": "client_credentials", "client_id": cred["clientId"], "client_secret": cred["clientSecret"]},
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_request"


@pytest.mark.rule("security.no-secrets-in-urls")
def test_credentials_in_the_query_string_are_refused(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    response = env.client.post(
        f"/oauth2/token?client_id={cred['clientId']}&client_secret={cred['clientSecret']}",
        data={"grant_type": "client_credentials"},
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_request"


@pytest.mark.rule("op.token-endpoint.rate-limited", "op.ratelimit.token-endpoint-429")
def test_the_token_endpoint_is_rate_limited_per_client(env: Env, tenant: TenantUsers, tmp_path: Path) -> None:
    """On an app allowing 3 token requests a minute: one every 20 s, so the real time the requests
    take never frees one (at 60 a minute, a slow run got one back every second)."""
    cred, other = tenant.install(), tenant.install()
    settings = make_settings(tmp_path, env.database_url, TESSERA_RATE_LIMIT_TOKEN="3")
    form = {"grant_type": "client_credentials", "client_id": cred["clientId"]}
    with TestClient(create_app(settings, build_runtime(settings))) as limited:
        statuses = [limited.post("/oauth2/token", data={**form, "client_secret": "wrong"}).status_code
                    for _ in range(3)]
        assert set(statuses) == {401}
        refused = limited.post("/oauth2/token", data={**form, "client_secret": cred["clientSecret"]})
        assert refused.status_code == 429
        assert refused.json()["code"] == "rate_limit_exceeded"
        assert int(refused.headers["Retry-After"]) >= 1
        assert limited.post("/oauth2/token", data={"grant_type": "client_credentials", "client_id": other["clientId"],
                                                   "client_secret": other["clientSecret"]}).status_code == 200


@pytest.mark.rule("op.identity.machine-identity", "op.token.bound-to-installation", "op.whoami.endpoint")
def test_whoami_answers_application_installation_tenant_environment_and_scopes(
    env: Env, tenant: TenantUsers
) -> None:
    cred = tenant.install(environment="staging")
    token = issue_token(env, cred["clientId"], cred["clientSecret"], "assets.read").json()["access_token"]
    data = env.client.get("/api/open/v1/whoami", headers=bearer(token)).json()
    assert data["application"]["appId"] == cred["appId"]
    assert data["installation"]["installationId"] == cred["installationId"]
    assert data["tenant"] == {"tenantId": tenant.code}
    assert data["environment"] == "staging"
    assert data["scopes"] == ["assets.read"]


@pytest.mark.rule("op.tenant.no-header-or-query")
def test_tenant_headers_and_parameters_are_ignored(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    token = issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"]
    response = env.client.get("/api/open/v1/whoami", headers={**bearer(token), "X-Tenant-Id": "demo"})
    assert response.json()["tenant"] == {"tenantId": tenant.code}


@pytest.mark.rule(
    "op.auth.bearer-only",
    "op.error-envelope.request-id",
    "op.request-id.echo",
    "op.error.envelope-fields",
)
def test_a_missing_token_is_invalid_token_in_the_open_platform_envelope(env: Env) -> None:
    response = env.client.get("/api/open/v1/whoami", headers={"X-Request-Id": "op-req-1"})
    assert response.status_code == 401
    assert response.json() == {"code": "invalid_token", "message": "The access token is missing, expired or revoked.",
                               "requestId": "op-req-1", "details": {}}
    assert response.headers["X-Request-Id"] == "op-req-1"


@pytest.mark.rule("op.call.bearer-header")
def test_a_call_without_credentials_is_challenged_with_no_error_code(env: Env) -> None:
    # RFC 6750 section 3.1: a request lacking authentication information gets no error attribute.
    response = env.client.get("/api/open/v1/resources/assets")
    assert response.status_code == 401
    assert response.json()["code"] == "invalid_token"
    assert response.headers["WWW-Authenticate"] == 'Bearer realm="tessera"'


@pytest.mark.rule("op.secret.token-endpoint-only", "op.auth.bearer-only")
def test_a_call_with_another_scheme_than_bearer_is_challenged_with_no_error_code(env: Env) -> None:
    basic = "Basic " + base64.b64encode(b"client:secret").decode()
    response = env.client.get("/api/open/v1/resources/assets", headers={"Authorization": basic})
    assert response.status_code == 401
    assert response.json()["code"] == "invalid_token"
    assert response.headers["WWW-Authenticate"] == 'Bearer realm="tessera"'


@pytest.mark.rule("op.call.bearer-header")
def test_an_unknown_token_is_challenged_with_invalid_token(env: Env) -> None:
    response = env.client.get("/api/open/v1/resources/assets", headers=bearer("tat_not-a-token"))
    assert response.status_code == 401
    assert response.json()["code"] == "invalid_token"
    assert response.headers["WWW-Authenticate"] == 'Bearer realm="tessera", error="invalid_token"'


@pytest.mark.rule("op.token.invalid-expired-or-revoked", "op.error.invalid-token")
def test_an_expired_token_is_challenged_with_invalid_token(env: Env, tenant: TenantUsers, clock: ShiftedClock) -> None:
    cred = tenant.install()
    token = issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"]
    clock.advance(env.runtime.settings.token_ttl_seconds)
    response = env.client.get("/api/open/v1/resources/assets", headers=bearer(token))
    assert response.status_code == 401
    assert response.json()["code"] == "invalid_token"
    assert response.headers["WWW-Authenticate"] == 'Bearer realm="tessera", error="invalid_token"'


@pytest.mark.rule(
    "op.token.short-lived-opaque",
    "op.token-response.expires-in",
    "op.token.expires-in-truthful",
    "op.token.lifetime-default",
    "limits.token-lifetime",
)
def test_a_token_works_until_its_lifetime_ends(env: Env, tenant: TenantUsers, clock: ShiftedClock) -> None:
    cred = tenant.install()
    token = issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"]
    clock.advance(env.runtime.settings.token_ttl_seconds - 5)
    assert env.client.get("/api/open/v1/whoami", headers=bearer(token)).status_code == 200
    clock.advance(5)
    assert env.client.get("/api/open/v1/whoami", headers=bearer(token)).status_code == 401


@pytest.mark.rule("op.credential.revoke-invalidates-tokens", "op.incident.revoke-or-disable")
def test_revoking_a_credential_invalidates_its_tokens_at_once_and_stops_minting(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    token = issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"]
    assert env.client.get("/api/open/v1/whoami", headers=bearer(token)).status_code == 200
    assert tenant.admin_call("POST", f"/credentials/{cred['clientId']}/revoke").status_code == 200
    assert env.client.get("/api/open/v1/whoami", headers=bearer(token)).status_code == 401
    assert issue_token(env, cred["clientId"], cred["clientSecret"]).json()["code"] == "invalid_client"


@pytest.mark.rule("op.installation.disable-invalidates-tokens", "op.incident.revoke-or-disable")
def test_disabling_an_installation_invalidates_its_tokens_at_once(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    token = issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"]
    path = f"/installations/{cred['installationId']}"
    assert tenant.admin_call("PUT", path, json={"status": "disabled"}).status_code == 200
    assert env.client.get("/api/open/v1/whoami", headers=bearer(token)).status_code == 401
    assert issue_token(env, cred["clientId"], cred["clientSecret"]).status_code == 401


@pytest.mark.rule("op.installation.disable-invalidates-tokens", "op.incident.revoke-or-disable")
def test_a_token_stolen_before_a_disable_stays_dead_after_the_re_enable(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    stolen = issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"]
    path = f"/installations/{cred['installationId']}"
    assert tenant.admin_call("PUT", path, json={"status": "disabled"}).status_code == 200
    assert tenant.admin_call("PUT", path, json={"status": "enabled"}).status_code == 200
    assert env.client.get("/api/open/v1/whoami", headers=bearer(stolen)).status_code == 401
    introspected = env.client.post("/oauth2/introspect", data={"token": stolen},
                                   auth=(cred["clientId"], cred["clientSecret"]))
    assert introspected.json() == {"active": False}
    fresh = issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"]  # new tokens only
    assert env.client.get("/api/open/v1/whoami", headers=bearer(fresh)).status_code == 200


@pytest.mark.rule("op.token.scope-within-grant")
def test_narrowing_the_grant_narrows_live_tokens(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    token = issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"]
    tenant.admin_call("PUT", f"/installations/{cred['installationId']}", json={"scopes": ["assets.read"]})
    assert env.client.get("/api/open/v1/whoami", headers=bearer(token)).json()["scopes"] == ["assets.read"]


def _rotate(tenant: TenantUsers, client_id: str, grace: int = 300) -> dict[str, str]:
    response = tenant.admin_call("POST", f"/credentials/{client_id}/rotate", json={"graceSeconds": grace})
    assert response.status_code == 200, response.text
    return response.json()["data"]


def _end_grace(clock: ShiftedClock, grace: int = 300) -> None:
    clock.advance(grace + 1)


@pytest.mark.rule("op.credential.grace-both-pairs")
def test_during_the_grace_window_both_pairs_mint_tokens(env: Env, tenant: TenantUsers) -> None:
    old = tenant.install()
    new = _rotate(tenant, old["clientId"])
    assert issue_token(env, old["clientId"], old["clientSecret"]).status_code == 200
    assert issue_token(env, new["clientId"], new["clientSecret"]).status_code == 200


@pytest.mark.rule("op.credential.grace-old-rejected")
def test_after_the_grace_window_the_old_pair_is_rejected(env: Env, tenant: TenantUsers, clock: ShiftedClock) -> None:
    old = tenant.install()
    new = _rotate(tenant, old["clientId"])
    _end_grace(clock)
    assert issue_token(env, old["clientId"], old["clientSecret"]).json()["code"] == "invalid_client"
    assert issue_token(env, new["clientId"], new["clientSecret"]).status_code == 200


@pytest.mark.rule("op.credential.rotation-keeps-earlier-tokens")
def test_tokens_issued_before_a_rotation_live_their_lifetime(env: Env, tenant: TenantUsers,
                                                             clock: ShiftedClock) -> None:
    old = tenant.install()
    before = issue_token(env, old["clientId"], old["clientSecret"]).json()["access_token"]
    _rotate(tenant, old["clientId"])
    _end_grace(clock)
    assert env.client.get("/api/open/v1/whoami", headers=bearer(before)).status_code == 200


@pytest.mark.rule("op.token.expires-in-truthful")
def test_a_token_of_the_old_pair_during_the_grace_says_it_lives_until_the_grace_ends(
        env: Env, tenant: TenantUsers, clock: ShiftedClock) -> None:
    old = tenant.install()
    with clock.held():  # the rotation and the token at one instant: the whole window is left
        _rotate(tenant, old["clientId"], grace=600)
        answer = issue_token(env, old["clientId"], old["clientSecret"]).json()
    assert answer["expires_in"] == 600  # the grace window, not the default hour
    clock.advance(598)  # time flows on from the held instant: under a second has passed since
    assert env.client.get("/api/open/v1/whoami", headers=bearer(answer["access_token"])).status_code == 200
    clock.advance(2)
    assert env.client.get("/api/open/v1/whoami", headers=bearer(answer["access_token"])).status_code == 401


@pytest.mark.rule("op.token.expires-in-truthful", "op.token.lifetime-default")
def test_a_token_of_the_new_pair_lives_the_whole_default_hour(env: Env, tenant: TenantUsers) -> None:
    old = tenant.install()
    new = _rotate(tenant, old["clientId"], grace=600)
    assert issue_token(env, new["clientId"], new["clientSecret"]).json()["expires_in"] == 3600


@pytest.mark.rule("op.credential.grace-old-rejected")
def test_tokens_minted_by_the_old_pair_during_the_grace_die_when_it_ends(env: Env, tenant: TenantUsers,
                                                                         clock: ShiftedClock) -> None:
    old = tenant.install()
    _rotate(tenant, old["clientId"])
    during = issue_token(env, old["clientId"], old["clientSecret"]).json()["access_token"]
    assert env.client.get("/api/open/v1/whoami", headers=bearer(during)).status_code == 200
    _end_grace(clock)
    assert env.client.get("/api/open/v1/whoami", headers=bearer(during)).status_code == 401


@pytest.mark.rule("op.credential.grace-window-range", "limits.rotation-grace-window")
def test_a_grace_window_outside_5_minutes_to_7_days_is_refused(tenant: TenantUsers) -> None:
    cred = tenant.install()
    for grace in (299, 604801):
        response = tenant.admin_call("POST", f"/credentials/{cred['clientId']}/rotate", json={"graceSeconds": grace})
        assert response.status_code == 400


@pytest.mark.rule("op.request-id.call-audit")
def test_every_business_call_is_in_the_call_audit_with_its_request_id(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    token = issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"]
    env.client.get("/api/open/v1/whoami", headers={**bearer(token), "X-Request-Id": "call-audit-1"})
    env.run(env.runtime.call_audit.flush)  # rows are written in batches, within 50 ms
    with env.sql.connect() as conn:
        row = conn.execute(select(open_api_calls).where(open_api_calls.c.request_id == "call-audit-1")).one()
    assert (row.method, row.path, row.status, row.client_id) == ("GET", "/api/open/v1/whoami", 200, cred["clientId"])


@pytest.mark.rule("op.capability.unpublished-not-found")
def test_an_unpublished_route_is_capability_not_found_before_authentication(env: Env) -> None:
    response = env.client.get("/api/open/v1/internal/users")
    assert response.status_code == 404
    assert response.json()["code"] == "open_api_capability_not_found"


def test_an_unpublished_method_on_a_published_path_is_405_before_authentication(env: Env) -> None:
    response = env.client.delete("/api/open/v1/whoami")
    assert response.status_code == 405
    assert response.headers["Allow"] == "GET"
    assert response.json()["code"] == "open_api_capability_not_found"


def _statements(env: Env, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[int]]:
    """What the database runs from here on: single statements, and write transactions opened."""
    statements: list[str] = []
    transactions: list[int] = []
    execute, write, record_calls = env.runtime.db.execute, env.runtime.db.write, call_audit.record_calls
    # The call audit's writer runs beside, in a task of its own, whenever its tick comes: what it
    # runs is not the request's (SQLite writes its batch in a transaction of its own).
    audit_writer: contextvars.ContextVar[bool] = contextvars.ContextVar("audit_writer", default=False)

    async def marked(conn: Any, rows: Any) -> None:
        audit_writer.set(True)  # in the writer task's context only
        await record_calls(conn, rows)

    async def counted(statement: Any, params: Any = None) -> Any:
        if not audit_writer.get():
            statements.append(str(statement))
        return await execute(statement, params)

    def counted_write() -> Any:
        if not audit_writer.get():
            transactions.append(1)
        return write()

    monkeypatch.setattr(call_audit, "record_calls", marked)
    monkeypatch.setattr(env.runtime.db, "execute", counted)
    monkeypatch.setattr(env.runtime.db, "write", counted_write)
    return statements, transactions


@pytest.mark.rule("op.token-endpoint.audited")
def test_the_statements_a_secrets_token_and_its_audit_entry_cost_on_each_backend(
        env: Env, tenant: TenantUsers, monkeypatch: pytest.MonkeyPatch) -> None:
    cred = tenant.install()
    statements, transactions = _statements(env, monkeypatch)
    response = issue_token(env, cred["clientId"], cred["clientSecret"])
    assert response.status_code == 200
    if env.backend == "postgresql":  # the token's insert is the audit insert's CTE: one statement
        assert len(statements) == 2 and transactions == []
    else:  # SQLite has no data-modifying CTE: the read and both inserts are one transaction
        assert statements == [] and transactions == [1]
    with env.sql.connect() as conn:
        entries = conn.execute(select(audit_log).where(audit_log.c.actor == cred["clientId"])).all()
    assert [(e.action, e.target_id, e.after) for e in entries] == [
        ("oauth.token.issue", cred["installationId"], {"scopes": ["assets.manage", "assets.read"]})]


def test_a_token_whose_audit_entry_fails_is_not_stored(
        env: Env, tenant: TenantUsers, monkeypatch: pytest.MonkeyPatch) -> None:
    cred = tenant.install()
    real_entry = audit.entry
    monkeypatch.setattr(audit, "entry", lambda **values: {**real_entry(**values), "action": None})  # NOT NULL
    request = grants.TokenRequest("client_credentials", cred["clientId"], cred["clientSecret"], None)
    with pytest.raises(IntegrityError):
        env.run(grants.issue, env.runtime, request, "half-written-1")
    with env.sql.connect() as conn:
        stored = conn.execute(select(func.count()).select_from(access_tokens).join(
            credentials, credentials.c.id == access_tokens.c.credential_id).where(
            credentials.c.client_id == cred["clientId"])).scalar_one()
    assert stored == 0
