"""The fast-path patches of Connexion change no answer: the same requests, the same responses.

Two apps over one runtime: one with the fast path (validators, decorator stacks and security
signature inspection built once per operation), one with Connexion's own per-request machinery
and only the behaviour patches. Every request of a representative set, on both surfaces (valid,
invalid, missing auth, wrong content type, unknown routes), goes to both; status, code and body
must be identical (bodies with random parts, such as issued tokens, are compared by their keys).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from starlette.testclient import TestClient

from tessera.app import create_app
from tests.conftest import Env, TenantUsers, bearer, issue_token
from tests.support.openplatform import ASSETS, ASSIGN, CREATE_STOCK_IN, EVENTS, seed_assets

JSON = {"Content-Type": "application/json"}
EVENT = {"type": "inventory.received", "schemaVersion": 1, "occurredAt": "2026-11-22T08:00:00Z",
         "data": {"sku": "SKU-9", "quantity": 3, "warehouse": "W1"}}


@dataclass(frozen=True)
class Probe:
    name: str
    method: str
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    params: dict[str, str] | None = None
    body: bytes | None = None
    # Bodies holding fresh random values (a new token) are compared by their keys only.
    random_body: bool = False


def _probes(session: dict[str, str], token: dict[str, str], narrow: dict[str, str], cred: dict[str, str],
            pid: str) -> list[Probe]:
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    secret_form = f"grant_type=client_credentials&client_id={cred['clientId']}&client_secret={cred['clientSecret']}"
    return [
        # the session API
        Probe("health", "GET", "/api/health"),
        Probe("login ok", "POST", "/api/auth/login", JSON, body=json.dumps(
            {"email": "admin@demo.example", "password": "demo-password-for-tests"}).encode(), random_body=True),
        Probe("login wrong password", "POST", "/api/auth/login", JSON,
              body=b'{"email":"fast@x.example","password":"x"}'),
        Probe("login missing field", "POST", "/api/auth/login", JSON, body=b'{"email":"fast@x.example"}'),
        Probe("login bad JSON", "POST", "/api/auth/login", JSON, body=b'{"email":'),
        Probe("login no content type", "POST", "/api/auth/login", body=b'{"email":"a@b.example","password":"x"}'),
        Probe("login text/plain", "POST", "/api/auth/login", {"Content-Type": "text/plain"}, body=b"x"),
        Probe("login bogus charset", "POST", "/api/auth/login", {"Content-Type": "application/json;charset=bogus"},
              body=b"{}"),
        Probe("list", "GET", "/api/dynamic/assets/list", session, {"pageSize": "5", "sortField": "name"}),
        Probe("list bad params", "GET", "/api/dynamic/assets/list", session,
              {"pageSize": "0", "sortOrder": "up", "filters": "[{"}),
        Probe("list unknown parameter", "GET", "/api/dynamic/assets/list", session, {"page": "1"}),
        Probe("record missing", "GET", "/api/dynamic/assets/rec_nothing", session),
        Probe("record of the pid 'null'", "GET", "/api/dynamic/assets/null", session),
        Probe("record of a model 'null'", "GET", "/api/dynamic/null/rec_nothing", session),
        Probe("list without auth", "GET", "/api/dynamic/assets/list"),
        Probe("list forged JWT", "GET", "/api/dynamic/assets/list", {"Authorization": "Bearer a.b.c"}),
        Probe("list with the scheme alone", "GET", "/api/dynamic/assets/list", {"Authorization": "Bearer"}),
        Probe("list with basic credentials", "GET", "/api/dynamic/assets/list", {"Authorization": "Basic eDp5"}),
        Probe("list with the JWT after a lower-case scheme", "GET", "/api/dynamic/assets/list",
              {"Authorization": "bearer " + session["Authorization"].split()[1]}),
        Probe("list foreign tenant", "GET", "/api/dynamic/assets/list", {**session, "X-Tenant-Id": "demo"}),
        Probe("command invalid", "POST", "/api/meta/commands/execute/assets:create", {**session, **JSON},
              body=b'{"payload":{"value":-1}}'),
        Probe("command no content type", "POST", "/api/meta/commands/execute/assets:create", session,
              body=b'{"payload":{}}'),
        Probe("datasource", "GET", "/api/datasource/list", session, {"datasourceId": "asset-status"}),
        Probe("unknown path", "GET", "/api/nowhere"),
        Probe("wrong method", "DELETE", "/api/health"),
        Probe("HEAD of a GET operation", "HEAD", "/api/health"),
        Probe("trailing slash", "GET", "/api/health/"),
        # The method guard's rule on templates that overlap: PUT is documented on .../{automationId}
        # but not on the more specific .../list, so PUT .../list is 405 with list's Allow.
        Probe("method of an overlapping template", "PUT", "/api/open-platform/automations/list", {**session, **JSON},
              body=b"{}"),
        Probe("the overlapping template itself", "GET", "/api/open-platform/automations/aut_nothing", session),
        # Paths other middlewares answer, past which the fast lane never jumps.
        Probe("reference document", "GET", "/api/openapi.json"),
        Probe("reference page", "GET", "/api/open/v1/docs/"),
        Probe("console", "GET", "/console/"),
        Probe("metrics without token", "GET", "/metrics"),
        # the Open Platform
        Probe("token ok", "POST", "/oauth2/token", form, body=secret_form.encode(), random_body=True),
        Probe("token wrong secret", "POST", "/oauth2/token", form,
              body=f"grant_type=client_credentials&client_id={cred['clientId']}&client_secret=x".encode()),
        Probe("token no grant type", "POST", "/oauth2/token", form, body=b"client_id=x&client_secret=y"),
        Probe("token other grant", "POST", "/oauth2/token", form, body=b"grant_type=password"),
        Probe("token JSON body", "POST", "/oauth2/token", JSON, body=b'{"grant_type":"client_credentials"}'),
        Probe("token with a repeated field", "POST", "/oauth2/token", form,
              body=f"{secret_form}&grant_type=client_credentials".encode()),
        Probe("token with an unknown field", "POST", "/oauth2/token", form, body=f"{secret_form}&extra=1".encode(),
              random_body=True),
        Probe("token form with a charset", "POST", "/oauth2/token",
              {"Content-Type": "application/x-www-form-urlencoded; charset=utf-8"}, body=secret_form.encode(),
              random_body=True),
        Probe("token empty form", "POST", "/oauth2/token", form, body=b""),
        Probe("token multipart form", "POST", "/oauth2/token", {"Content-Type": "multipart/form-data; boundary=x"},
              body=b'--x\r\nContent-Disposition: form-data; name="grant_type"\r\n\r\nclient_credentials\r\n--x--\r\n'),
        Probe("introspection with a wrong secret", "POST", "/oauth2/introspect", form,
              body=f"client_id={cred['clientId']}&client_secret=wrong&token=x".encode()),
        Probe("revocation of an unknown token", "POST", "/oauth2/revoke", form,
              body=f"{secret_form.split('&', 1)[1]}&token=tat_nothing".encode()),
        Probe("whoami", "GET", "/api/open/v1/whoami", token),
        Probe("whoami without token", "GET", "/api/open/v1/whoami"),
        Probe("whoami bad token", "GET", "/api/open/v1/whoami", bearer("tat_nothing")),
        Probe("whoami with the scheme alone", "GET", "/api/open/v1/whoami", {"Authorization": "Bearer"}),
        Probe("whoami with blanks for credentials", "GET", "/api/open/v1/whoami", {"Authorization": "   "}),
        Probe("whoami with basic credentials", "GET", "/api/open/v1/whoami", {"Authorization": "Basic eDp5"}),
        Probe("whoami with the scheme in lower case", "GET", "/api/open/v1/whoami",
              {"Authorization": "bearer " + token["Authorization"].split()[1]}),
        Probe("whoami with an empty authorization", "GET", "/api/open/v1/whoami", {"Authorization": ""}),
        Probe("resource read without the scope", "GET", f"{ASSETS}/{pid}", narrow),
        Probe("whoami HEAD", "HEAD", "/api/open/v1/whoami", token),
        Probe("whoami with a query string", "GET", "/api/open/v1/whoami", token, {"x": "1"}),
        Probe("whoami with a body and no content type", "GET", "/api/open/v1/whoami", token, body=b"{}"),
        Probe("whoami with a content type", "GET", "/api/open/v1/whoami", {**token, **JSON}, body=b"{}"),
        Probe("whoami path with a parameter's slot", "GET", "/api/open/v1/whoami/x", token),
        Probe("resources page", "GET", ASSETS, token, {"limit": "2"}),
        Probe("resources bad limit", "GET", ASSETS, token, {"limit": "0"}),
        Probe("resources bad cursor", "GET", ASSETS, token, {"cursor": "not-a-cursor"}),
        Probe("resource read", "GET", f"{ASSETS}/{pid}", token),
        Probe("resource missing", "GET", f"{ASSETS}/ast_nothing", token),
        Probe("resource read with a query string", "GET", f"{ASSETS}/{pid}", token, {"fields": "name"}),
        Probe("resource read of a pid holding a NUL", "GET", f"{ASSETS}/rec_%00", token),
        Probe("resource read of a percent-encoded pid", "GET", f"{ASSETS}/ast%20x%2Fy", token),
        Probe("resource read of the pid 'null'", "GET", f"{ASSETS}/null", token),
        Probe("resource read of a non-ASCII pid", "GET", f"{ASSETS}/%C3%A9t%C3%A9", token),
        Probe("resource read with a body", "GET", f"{ASSETS}/{pid}", {**token, **JSON}, body=b"{}"),
        Probe("command without If-Match", "POST", ASSIGN, {**token, **JSON, "Idempotency-Key": "fast-1"},
              body=json.dumps({"targetPid": pid, "input": {"assignee": "x"}}).encode()),
        Probe("command without key", "POST", CREATE_STOCK_IN, {**token, **JSON}, body=b'{"input":{}}'),
        Probe("command invalid input", "POST", CREATE_STOCK_IN, {**token, **JSON, "Idempotency-Key": "fast-2"},
              body=b'{"input":{"quantity":"many"}}'),
        Probe("command no content type", "POST", CREATE_STOCK_IN, {**token, "Idempotency-Key": "fast-3"},
              body=b'{"input":{}}'),
        Probe("command with a charset", "POST", ASSIGN,
              {**token, "Content-Type": "application/json; charset=utf-8", "Idempotency-Key": "fast-4"},
              body=json.dumps({"targetPid": pid, "input": {"assignee": "x"}}).encode()),
        Probe("command with a JSON null body", "POST", CREATE_STOCK_IN, {**token, **JSON, "Idempotency-Key": "fast-5"},
              body=b"null"),
        Probe("command with an empty JSON body", "POST", CREATE_STOCK_IN,
              {**token, **JSON, "Idempotency-Key": "fast-6"}, body=b""),
        Probe("command with another JSON media type", "POST", ASSIGN,
              {**token, "Content-Type": "application/merge-patch+json", "Idempotency-Key": "fast-7"},
              body=json.dumps({"targetPid": pid, "input": {"assignee": "x"}}).encode()),
        Probe("event accepted, then a duplicate", "POST", EVENTS, {**token, **JSON, "Idempotency-Key": "fast-8"},
              body=json.dumps(EVENT).encode(), random_body=True),
        Probe("event without a key", "POST", EVENTS, {**token, **JSON}, body=json.dumps(EVENT).encode()),
        Probe("event with a charset", "POST", EVENTS,
              {**token, "Content-Type": "application/json;charset=UTF-8", "Idempotency-Key": "fast-9"},
              body=json.dumps({**EVENT, "schemaVersion": 99}).encode()),
        Probe("unpublished route", "GET", "/api/open/v1/internal/users"),
        Probe("unpublished method", "DELETE", "/api/open/v1/whoami"),
    ]


# Headers whose values differ between two answers by design: the two apps share one rate limiter,
# so the second call has one request fewer left; a fresh token's body has its own length.
VARYING = {"date", "x-ratelimit-remaining", "ratelimit-remaining", "ratelimit"}


def _answer(client: TestClient, probe: Probe, index: int) -> tuple[int, Any]:
    headers = {"X-Request-Id": f"fast-path-{index}", **probe.headers}
    response = client.request(probe.method, probe.path, headers=headers, params=probe.params, content=probe.body)
    varying = VARYING | ({"content-length"} if probe.random_body else set())
    sent = sorted((name, "*" if name in varying else value) for name, value in response.headers.items())
    if not response.content or not response.headers.get("content-type", "").endswith("json"):
        return response.status_code, (response.content, sent)
    body: Any = response.json()
    if isinstance(body, dict) and isinstance(body.get("nextCursor"), str):
        body["nextCursor"] = "<sealed: fresh on every issue>"
    if probe.random_body:
        body = (body.get("code"), sorted(body), sorted(body.get("data") or {}) if isinstance(body.get("data"), dict)
                else None)
    return response.status_code, (body, sent)


@pytest.fixture
def apps(env: Env) -> Iterator[dict[str, TestClient]]:
    settings = env.runtime.settings
    # Each app runs on its own loop; its shutdown closes only what that loop opened.
    with TestClient(create_app(settings, env.runtime), raise_server_exceptions=False) as fast, \
            TestClient(create_app(settings, env.runtime, fast_path=False), raise_server_exceptions=False) as stock:
        yield {"fast": fast, "stock": stock}


def test_the_fast_path_changes_no_answer(env: Env, tenant: TenantUsers, apps: dict[str, TestClient]) -> None:
    cred = tenant.install(scopes=("assets.read", "assets.manage", "inventory.stockins.manage",
                                  "events.robot-fleet.publish"))
    token = bearer(issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"])
    narrow_cred = tenant.install(scopes=("events.robot-fleet.publish",))
    narrow = bearer(issue_token(env, narrow_cred["clientId"], narrow_cred["clientSecret"]).json()["access_token"])
    pid = seed_assets(tenant, 3)[0]
    probes = _probes(tenant.headers(), token, narrow, cred, pid)
    differences: list[str] = []
    for index, probe in enumerate(probes):
        fast, stock = (_answer(apps[mode], probe, index) for mode in ("fast", "stock"))
        if fast != stock:
            differences.append(f"{probe.name}: fast {fast} != stock {stock}")
    assert differences == []
    statuses = {_answer(apps["fast"], probe, 0)[0] for probe in probes if not probe.name.startswith("command")}
    assert {200, 400, 401, 403, 404, 405, 415} <= statuses  # the set covers the kinds of answer


def test_the_fast_path_is_what_serves(apps: dict[str, TestClient]) -> None:
    """Without this, the comparison above could be between two stock apps."""
    for client in apps.values():  # Connexion builds its middleware stack on the first request
        client.get("/api/health")
    names: Callable[[TestClient], set[str]] = lambda client: {  # noqa: E731 - a one-line lookup
        type(api).__name__ for group in client.app._middleware_app.apis.values() for api in group}
    assert "CachedAsyncApi" in names(apps["fast"])
    assert "CachedAsyncApi" not in names(apps["stock"])
    securities: Callable[[TestClient], set[str]] = lambda client: {  # noqa: E731 - a one-line lookup
        name for m in client.app.middleware.middlewares if "Security" in (name := getattr(m, "__name__", ""))}
    assert securities(apps["fast"]) == {"FlatSecurityMiddleware"}
    assert securities(apps["stock"]) == {"SecurityMiddleware"}
