"""POST /api/dynamic/{pageKey}/query: the list of GET .../list with its parameters as a typed JSON body
(what stock code generators can send), answering exactly what the list answers."""

from __future__ import annotations

import json
from typing import Any

import pytest
from httpx import Response

from tests.conftest import Env, TenantUsers
from tests.session.test_listing import assets, field_errors, insert, list_page


def query(env: Env, tenant: TenantUsers, body: Any, page_key: str = "assets", role: str = "admin") -> Response:
    """The query, its body as JSON text (escaped: JSON may carry a lone surrogate, UTF-8 may not)."""
    return env.client.post(f"/api/dynamic/{page_key}/query", content=json.dumps(body),
                           headers={**tenant.headers(role), "Content-Type": "application/json"})


def _data(response: Response) -> dict[str, Any]:
    assert response.status_code == 200, response.text
    assert response.json()["code"] == "0"
    data: dict[str, Any] = response.json()["data"]
    return data


@pytest.mark.parametrize("params", [
    {},
    {"pageNum": 2, "pageSize": 3, "sortField": "name", "sortOrder": "asc"},
    {"keyword": "asset 00", "sortField": "serialNo"},
    {"filters": [{"fieldName": "status", "operator": "in", "value": ["assigned", "retired"]}], "sortField": "value"},
    {"filters": [{"fieldName": "value", "operator": "gte", "value": 3},
                 {"fieldName": "assignee", "operator": "is_null"}], "keyword": "asset", "pageSize": 500},
], ids=["defaults", "paged and sorted", "keyword", "in filter", "filters and keyword"])
def test_a_query_answers_what_the_list_answers_for_the_same_parameters(
    env: Env, tenant: TenantUsers, params: dict[str, Any]
) -> None:
    rows = assets(12)
    for i, row in enumerate(rows):
        row.update(status=("in_stock", "assigned", "retired")[i % 3], value=i)
    insert(env, tenant, rows)
    listed = _data(list_page(env, tenant, **dict(params)))
    queried = _data(query(env, tenant, params))
    assert queried == listed
    assert queried["records"]  # each case lists something, so the comparison compares records


def test_a_query_of_another_page_lists_that_page(env: Env, tenant: TenantUsers) -> None:
    insert(env, tenant, [{"sku": "SKU-1", "quantity": 4, "warehouse": "north"}], model="stockIn")
    data = _data(query(env, tenant, {"filters": [{"fieldName": "quantity", "operator": "eq", "value": 4}]},
                       page_key="stock-ins"))
    assert [r["sku"] for r in data["records"]] == ["SKU-1"] and data["total"] == 1


def test_a_property_the_list_does_not_have_is_a_validation_error(env: Env, tenant: TenantUsers) -> None:
    assert field_errors(query(env, tenant, {"page": 2, "pageSize": 5})) == {"page": "Unknown parameter."}


@pytest.mark.parametrize(("body", "field"), [
    ({"pageNum": "2"}, "pageNum"), ({"pageSize": None}, "pageSize"), ({"pageSize": True}, "pageSize"),
    ({"keyword": 5}, "keyword"), ({"sortField": None}, "sortField"), ({"sortOrder": 1}, "sortOrder"),
    ({"filters": '[{"fieldName": "name", "operator": "is_null"}]'}, "filters"), ({"filters": None}, "filters"),
], ids=lambda v: json.dumps(v) if isinstance(v, dict) else str(v))
def test_a_value_of_another_json_type_than_documented_is_a_validation_error(
    env: Env, tenant: TenantUsers, body: dict[str, Any], field: str
) -> None:
    """The query string's text is no longer text here: a number is a number, absent is not null."""
    assert list(field_errors(query(env, tenant, body))) == [field]


def test_a_filter_the_list_refuses_is_refused_under_the_same_field_name(env: Env, tenant: TenantUsers) -> None:
    body = {"filters": [{"fieldName": "value", "operator": "gt", "value": 1}, {"fieldName": "name", "operator": "eq",
                                                                              "value": "x\ud800"}]}
    assert list(field_errors(query(env, tenant, body))) == ["filters[1].value"]


def test_a_keyword_with_a_lone_surrogate_is_a_validation_error_not_a_server_error(
    env: Env, tenant: TenantUsers
) -> None:
    """JSON can carry what a UTF-8 query string cannot: a lone surrogate, which no database stores."""
    assert list(field_errors(query(env, tenant, {"keyword": "a\ud800"}))) == ["keyword"]


def test_a_body_that_is_not_an_object_is_a_validation_error(env: Env, tenant: TenantUsers) -> None:
    assert list(field_errors(query(env, tenant, [1, 2]))) == ["body"]


def test_a_query_needs_a_signed_in_user(env: Env) -> None:
    response = env.client.post("/api/dynamic/assets/query", json={})
    assert response.status_code == 401 and response.json()["code"] == "UNAUTHORIZED", response.text
