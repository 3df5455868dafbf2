"""OAuth standards stock clients rely on: RFC 8414 metadata, RFC 7662 introspection, RFC 7009
revocation, and the RFC 6749 / RFC 6750 error fields of the token endpoint and business calls."""

from __future__ import annotations

import base64
import dataclasses
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from authlib.integrations.httpx_client import OAuth2Client
from authlib.oauth2.rfc8414 import AuthorizationServerMetadata
from sqlalchemy import select
from starlette.testclient import TestClient

from storage.schema.tables import audit_log
from tessera.app import create_app
from tessera.core.clock import ShiftedClock
from tessera.core.settings import SettingsError
from tessera.runtime import build_runtime
from tests.conftest import Env, TenantUsers, bearer, issue_token, make_settings
from tests.support.live_server import serve

METADATA = "/.well-known/oauth-authorization-server"
INTROSPECT = "/oauth2/introspect"
REVOKE = "/oauth2/revoke"
WHOAMI = "/api/open/v1/whoami"


def _token(env: Env, cred: dict[str, str], scope: str | None = None) -> str:
    response = issue_token(env, cred["clientId"], cred["clientSecret"], scope)
    assert response.status_code == 200, response.text
    return str(response.json()["access_token"])


def _basic(cred: dict[str, str]) -> dict[str, str]:
    pair = f"{cred['clientId']}:{cred['clientSecret']}".encode()
    return {"Authorization": "Basic " + base64.b64encode(pair).decode()}


def _introspect(env: Env, cred: dict[str, str], token: str) -> Any:
    form = {"token": token, "client_id": cred["clientId"], "client_secret": cred["clientSecret"]}
    response = env.client.post(INTROSPECT, data=form)
    assert response.status_code == 200, response.text
    assert response.headers["Cache-Control"] == "no-store"
    return response.json()


def _revoke(env: Env, cred: dict[str, str], token: str) -> Any:
    return env.client.post(REVOKE, data={"token": token, "token_type_hint": "access_token"}, headers=_basic(cred))


def _audited(env: Env, action: str, actor: str) -> list[Any]:
    with env.sql.connect() as conn:
        return list(conn.execute(select(audit_log).where(audit_log.c.action == action, audit_log.c.actor == actor)))


# -- RFC 8414 metadata -----------------------------------------------------------------------------


def test_the_metadata_names_every_endpoint_as_an_absolute_url(env: Env) -> None:
    response = env.client.get(METADATA)
    assert response.status_code == 200
    assert "max-age=3600" in response.headers["Cache-Control"]
    meta = response.json()
    issuer = meta["issuer"]
    assert issuer == "http://testserver"
    assert meta["token_endpoint"] == f"{issuer}/oauth2/token"
    assert meta["introspection_endpoint"] == f"{issuer}{INTROSPECT}"
    assert meta["revocation_endpoint"] == f"{issuer}{REVOKE}"
    assert meta["service_documentation"] == f"{issuer}/api/open/v1/docs"
    for key in ("token_endpoint", "introspection_endpoint", "revocation_endpoint", "service_documentation"):
        parts = urlsplit(meta[key])
        assert (parts.scheme, parts.netloc) == ("http", "testserver"), key
    assert meta["grant_types_supported"] == ["client_credentials"]
    assert meta["response_types_supported"] == []
    methods = ["client_secret_basic", "client_secret_post", "private_key_jwt"]
    for endpoint in ("token", "introspection", "revocation"):
        assert meta[f"{endpoint}_endpoint_auth_methods_supported"] == methods
    assert meta["scopes_supported"] == sorted(env.runtime.capabilities.scopes)
    assert "events.robot-fleet.publish" in meta["scopes_supported"]
    assert not {"code", "data", "requestId"} & set(meta)


def test_the_metadata_is_what_authlib_expects_of_a_server_over_https(env: Env) -> None:
    meta = env.client.get("https://testserver" + METADATA).json()
    assert meta["issuer"] == "https://testserver"
    assert meta["token_endpoint"] == "https://testserver/oauth2/token"
    checked = AuthorizationServerMetadata(meta)
    # Authlib wants a non-empty response_types_supported; RFC 8414 requires the member, and with no
    # authorization endpoint (client credentials only) the honest value is the empty list.
    for key in checked.REGISTRY_KEYS:
        if key != "response_types_supported":
            getattr(checked, f"validate_{key}")()


def test_the_metadata_follows_the_host_the_client_used(env: Env) -> None:
    response = env.client.get(METADATA, headers={"Host": "api.example.com:8443"})
    assert response.json()["issuer"] == "http://api.example.com:8443"
    assert response.json()["token_endpoint"] == "http://api.example.com:8443/oauth2/token"


def test_a_host_that_is_no_authority_is_invalid_request(env: Env) -> None:
    response = env.client.get(METADATA, headers={"Host": "evil.example/path?x"})
    assert response.status_code == 400
    assert response.json()["error"] == response.json()["code"] == "invalid_request"


def test_the_configured_public_url_is_the_issuer(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = dataclasses.replace(env.runtime.settings, public_url="https://api.example.com")
    monkeypatch.setattr(env.runtime, "settings", settings)
    meta = env.client.get(METADATA, headers={"Host": "internal:8080"}).json()
    assert meta["issuer"] == "https://api.example.com"
    assert meta["revocation_endpoint"] == "https://api.example.com/oauth2/revoke"


def test_the_public_url_setting_takes_an_origin_only(tmp_path: Any) -> None:
    database = f"sqlite:///{tmp_path / 'db.sqlite'}"
    assert make_settings(tmp_path, database, TESSERA_PUBLIC_URL="HTTPS://api.example.com/").public_url \
        == "https://api.example.com"
    assert make_settings(tmp_path, database).public_url is None
    for bad in ("api.example.com", "ftp://api.example.com", "https://api.example.com/base", "https://u@x.example"):
        with pytest.raises(SettingsError, match="TESSERA_PUBLIC_URL"):
            make_settings(tmp_path, database, TESSERA_PUBLIC_URL=bad)


def test_the_metadata_path_answers_in_the_oauth_envelope_never_the_sessions(env: Env) -> None:
    response = env.client.post(METADATA, data={})
    assert response.status_code == 405
    assert response.headers["Allow"] == "GET"
    body = response.json()
    assert body["error"] == "invalid_request" and body["code"] == "method_not_allowed"
    assert body["requestId"] == response.headers["X-Request-Id"]
    assert "data" not in body


# -- RFC 7662 introspection ------------------------------------------------------------------------


@pytest.mark.rule("op.token.lifetime-default")
def test_introspection_describes_a_live_token_of_the_clients_installation(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    issued_at = int(env.runtime.clock.now().timestamp())
    token = _token(env, cred, "assets.read")
    answer = _introspect(env, cred, token)
    assert answer.pop("iat") in (issued_at, issued_at + 1)
    assert answer.pop("exp") - issued_at in range(3600, 3602)
    assert answer == {"active": True, "scope": "assets.read", "client_id": cred["clientId"], "token_type": "Bearer",
                      "sub": cred["clientId"], "iss": "http://testserver"}


def test_introspection_with_http_basic_reaches_a_token_of_another_credential_of_the_installation(
        env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    second = tenant.admin_call("POST", f"/installations/{cred['installationId']}/credentials").json()["data"]
    token = _token(env, cred)
    response = env.client.post(INTROSPECT, data={"token": token}, headers=_basic(second))
    assert response.status_code == 200
    assert response.json()["active"] is True
    assert response.json()["client_id"] == cred["clientId"]


def test_an_expired_token_is_inactive(env: Env, tenant: TenantUsers, clock: ShiftedClock) -> None:
    cred = tenant.install()
    token = _token(env, cred)
    clock.advance(env.runtime.settings.token_ttl_seconds)
    assert _introspect(env, cred, token) == {"active": False}


def test_an_unknown_token_is_inactive(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    assert _introspect(env, cred, "tat_" + "x" * 43) == {"active": False}
    assert _introspect(env, cred, "y" * 4000) == {"active": False}


@pytest.mark.rule("op.token.bound-to-installation")
def test_another_clients_token_is_inactive_to_it(env: Env, tenant: TenantUsers) -> None:
    mine, theirs = tenant.install(), env.new_tenant().install()
    neighbour = tenant.install()  # another application's installation in the same tenant
    for other in (theirs, neighbour):
        token = _token(env, other)
        assert _introspect(env, mine, token) == {"active": False}
        assert _introspect(env, other, token)["active"] is True


def test_a_token_of_a_revoked_credential_is_inactive(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    second = tenant.admin_call("POST", f"/installations/{cred['installationId']}/credentials").json()["data"]
    token = _token(env, cred)
    assert tenant.admin_call("POST", f"/credentials/{cred['clientId']}/revoke").status_code == 200
    assert _introspect(env, second, token) == {"active": False}


@pytest.mark.rule("op.token-endpoint.audited")
def test_introspection_without_client_authentication_is_invalid_client(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    token = _token(env, cred)
    anonymous = env.client.post(INTROSPECT, data={"token": token})
    assert anonymous.status_code == 401
    body = anonymous.json()
    assert body["code"] == body["error"] == "invalid_client"
    assert anonymous.headers["Cache-Control"] == "no-store"
    wrong = env.client.post(INTROSPECT, data={"token": token},
                            headers=_basic({**cred, "clientSecret": cred["clientSecret"] + "x"}))
    assert wrong.status_code == 401
    assert wrong.headers["WWW-Authenticate"].startswith("Basic")
    env.run(env.runtime.token_refusals.flush, final=True)
    denied = _audited(env, "oauth.token.refused", cred["clientId"])
    assert [(row.after["endpoint"], row.after["error"], row.after["count"]) for row in denied] == [
        ("introspection", "invalid_client", 1)]


@pytest.mark.rule("security.no-secrets-in-urls")
def test_introspection_needs_the_token_in_the_body(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    token = _token(env, cred)
    missing = env.client.post(INTROSPECT, data={}, headers=_basic(cred))
    assert missing.status_code == 400
    assert missing.json()["error"] == "invalid_request"
    in_url = env.client.post(INTROSPECT, params={"token": token}, data={"token": token}, headers=_basic(cred))
    assert in_url.status_code == 400
    assert in_url.json()["error"] == "invalid_request"


@pytest.mark.rule("op.token-endpoint.rate-limited")
def test_introspection_and_revocation_count_against_the_clients_token_limit(
        env: Env, tenant: TenantUsers, tmp_path: Path) -> None:
    """On an app allowing 3 token requests a minute (one every 20 s, so the test's own pace never
    frees one): the token, the introspection and the revocation share the client's limit."""
    cred = tenant.install()
    token = _token(env, cred)
    settings = make_settings(tmp_path, env.database_url, TESSERA_RATE_LIMIT_TOKEN="3")
    with TestClient(create_app(settings, build_runtime(settings))) as limited:
        assert _issue_token_with(limited, cred).status_code == 200
        assert limited.post(INTROSPECT, data={"token": token}, headers=_basic(cred)).status_code == 200
        assert limited.post(REVOKE, data={"token": "tat_unknown"}, headers=_basic(cred)).status_code == 200
        refused = limited.post(INTROSPECT, data={"token": token}, headers=_basic(cred))
        assert refused.status_code == 429
        assert refused.json()["error"] == refused.json()["code"] == "rate_limit_exceeded"
        assert int(refused.headers["Retry-After"]) >= 1
        assert limited.post(REVOKE, data={"token": token}, headers=_basic(cred)).status_code == 429
    assert env.client.get(WHOAMI, headers=bearer(token)).status_code == 200  # the refused revocation did nothing


def _issue_token_with(client: TestClient, cred: dict[str, str]) -> Any:
    return client.post("/oauth2/token", data={"grant_type": "client_credentials"}, headers=_basic(cred))


# -- RFC 7009 revocation ---------------------------------------------------------------------------


@pytest.mark.rule("op.token.invalid-expired-or-revoked", "op.incident.revoke-or-disable")
def test_a_revoked_token_fails_business_calls_and_introspects_inactive(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    token, kept = _token(env, cred), _token(env, cred)
    assert env.client.get(WHOAMI, headers=bearer(token)).status_code == 200
    response = _revoke(env, cred, token)
    assert response.status_code == 200
    assert response.json() == {}
    assert response.headers["Cache-Control"] == "no-store"
    refused = env.client.get(WHOAMI, headers=bearer(token))
    assert refused.status_code == 401
    assert refused.json()["code"] == "invalid_token"
    assert _introspect(env, cred, token) == {"active": False}
    assert env.client.get(WHOAMI, headers=bearer(kept)).status_code == 200  # only that token
    [entry] = _audited(env, "oauth.token.revoke", cred["clientId"])
    assert entry.target_id == cred["installationId"]
    assert token not in str(tuple(entry))
    assert _revoke(env, cred, token).status_code == 200  # again: nothing left, still 200
    assert len(_audited(env, "oauth.token.revoke", cred["clientId"])) == 1


def test_revoking_another_clients_token_changes_nothing(env: Env, tenant: TenantUsers) -> None:
    mine, theirs = tenant.install(), env.new_tenant().install()
    token = _token(env, theirs)
    form = {"token": token, "client_id": mine["clientId"], "client_secret": mine["clientSecret"]}
    response = env.client.post(REVOKE, data=form)
    assert response.status_code == 200
    assert response.json() == {}
    assert env.client.get(WHOAMI, headers=bearer(token)).status_code == 200
    assert _introspect(env, theirs, token)["active"] is True
    assert _audited(env, "oauth.token.revoke", mine["clientId"]) == []


def test_revocation_without_client_authentication_is_invalid_client(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    token = _token(env, cred)
    response = env.client.post(REVOKE, data={"token": token, "client_id": cred["clientId"]})
    assert response.status_code == 401
    assert response.json()["error"] == "invalid_client"
    assert env.client.get(WHOAMI, headers=bearer(token)).status_code == 200


# -- RFC 6749 section 5.2 and RFC 6750 section 3.1 error fields --------------------------------------


@pytest.mark.rule("op.token-endpoint.form-encoded")
def test_a_json_body_at_the_token_endpoint_is_invalid_request_with_http_415(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    response = env.client.post("/oauth2/token", json={"grant_type": "client_credentials", "client_id": cred["clientId"],
                                                      "client_secret": cred["clientSecret"]})
    assert response.status_code == 415
    body = response.json()
    assert (body["error"], body["code"]) == ("invalid_request", "unsupported_media_type")
    assert body["error_description"] and response.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize("path", ["/oauth2/token", INTROSPECT, REVOKE])
@pytest.mark.rule("op.token-endpoint.form-encoded")
def test_a_get_on_an_oauth_endpoint_is_invalid_request_with_http_405(env: Env, path: str) -> None:
    response = env.client.get(path)
    assert response.status_code == 405
    assert response.headers["Allow"] == "POST"
    body = response.json()
    assert (body["error"], body["code"]) == ("invalid_request", "method_not_allowed")


@pytest.mark.rule("op.error.insufficient-scope")
def test_insufficient_scope_challenges_with_the_scope_the_call_needs(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install(scopes=("assets.read", "inventory.stockins.read"))
    token = _token(env, cred, "inventory.stockins.read")
    response = env.client.get("/api/open/v1/resources/assets", headers=bearer(token))
    assert response.status_code == 403
    assert response.json()["code"] == "insufficient_scope"
    assert response.headers["WWW-Authenticate"] == \
        'Bearer realm="tessera", error="insufficient_scope", scope="assets.read"'


# -- a stock client ----------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["client_secret_basic", "client_secret_post"])
def test_authlib_discovers_introspects_and_revokes_over_http(env: Env, tenant: TenantUsers, method: str) -> None:
    cred = tenant.install()
    with serve(create_app(env.runtime.settings, env.runtime)) as base:
        meta = httpx.get(base + METADATA).json()
        assert meta["issuer"] == base
        assert method in meta["token_endpoint_auth_methods_supported"]
        with OAuth2Client(cred["clientId"], cred["clientSecret"], token_endpoint_auth_method=method,
                          timeout=10) as client:
            token = client.fetch_token(meta["token_endpoint"], grant_type="client_credentials")["access_token"]
            introspected = client.introspect_token(meta["introspection_endpoint"], token=token)
            assert introspected.status_code == 200
            assert introspected.json()["active"] is True
            assert httpx.get(base + WHOAMI, headers=bearer(token)).status_code == 200
            revoked = client.revoke_token(meta["revocation_endpoint"], token=token, token_type_hint="access_token")
            assert revoked.status_code == 200
            assert client.introspect_token(meta["introspection_endpoint"], token=token).json() == {"active": False}
        assert httpx.get(base + WHOAMI, headers=bearer(token)).status_code == 401


@pytest.mark.parametrize("endpoint", [INTROSPECT, REVOKE])
def test_a_form_client_id_that_names_the_basic_client_is_accepted(
        env: Env, tenant: TenantUsers, endpoint: str) -> None:
    """RFC 6749 section 2.3.1: a ``client_id`` in the body identifies the client, it does not
    authenticate it; beside HTTP Basic for the same client it is no second method."""
    cred = tenant.install()
    token = _token(env, cred)
    response = env.client.post(endpoint, data={"token": token, "client_id": cred["clientId"]}, headers=_basic(cred))
    assert response.status_code == 200, response.text


@pytest.mark.parametrize("endpoint", [INTROSPECT, REVOKE])
def test_a_form_client_id_that_names_another_client_than_basic_is_invalid_request(
        env: Env, tenant: TenantUsers, endpoint: str) -> None:
    cred = tenant.install()
    token = _token(env, cred)
    response = env.client.post(endpoint, data={"token": token, "client_id": cred["clientId"] + "x"},
                               headers=_basic(cred))
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_request"


@pytest.mark.parametrize("endpoint", [INTROSPECT, REVOKE])
def test_basic_beside_a_form_secret_is_two_methods_and_invalid_request(
        env: Env, tenant: TenantUsers, endpoint: str) -> None:
    cred = tenant.install()
    token = _token(env, cred)
    form = {"token": token, "client_id": cred["clientId"], "client_secret": cred["clientSecret"]}
    response = env.client.post(endpoint, data=form, headers=_basic(cred))
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_request"
