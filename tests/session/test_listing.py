"""The list contract of GET /api/dynamic/{pageKey}/list: paging, keyword, sorting, filters, errors."""

from __future__ import annotations

import json
from typing import Any

import pytest
from httpx import Response
from sqlalchemy import func, select

from storage import record_cache
from storage.records import RecordRepository, present
from storage.schema.tables import records
from tests.conftest import Env, TenantUsers

ASSET_FIELDS = ("name", "serialNo", "status", "assignee", "value", "purchasedAt")
STOCK_IN_FIELDS = ("sku", "quantity", "warehouse", "receivedAt", "source")


def insert(env: Env, tenant: TenantUsers, rows: list[dict[str, Any]], model: str = "asset") -> list[dict[str, Any]]:
    """Create records in bulk through the storage layer (commands are rate-limited to 30 a minute)."""
    decl = env.runtime.declarations.models[model]

    async def create() -> list[dict[str, Any]]:
        async with env.runtime.db.write() as conn:
            repo = RecordRepository(conn, tenant.tenant_id, decl)
            now = env.runtime.clock.now()
            return [present(await repo.insert({code: row.get(code) for code in decl.fields}, None, now=now), decl)
                    for row in rows]

    return env.run(create)


def assets(count: int, prefix: str = "A") -> list[dict[str, Any]]:
    return [{"name": f"{prefix} asset {i:03d}", "serialNo": f"{prefix}-{i:03d}", "status": "in_stock"}
            for i in range(count)]


def list_page(
    env: Env, tenant: TenantUsers, page_key: str = "assets", role: str = "admin", **params: Any
) -> Response:
    if "filters" in params and not isinstance(params["filters"], str):
        params["filters"] = json.dumps(params["filters"])
    return env.client.get(f"/api/dynamic/{page_key}/list", params=params, headers=tenant.headers(role))


def listed(env: Env, tenant: TenantUsers, **params: Any) -> dict[str, Any]:
    response = list_page(env, tenant, **params)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["code"] == "0"
    return body["data"]


def field_errors(response: Response) -> dict[str, str]:
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR"
    return body["data"]["fieldErrors"]


def names(data: dict[str, Any]) -> list[str]:
    return [r["name"] for r in data["records"]]


# -- paging and defaults --------------------------------------------------------------------------

@pytest.mark.rule(
    "session.list.result-fields",
    "session.list.endpoint",
    "session.list.page-num",
    "session.list.page-size-default",
    "session.list.sort-field",
    "session.list.sort-order",
    "limits.page-size",
)
def test_defaults_are_page_1_of_10_newest_first(env: Env, tenant: TenantUsers) -> None:
    created = insert(env, tenant, assets(12))
    data = listed(env, tenant)
    assert data["pageNum"] == 1
    assert data["pageSize"] == 10
    assert data["total"] == 12
    assert [r["id"] for r in data["records"]] == [r["id"] for r in reversed(created)][:10]


@pytest.mark.rule("session.list.total-matching")
def test_total_counts_every_match_not_just_the_page(env: Env, tenant: TenantUsers) -> None:
    insert(env, tenant, assets(15))
    data = listed(env, tenant, pageSize=4, pageNum=2)
    assert data["total"] == 15
    assert len(data["records"]) == 4


@pytest.mark.rule("session.list.total-matching")
def test_a_page_past_the_end_is_empty_but_keeps_the_total(env: Env, tenant: TenantUsers) -> None:
    insert(env, tenant, assets(3))
    data = listed(env, tenant, pageSize=10, pageNum=2)
    assert data["records"] == []
    assert data["total"] == 3


@pytest.mark.rule("session.list.pages-consecutive")
def test_pages_are_consecutive_without_skips_or_repeats(env: Env, tenant: TenantUsers) -> None:
    insert(env, tenant, assets(23))
    whole = [r["id"] for r in listed(env, tenant, pageSize=500)["records"]]
    walked: list[str] = []
    for page_num in range(1, 5):
        data = listed(env, tenant, pageSize=7, pageNum=page_num)
        assert data["total"] == 23
        walked.extend(r["id"] for r in data["records"])
    assert len(whole) == 23
    assert walked == whole


@pytest.mark.rule("session.list.pages-consecutive")
def test_pages_are_consecutive_when_the_sort_field_has_ties(env: Env, tenant: TenantUsers) -> None:
    insert(env, tenant, [{**row, "value": i % 3} for i, row in enumerate(assets(23))])
    whole = [r["id"] for r in listed(env, tenant, pageSize=500, sortField="value", sortOrder="asc")["records"]]
    walked: list[str] = []
    for page_num in range(1, 5):
        data = listed(env, tenant, pageSize=7, pageNum=page_num, sortField="value", sortOrder="asc")
        walked.extend(r["id"] for r in data["records"])
    assert walked == whole
    assert len(set(walked)) == 23


def _change(env: Env, tenant: TenantUsers, pid: str, changes: dict[str, Any] | None) -> None:
    """Update (``changes``) or soft-delete (None) one asset through the storage layer."""
    decl = env.runtime.declarations.models["asset"]

    async def change() -> None:
        async with env.runtime.db.write() as conn:
            repo = RecordRepository(conn, tenant.tenant_id, decl)
            current = await repo.get(pid, for_update=True)
            assert current is not None
            if changes is None:
                await repo.soft_delete(current, now=env.runtime.clock.now())
            else:
                assert await repo.update(current, changes, now=env.runtime.clock.now()) is not None

    env.run(change)


def test_a_write_between_two_pages_changes_the_next_pages_total(env: Env, tenant: TenantUsers) -> None:
    """A list is read once (``storage.record_cache``): the second page reuses the first's ids and
    total, and every kind of write is seen by the next page."""
    created = insert(env, tenant, assets(12))
    in_stock = {"filters": [{"fieldName": "status", "operator": "eq", "value": "in_stock"}], "pageSize": 5,
                "keyword": "asset", "sortField": "name", "sortOrder": "asc"}
    assert listed(env, tenant, pageNum=1, **in_stock)["total"] == 12
    loads = record_cache.LISTS.loads
    assert listed(env, tenant, pageNum=2, **in_stock)["total"] == 12
    assert record_cache.LISTS.loads == loads  # page 2 did not read the list again
    insert(env, tenant, assets(1, prefix="B"))
    assert listed(env, tenant, pageNum=3, **in_stock)["total"] == 13  # a create
    _change(env, tenant, created[0]["id"], {"status": "retired"})
    data = listed(env, tenant, pageNum=3, **in_stock)
    assert data["total"] == 12  # an update that leaves the filter
    assert len(data["records"]) == 2
    _change(env, tenant, created[1]["id"], None)
    assert listed(env, tenant, pageNum=3, **in_stock)["total"] == 11  # a delete
    assert listed(env, tenant, pageNum=1, pageSize=5)["total"] == 12  # another query: its own count


@pytest.mark.parametrize("sort", [("name", "asc"), ("value", "desc"), ("created_at", "asc")])
def test_pages_from_the_ordered_ids_match_the_index_walk(
    env: Env, tenant: TenantUsers, monkeypatch: pytest.MonkeyPatch, sort: tuple[str, str]
) -> None:
    """A page comes from the matches' ids in order, read once per query: the same pages, in the same
    order, as paging through the sort field's index; a write is seen by the next page."""
    created = insert(env, tenant, [{**row, "value": i % 4} for i, row in enumerate(assets(23))])
    query = {"pageSize": 5, "sortField": sort[0], "sortOrder": sort[1], "keyword": "asset"}
    record_cache.LISTS.clear()
    from_ids = [[r["id"] for r in listed(env, tenant, pageNum=n, **query)["records"]] for n in range(1, 6)]
    assert record_cache.LISTS.loads == 1  # read once for the five pages
    record_cache.LISTS.clear()
    monkeypatch.setattr(record_cache, "MAX_ORDERED_IDS", 0)  # too many to keep: through the index
    monkeypatch.setattr(record_cache, "MIN_ORDERED_IDS", 1)
    walked = [[r["id"] for r in listed(env, tenant, pageNum=n, **query)["records"]] for n in range(1, 6)]
    assert from_ids == walked
    monkeypatch.undo()
    past = listed(env, tenant, pageNum=6, **query)
    assert past["records"] == [] and past["total"] == 23
    _change(env, tenant, created[3]["id"], None)
    data = listed(env, tenant, pageNum=5, **query)
    assert data["total"] == 22
    assert len(data["records"]) == 2


def test_a_result_beyond_the_kept_ids_pages_from_its_first_ids_and_counts_the_rest(
    env: Env, tenant: TenantUsers, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More matches than ``MAX_ORDERED_IDS``: the pages among the first ones come from their ids
    (read once), a page past them from the index, and the total is the exact count of all."""
    insert(env, tenant, assets(23))
    query = {"pageSize": 5, "sortField": "name", "sortOrder": "desc", "keyword": "asset"}
    walked_all = [[r["id"] for r in listed(env, tenant, pageNum=n, **query)["records"]] for n in range(1, 6)]
    record_cache.LISTS.clear()
    monkeypatch.setattr(record_cache, "MAX_ORDERED_IDS", 10)  # two pages' worth kept
    pages = [listed(env, tenant, pageNum=n, **query) for n in range(1, 6)]
    assert [[r["id"] for r in page["records"]] for page in pages] == walked_all
    assert [page["total"] for page in pages] == [23] * 5
    assert record_cache.LISTS.loads == 1  # the first ten ids, read once


@pytest.mark.rule("session.list.result-fields", "session.list.page-size-max")
def test_page_size_500_is_accepted(env: Env, tenant: TenantUsers) -> None:
    assert listed(env, tenant, pageSize=500)["pageSize"] == 500


@pytest.mark.rule("session.list.page-size-max", "limits.page-size")
def test_page_size_501_is_a_validation_error_on_page_size(env: Env, tenant: TenantUsers) -> None:
    assert set(field_errors(list_page(env, tenant, pageSize=501))) == {"pageSize"}


@pytest.mark.parametrize("value", ["0", "-1", "abc", "1.5"])
@pytest.mark.rule("session.list.page-size-max")
def test_page_size_that_is_not_a_positive_integer_is_rejected(env: Env, tenant: TenantUsers, value: str) -> None:
    assert "pageSize" in field_errors(list_page(env, tenant, pageSize=value))


@pytest.mark.parametrize("value", ["0", "-3", "abc"])
@pytest.mark.rule("session.list.page-num")
def test_page_num_below_1_or_not_an_integer_is_rejected(env: Env, tenant: TenantUsers, value: str) -> None:
    assert "pageNum" in field_errors(list_page(env, tenant, pageNum=value))


@pytest.mark.rule("session.list.no-page-size-aliases")
def test_page_and_size_are_not_aliases_of_page_num_and_page_size(env: Env, tenant: TenantUsers) -> None:
    errors = field_errors(list_page(env, tenant, page=2, size=5))
    assert {"page", "size"} <= set(errors)


# -- keyword ---------------------------------------------------------------------------------------

@pytest.mark.rule("session.list.keyword")
def test_keyword_matches_name_case_insensitively(env: Env, tenant: TenantUsers) -> None:
    insert(env, tenant, [{"name": "ThinkPad X1", "serialNo": "S-1"}, {"name": "MacBook", "serialNo": "S-2"}])
    data = listed(env, tenant, keyword="THINKpad")
    assert names(data) == ["ThinkPad X1"]
    assert data["total"] == 1


@pytest.mark.rule("session.list.keyword")
def test_keyword_matches_serial_no_case_insensitively(env: Env, tenant: TenantUsers) -> None:
    insert(env, tenant, [{"name": "One", "serialNo": "SN-Alpha-7"}, {"name": "Two", "serialNo": "SN-Beta-8"}])
    assert names(listed(env, tenant, keyword="alpha-7")) == ["One"]


@pytest.mark.rule("session.list.keyword")
def test_keyword_does_not_match_fields_that_are_not_searchable(env: Env, tenant: TenantUsers) -> None:
    insert(env, tenant, [{"name": "Laptop", "serialNo": "S-1", "assignee": "zelda", "status": "assigned"}])
    assert listed(env, tenant, keyword="zelda")["total"] == 0
    assert listed(env, tenant, keyword="assigned")["total"] == 0


def test_percent_in_a_keyword_is_literal(env: Env, tenant: TenantUsers) -> None:
    insert(env, tenant, [{"name": "100% cotton", "serialNo": "S-1"}, {"name": "100 cotton", "serialNo": "S-2"},
                         {"name": "1000 cotton", "serialNo": "S-3"}])
    assert names(listed(env, tenant, keyword="100%")) == ["100% cotton"]
    assert listed(env, tenant, keyword="%")["total"] == 1


def test_underscore_in_a_keyword_is_literal(env: Env, tenant: TenantUsers) -> None:
    insert(env, tenant, [{"name": "a_b", "serialNo": "S-1"}, {"name": "axb", "serialNo": "S-2"}])
    assert names(listed(env, tenant, keyword="a_b")) == ["a_b"]
    assert names(listed(env, tenant, keyword="_")) == ["a_b"]


def test_backslash_in_a_keyword_is_literal(env: Env, tenant: TenantUsers) -> None:
    insert(env, tenant, [{"name": "C:\\temp", "serialNo": "S-1"}, {"name": "C:temp", "serialNo": "S-2"}])
    assert names(listed(env, tenant, keyword="c:\\t")) == ["C:\\temp"]


# -- sorting ---------------------------------------------------------------------------------------

def test_sort_on_a_number_field_ascending_is_numeric(env: Env, tenant: TenantUsers) -> None:
    insert(env, tenant, [{"name": n, "serialNo": n, "value": v} for n, v in (("ten", 10), ("hundred", 100),
                                                                                ("nine", 9), ("half", 9.5))])
    data = listed(env, tenant, sortField="value", sortOrder="asc")
    assert [r["value"] for r in data["records"]] == [9, 9.5, 10, 100]


def test_sort_on_a_number_field_descending_is_numeric(env: Env, tenant: TenantUsers) -> None:
    insert(env, tenant, [{"name": n, "serialNo": n, "value": v} for n, v in (("ten", 10), ("hundred", 100),
                                                                                ("nine", 9))])
    data = listed(env, tenant, sortField="value", sortOrder="desc")
    assert [r["value"] for r in data["records"]] == [100, 10, 9]


def test_sort_on_a_text_field_follows_the_order(env: Env, tenant: TenantUsers) -> None:
    insert(env, tenant, [{"name": n, "serialNo": n} for n in ("bravo", "alpha", "charlie")])
    assert names(listed(env, tenant, sortField="name", sortOrder="asc")) == ["alpha", "bravo", "charlie"]
    assert names(listed(env, tenant, sortField="name", sortOrder="desc")) == ["charlie", "bravo", "alpha"]


@pytest.mark.rule("session.list.sort-field")
def test_sort_on_created_at_ascending_is_oldest_first(env: Env, tenant: TenantUsers) -> None:
    created = insert(env, tenant, assets(5))
    data = listed(env, tenant, sortField="created_at", sortOrder="asc")
    assert [r["id"] for r in data["records"]] == [r["id"] for r in created]


@pytest.mark.rule("session.list.sort-field")
def test_an_unknown_sort_field_is_a_validation_error(env: Env, tenant: TenantUsers) -> None:
    assert set(field_errors(list_page(env, tenant, sortField="colour"))) == {"sortField"}


@pytest.mark.parametrize("order", ["up", "ASC", "descending", "random"])
@pytest.mark.rule("session.list.sort-order")
def test_a_sort_order_other_than_asc_or_desc_is_a_validation_error(
    env: Env, tenant: TenantUsers, order: str
) -> None:
    assert set(field_errors(list_page(env, tenant, sortOrder=order))) == {"sortOrder"}


# -- filters ---------------------------------------------------------------------------------------

FILTER_ROWS = [
    {"name": "Alpha Laptop", "serialNo": "S-A", "status": "in_stock", "assignee": None, "value": 9,
     "purchasedAt": "2024-01-10"},
    {"name": "Beta Phone", "serialNo": "S-B", "status": "assigned", "assignee": "alice", "value": 10,
     "purchasedAt": "2024-06-15"},
    {"name": "Gamma laptop", "serialNo": "S-C", "status": "retired", "assignee": "bob", "value": 100,
     "purchasedAt": "2025-03-01"},
    {"name": "Delta Scanner", "serialNo": "S-D", "status": "in_stock", "assignee": None, "value": None,
     "purchasedAt": None},
]

FILTER_CASES = [
    ("eq", "status", "in_stock", {"Alpha Laptop", "Delta Scanner"}),
    ("eq", "value", 10, {"Beta Phone"}),
    ("ne", "status", "in_stock", {"Beta Phone", "Gamma laptop"}),
    ("ne", "assignee", "alice", {"Alpha Laptop", "Gamma laptop", "Delta Scanner"}),
    ("ne", "value", 10, {"Alpha Laptop", "Gamma laptop", "Delta Scanner"}),
    ("gt", "value", 9, {"Beta Phone", "Gamma laptop"}),
    ("gt", "purchasedAt", "2024-06-15", {"Gamma laptop"}),
    ("gte", "value", 10, {"Beta Phone", "Gamma laptop"}),
    ("gte", "purchasedAt", "2024-06-15", {"Beta Phone", "Gamma laptop"}),
    ("lt", "value", 100, {"Alpha Laptop", "Beta Phone"}),
    ("lt", "purchasedAt", "2024-06-15", {"Alpha Laptop"}),
    ("lte", "value", 10, {"Alpha Laptop", "Beta Phone"}),
    ("lte", "purchasedAt", "2024-06-15", {"Alpha Laptop", "Beta Phone"}),
    ("like", "name", "LAPTOP", {"Alpha Laptop", "Gamma laptop"}),
    ("like", "serialNo", "s-b", {"Beta Phone"}),
    ("in", "status", ["in_stock", "retired"], {"Alpha Laptop", "Gamma laptop", "Delta Scanner"}),
    ("in", "value", [9, 100], {"Alpha Laptop", "Gamma laptop"}),
    ("not_in", "status", ["in_stock"], {"Beta Phone", "Gamma laptop"}),
    ("not_in", "assignee", ["alice"], {"Alpha Laptop", "Gamma laptop", "Delta Scanner"}),
    ("is_null", "value", None, {"Delta Scanner"}),
    ("is_null", "assignee", None, {"Alpha Laptop", "Delta Scanner"}),
    ("is_not_null", "assignee", None, {"Beta Phone", "Gamma laptop"}),
    ("is_not_null", "purchasedAt", None, {"Alpha Laptop", "Beta Phone", "Gamma laptop"}),
]


@pytest.mark.parametrize(("operator", "field", "value", "expected"), FILTER_CASES,
                         ids=[f"{c[0]}-{c[1]}-{i}" for i, c in enumerate(FILTER_CASES)])
@pytest.mark.rule("session.filter.operators", "session.filter.value")
def test_each_filter_operator_matches_exactly_the_expected_records(
    env: Env, tenant: TenantUsers, operator: str, field: str, value: Any, expected: set[str]
) -> None:
    insert(env, tenant, FILTER_ROWS)
    condition: dict[str, Any] = {"fieldName": field, "operator": operator}
    if value is not None:
        condition["value"] = value
    data = listed(env, tenant, filters=[condition], pageSize=500)
    assert set(names(data)) == expected
    assert data["total"] == len(expected)


@pytest.mark.rule("session.filter.operators")
def test_every_filter_operator_is_covered() -> None:
    assert {c[0] for c in FILTER_CASES} == {
        "eq", "ne", "gt", "gte", "lt", "lte", "like", "in", "not_in", "is_null", "is_not_null"}


@pytest.mark.rule("session.list.filters")
def test_several_filters_must_all_hold(env: Env, tenant: TenantUsers) -> None:
    insert(env, tenant, FILTER_ROWS)
    data = listed(env, tenant, filters=[{"fieldName": "status", "operator": "eq", "value": "in_stock"},
                                        {"fieldName": "value", "operator": "is_not_null"}])
    assert names(data) == ["Alpha Laptop"]


@pytest.mark.rule("session.list.total-matching")
def test_filters_and_keyword_combine_and_total_counts_the_combination(env: Env, tenant: TenantUsers) -> None:
    insert(env, tenant, FILTER_ROWS)
    data = listed(env, tenant, keyword="laptop", pageSize=1,
                  filters=[{"fieldName": "value", "operator": "gte", "value": 9}])
    assert data["total"] == 2
    assert len(data["records"]) == 1


def test_like_filter_treats_percent_and_underscore_literally(env: Env, tenant: TenantUsers) -> None:
    insert(env, tenant, [{"name": "50% off", "serialNo": "S-1"}, {"name": "50 off", "serialNo": "S-2"},
                         {"name": "x_y", "serialNo": "S-3"}, {"name": "xzy", "serialNo": "S-4"}])
    assert names(listed(env, tenant, filters=[{"fieldName": "name", "operator": "like", "value": "%"}])) == ["50% off"]
    assert names(listed(env, tenant, filters=[{"fieldName": "name", "operator": "like", "value": "x_"}])) == ["x_y"]


def test_datetime_filters_compare_instants_whatever_the_zone(env: Env, tenant: TenantUsers) -> None:
    insert(env, tenant, [
        {"sku": "EARLY", "receivedAt": "2026-01-01T01:00:00.000Z"},
        {"sku": "LATE", "receivedAt": "2026-01-01T03:00:00.000Z"},
    ], model="stockIn")
    # 10:00 at +08:00 is 02:00 UTC: between the two.
    after = listed(env, tenant, page_key="stock-ins",
                   filters=[{"fieldName": "receivedAt", "operator": "gt", "value": "2026-01-01T10:00:00+08:00"}])
    before = listed(env, tenant, page_key="stock-ins",
                    filters=[{"fieldName": "receivedAt", "operator": "lt", "value": "2026-01-01T10:00:00+08:00"}])
    assert [r["sku"] for r in after["records"]] == ["LATE"]
    assert [r["sku"] for r in before["records"]] == ["EARLY"]


def test_integer_filters_compare_numerically(env: Env, tenant: TenantUsers) -> None:
    insert(env, tenant, [{"sku": f"Q{q}", "quantity": q} for q in (2, 10, 100)], model="stockIn")
    data = listed(env, tenant, page_key="stock-ins", sortField="quantity", sortOrder="asc",
                  filters=[{"fieldName": "quantity", "operator": "gt", "value": 5}])
    assert [r["quantity"] for r in data["records"]] == [10, 100]


@pytest.mark.parametrize("raw", ['{"fieldName":"status","operator":"eq","value":"in_stock"}', "not json",
                                 "[{]", '"status"', "42"])
@pytest.mark.rule("session.list.filters")
def test_filters_that_are_not_a_json_array_are_a_validation_error(
    env: Env, tenant: TenantUsers, raw: str
) -> None:
    assert set(field_errors(list_page(env, tenant, filters=raw))) == {"filters"}


@pytest.mark.rule("session.filter.field-name")
def test_a_filter_on_an_unknown_field_is_a_validation_error(env: Env, tenant: TenantUsers) -> None:
    errors = field_errors(list_page(env, tenant, filters=[{"fieldName": "colour", "operator": "eq", "value": "x"}]))
    assert list(errors) == ["filters[0].fieldName"]


@pytest.mark.rule("session.filter.operators")
def test_a_filter_with_an_unknown_operator_is_a_validation_error(env: Env, tenant: TenantUsers) -> None:
    errors = field_errors(list_page(env, tenant, filters=[{"fieldName": "name", "operator": "contains",
                                                           "value": "x"}]))
    assert list(errors) == ["filters[0].operator"]


@pytest.mark.parametrize(("field", "operator", "value"), [
    ("value", "eq", "ten"),
    ("value", "gt", True),
    ("name", "eq", 5),
    ("purchasedAt", "gt", "15/06/2024"),
    ("purchasedAt", "eq", "2024-02-30"),
    ("status", "in", ["in_stock", 3]),
    ("value", "like", "1"),
    ("name", "eq", None),
    ("value", "lt", float("nan")),
    ("purchasedAt", "eq", "20260115xx"),
    ("purchasedAt", "eq", "2026-W03-4"),
    ("name", "eq", "a\x00b"),
    ("name", "like", "a\x00b"),
    ("created_at", "gt", "0001-01-01T00:00:00+01:00"),
])
@pytest.mark.rule("session.filter.value")
def test_a_filter_value_of_the_wrong_type_is_a_validation_error(
    env: Env, tenant: TenantUsers, field: str, operator: str, value: Any
) -> None:
    errors = field_errors(list_page(env, tenant, filters=[{"fieldName": field, "operator": operator,
                                                           "value": value}]))
    assert list(errors) == ["filters[0].value"]


@pytest.mark.parametrize("value", ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00", "2026-01-01"])
def test_a_datetime_filter_value_that_is_not_a_representable_instant_is_rejected(
    env: Env, tenant: TenantUsers, value: str
) -> None:
    errors = field_errors(list_page(env, tenant, page_key="stock-ins",
                                    filters=[{"fieldName": "receivedAt", "operator": "gt", "value": value}]))
    assert list(errors) == ["filters[0].value"]


def test_a_text_filter_value_with_a_lone_surrogate_is_rejected(env: Env, tenant: TenantUsers) -> None:
    raw = '[{"fieldName":"name","operator":"eq","value":"x\\ud800"}]'
    assert list(field_errors(list_page(env, tenant, filters=raw))) == ["filters[0].value"]


def test_a_keyword_with_a_nul_character_is_rejected_not_a_server_error(env: Env, tenant: TenantUsers) -> None:
    assert list(field_errors(list_page(env, tenant, keyword="a\x00b"))) == ["keyword"]


def test_an_integer_filter_rejects_a_fraction(env: Env, tenant: TenantUsers) -> None:
    errors = field_errors(list_page(env, tenant, page_key="stock-ins",
                                    filters=[{"fieldName": "quantity", "operator": "eq", "value": 1.5}]))
    assert list(errors) == ["filters[0].value"]


@pytest.mark.parametrize("operator", ["in", "not_in"])
def test_in_and_not_in_with_an_empty_list_are_a_validation_error(
    env: Env, tenant: TenantUsers, operator: str
) -> None:
    errors = field_errors(list_page(env, tenant, filters=[{"fieldName": "status", "operator": operator,
                                                           "value": []}]))
    assert list(errors) == ["filters[0].value"]


def test_every_bad_filter_condition_is_reported_in_one_response(env: Env, tenant: TenantUsers) -> None:
    filters = [
        {"fieldName": "colour", "operator": "eq", "value": "x"},
        {"fieldName": "name", "operator": "contains", "value": "x"},
        {"fieldName": "value", "operator": "gt", "value": "ten"},
        {"fieldName": "status", "operator": "in", "value": []},
        {"fieldName": "status", "operator": "eq", "value": "in_stock"},
    ]
    errors = field_errors(list_page(env, tenant, filters=filters))
    assert {"filters[0].fieldName", "filters[1].operator", "filters[2].value", "filters[3].value"} <= set(errors)
    assert not any(key.startswith("filters[4]") for key in errors)


@pytest.mark.rule("session.error.field-map-always")
def test_every_bad_list_parameter_is_reported_in_one_response(env: Env, tenant: TenantUsers) -> None:
    filters = [{"fieldName": "colour", "operator": "eq", "value": "x"}]
    errors = field_errors(list_page(env, tenant, filters=filters, sortField="colour"))
    assert {"sortField", "filters[0].fieldName"} <= set(errors)


# -- hostile input ---------------------------------------------------------------------------------

SQL_FRAGMENTS = ["' OR 1=1 --", "x'; DROP TABLE records; --", "\" OR \"\"=\"", "1; SELECT pg_sleep(1)",
                 "') OR ('a'='a", "%' OR '1'='1"]


def other_tenant_with_records(env: Env) -> TenantUsers:
    other = env.new_tenant()
    insert(env, other, [{"name": "Other secret", "serialNo": "OTHER-1", "status": "in_stock", "value": 1}])
    return other


def records_in_database(env: Env) -> int:
    with env.sql.connect() as conn:
        return conn.execute(select(func.count()).select_from(records)).scalar_one()


@pytest.mark.parametrize("fragment", SQL_FRAGMENTS)
def test_sql_in_a_keyword_is_just_text(env: Env, tenant: TenantUsers, fragment: str) -> None:
    other_tenant_with_records(env)
    insert(env, tenant, [{"name": "Mine", "serialNo": "MINE-1"}])
    before = records_in_database(env)
    data = listed(env, tenant, keyword=fragment)
    assert data["total"] == 0
    assert records_in_database(env) == before
    assert listed(env, tenant)["total"] == 1


@pytest.mark.parametrize("fragment", SQL_FRAGMENTS)
def test_sql_in_filter_values_is_just_a_value(env: Env, tenant: TenantUsers, fragment: str) -> None:
    other_tenant_with_records(env)
    insert(env, tenant, [{"name": "Mine", "serialNo": "MINE-1"}])
    before = records_in_database(env)
    for operator, value in (("eq", fragment), ("ne", fragment), ("like", fragment), ("in", [fragment]),
                            ("not_in", [fragment])):
        response = list_page(env, tenant, filters=[{"fieldName": "name", "operator": operator, "value": value}])
        assert response.status_code == 200, (operator, response.text)
        found = response.json()["data"]["records"]
        assert all(r["name"] == "Mine" for r in found), operator
    assert records_in_database(env) == before


@pytest.mark.parametrize("fragment", SQL_FRAGMENTS)
def test_sql_in_a_filter_field_name_or_operator_is_a_validation_error(
    env: Env, tenant: TenantUsers, fragment: str
) -> None:
    errors = field_errors(list_page(env, tenant, filters=[
        {"fieldName": fragment, "operator": "eq", "value": "x"},
        {"fieldName": "name", "operator": fragment, "value": "x"},
    ]))
    assert set(errors) == {"filters[0].fieldName", "filters[1].operator"}


@pytest.mark.parametrize("fragment", SQL_FRAGMENTS)
def test_sql_in_sort_field_or_sort_order_is_a_validation_error(
    env: Env, tenant: TenantUsers, fragment: str
) -> None:
    assert "sortField" in field_errors(list_page(env, tenant, sortField=fragment))
    assert "sortOrder" in field_errors(list_page(env, tenant, sortOrder=fragment))


@pytest.mark.parametrize("fragment", SQL_FRAGMENTS)
def test_sql_in_a_page_key_or_record_id_is_never_a_server_error(
    env: Env, tenant: TenantUsers, fragment: str
) -> None:
    other = other_tenant_with_records(env)
    before = records_in_database(env)
    for path in (f"/api/dynamic/{fragment}/list", f"/api/dynamic/assets/{fragment}",
                 f"/api/dynamic/{fragment}/rec_x"):
        response = env.client.get(path, headers=tenant.headers())
        assert response.status_code in (400, 404), (path, response.text)
        assert response.json()["code"] in ("VALIDATION_ERROR", "NOT_FOUND")
        assert "Other secret" not in response.text
    assert records_in_database(env) == before
    assert listed(env, other)["total"] == 1


def test_records_of_other_tenants_never_match_any_filter(env: Env, tenant: TenantUsers) -> None:
    other_tenant_with_records(env)
    filters = [{"fieldName": "serialNo", "operator": "eq", "value": "OTHER-1"}]
    assert listed(env, tenant, filters=filters)["total"] == 0
    assert listed(env, tenant, keyword="other secret")["total"] == 0


# -- pages, roles and single records ----------------------------------------------------------------

@pytest.mark.rule("session.list.endpoint")
def test_an_unknown_page_is_not_found(env: Env, tenant: TenantUsers) -> None:
    response = list_page(env, tenant, page_key="nothing")
    assert response.status_code == 404
    assert response.json() == {"code": "NOT_FOUND", "message": "The resource was not found.", "data": None}


def test_a_viewer_can_list_records(env: Env, tenant: TenantUsers) -> None:
    insert(env, tenant, assets(2))
    response = list_page(env, tenant, role="viewer")
    assert response.status_code == 200
    assert response.json()["data"]["total"] == 2


@pytest.mark.rule("session.list.record-string-id")
def test_every_listed_record_has_a_string_id_and_the_model_fields(env: Env, tenant: TenantUsers) -> None:
    insert(env, tenant, assets(1))
    (record,) = listed(env, tenant)["records"]
    assert isinstance(record["id"], str)
    assert record["id"].startswith("rec_")
    assert set(record) == {"id", *ASSET_FIELDS, "created_at", "updated_at"}


@pytest.mark.rule("session.detail.endpoint")
def test_detail_of_a_record_returns_it(env: Env, tenant: TenantUsers) -> None:
    (created,) = insert(env, tenant, [{"name": "Dock", "serialNo": "D-1", "status": "in_stock", "value": 12.5}])
    response = env.client.get(f"/api/dynamic/assets/{created['id']}", headers=tenant.headers("viewer"))
    assert response.status_code == 200
    assert response.json()["data"] == created


@pytest.mark.rule("session.detail.endpoint", "session.error.not-found")
def test_detail_of_an_unknown_record_is_not_found(env: Env, tenant: TenantUsers) -> None:
    response = env.client.get("/api/dynamic/assets/rec_doesnotexist", headers=tenant.headers())
    assert response.status_code == 404
    assert response.json()["code"] == "NOT_FOUND"


@pytest.mark.rule("session.detail.endpoint")
def test_detail_through_the_wrong_page_is_not_found(env: Env, tenant: TenantUsers) -> None:
    (created,) = insert(env, tenant, assets(1))
    response = env.client.get(f"/api/dynamic/stock-ins/{created['id']}", headers=tenant.headers())
    assert response.status_code == 404


@pytest.mark.parametrize("value", [1_000_000_000_000_000, -3_000_000_000])
def test_a_filter_beyond_a_32_bit_columns_range_matches_nothing(env: Env, tenant: TenantUsers, value: int) -> None:
    # The documents allow integer filter values up to 1e15; `enabled` is a 32-bit column, which
    # PostgreSQL would refuse to compare with a bound int4 parameter that large.
    for operator in ("eq", "gt", "in"):
        condition = {"fieldName": "enabled", "operator": operator, "value": [value] if operator == "in" else value}
        response = env.client.get("/api/open-platform/automations/list", params={"filters": json.dumps([condition])},
                                  headers=tenant.headers())
        assert response.status_code == 200, response.text
        assert response.json()["data"]["records"] == []


@pytest.mark.parametrize("values", [[1, 3_000_000_000], [-38, -106_109_491_772_395]])
def test_an_in_list_mixing_small_and_large_numbers_is_compared_exactly(env: Env, tenant: TenantUsers,
                                                                       values: list[int]) -> None:
    # PostgreSQL typed the list by its first value, and the larger one overflowed (a 500).
    insert(env, tenant, [{"name": "Big", "serialNo": "N-1", "value": 3_000_000_000}], model="asset")
    response = list_page(env, tenant, filters=[{"fieldName": "value", "operator": "in", "value": values}])
    assert response.status_code == 200, response.text
    assert [r["name"] for r in response.json()["data"]["records"]] == (["Big"] if 3_000_000_000 in values else [])


@pytest.mark.parametrize("name", ["sortField", "sortOrder"])
def test_an_empty_sort_parameter_is_refused_not_taken_as_the_default(env: Env, tenant: TenantUsers, name: str) -> None:
    # The documents give both as enums without "": absent means the default, empty is not a value.
    assert name in field_errors(list_page(env, tenant, **{name: ""}))
