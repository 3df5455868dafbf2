"""The events API: an installation's own events, as its webhooks carry them, oldest first, to catch up
from; scopes, tenants and applications kept apart, cursors sealed, retention kept, nothing skipped."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest

from storage import outbox
from storage import webhooks as store
from storage.openplatform.applications import application_by_pid
from tessera.core.clock import ShiftedClock
from tests.conftest import Env, TenantUsers
from tests.support.openplatform import CREATE_STOCK_IN, Integration, new_key, seed_assets
from tests.support.receivers import receiver
from tests.support.webhooks import ASSIGNED, Hooked, drain, worker_pass

FEED = "/api/open/v1/events"
STOCK_IN_CREATED = "inventory.stock-in.created"


def assign(app: Integration, pid: str, *names: str) -> None:
    """One ``assets.assignment.changed`` event per name, fanned out."""
    for name in names:
        response = app.assign(pid, name, if_match=app.etag(pid), key=new_key())
        assert response.status_code == 200, response.text
    worker_pass(app.env, app.tenant)


def stock_in(app: Integration, sku: str) -> None:
    headers = {**app.auth, "Idempotency-Key": new_key()}
    response = app.env.client.post(CREATE_STOCK_IN, json={"input": {"sku": sku, "quantity": 1}}, headers=headers)
    assert response.status_code == 200, response.text
    worker_pass(app.env, app.tenant)


def page(app: Integration, **params: Any) -> dict[str, Any]:
    response = app.env.client.get(FEED, params=params, headers=app.auth)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def walk(app: Integration, limit: int, **params: Any) -> tuple[list[dict[str, Any]], str]:
    """Every page until ``hasMore`` is false: the events and the cursor to ask again with."""
    seen: list[dict[str, Any]] = []
    while True:
        body = page(app, limit=limit, **params)
        seen += body["items"]
        params = {k: v for k, v in params.items() if k != "after"} | {"cursor": body["nextCursor"]}
        if not body["hasMore"]:
            return seen, body["nextCursor"]


def assignees(events: list[dict[str, Any]]) -> list[str]:
    return [e["data"]["assignee"] for e in events]


def test_an_event_is_served_with_the_body_its_webhook_delivered(env: Env, tenant: TenantUsers) -> None:
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook)
        hooked.change("dana")
        drain(env, tenant, lambda: len(hook.requests) == 1)
    delivered = json.loads(hook.requests[0].body)
    assert page(hooked)["items"] == [delivered]
    assert env.client.get(f"{FEED}/{delivered['id']}", headers=hooked.auth).json() == delivered


def test_events_are_listed_oldest_first_and_each_once_across_pages(env: Env, tenant: TenantUsers) -> None:
    app = Integration(env, tenant)
    pid = seed_assets(tenant, 1)[0]
    assign(app, pid, "a", "b", "c", "d", "e")
    events, _ = walk(app, limit=2)
    assert assignees(events) == ["a", "b", "c", "d", "e"]
    assert len({e["id"] for e in events}) == 5


def test_a_poll_with_nothing_new_gives_no_events_and_a_cursor_that_finds_the_next_ones(
        env: Env, tenant: TenantUsers) -> None:
    app = Integration(env, tenant)
    pid = seed_assets(tenant, 1)[0]
    assign(app, pid, "a")
    _, cursor = walk(app, limit=10)
    quiet = page(app, cursor=cursor)
    assert quiet["items"] == [] and quiet["hasMore"] is False and quiet["nextCursor"]
    assign(app, pid, "b")
    assert assignees(page(app, cursor=quiet["nextCursor"])["items"]) == ["b"]


def test_a_consumer_resumes_after_an_outage_from_the_last_event_it_processed(env: Env, tenant: TenantUsers) -> None:
    app = Integration(env, tenant)
    pid = seed_assets(tenant, 1)[0]
    assign(app, pid, "a", "b", "c")
    processed, _ = walk(app, limit=10)
    assign(app, pid, "d", "e", "f", "g")  # while the consumer is down
    caught_up, _ = walk(app, limit=3, after=processed[-1]["id"])
    assert assignees(caught_up) == ["d", "e", "f", "g"]
    assert not {e["id"] for e in caught_up} & {e["id"] for e in processed}


def test_an_after_event_the_installation_cannot_read_is_event_not_found(env: Env, tenant: TenantUsers) -> None:
    app = Integration(env, tenant)
    response = env.client.get(FEED, params={"after": "evt_3f8k1m6p9r2t5v0x4z7b1d3f6h"}, headers=app.auth)
    assert response.status_code == 404
    assert response.json()["code"] == "event_not_found"


def test_an_event_committed_after_a_later_one_is_not_skipped(env: Env, tenant: TenantUsers) -> None:
    """Ids are taken in one order and committed in another; the feed follows the fan-out's order."""
    app = Integration(env, tenant)
    rt = env.runtime

    async def append_two() -> list[int]:
        async with rt.db.write() as conn:
            for name in ("first", "second"):
                await outbox.append(conn, tenant_id=tenant.tenant_id, event_type=ASSIGNED, request_id=None,
                                    payload={"pid": "rec_x", "assignee": name, "status": "assigned",
                                             "previousAssignee": None}, now=rt.clock.now())
        return [e.id for e in await outbox.for_tenant(rt.db, tenant.tenant_id)]

    async def dispatch(event_id: int) -> None:
        async with rt.db.write() as conn:
            await store.mark_dispatched(conn, [event_id], rt.clock.now())

    first, second = env.run(append_two)
    env.run(dispatch, second)
    body = page(app)
    assert assignees(body["items"]) == ["second"]
    env.run(dispatch, first)
    assert assignees(page(app, cursor=body["nextCursor"])["items"]) == ["first"]


def test_events_of_a_type_the_grant_cannot_read_are_not_listed(env: Env, tenant: TenantUsers) -> None:
    writer = Integration(env, tenant)
    pid = seed_assets(tenant, 1)[0]
    assign(writer, pid, "a")
    stock_in(writer, "SKU-1")
    reader = Integration(env, tenant, scopes=("inventory.stockins.read",))
    assert [e["type"] for e in page(reader)["items"]] == [STOCK_IN_CREATED]
    assigned = page(writer, type=ASSIGNED)["items"][0]["id"]
    assert env.client.get(f"{FEED}/{assigned}", headers=reader.auth).json()["code"] == "event_not_found"


def test_asking_for_a_type_the_grant_cannot_read_is_insufficient_scope(env: Env, tenant: TenantUsers) -> None:
    reader = Integration(env, tenant, scopes=("inventory.stockins.read",))
    response = env.client.get(FEED, params={"type": ASSIGNED}, headers=reader.auth)
    assert response.status_code == 403
    assert response.json()["code"] == "insufficient_scope"


def test_an_unknown_type_is_invalid_request(env: Env, tenant: TenantUsers) -> None:
    app = Integration(env, tenant)
    response = env.client.get(FEED, params={"type": "assets.exploded"}, headers=app.auth)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_request"


def test_the_type_filter_lists_only_those_types(env: Env, tenant: TenantUsers) -> None:
    app = Integration(env, tenant)
    pid = seed_assets(tenant, 1)[0]
    assign(app, pid, "a")
    stock_in(app, "SKU-1")
    assert [e["type"] for e in page(app, type=STOCK_IN_CREATED)["items"]] == [STOCK_IN_CREATED]
    assert [e["type"] for e in page(app, type=[STOCK_IN_CREATED, ASSIGNED])["items"]] == [ASSIGNED, STOCK_IN_CREATED]


def test_since_and_until_bound_the_time_the_events_occurred(env: Env, tenant: TenantUsers,
                                                            clock: ShiftedClock) -> None:
    app = Integration(env, tenant)
    pid = seed_assets(tenant, 1)[0]
    assign(app, pid, "early")
    clock.advance(120)
    middle = clock.now()
    app.refresh()
    assign(app, pid, "late")
    stamp = middle.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert assignees(page(app, since=stamp)["items"]) == ["late"]
    assert assignees(page(app, until=stamp)["items"]) == ["early"]


@pytest.mark.parametrize("value", ["2026-02-30T00:00:00Z", "yesterday", "2026-11-22T08:00:00+01:00"])
def test_a_since_that_is_no_utc_timestamp_is_invalid_request(env: Env, tenant: TenantUsers, value: str) -> None:
    app = Integration(env, tenant)
    response = env.client.get(FEED, params={"since": value}, headers=app.auth)
    assert response.status_code == 400
    assert "since" in response.json()["details"]["fieldErrors"]


def test_another_tenants_events_are_neither_listed_nor_readable(env: Env, tenant: TenantUsers) -> None:
    app = Integration(env, tenant)
    pid = seed_assets(tenant, 1)[0]
    assign(app, pid, "a")
    mine = page(app)["items"][0]["id"]
    other = Integration(env, env.new_tenant())
    assert page(other)["items"] == []
    response = env.client.get(f"{FEED}/{mine}", headers=other.auth)
    assert response.status_code == 404 and response.json()["code"] == "event_not_found"
    assert env.client.get(FEED, params={"after": mine}, headers=other.auth).status_code == 404


def test_an_operational_event_is_seen_only_by_its_own_application(env: Env, tenant: TenantUsers) -> None:
    mine, theirs = Integration(env, tenant), Integration(env, tenant)
    rt = env.runtime
    application_id = env.run(_application_id, rt, mine.cred["appId"])

    async def disabled() -> None:
        async with rt.db.write() as conn:
            await outbox.append(conn, tenant_id=tenant.tenant_id, event_type="webhook.endpoint.disabled",
                                request_id=None, now=rt.clock.now(), application_id=application_id, payload={
                                    "endpointId": "whe_5n2k8q4x0c6v1b7m3z9w5r1t8y",
                                    "installationId": mine.cred["installationId"], "applicationId": mine.cred["appId"],
                                    "url": "https://hooks.example/t", "reason": "410 Gone",
                                    "disabledAt": "2026-11-22T08:00:00.000Z"})

    env.run(disabled)
    worker_pass(env, tenant)
    assert [e["type"] for e in page(mine)["items"]] == ["webhook.endpoint.disabled"]
    assert page(theirs)["items"] == []


async def _application_id(rt: Any, app_pid: str) -> int:
    row = await application_by_pid(rt.db, app_pid)
    assert row is not None
    return int(row.id)


def test_events_past_the_retention_period_are_neither_listed_nor_readable(
        env: Env, tenant: TenantUsers, clock: ShiftedClock) -> None:
    app = Integration(env, tenant)
    pid = seed_assets(tenant, 1)[0]
    assign(app, pid, "old")
    old = page(app)["items"][0]["id"]
    clock.advance(env.runtime.settings.retention_events_seconds + 60)
    app.refresh()
    assign(app, pid, "new")
    assert assignees(page(app)["items"]) == ["new"]
    assert env.client.get(f"{FEED}/{old}", headers=app.auth).json()["code"] == "event_not_found"


def test_a_tampered_cursor_is_invalid_cursor(env: Env, tenant: TenantUsers) -> None:
    app = Integration(env, tenant)
    cursor = page(app)["nextCursor"]
    tampered = cursor[:10] + ("A" if cursor[10] != "A" else "B") + cursor[11:]
    response = env.client.get(FEED, params={"cursor": tampered}, headers=app.auth)
    assert response.status_code == 404 and response.json()["code"] == "invalid_cursor"


def test_another_installations_cursor_is_invalid_cursor(env: Env, tenant: TenantUsers) -> None:
    mine, theirs = Integration(env, tenant), Integration(env, tenant)
    response = env.client.get(FEED, params={"cursor": page(mine)["nextCursor"]}, headers=theirs.auth)
    assert response.status_code == 404 and response.json()["code"] == "invalid_cursor"


@pytest.mark.rule("op.cursor.cross-resource-fails")
def test_a_resource_list_cursor_is_not_an_events_cursor(env: Env, tenant: TenantUsers) -> None:
    app = Integration(env, tenant)
    seed_assets(tenant, 2)
    listed = env.client.get("/api/open/v1/resources/assets", params={"limit": 1}, headers=app.auth).json()
    response = env.client.get(FEED, params={"cursor": listed["nextCursor"]}, headers=app.auth)
    assert response.status_code == 404 and response.json()["code"] == "invalid_cursor"


def test_a_cursor_older_than_a_day_is_invalid_cursor(env: Env, tenant: TenantUsers, clock: ShiftedClock) -> None:
    app = Integration(env, tenant)
    cursor = page(app)["nextCursor"]
    clock.advance(timedelta(days=1, seconds=1).total_seconds())
    app.refresh()
    response = env.client.get(FEED, params={"cursor": cursor}, headers=app.auth)
    assert response.status_code == 404 and response.json()["code"] == "invalid_cursor"


def test_an_unknown_event_id_is_event_not_found(env: Env, tenant: TenantUsers) -> None:
    app = Integration(env, tenant)
    response = env.client.get(f"{FEED}/evt_3f8k1m6p9r2t5v0x4z7b1d3f6h", headers=app.auth)
    assert response.status_code == 404 and response.json()["code"] == "event_not_found"


def test_events_served_are_counted_in_the_metrics(env: Env, tenant: TenantUsers) -> None:
    app = Integration(env, tenant)
    pid = seed_assets(tenant, 1)[0]
    assign(app, pid, "a", "b")
    counter = env.runtime.metrics.events_served.labels("listEvents")
    before = counter._value.get()
    page(app)
    assert counter._value.get() - before == 2


def test_the_console_lists_the_installations_events_newest_first_in_pages(env: Env, tenant: TenantUsers) -> None:
    app = Integration(env, tenant)
    pid = seed_assets(tenant, 1)[0]
    assign(app, pid, "a", "b", "c")
    path = f"/installations/{app.cred['installationId']}/events/list"
    first = tenant.admin_call("GET", path, params={"limit": 2}).json()["data"]
    assert [e["data"]["assignee"] for e in first["records"]] == ["c", "b"]
    older = tenant.admin_call("GET", path, params={"limit": 2, "before": first["nextBefore"]}).json()["data"]
    assert [e["data"]["assignee"] for e in older["records"]] == ["a"] and older["nextBefore"] is None
    assert first["records"][0] == page(app)["items"][-1]  # the body its events API serves


def test_the_console_hides_an_installations_events_from_non_members(env: Env, tenant: TenantUsers) -> None:
    app = Integration(env, tenant)
    path = f"/installations/{app.cred['installationId']}/events/list"
    response = tenant.admin_call("GET", path, role="viewer")
    assert response.status_code == 404
