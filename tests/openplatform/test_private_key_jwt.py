"""Secretless clients: ``private_key_jwt`` client authentication (RFC 7523) at the token endpoint,
key credentials registered, rotated and revoked through the session API, and a stock client
(Authlib's ``PrivateKeyJWT``) getting a token from a live server."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from typing import Any

import httpx
import jwt
import pytest
from authlib.integrations.base_client.errors import OAuthError
from authlib.integrations.httpx_client import OAuth2Client
from authlib.jose import RSAKey
from authlib.oauth2.rfc7523 import PrivateKeyJWT, private_key_jwt_sign
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from sqlalchemy import func, select

from storage.schema.tables import audit_log, client_assertion_jtis
from tessera.app import create_app
from tessera.background import retention
from tessera.core.clock import ShiftedClock
from tests.conftest import Env, TenantUsers, bearer
from tests.support.live_server import serve

ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
TOKEN_URL = "http://testserver/oauth2/token"  # the TestClient's origin, as the metadata advertises it
Key = rsa.RSAPrivateKey | ec.EllipticCurvePrivateKey | ed25519.Ed25519PrivateKey


def new_key(alg: str) -> Key:
    if alg == "RS256":
        return rsa.generate_private_key(public_exponent=65537, key_size=2048)
    if alg == "ES256":
        return ec.generate_private_key(ec.SECP256R1())
    return ed25519.Ed25519PrivateKey.generate()


def public_jwk(key: Key, kid: str | None = None) -> dict[str, Any]:
    """The public JWK of ``key`` (PyJWT writes it), with ``kid`` if given."""
    jwk: dict[str, Any] = json.loads(jwt.algorithms.get_default_algorithms()[alg_of(key)].to_jwk(key.public_key()))
    if kid:
        jwk["kid"] = kid
    return jwk


def alg_of(key: Key) -> str:
    if isinstance(key, rsa.RSAPrivateKey):
        return "RS256"
    return "ES256" if isinstance(key, ec.EllipticCurvePrivateKey) else "EdDSA"


def assertion(env: Env, key: Key, client_id: str, **claims: Any) -> str:
    now = int(env.runtime.clock.now().timestamp())
    body = {"iss": client_id, "sub": client_id, "aud": TOKEN_URL, "iat": now, "exp": now + 120,
            "jti": uuid.uuid4().hex, **claims}
    body = {k: v for k, v in body.items() if v is not None}
    return jwt.encode(body, key, algorithm=alg_of(key))


def post_assertion(env: Env, signed: str, client_id: str | None = None, **form: str) -> httpx.Response:
    data = {"grant_type": "client_credentials", "client_assertion_type": ASSERTION_TYPE,
            "client_assertion": signed, **form}
    if client_id is not None:
        data["client_id"] = client_id
    return env.client.post("/oauth2/token", data=data)


def register(tenant: TenantUsers, installation_id: str, body: dict[str, Any]) -> httpx.Response:
    return tenant.admin_call("POST", f"/installations/{installation_id}/credentials", json=body)  # type: ignore[no-any-return]


def key_client(tenant: TenantUsers, alg: str = "ES256") -> tuple[dict[str, Any], Key]:
    """An installation with a private_key_jwt credential: the credential and its private key."""
    base = tenant.install()
    key = new_key(alg)
    created = register(tenant, base["installationId"], {"publicJwk": public_jwk(key, kid="k1")})
    assert created.status_code == 200, created.text
    return {"appId": base["appId"], **created.json()["data"]}, key


def refused(response: httpx.Response) -> None:
    assert response.status_code == 401, response.text
    assert response.json()["error"] == "invalid_client"


@pytest.mark.parametrize("alg", ["RS256", "ES256", "EdDSA"])
def test_a_signed_assertion_gets_a_token(env: Env, tenant: TenantUsers, alg: str) -> None:
    cred, key = key_client(tenant, alg)
    assert cred["kind"] == "private_key_jwt" and "clientSecret" not in cred
    assert cred["keys"] == [{"kty": {"RS256": "RSA", "ES256": "EC", "EdDSA": "OKP"}[alg], "alg": alg, "kid": "k1"}]
    response = post_assertion(env, assertion(env, key, cred["clientId"]), cred["clientId"])
    assert response.status_code == 200, response.text
    token = response.json()["access_token"]
    assert env.client.get("/api/open/v1/whoami", headers=bearer(token)).status_code == 200
    # client_id is optional: the assertion's iss names the client
    assert post_assertion(env, assertion(env, key, cred["clientId"])).status_code == 200


def test_the_metadata_advertises_private_key_jwt(env: Env) -> None:
    meta = env.client.get("/.well-known/oauth-authorization-server").json()
    assert "private_key_jwt" in meta["token_endpoint_auth_methods_supported"]
    assert meta["token_endpoint_auth_signing_alg_values_supported"] == ["RS256", "ES256", "EdDSA"]


@pytest.mark.parametrize("case", ["wrong_aud", "expired", "too_far_ahead", "iss_not_sub", "no_jti", "unknown_client",
                                  "other_key", "alg_none"])
@pytest.mark.rule("op.token-endpoint.audited")
def test_a_bad_assertion_is_invalid_client(env: Env, tenant: TenantUsers, case: str) -> None:
    cred, key = key_client(tenant)
    client_id, now = cred["clientId"], int(env.runtime.clock.now().timestamp())
    signed = {
        "wrong_aud": lambda: assertion(env, key, client_id, aud="http://testserver/oauth2/other"),
        "expired": lambda: assertion(env, key, client_id, iat=now - 600, exp=now - 120),
        "too_far_ahead": lambda: assertion(env, key, client_id, exp=now + 900),
        "iss_not_sub": lambda: assertion(env, key, client_id, sub="tcli_000000000000000000000000"),
        "no_jti": lambda: assertion(env, key, client_id, jti=None),
        "unknown_client": lambda: assertion(env, key, "tcli_000000000000000000000000"),
        "other_key": lambda: assertion(env, new_key("ES256"), client_id),
        "alg_none": lambda: jwt.encode({"iss": client_id, "sub": client_id, "aud": TOKEN_URL, "exp": now + 60,
                                        "jti": "x"}, None, algorithm="none"),
    }[case]()
    refused(post_assertion(env, signed))
    env.run(env.runtime.token_refusals.flush, final=True)
    with env.sql.connect() as conn:
        denied = conn.execute(select(func.count()).select_from(audit_log).where(
            audit_log.c.action == "oauth.token.refused",
            audit_log.c.actor.in_([client_id, "tcli_000000000000000000000000"]))).scalar_one()
    assert denied >= 1


def test_a_replayed_jti_is_refused(env: Env, tenant: TenantUsers) -> None:
    cred, key = key_client(tenant)
    signed = assertion(env, key, cred["clientId"])
    assert post_assertion(env, signed).status_code == 200
    refused(post_assertion(env, signed))
    # the same jti in a fresh assertion is just as used
    jti = jwt.decode(signed, options={"verify_signature": False})["jti"]
    refused(post_assertion(env, assertion(env, key, cred["clientId"], jti=jti)))


def test_used_jtis_are_purged_once_their_assertion_expired(env: Env, tenant: TenantUsers,
                                                         clock: ShiftedClock) -> None:
    cred, key = key_client(tenant)
    assert post_assertion(env, assertion(env, key, cred["clientId"])).status_code == 200
    clock.advance(600)
    env.run(retention.purge, env.runtime, env.runtime.clock.now())
    with env.sql.connect() as conn:
        left = conn.execute(select(func.count()).select_from(client_assertion_jtis).where(
            client_assertion_jtis.c.expires_at < env.runtime.clock.now() - timedelta(seconds=1))).scalar_one()
    assert left == 0


def test_a_secret_does_not_authenticate_a_key_credential_nor_an_assertion_a_secret_one(
    env: Env, tenant: TenantUsers
) -> None:
    cred, key = key_client(tenant)
    refused(env.client.post("/oauth2/token", data={"grant_type": "client_credentials", "client_id": cred["clientId"],
                                                   "client_secret": "tsec_anything"}))
    secret_cred = tenant.install()
    refused(post_assertion(env, assertion(env, key, secret_cred["clientId"])))
    both = post_assertion(env, assertion(env, key, cred["clientId"]), client_secret="tsec_anything")
    assert both.status_code == 400
    assert both.json()["error"] == "invalid_request"


def test_a_jwk_with_a_private_part_is_refused_at_registration(tenant: TenantUsers) -> None:
    base = tenant.install()
    key = new_key("ES256")
    private = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(key))
    assert "d" in private
    response = register(tenant, base["installationId"], {"publicJwk": private})
    assert response.status_code == 400
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert "publicJwk" in response.json()["data"]["fieldErrors"]
    small = rsa.generate_private_key(public_exponent=65537, key_size=1024)  # noqa: S505 - refused, as it should be
    weak = register(tenant, base["installationId"], {"jwks": {"keys": [public_jwk(small)]}})
    assert weak.status_code == 400 and weak.json()["code"] == "VALIDATION_ERROR"
    p384 = register(tenant, base["installationId"], {"publicJwk": public_jwk(ec.generate_private_key(ec.SECP384R1()))})
    assert p384.status_code == 400 and p384.json()["code"] == "VALIDATION_ERROR"


def test_a_jwk_set_with_a_member_besides_keys_is_refused_by_the_document(tenant: TenantUsers) -> None:
    """The document says `keys` is a set's only member; the service stores nothing else, so it refuses one
    rather than drop it unseen, whatever its value (NUL text included, which no schema can name in an
    unknown member)."""
    base = tenant.install()
    key = public_jwk(new_key("EdDSA"))
    for member, value in (("note", "from Keycloak"), ("\r", ["a", "\u0000"])):
        response = register(tenant, base["installationId"], {"jwks": {"keys": [key], member: value}})
        assert response.status_code == 400, response.text
        assert response.json()["code"] == "VALIDATION_ERROR"
        assert f"jwks.{member}" in response.json()["data"]["fieldErrors"]
    assert register(tenant, base["installationId"], {"jwks": {"keys": [key]}}).status_code == 200


def test_only_an_owner_registers_a_key(tenant: TenantUsers) -> None:
    base = tenant.install()
    app_id = base["appId"]
    viewer = tenant.admin_call("POST", f"/applications/{app_id}/members",
                               json={"userPid": tenant.user_pid("viewer"), "role": "maintainer"})
    assert viewer.status_code == 200, viewer.text
    response = register_as(tenant, "viewer", base["installationId"], {"publicJwk": public_jwk(new_key("EdDSA"))})
    assert response.status_code == 403


def register_as(tenant: TenantUsers, role: str, installation_id: str, body: dict[str, Any]) -> httpx.Response:
    return tenant.admin_call("POST", f"/installations/{installation_id}/credentials", role=role,  # type: ignore[no-any-return]
                             json=body)


def test_a_rotated_key_works_during_the_overlap_and_not_after(env: Env, tenant: TenantUsers,
                                                              clock: ShiftedClock) -> None:
    cred, old_key = key_client(tenant)
    new_key_ = new_key("EdDSA")
    rotated = tenant.admin_call("POST", f"/credentials/{cred['clientId']}/rotate",
                                json={"graceSeconds": 3600, "publicJwk": public_jwk(new_key_)})
    assert rotated.status_code == 200, rotated.text
    new = rotated.json()["data"]
    assert new["kind"] == "private_key_jwt" and new["previousClientId"] == cred["clientId"]
    assert post_assertion(env, assertion(env, old_key, cred["clientId"])).status_code == 200
    assert post_assertion(env, assertion(env, new_key_, new["clientId"])).status_code == 200
    listed = tenant.admin_call("GET", f"/installations/{cred['installationId']}/credentials/list").json()["data"]
    kinds = {r["clientId"]: (r["kind"], r["status"]) for r in listed["records"]}
    assert kinds[cred["clientId"]] == ("private_key_jwt", "rotated")
    clock.advance(3601)
    tenant.sign_in_again()
    refused(post_assertion(env, assertion(env, old_key, cred["clientId"])))
    assert post_assertion(env, assertion(env, new_key_, new["clientId"])).status_code == 200
    # a key credential is rotated to a key, never to a secret
    missing = tenant.admin_call("POST", f"/credentials/{new['clientId']}/rotate", json={"graceSeconds": 300})
    assert missing.status_code == 400 and missing.json()["code"] == "VALIDATION_ERROR"


def test_a_revoked_key_credential_is_refused(env: Env, tenant: TenantUsers) -> None:
    cred, key = key_client(tenant)
    assert tenant.admin_call("POST", f"/credentials/{cred['clientId']}/revoke").status_code == 200
    refused(post_assertion(env, assertion(env, key, cred["clientId"])))


class FiveMinutePrivateKeyJWT(PrivateKeyJWT):  # type: ignore[misc]
    """Authlib's ``PrivateKeyJWT``, its assertions valid 5 minutes: Authlib 1.9 always signs them
    for 3600 s (``sign_jwt_bearer_assertion``'s default) and has no setting for it."""

    def sign(self, auth: Any, token_endpoint: str) -> str:
        return str(private_key_jwt_sign(RSAKey.import_key(auth.client_secret), client_id=auth.client_id,
                                        token_endpoint=token_endpoint, claims=None, header=self.headers,
                                        alg=self.alg, expires_in=300))


def test_authlib_private_key_jwt_gets_a_token_from_a_live_server(env: Env, tenant: TenantUsers) -> None:
    cred, _ = key_client(tenant)
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    rotated = tenant.admin_call("POST", f"/credentials/{cred['clientId']}/rotate",
                                json={"graceSeconds": 300, "jwks": {"keys": [public_jwk(key, kid="authlib")]}})
    client_id = rotated.json()["data"]["clientId"]
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    with serve(create_app(env.runtime.settings, env.runtime)) as base:
        meta = httpx.get(base + "/.well-known/oauth-authorization-server").json()
        token_url = meta["token_endpoint"]
        assert "private_key_jwt" in meta["token_endpoint_auth_methods_supported"]
        # Stock PrivateKeyJWT: its assertion lives an hour, longer than the 5 minutes accepted.
        with OAuth2Client(client_id, client_secret=pem, token_endpoint_auth_method=PrivateKeyJWT(token_url),
                          timeout=10) as client, pytest.raises(OAuthError, match="invalid_client"):
            client.fetch_token(token_url, grant_type="client_credentials")
        with OAuth2Client(client_id, client_secret=pem,
                          token_endpoint_auth_method=FiveMinutePrivateKeyJWT(token_url), timeout=10) as client:
            token = client.fetch_token(token_url, grant_type="client_credentials")
            again = client.fetch_token(token_url, grant_type="client_credentials")  # a fresh jti each time
        assert again["access_token"] != token["access_token"]
        whoami = httpx.get(base + "/api/open/v1/whoami", headers=bearer(token["access_token"]))
    assert whoami.status_code == 200
    print(f"Authlib PrivateKeyJWT: token_type={token['token_type']} expires_in={token['expires_in']} "
          f"scope={token['scope']!r} access_token={token['access_token'][:4]}... whoami={whoami.status_code}")


def test_a_json_null_body_is_not_taken_for_no_body(tenant: TenantUsers) -> None:
    """An absent body makes a secret credential; a body of JSON ``null`` is a value, and not an object."""
    base = tenant.install()
    path = f"/installations/{base['installationId']}/credentials"
    refused = tenant.admin_call("POST", path, content=b"null", headers={"Content-Type": "application/json"})
    assert refused.status_code == 400
    assert refused.json()["code"] == "VALIDATION_ERROR"
    absent = tenant.admin_call("POST", path)
    assert absent.status_code == 200
    assert absent.json()["data"]["kind"] == "secret"


@pytest.mark.parametrize("path", ["/oauth2/token", "/oauth2/revoke", "/oauth2/introspect"])
def test_an_assertion_naming_a_client_id_no_database_can_store_is_invalid_client(env: Env, path: str) -> None:
    """Schemathesis found it: a NUL in the client id reached PostgreSQL's query (a 500)."""
    response = env.client.post(path, data={
        "grant_type": "client_credentials", "token": "x", "client_id": "\x00tcli",
        "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
        "client_assertion": "a.b.c"})
    assert response.status_code in (400, 401)
    assert response.json()["error"] in ("invalid_client", "invalid_request")
