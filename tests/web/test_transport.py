"""TLS only (tessera/web/transport.py): forwarded headers believed from trusted proxies only, plain
HTTP refused in each surface's envelope before any secret is looked at, HSTS over HTTPS.

The parsing and the middleware alone are unit tests; the refusal and the proxies go through the
whole app on both databases (the peer address set per request by a shim in front of it). The real
TLS client against ``tessera serve`` is in ``tests/system/test_tls.py``.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from starlette.testclient import TestClient
from starlette.types import ASGIApp, Receive, Scope, Send

from storage.schema.tables import access_tokens
from tessera.app import create_app
from tessera.core.settings import SettingsError, load_settings
from tessera.web import transport
from tessera.web.protocol import BoundedHttpToolsProtocol
from tessera.web.transport import (
    ForwardedMiddleware,
    TrustedProxies,
    from_forwarded,
    from_x_forwarded,
    parse_forwarded,
    server_options,
    split_node,
)
from tests.conftest import Env, TenantUsers, make_settings

PROXIES = TrustedProxies(ipaddress.ip_network(n) for n in ("10.0.0.0/8", "2001:db8::/32", "127.0.0.1/32"))
TOKEN_FORM = {"grant_type": "client_credentials"}


def _scope(*headers: tuple[str, str], peer: str = "10.0.0.2", scheme: str = "http") -> dict[str, Any]:
    return {"type": "http", "scheme": scheme, "path": "/api/health", "client": (peer, 5000),
            "headers": [(k.lower().encode(), v.encode("latin-1")) for k, v in headers]}


# --- parsing ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("node", "expected"), [
    ("192.0.2.60", ("192.0.2.60", 0)),
    (" 192.0.2.60:4711 ", ("192.0.2.60", 4711)),
    ("2001:db8:cafe::17", ("2001:db8:cafe::17", 0)),
    ("[2001:db8:cafe::17]:4711", ("2001:db8:cafe::17", 4711)),
    ("[2001:db8:cafe::17]", ("2001:db8:cafe::17", 0)),
    ("unknown", ("unknown", 0)),
    ("_hidden:_port", ("_hidden", 0)),
    ("192.0.2.60:99999", ("192.0.2.60", 0)),
])
def test_split_node_reads_the_address_forms_proxies_write(node: str, expected: tuple[str, int]) -> None:
    assert split_node(node) == expected


def test_parse_forwarded_follows_rfc_7239() -> None:
    # The examples of RFC 7239 section 4 and 7.1, quoting, escapes, case, separators inside quotes.
    assert parse_forwarded('for="_gazonk"') == [{"for": "_gazonk"}]
    assert parse_forwarded('For="[2001:db8:cafe::17]:4711"') == [{"for": "[2001:db8:cafe::17]:4711"}]
    assert parse_forwarded("for=192.0.2.60;proto=http;by=203.0.113.43") == [
        {"for": "192.0.2.60", "proto": "http", "by": "203.0.113.43"}]
    assert parse_forwarded("for=192.0.2.43, for=198.51.100.17") == [{"for": "192.0.2.43"}, {"for": "198.51.100.17"}]
    assert parse_forwarded('for="a,b;c";proto=HTTPS, for="x\\"y"') == [
        {"for": "a,b;c", "proto": "HTTPS"}, {"for": 'x"y'}]
    assert parse_forwarded("for=1.2.3.4;for=5.6.7.8") == [{"for": "1.2.3.4"}]  # repeated: the first counts
    assert parse_forwarded(" , garbage, ;=x") == []


def test_x_forwarded_the_client_is_the_right_most_untrusted_hop() -> None:
    # A client-made entry on the left is ignored: the nearest untrusted hop is the one a proxy saw.
    scope = _scope(("X-Forwarded-For", "6.6.6.6, 203.0.113.7, 10.1.1.1"), ("X-Forwarded-Proto", "https"))
    assert from_x_forwarded(scope, PROXIES) == ("https", ("203.0.113.7", 0))
    # Several header lines are one list; ports and IPv6 are understood.
    scope = _scope(("X-Forwarded-For", "6.6.6.6"), ("X-Forwarded-For", "[2001:db9::5]:443, 2001:db8::1"))
    assert from_x_forwarded(scope, PROXIES)[1] == ("2001:db9::5", 443)
    # Every hop a proxy: the left-most is the client.
    assert from_x_forwarded(_scope(("X-Forwarded-For", "10.9.9.9, 10.1.1.1")), PROXIES) == (None, ("10.9.9.9", 0))
    # Of X-Forwarded-Proto the right-most value (the nearest proxy's) counts.
    assert from_x_forwarded(_scope(("X-Forwarded-Proto", "https, http")), PROXIES) == ("http", None)
    assert from_x_forwarded(_scope(), PROXIES) == (None, None)


def test_forwarded_the_clients_element_gives_scheme_and_address() -> None:
    chain = 'for=6.6.6.6;proto=https, for="203.0.113.7:1234";proto=HTTPS, for=10.1.1.1;proto=http'
    scope = _scope(("Forwarded", chain))
    assert from_forwarded(scope, PROXIES) == ("https", ("203.0.113.7", 1234))
    scope = _scope(("Forwarded", "for=10.2.2.2;proto=https"), ("Forwarded", "for=10.1.1.1;proto=http"))
    assert from_forwarded(scope, PROXIES) == ("https", ("10.2.2.2", 0))  # all proxies: the left-most
    assert from_forwarded(_scope(("Forwarded", "proto=https")), PROXIES) == ("https", None)
    assert from_forwarded(_scope(("X-Forwarded-Proto", "https")), PROXIES) == (None, None)


def test_trusted_proxies_match_networks_and_ipv4_mapped_peers() -> None:
    assert PROXIES.contains("10.200.1.1") and PROXIES.contains("2001:db8::99") and PROXIES.contains("::ffff:10.0.0.1")
    assert not PROXIES.contains("192.0.2.1") and not PROXIES.contains("testclient") and not PROXIES.contains("")
    assert not TrustedProxies(())


# --- the middleware alone -----------------------------------------------------------------------


class _Echo:
    """An app that records the scope it was given and answers 200."""

    scope: Scope

    async def __call__(self, scope: Scope, _receive: Receive, send: Send) -> None:
        self.scope = scope
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"ok"})


def _call(app: ASGIApp, scope: dict[str, Any]) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(message)

    async def run() -> None:
        await app(scope, receive, send)

    asyncio.run(run())
    return sent


@pytest.mark.parametrize("style", ["x-forwarded", "forwarded"])
def test_middleware_believes_only_the_configured_headers_of_trusted_peers(style: str) -> None:
    echo = _Echo()
    app = ForwardedMiddleware(echo, PROXIES, style, b"max-age=60")
    x_forwarded = (("X-Forwarded-Proto", "https"), ("X-Forwarded-For", "203.0.113.7"))
    forwarded = (("Forwarded", "for=198.51.100.9;proto=https"),)
    believed, ignored = (x_forwarded, forwarded) if style == "x-forwarded" else (forwarded, x_forwarded)

    sent = _call(app, _scope(*believed, *ignored, peer="10.0.0.2"))
    assert echo.scope["scheme"] == "https"
    assert echo.scope["client"] == (("203.0.113.7" if style == "x-forwarded" else "198.51.100.9"), 0)
    assert (b"strict-transport-security", b"max-age=60") in sent[0]["headers"]

    _call(app, _scope(*ignored, peer="10.0.0.2"))  # the other kind: passed through from a client
    assert echo.scope["scheme"] == "http" and echo.scope["client"] == ("10.0.0.2", 5000)

    sent = _call(app, _scope(*believed, peer="192.0.2.1"))  # an untrusted peer
    assert echo.scope["scheme"] == "http" and echo.scope["client"] == ("192.0.2.1", 5000)
    assert all(name != b"strict-transport-security" for name, _ in sent[0]["headers"])

    _call(app, _scope(("X-Forwarded-Proto", "gopher"), ("Forwarded", "proto=gopher")))
    assert echo.scope["scheme"] == "http"  # only http and https are schemes to switch to


def test_middleware_is_left_out_when_there_is_nothing_to_do(tmp_path: Path) -> None:
    def inner(app: Any) -> Any:
        return app

    settings = make_settings(tmp_path, "sqlite://")
    assert not settings.require_tls and not settings.trusted_proxies
    assert transport.outermost(settings, inner) is inner
    assert transport.before_routing(settings) == []


# --- settings -----------------------------------------------------------------------------------


def _load(tmp_path: Path, **env: str) -> Any:
    return load_settings({"TESSERA_VAR_DIR": str(tmp_path), "TESSERA_SECRET_KEY": "k" * 40, **env})


@pytest.mark.rule("security.tls-only")
def test_settings_defaults_require_tls_in_production_only(tmp_path: Path) -> None:
    assert _load(tmp_path, TESSERA_ENV="production").require_tls
    assert not _load(tmp_path).require_tls and not _load(tmp_path, TESSERA_ENV="test").require_tls
    assert not _load(tmp_path, TESSERA_ENV="production", TESSERA_REQUIRE_TLS="false").require_tls
    assert _load(tmp_path, TESSERA_REQUIRE_TLS="true").hsts_seconds == 31_536_000
    settings = _load(tmp_path, TESSERA_TRUSTED_PROXIES=" 10.0.0.0/8, 192.0.2.7 ,2001:db8::/32,")
    assert [str(n) for n in settings.trusted_proxies] == ["10.0.0.0/8", "192.0.2.7/32", "2001:db8::/32"]
    assert settings.proxy_headers == "x-forwarded"


@pytest.mark.parametrize(("env", "named"), [
    ({"TESSERA_TRUSTED_PROXIES": "10.0.0.0/8, nginx"}, "TESSERA_TRUSTED_PROXIES"),
    ({"TESSERA_PROXY_HEADERS": "x-real-ip"}, "TESSERA_PROXY_HEADERS"),
    ({"TESSERA_HSTS_SECONDS": "-1"}, "TESSERA_HSTS_SECONDS"),
    ({"TESSERA_TLS_CERT_FILE": "/etc/hosts"}, "TESSERA_TLS_KEY_FILE"),
    ({"TESSERA_TLS_CERT_FILE": "/nonexistent.pem", "TESSERA_TLS_KEY_FILE": "/etc/hosts"}, "TESSERA_TLS_CERT_FILE"),
])
def test_bad_transport_settings_name_the_variable(tmp_path: Path, env: dict[str, str], named: str) -> None:
    with pytest.raises(SettingsError, match=named):
        _load(tmp_path, **env)


def test_serving_refuses_tls_required_with_nothing_providing_it(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="TESSERA_TLS_CERT_FILE and TESSERA_TLS_KEY_FILE, or TESSERA_TRUSTED"):
        server_options(_load(tmp_path, TESSERA_ENV="production"))
    bounded = {"proxy_headers": False, "http": BoundedHttpToolsProtocol}  # heads past the bounds: web/protocol.py
    assert server_options(_load(tmp_path, TESSERA_ENV="production", TESSERA_TRUSTED_PROXIES="127.0.0.1")) == bounded
    assert server_options(_load(tmp_path)) == bounded  # development: plain HTTP
    not_a_certificate = tmp_path / "cert.pem"
    not_a_certificate.write_text("not a certificate")
    with pytest.raises(SettingsError, match="cannot be loaded"):
        server_options(_load(tmp_path, TESSERA_TLS_CERT_FILE=str(not_a_certificate),
                             TESSERA_TLS_KEY_FILE=str(not_a_certificate)))


# --- the whole app, both databases --------------------------------------------------------------


def _with_peer(app: Any) -> Any:
    """The app, with the peer address of each request taken from its ``X-Test-Peer`` header."""

    async def shim(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            peer = dict(scope["headers"]).get(b"x-test-peer")
            if peer is not None:
                scope["client"] = (peer.decode(), 40000)
        await app(scope, receive, send)

    return shim


@pytest.fixture(scope="module")
def guarded(env: Env, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """A second app on the same database, TLS required, behind proxies in 10.0.0.0/8."""
    settings = make_settings(tmp_path_factory.mktemp("tls"), env.database_url, TESSERA_REQUIRE_TLS="true",
                             TESSERA_TRUSTED_PROXIES="10.0.0.0/8", TESSERA_HSTS_SECONDS="600")
    with TestClient(_with_peer(create_app(settings)), raise_server_exceptions=False) as client:
        yield client


def _tokens(env: Env) -> int:
    with env.sql.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(access_tokens)).scalar_one())


def _access_line(caplog: pytest.LogCaptureFixture, request_id: str) -> logging.LogRecord:
    return next(r for r in caplog.records if r.name == "tessera.access" and getattr(r, "requestId", None) == request_id)


@pytest.mark.rule("security.tls-only")
def test_plain_http_is_refused_in_each_surfaces_envelope(guarded: TestClient) -> None:
    session = guarded.post("http://testserver/api/auth/login", json={"email": "a@b.c", "password": "x"},
                           headers={"Accept-Language": "zh-CN"})
    assert session.status_code == 403
    assert session.json() == {"code": "TLS_REQUIRED", "message": session.json()["message"], "data": None}
    assert "HTTPS" in session.json()["message"] and "https://" in session.json()["message"]
    assert session.headers["X-Request-Id"]
    assert "strict-transport-security" not in session.headers  # HSTS over plain HTTP means nothing

    open_call = guarded.get("http://testserver/api/open/v1/whoami", headers={"Authorization": "Bearer x"})
    assert open_call.status_code == 403
    body = open_call.json()
    assert (body["code"], body["details"], body["requestId"]) == ("tls_required", {}, open_call.headers["X-Request-Id"])

    token = guarded.post("http://testserver/oauth2/token", data={**TOKEN_FORM, "client_id": "c", "client_secret": "s"})
    assert token.status_code == 403
    assert token.json()["error"] == token.json()["code"] == "tls_required"
    assert token.json()["error_description"] and token.headers["Cache-Control"] == "no-store"

    assert guarded.get("http://testserver/api/health").status_code == 200  # nothing secret: exempt
    assert guarded.get("http://testserver/console/").status_code == 403


@pytest.mark.rule("security.tls-only")
def test_a_secret_sent_over_plain_http_is_never_checked(env: Env, tenant: TenantUsers, guarded: TestClient) -> None:
    cred = tenant.install(scopes=("assets.read",))
    form = {**TOKEN_FORM, "client_id": cred["clientId"], "client_secret": cred["clientSecret"]}
    before = _tokens(env)
    for _ in range(3):
        refused = guarded.post("http://testserver/oauth2/token", data=form)
        assert refused.status_code == 403 and refused.json()["code"] == "tls_required"
        basic = guarded.post("http://testserver/oauth2/token", data=TOKEN_FORM,
                             auth=(cred["clientId"], cred["clientSecret"]))
        assert basic.status_code == 403
    assert _tokens(env) == before  # a valid secret, yet no token: it was never looked at
    login = guarded.post("http://testserver/api/auth/login",
                         json={"email": tenant.emails["admin"], "password": "user-password-for-tests"})
    assert login.status_code == 403 and "jwt" not in login.text

    issued = guarded.post("https://testserver/oauth2/token", data=form)
    assert issued.status_code == 200, issued.text
    assert issued.headers["Strict-Transport-Security"] == "max-age=600"
    assert _tokens(env) == before + 1


def test_https_responses_carry_hsts_errors_included(guarded: TestClient) -> None:
    for path, status in (("/api/health", 200), ("/api/auth/session", 401), ("/api/open/v1/nothing", 404)):
        response = guarded.get(f"https://testserver{path}")
        assert response.status_code == status
        assert response.headers["Strict-Transport-Security"] == "max-age=600"


def test_a_trusted_proxys_scheme_and_client_address_are_believed(
        guarded: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    request_id = str(uuid.uuid4())
    with caplog.at_level(logging.INFO, logger="tessera.access"):
        response = guarded.get("http://testserver/api/auth/session", headers={
            "X-Test-Peer": "10.1.2.3", "X-Request-Id": request_id, "X-Forwarded-Proto": "https",
            "X-Forwarded-For": "198.51.100.1, 203.0.113.7, 10.0.0.5"})
    assert response.status_code == 401  # served (no JWT), not refused
    assert response.headers["Strict-Transport-Security"] == "max-age=600"
    assert _access_line(caplog, request_id).client == "203.0.113.7"  # type: ignore[attr-defined]

    request_id = str(uuid.uuid4())
    with caplog.at_level(logging.INFO, logger="tessera.access"):
        refused = guarded.get("http://testserver/api/auth/session", headers={
            "X-Test-Peer": "10.1.2.3", "X-Request-Id": request_id, "X-Forwarded-Proto": "http"})
    assert refused.status_code == 403  # the proxy itself was spoken to over plain HTTP
    assert _access_line(caplog, request_id).client == "10.1.2.3"  # type: ignore[attr-defined]


def test_the_same_headers_from_an_untrusted_peer_are_ignored(
        guarded: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    request_id = str(uuid.uuid4())
    with caplog.at_level(logging.INFO, logger="tessera.access"):
        response = guarded.post("http://testserver/oauth2/token", data={**TOKEN_FORM, "client_id": "c"}, headers={
            "X-Test-Peer": "192.0.2.10", "X-Request-Id": request_id, "X-Forwarded-Proto": "https",
            "X-Forwarded-For": "203.0.113.7", "Forwarded": "for=203.0.113.8;proto=https"})
    assert response.status_code == 403 and response.json()["code"] == "tls_required"
    assert _access_line(caplog, request_id).client == "192.0.2.10"  # type: ignore[attr-defined]
