"""Hostile input: every malformed request gets its surface's documented 4xx, never a 500."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tessera.web.connexion.validation import utf8_charset
from tests.conftest import Env, TenantUsers
from tests.support.openplatform import Integration

SESSION_POSTS = ("/api/auth/login", "/api/auth/switch-tenant", "/api/open-platform/applications")


@pytest.mark.parametrize("path", SESSION_POSTS)
@pytest.mark.rule("session.envelope.every-response", "session.content-type.json-required")
def test_a_body_without_content_type_is_unsupported_media_type(env: Env, tenant: TenantUsers, path: str) -> None:
    body = b'{"email":"admin@demo.example","password":"x","tenantId":"demo","name":"n"}'
    headers = {} if path == "/api/auth/login" else tenant.headers()
    response = env.client.post(path, content=body, headers=headers)
    assert response.status_code == 415
    assert response.json() == {"code": "UNSUPPORTED_MEDIA_TYPE",
                               "message": "This operation does not accept the request's Content-Type.",
                               "data": None}


@pytest.mark.rule("session.content-type.json-required")
def test_a_session_command_without_content_type_is_unsupported_media_type(env: Env, tenant: TenantUsers) -> None:
    response = env.client.post("/api/meta/commands/execute/assets:create", headers=tenant.headers(),
                               content=b'{"payload":{"name":"x","serialNo":"NO-CT-1"}}')
    assert response.status_code == 415
    assert response.json()["code"] == "UNSUPPORTED_MEDIA_TYPE"


def test_an_empty_post_without_content_type_still_reaches_an_operation_without_a_body(
        tenant: TenantUsers) -> None:
    installation = tenant.install()["installationId"]
    response = tenant.admin_call("POST", f"/installations/{installation}/credentials")
    assert response.status_code == 200
    assert response.json()["data"]["clientSecret"].startswith("tsec_")


@pytest.mark.rule("op.error-envelope.request-id", "op.command.content-type-json")
def test_an_open_platform_command_without_content_type_is_415_in_its_envelope(env: Env, tenant: TenantUsers) -> None:
    integration = Integration(env, tenant)
    headers = {**integration.auth, "Idempotency-Key": "no-content-type-1"}
    response = env.client.post("/api/open/v1/commands/inventory.stock-ins.create:execute", headers=headers,
                               content=b'{"input":{"sku":"S-1","quantity":1,"warehouse":"W1"}}')
    assert response.status_code == 415
    body = response.json()
    assert body["code"] == "unsupported_media_type"
    assert body["requestId"] == response.headers["X-Request-Id"]


def _nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


@pytest.mark.parametrize("depth", [33, 10_000])
@pytest.mark.rule("session.error.field-map-always")
def test_json_nested_too_deep_is_a_validation_error_on_login(env: Env, depth: int) -> None:
    response = env.client.post("/api/auth/login", headers={"Content-Type": "application/json"},
                               content=b'{"email":"a@b.example","password":' + _nested(depth) + b"}")
    assert response.status_code == 400
    assert response.json()["data"] == {"fieldErrors": {"body": "Must be JSON nested at most 32 levels deep."}}


def test_json_nested_too_deep_is_a_validation_error_on_a_session_command(env: Env, tenant: TenantUsers) -> None:
    response = env.client.post("/api/meta/commands/execute/assets:create",
                               headers={**tenant.headers(), "Content-Type": "application/json"},
                               content=b'{"payload":{"name":' + _nested(10_000) + b"}}")
    assert response.status_code == 400
    assert response.json()["code"] == "VALIDATION_ERROR"


def test_json_nested_as_deep_as_allowed_is_parsed_and_judged_on_its_content(env: Env, tenant: TenantUsers) -> None:
    response = env.client.post("/api/meta/commands/execute/assets:create",
                               headers={**tenant.headers(), "Content-Type": "application/json"},
                               content=b'{"payload":{"name":' + _nested(30) + b"}}")
    assert response.status_code == 400
    errors = response.json()["data"]["fieldErrors"]
    assert "body" not in errors  # parsed: the answer is about the payload's fields
    assert errors["name"] == "Must be a string."


@pytest.mark.parametrize("path", ["/api/open/v1/commands/inventory.stock-ins.create:execute",
                                  "/api/open/v1/event-sources/robot-fleet/events"])
@pytest.mark.rule("op.error.invalid-request")
def test_json_nested_too_deep_is_invalid_request_on_the_open_platform(env: Env, tenant: TenantUsers,
                                                                     path: str) -> None:
    integration = Integration(env, tenant, scopes=("inventory.stockins.manage", "events.robot-fleet.publish"))
    headers = {**integration.auth, "Idempotency-Key": "too-deep-1", "Content-Type": "application/json"}
    response = env.client.post(path, headers=headers, content=b'{"data":' + _nested(10_000) + b"}")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_request"
    assert body["requestId"] == response.headers["X-Request-Id"]


def test_list_filters_nested_too_deep_are_a_validation_error(env: Env, tenant: TenantUsers) -> None:
    response = env.client.get("/api/dynamic/assets/list", headers=tenant.headers(),
                              params={"filters": "[" * 1000 + "]" * 1000})
    assert response.status_code == 400
    assert "filters" in response.json()["data"]["fieldErrors"]


@pytest.mark.parametrize("charset", ["bogus", "hex", "utf-16", "latin-1", ""])
def test_a_charset_other_than_utf8_is_unsupported_media_type(env: Env, charset: str) -> None:
    response = env.client.post("/api/auth/login", headers={"Content-Type": f"application/json;charset={charset}"},
                               content=b'{"email":"a@b.example","password":"x"}')
    assert response.status_code == 415
    assert response.json()["code"] == "UNSUPPORTED_MEDIA_TYPE"


@pytest.mark.parametrize("content_type", ["application/json;charset=UTF8", 'application/json; charset="utf-8"',
                                          "Application/JSON;charset=utf_8"])
def test_every_spelling_of_utf8_and_of_the_media_type_is_accepted(env: Env, content_type: str) -> None:
    response = env.client.post("/api/auth/login", headers={"Content-Type": content_type},
                               content=b'{"email":"nobody@b.example","password":"x"}')
    assert response.status_code == 401  # parsed and checked: the credentials are wrong


def test_an_unknown_charset_on_the_open_platform_is_415_in_its_envelope(env: Env, tenant: TenantUsers) -> None:
    integration = Integration(env, tenant, scopes=("events.robot-fleet.publish",))
    headers = {**integration.auth, "Idempotency-Key": "charset-1", "Content-Type": "application/json;charset=bogus"}
    response = env.client.post("/api/open/v1/event-sources/robot-fleet/events", headers=headers, content=b"{}")
    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"


def test_the_charset_check_maps_every_utf8_alias_to_one_cache_key() -> None:
    assert {utf8_charset(name) for name in ("utf-8", "UTF8", "u8", "utf_8", ' "utf-8" ')} == {"utf-8"}


def test_distinct_charsets_leave_one_body_validator_per_media_type(env: Env) -> None:
    for index in range(100):
        spelling = "".join(ch.upper() if (index >> n) & 1 else ch for n, ch in enumerate("utf-8"))
        env.client.post("/api/auth/login", headers={"Content-Type": f"application/json;charset={spelling}"},
                        content=b"{}")
        env.client.post("/api/auth/login", headers={"Content-Type": f"application/json;charset=bogus-{index}"},
                        content=b"{}")
    middleware = next(m for m in env.client.app.middleware.middleware_stack
                      if type(m).__name__ == "CachedRequestValidationMiddleware")
    login = next(op for group in middleware.apis.values() for api in group for op in api.operations.values()
                 if op._operation.operation_id.endswith(".login"))
    assert list(login._body_validators) == [("application/json", "utf-8")]


# -- request bounds: each refused in the surface's envelope, before anything parses further ---------

SURFACE_PATHS = {"session": "/api/auth/session", "open-platform": "/api/open/v1/whoami", "oauth": "/oauth2/token"}


def _in_its_envelope(response: Any, surface: str, session_code: str) -> None:
    body = response.json()
    if surface == "session":
        assert body["code"] == session_code and body["data"] is None
    else:
        assert body["code"] == session_code.lower()
        assert body["requestId"] == response.headers["X-Request-Id"]
    if surface == "oauth":
        assert body["error"] == "invalid_request"  # RFC 6749 section 5.2 has no code of its own for it


@pytest.mark.parametrize("surface", list(SURFACE_PATHS))
def test_a_url_over_8_kib_is_414_in_the_surfaces_envelope(env: Env, surface: str) -> None:
    response = env.client.get(SURFACE_PATHS[surface], params={"q": "a" * 9000})
    assert response.status_code == 414
    _in_its_envelope(response, surface, "URI_TOO_LONG")


@pytest.mark.parametrize("surface", list(SURFACE_PATHS))
def test_more_than_100_header_fields_is_431_in_the_surfaces_envelope(env: Env, surface: str) -> None:
    response = env.client.get(SURFACE_PATHS[surface], headers={f"X-Field-{n}": "v" for n in range(120)})
    assert response.status_code == 431
    _in_its_envelope(response, surface, "REQUEST_HEADER_FIELDS_TOO_LARGE")


@pytest.mark.parametrize("surface", list(SURFACE_PATHS))
def test_header_fields_over_16_kib_are_431_in_the_surfaces_envelope(env: Env, surface: str) -> None:
    response = env.client.get(SURFACE_PATHS[surface], headers={"X-Big": "a" * 100_000})
    assert response.status_code == 431
    _in_its_envelope(response, surface, "REQUEST_HEADER_FIELDS_TOO_LARGE")


@pytest.mark.parametrize("surface", list(SURFACE_PATHS))
def test_a_body_over_1_mib_is_413_in_the_surfaces_envelope(env: Env, surface: str) -> None:
    response = env.client.post(SURFACE_PATHS[surface], content=b"x" * (1024 * 1024 + 1),
                               headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    _in_its_envelope(response, surface, "PAYLOAD_TOO_LARGE")


def test_requests_within_every_bound_are_served(env: Env, tenant: TenantUsers) -> None:
    headers = {**tenant.headers(), **{f"X-Field-{n}": "v" * 100 for n in range(80)}}
    names = [f"{n:03d}" + "n" * 57 for n in range(70)]  # a query of about 5 KiB once encoded
    filters = json.dumps([{"fieldName": "name", "operator": "in", "value": names}])
    response = env.client.get("/api/dynamic/assets/list", headers=headers, params={"filters": filters})
    assert response.status_code == 200, response.text
    assert len(str(response.request.url)) > 4096


def test_installing_where_the_caller_is_only_a_viewer_is_tenant_forbidden(tenant: TenantUsers) -> None:
    """The viewer owns the application, but only views the tenant: the tenant refuses."""
    app = tenant.admin_call("POST", "/applications", json={"name": "Shared app"}).json()["data"]["appId"]
    owner = tenant.admin_call("POST", f"/applications/{app}/members",
                              json={"userPid": tenant.user_pid("viewer"), "role": "owner"})
    assert owner.status_code == 200, owner.text
    response = tenant.admin_call("POST", f"/applications/{app}/installations", role="viewer",
                                 json={"tenantId": tenant.code, "environment": "production", "scopes": ["assets.read"]})
    assert response.status_code == 403
    assert response.json()["code"] == "TENANT_FORBIDDEN"
    assert response.json()["data"] == {"permission": "open-platform:install"}
