"""TLS only, with a real TLS client: ``tessera serve`` on loopback with a certificate issued by a
certificate authority this test makes, and ``tessera serve`` behind a trusted proxy (the test
itself, on 127.0.0.1), both in production mode, where TLS is required by default."""

from __future__ import annotations

import secrets
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import REDIS_URL
from tests.support.live_server import ROOT, TESSERA, tessera_env
from tests.support.tls import Certificates, make_certificates, serving

PASSWORD = "tls-demo-password"
ADMIN = {"email": "admin@demo.example", "password": PASSWORD}
HSTS = "max-age=31536000"


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> Certificates:
    return make_certificates(tmp_path_factory.mktemp("ca"))


def _production(tmp_path: Path, **extra: str) -> dict[str, str]:
    return tessera_env(tmp_path / "var", TESSERA_ENV="production", TESSERA_SECRET_KEY=secrets.token_urlsafe(40),
                       TESSERA_DATABASE_URL=f"sqlite:///{tmp_path / 'tessera.db'}", TESSERA_DEMO_PASSWORD=PASSWORD,
                       **extra)


def _credential(client: httpx.Client) -> dict[str, str]:
    """Sign in as the demo administrator, then create an application, install it and make a credential."""
    jwt = client.post("/api/auth/login", json=ADMIN).json()["data"]["jwt"]
    auth = {"Authorization": f"Bearer {jwt}"}
    app = client.post("/api/open-platform/applications", json={"name": "TLS"}, headers=auth).json()["data"]
    inst = client.post(f"/api/open-platform/applications/{app['appId']}/installations", headers=auth, json={
        "tenantId": "demo", "environment": "production", "scopes": ["assets.read"]}).json()["data"]
    cred = client.post(f"/api/open-platform/installations/{inst['installationId']}/credentials", headers=auth)
    assert cred.status_code == 200, cred.text
    return {"grant_type": "client_credentials", "client_id": cred.json()["data"]["clientId"],
            "client_secret": cred.json()["data"]["clientSecret"]}


def _tokens(tmp_path: Path) -> int:
    with sqlite3.connect(tmp_path / "tessera.db") as conn:
        return int(conn.execute("SELECT count(*) FROM access_tokens").fetchone()[0])


def test_serve_terminates_tls_with_the_given_certificate(tmp_path: Path, certificates: Certificates) -> None:
    env = _production(tmp_path, TESSERA_TLS_CERT_FILE=str(certificates.cert),
                      TESSERA_TLS_KEY_FILE=str(certificates.key))
    trusted = certificates.client_context()
    with serving(env, "--demo", scheme="https", verify=trusted) as served, \
            httpx.Client(base_url=served.base, verify=trusted) as client:
        assert f"Tessera listening on {served.base}" in served.output()
        health = client.get("/api/health")
        assert health.headers["Strict-Transport-Security"] == HSTS
        assert health.extensions["network_stream"].get_extra_info("ssl_object").version() in {"TLSv1.2", "TLSv1.3"}

        token = client.post("/oauth2/token", data=_credential(client))
        assert token.status_code == 200, token.text
        assert token.headers["Strict-Transport-Security"] == HSTS
        whoami = client.get("/api/open/v1/whoami", headers={"Authorization": f"Bearer {token.json()['access_token']}"})
        assert whoami.status_code == 200 and whoami.headers["Strict-Transport-Security"] == HSTS
        assert client.get("/api/open/v1/whoami").headers["Strict-Transport-Security"] == HSTS  # a 401 too

        # uvicorn's own proxy headers are off: a loopback peer cannot claim another scheme or address.
        spoofed = client.get("/api/auth/session", headers={"X-Forwarded-Proto": "http",
                                                           "X-Forwarded-For": "203.0.113.50",
                                                           "X-Request-Id": "tls-spoof-1"})
        assert spoofed.status_code == 401  # served over TLS (no JWT), not refused as plain HTTP
        line = served.access_line("tls-spoof-1")
        assert line["client"] == "127.0.0.1"

        # Nothing is served in plain text on the TLS port, and a client trusting another CA refuses it.
        with pytest.raises(httpx.TransportError):
            httpx.get(served.base.replace("https://", "http://") + "/api/health", timeout=5)
        with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
            httpx.get(f"{served.base}/api/health", verify=make_certificates(tmp_path / "other", "Other CA")
                      .client_context())


def test_behind_a_trusted_proxy_plain_http_is_refused_and_forwarded_https_served(tmp_path: Path) -> None:
    env = _production(tmp_path, TESSERA_TRUSTED_PROXIES="127.0.0.1")  # the test is the TLS-terminating proxy
    forwarded = {"X-Forwarded-Proto": "https"}
    with serving(env, "--demo") as served, httpx.Client(base_url=served.base) as client:
        health = client.get("/api/health")  # load balancers probe over plain HTTP
        assert health.status_code == 200 and "strict-transport-security" not in health.headers
        with httpx.Client(base_url=served.base, headers=forwarded) as proxied:
            form = _credential(proxied)
        before = _tokens(tmp_path)

        refused = client.post("/oauth2/token", data=form)
        body: dict[str, Any] = refused.json()
        assert refused.status_code == 403
        assert (body["code"], body["error"], body["requestId"]) == ("tls_required", "tls_required",
                                                                   refused.headers["X-Request-Id"])
        assert _tokens(tmp_path) == before  # the valid secret was never checked

        issued = client.post("/oauth2/token", data=form, headers={
            **forwarded, "X-Forwarded-For": "198.51.100.1, 203.0.113.7", "X-Request-Id": "tls-proxied-1"})
        assert issued.status_code == 200, issued.text
        assert issued.headers["Strict-Transport-Security"] == HSTS
        assert _tokens(tmp_path) == before + 1
        line = served.access_line("tls-proxied-1")
        assert line["client"] == "203.0.113.7"  # the right-most address the proxy did not vouch for


def test_serve_with_several_processes_terminates_tls_in_each(tmp_path: Path, certificates: Certificates) -> None:
    env = _production(tmp_path, TESSERA_TLS_CERT_FILE=str(certificates.cert),
                      TESSERA_TLS_KEY_FILE=str(certificates.key), TESSERA_WORKERS_IN_PROCESS="false",
                      TESSERA_REDIS_URL=REDIS_URL, TESSERA_REDIS_PREFIX=f"tessera-tls-{secrets.token_hex(4)}")
    trusted = certificates.client_context()
    with serving(env, "--workers", "2", scheme="https", verify=trusted) as served:
        for _ in range(6):
            response = httpx.get(f"{served.base}/api/health", verify=trusted)
            assert response.headers["Strict-Transport-Security"] == HSTS


def test_serve_in_production_without_tls_or_proxies_stops_with_a_clear_message(tmp_path: Path) -> None:
    result = subprocess.run([*TESSERA, "serve", "--port", "1"], cwd=ROOT, env=_production(tmp_path),
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 2
    assert "TESSERA_TLS_CERT_FILE" in result.stderr and "TESSERA_TRUSTED_PROXIES" in result.stderr
    assert "Traceback" not in result.stderr

