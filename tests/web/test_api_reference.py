"""The interactive API reference: one Swagger UI page per surface, documents served as written."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.conftest import Env

ROOT = Path(__file__).resolve().parents[2]
SURFACES = [
    ("/api/docs", "/api/openapi.json", ROOT / "openapi" / "session-api.yaml"),
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


@pytest.mark.parametrize(("_docs", "spec", "file"), SURFACES)
def test_documents_are_served_as_published_with_their_references(env: Env, _docs: str, spec: str,
                                                                  file: Path) -> None:
    published = yaml.safe_load(file.read_text(encoding="utf-8"))
    assert env.client.get(spec).json() == published
    assert yaml.safe_load(env.client.get(spec.removesuffix(".json") + ".yaml").text) == published


def test_reference_routes_answer_only_reads(env: Env) -> None:
    response = env.client.post("/api/openapi.json")
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, HEAD"
