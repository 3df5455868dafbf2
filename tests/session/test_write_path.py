"""Commands are the session API's single write path, and its paths carry no version segment."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tessera.core import yamlfile
from tests.conftest import Env, TenantUsers
from tests.support.live_server import ROOT

WRITES = ("post", "put", "patch", "delete")


def _document() -> dict[str, Any]:
    loaded: dict[str, Any] = yamlfile.load((ROOT / "generated" / "session-api.yaml").read_text(encoding="utf-8"))
    return loaded


@pytest.mark.rule("session.commands.single-write-path")
def test_records_are_written_only_through_the_command_endpoint_in_the_document() -> None:
    paths = _document()["paths"]
    record_paths = [p for p in paths if p.startswith(("/api/dynamic/", "/api/datasource/"))]
    assert record_paths, "the document has no page paths"
    # A page's query operation is a POST only to carry its parameters as a body; it writes nothing
    # (test_a_write_to_a_page_route_is_refused_and_changes_nothing, tests/session/test_list_query.py).
    queries = [(p, "post") for p in record_paths if p.endswith("/query")
               and paths[p]["post"]["operationId"].startswith("query")]
    assert [(p, m) for p in record_paths for m in paths[p] if m in WRITES and (p, m) not in queries] == []
    assert all(set(paths[p]) == {"post"} for p, _ in queries)
    commands = [p for p in paths if p.startswith("/api/meta/commands/execute/")]
    assert commands and all(set(paths[p]) & set(WRITES) == {"post"} for p in commands)


@pytest.mark.rule("session.commands.single-write-path")
def test_a_write_to_a_page_route_is_refused_and_changes_nothing(env: Env, tenant: TenantUsers) -> None:
    record = tenant.create("assets", {"name": "Only by command", "serialNo": "SWP-1"})
    headers = tenant.headers()
    for method in ("POST", "PUT", "PATCH", "DELETE"):
        for path in ("/api/dynamic/assets/list", f"/api/dynamic/assets/{record['id']}"):
            refused = env.client.request(method, path, headers=headers, json={"name": "changed"})
            assert refused.status_code == 405, (method, path, refused.text)
            assert refused.json()["code"] == "METHOD_NOT_ALLOWED"
            assert refused.headers["Allow"] == "GET"
    for method in ("PUT", "PATCH", "DELETE"):
        refused = env.client.request(method, "/api/dynamic/assets/query", headers=headers, json={})
        assert refused.status_code == 405 and refused.headers["Allow"] == "POST", (method, refused.text)
    query = env.client.post("/api/dynamic/assets/query", headers=headers, json={"name": "changed"})
    assert query.status_code == 400 and query.json()["code"] == "VALIDATION_ERROR", query.text
    read = env.client.get(f"/api/dynamic/assets/{record['id']}", headers=headers).json()["data"]
    assert read["name"] == "Only by command"


@pytest.mark.rule("session.version.no-segment")
def test_no_session_path_carries_a_version_segment() -> None:
    paths = list(_document()["paths"])
    assert all(p.startswith("/api/") for p in paths)
    versioned = [p for p in paths if any(re.fullmatch(r"v\d+(\.\d+)*", part) for part in p.split("/"))]
    assert versioned == []
