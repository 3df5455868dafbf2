"""The interactive API reference: one Swagger UI page per surface, documents served as written."""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path
from typing import Any

import pytest

from tessera.core import yamlfile
from tessera.web.reference import with_origin
from tests.conftest import Env

ROOT = Path(__file__).resolve().parents[2]
SURFACES = [
    ("/api/docs", "/api/openapi.json", ROOT / "generated" / "session-api.yaml"),
    ("/api/open/v1/docs", "/api/open/v1/openapi.json", ROOT / "generated" / "open-platform.yaml"),
]


@pytest.mark.parametrize(("docs", "spec", "_file"), SURFACES)
def test_each_surface_has_a_reference_page_that_loads_its_own_document(env: Env, docs: str, spec: str,
                                                                        _file: Path) -> None:
    page = env.client.get(f"{docs}/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert f'data-spec="{spec}"' in page.text
    for script in ("swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "api-reference.js"):
        assert f'src="{script}"' in page.text
        asset = env.client.get(f"{docs}/{script}")
        assert asset.status_code == 200
        assert asset.headers["content-type"].startswith("text/javascript")


@pytest.mark.parametrize(("docs", "_spec", "_file"), SURFACES)
def test_reference_pages_allow_no_inline_script(env: Env, docs: str, _spec: str, _file: Path) -> None:
    page = env.client.get(f"{docs}/")
    csp = page.headers["content-security-policy"]
    assert "script-src 'self';" in csp
    assert "unsafe-inline" not in csp.split("script-src", 1)[1].split(";", 1)[0]
    assert "<script>" not in page.text  # every script is a file


@pytest.mark.parametrize(("docs", "_spec", "_file"), SURFACES)
def test_reference_without_trailing_slash_redirects(env: Env, docs: str, _spec: str, _file: Path) -> None:
    response = env.client.get(docs, follow_redirects=False)
    assert response.status_code == 308
    assert response.headers["location"] == f"{docs}/"


def _absolute(published: dict[str, Any], origin: str) -> dict[str, Any]:
    """The published document as served to a request on ``origin``: absolute server and token URLs."""
    expected = copy.deepcopy(published)
    for server in expected["servers"]:
        server.pop("variables", None)
        server["url"] = origin
    for scheme in expected["components"].get("securitySchemes", {}).values():
        for flow in scheme.get("flows", {}).values():
            flow["tokenUrl"] = origin + flow["tokenUrl"]
    return expected


@pytest.mark.parametrize(("_docs", "spec", "file"), SURFACES)
def test_documents_are_served_as_published_with_their_references(env: Env, _docs: str, spec: str,
                                                                  file: Path) -> None:
    """As written, but with the request's origin as the server URL and before a relative token URL."""
    published = yamlfile.load(file.read_text(encoding="utf-8"))
    expected = _absolute(published, "http://testserver")
    assert env.client.get(spec).json() == expected
    assert yamlfile.load(env.client.get(spec.removesuffix(".json") + ".yaml").text) == expected


def test_the_open_platform_document_names_the_origin_it_was_asked_on(env: Env) -> None:
    served = env.client.get("/api/open/v1/openapi.json", headers={"Host": "api.example.com:8443"}).json()
    assert served["servers"][0]["url"] == "http://api.example.com:8443"
    flow = served["components"]["securitySchemes"]["accessToken"]["flows"]["clientCredentials"]
    assert flow["tokenUrl"] == "http://api.example.com:8443/oauth2/token"
    ipv6 = env.client.get("/api/open/v1/openapi.json", headers={"Host": "[::1]:8080"}).json()
    assert ipv6["servers"][0]["url"] == "http://[::1]:8080"


def test_a_host_header_that_is_not_a_plain_host_is_not_echoed(env: Env) -> None:
    published = yamlfile.load((ROOT / "generated" / "open-platform.yaml").read_text(encoding="utf-8"))
    for host in ("evil.example/x", "a b", "x\"y", "host:port"):
        served = env.client.get("/api/open/v1/openapi.json", headers={"Host": host}).json()
        assert served["servers"] == published["servers"], host


def test_with_origin_keeps_absolute_urls_and_leaves_the_document_alone() -> None:
    document = {"servers": [{"url": "https://api.example.com/base"}],
                "components": {"securitySchemes": {"t": {"type": "oauth2", "flows": {
                    "clientCredentials": {"tokenUrl": "https://id.example.com/token", "scopes": {}}}}}}}
    before = copy.deepcopy(document)
    served = with_origin(document, "http://127.0.0.1:8080")
    assert served["servers"] == [{"url": "http://127.0.0.1:8080/base"}]
    assert served["components"] == before["components"]
    assert document == before


def test_reference_routes_answer_only_reads(env: Env) -> None:
    response = env.client.post("/api/openapi.json")
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, HEAD"


def test_the_served_document_and_the_metadata_name_the_configured_public_url(
        env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    """Behind a proxy that rewrites Host, TESSERA_PUBLIC_URL names the service in the served
    documents exactly as in the RFC 8414 metadata, never the internal host."""
    settings = dataclasses.replace(env.runtime.settings, public_url="https://api.example.com")
    monkeypatch.setattr(env.runtime, "settings", settings)
    internal = {"Host": "tessera-internal:8080"}
    served = env.client.get("/api/open/v1/openapi.json", headers=internal).json()
    meta = env.client.get("/.well-known/oauth-authorization-server", headers=internal).json()
    flow = served["components"]["securitySchemes"]["accessToken"]["flows"]["clientCredentials"]
    assert served["servers"][0]["url"] == meta["issuer"] == "https://api.example.com"
    assert flow["tokenUrl"] == meta["token_endpoint"] == "https://api.example.com/oauth2/token"


def test_a_second_host_header_names_no_origin(env: Env) -> None:
    published = yamlfile.load((ROOT / "generated" / "open-platform.yaml").read_text(encoding="utf-8"))
    served = env.client.get("/api/open/v1/openapi.json",
                            headers=[("Host", "a.example"), ("Host", "b.example")]).json()
    assert served["servers"] == published["servers"]
