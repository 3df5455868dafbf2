"""POST .../query beside every hand-written list (audit, data sources, the Open Platform administration):
the list's parameters as a typed JSON body, answering exactly what the GET list answers."""

from __future__ import annotations

import json
from typing import Any

import pytest
from httpx import Response

from tests.conftest import Env, TenantUsers
from tests.session.test_listing import field_errors


def _post(env: Env, tenant: TenantUsers, path: str, body: Any, role: str = "admin", **query: str) -> Response:
    return env.client.post(path, content=json.dumps(body), params=query,
                           headers={**tenant.headers(role), "Content-Type": "application/json"})


def _get(env: Env, tenant: TenantUsers, path: str, params: dict[str, Any], role: str = "admin") -> Response:
    sent = {k: json.dumps(v) if k == "filters" else v for k, v in params.items()}
    return env.client.get(path, params=sent, headers=tenant.headers(role))


def _applications(env: Env, tenant: TenantUsers, count: int) -> list[str]:
    ids = []
    for i in range(count):
        response = env.client.post("/api/open-platform/applications", headers=tenant.headers("admin"),
                                   json={"name": f"App {i:02d}", "description": f"number {i}"})
        assert response.status_code == 200, response.text
        ids.append(response.json()["data"]["appId"])
    return ids


@pytest.mark.parametrize("params", [
    {},
    {"pageNum": 2, "pageSize": 2, "sortField": "name", "sortOrder": "asc"},
    {"keyword": "App 0", "filters": [{"fieldName": "name", "operator": "in", "value": ["App 01", "App 03"]}]},
], ids=["defaults", "paged and sorted", "keyword and filter"])
def test_the_applications_query_answers_what_their_list_answers(
        env: Env, tenant: TenantUsers, params: dict[str, Any]) -> None:
    _applications(env, tenant, 5)
    listed = _get(env, tenant, "/api/open-platform/applications/list", params)
    queried = _post(env, tenant, "/api/open-platform/applications/query", params)
    assert listed.status_code == queried.status_code == 200, queried.text
    assert queried.json() == listed.json() and queried.json()["data"]["records"]


def test_a_query_under_a_path_answers_for_that_path(env: Env, tenant: TenantUsers) -> None:
    [app] = _applications(env, tenant, 1)
    params = {"filters": [{"fieldName": "role", "operator": "eq", "value": "owner"}]}
    listed = _get(env, tenant, f"/api/open-platform/applications/{app}/members/list", params)
    queried = _post(env, tenant, f"/api/open-platform/applications/{app}/members/query", params)
    assert queried.status_code == 200, queried.text
    assert queried.json() == listed.json() and queried.json()["data"]["total"] == 1


def test_the_audit_query_answers_what_the_audit_search_answers(env: Env, tenant: TenantUsers) -> None:
    _applications(env, tenant, 3)
    params = {"filters": [{"fieldName": "action", "operator": "eq", "value": "application.create"}], "pageSize": 2}
    listed = _get(env, tenant, "/api/audit/list", params)
    queried = _post(env, tenant, "/api/audit/query", params)
    assert queried.status_code == 200, queried.text
    assert queried.json() == listed.json() and queried.json()["data"]["total"] == 3


def test_a_data_source_query_keeps_its_source_in_the_query_string(env: Env, tenant: TenantUsers) -> None:
    params = {"filters": [{"fieldName": "value", "operator": "ne", "value": "retired"}]}
    listed = _get(env, tenant, "/api/datasource/list", {"datasourceId": "asset-status", **params})
    queried = _post(env, tenant, "/api/datasource/query", params, datasourceId="asset-status")
    assert queried.status_code == 200, queried.text
    assert queried.json() == listed.json()
    assert [item["value"] for item in queried.json()["data"]["records"]] == ["in_stock", "assigned"]


def test_a_query_form_refuses_what_its_list_refuses_by_the_same_field(env: Env, tenant: TenantUsers) -> None:
    assert field_errors(_post(env, tenant, "/api/open-platform/applications/query", {"page": 1})) == {
        "page": "Unknown parameter."}
    bad = {"filters": [{"fieldName": "colour", "operator": "eq", "value": "red"}]}
    assert field_errors(_post(env, tenant, "/api/open-platform/applications/query", bad)) == field_errors(
        _get(env, tenant, "/api/open-platform/applications/list", bad))


def test_a_query_of_another_users_application_is_not_found_as_its_list_is(
        env: Env, tenant: TenantUsers) -> None:
    [app] = _applications(env, tenant, 1)
    listed = _get(env, tenant, f"/api/open-platform/applications/{app}/installations/list", {}, role="viewer")
    queried = _post(env, tenant, f"/api/open-platform/applications/{app}/installations/query", {}, role="viewer")
    assert queried.status_code == listed.status_code == 404
    assert queried.json()["code"] == listed.json()["code"] == "NOT_FOUND"
