"""Tenant automations: external-event triggers, mapped actions, runs retried then parked, never lost."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from sqlalchemy import select

from storage.schema.tables import tenants
from tests.conftest import Env, TenantUsers, bearer, issue_token
from tests.support.openplatform import EVENTS
from tests.support.receivers import receiver
from tests.support.webhooks import drain, worker_pass

ROBOT_SCOPES = ["events.robot-fleet.publish", "inventory.stockins.read"]


def _event(sku: str) -> dict[str, Any]:
    return {"type": "inventory.received", "schemaVersion": 1, "occurredAt": "2026-11-22T08:00:00Z",
            "data": {"sku": sku, "quantity": 5, "warehouse": "W9"}}


def _install(env: Env, call: Any, tenant_code: str) -> tuple[dict[str, str], str]:
    app = call("POST", "/applications", json={"name": "Robot fleet"}).json()["data"]
    inst = call("POST", f"/applications/{app['appId']}/installations",
                json={"tenantId": tenant_code, "environment": "production", "scopes": ROBOT_SCOPES}).json()["data"]
    cred = call("POST", f"/installations/{inst['installationId']}/credentials").json()["data"]
    token = issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"]
    return bearer(token), inst["installationId"]


def _stock_ins(env: Env, auth: dict[str, str], sku: str) -> list[dict[str, Any]]:
    found, params = [], {"limit": 200}
    while True:
        page = env.client.get("/api/open/v1/resources/inventory.stock-ins", params=params, headers=auth).json()
        found += [r for r in page["items"] if r["sku"] == sku]
        if not page["nextCursor"]:
            return found
        params = {"limit": 200, "cursor": page["nextCursor"]}


def _demo_tenant_id(env: Env) -> int:
    with env.sql.connect() as conn:
        return int(conn.execute(select(tenants.c.id).where(tenants.c.code == "demo")).scalar_one())


@pytest.mark.rule("op.events.inject-into-automations", "op.event.no-inline-automation", "op.event.automation-consumes")
def test_the_demo_automation_turns_a_robot_event_into_a_stock_in_and_a_webhook(
    env: Env, demo_admin: dict[str, str]
) -> None:
    def call(method: str, path: str, **kwargs: Any) -> Any:
        return env.client.request(method, f"/api/open-platform{path}", headers=demo_admin, **kwargs)

    auth, installation = _install(env, call, "demo")
    sku = f"ROBOT-{time.time_ns()}"
    with receiver(200) as hook:
        created = call("POST", f"/installations/{installation}/webhook-endpoints",
                       json={"url": hook.url, "eventTypes": ["inventory.stock-in.created"]})
        assert created.status_code == 200, created.text
        posted = env.client.post(EVENTS, json=_event(sku), headers={**auth, "Idempotency-Key": sku})
        assert posted.status_code == 202, posted.text
        assert _stock_ins(env, auth, sku) == []  # nothing runs inside the request
        drain(env, _demo_tenant_id(env), lambda: any(json.loads(r.body)["data"]["sku"] == sku for r in hook.requests))
    [record] = _stock_ins(env, auth, sku)
    assert record["source"] == "robot-fleet" and record["quantity"] == 5 and record["warehouse"] == "W9"
    assert record["receivedAt"] == "2026-11-22T08:00:00.000Z" or record["receivedAt"].startswith("2026-11-22T08:00")
    [delivered] = [json.loads(r.body) for r in hook.requests if json.loads(r.body)["data"]["sku"] == sku]
    assert delivered["type"] == "inventory.stock-in.created"
    assert delivered["data"]["pid"] == record["pid"] and delivered["data"]["source"] == "robot-fleet"
    automations = call("GET", "/automations/list", params={"keyword": "Robot fleet"}).json()["data"]["records"]
    demo = next(a for a in automations if a["name"] == "Robot fleet receipts become stock-ins")
    runs = call("GET", f"/automations/{demo['automationId']}/runs/list",
                params={"filters": json.dumps([{"fieldName": "status", "operator": "eq", "value": "succeeded"}])})
    assert any(run["eventId"] == posted.json()["eventId"] for run in runs.json()["data"]["records"])


@pytest.mark.rule("op.event.automation-consumes")
def test_a_failing_run_is_retried_then_parked_and_can_be_retried(env: Env, tenant: TenantUsers) -> None:
    auth, _ = _install(env, tenant.admin_call, tenant.code)
    created = tenant.admin_call("POST", "/automations", json={
        "name": "Broken mapping",
        "trigger": {"source": "robot-fleet", "eventType": "inventory.received"},
        "actions": [{"kind": "sessionCommand", "command": "stock-ins:create",
                     "payload": {"sku": "$.data.missing", "quantity": "$.data.quantity"}}],
    })
    assert created.status_code == 200, created.text
    automation = created.json()["data"]["automationId"]
    sku = f"BROKEN-{time.time_ns()}"
    assert env.client.post(EVENTS, json=_event(sku), headers={**auth, "Idempotency-Key": sku}).status_code == 202

    def runs() -> list[dict[str, Any]]:
        return list(tenant.admin_call("GET", f"/automations/{automation}/runs/list").json()["data"]["records"])

    drain(env, tenant, lambda: bool(runs()) and runs()[0]["status"] == "parked")
    [run] = runs()
    assert run["attempts"] == 2  # the first try and one retry (schedule "0")
    assert "sku" in run["error"]
    retried = tenant.admin_call("POST", f"/automation-runs/{run['runId']}/retry")
    assert retried.status_code == 200 and retried.json()["data"]["status"] == "pending"


def test_a_worker_of_one_tenant_leaves_another_tenants_inbound_events_alone(env: Env, tenant: TenantUsers) -> None:
    other = env.new_tenant()
    auth, _ = _install(env, other.admin_call, other.code)
    created = other.admin_call("POST", "/automations", json={
        "name": "Receipts", "trigger": {"source": "robot-fleet", "eventType": "inventory.received"},
        "actions": [{"kind": "sessionCommand", "command": "stock-ins:create",
                     "payload": {"sku": "$.data.sku", "quantity": "$.data.quantity"}}]})
    assert created.status_code == 200, created.text
    runs = f"/automations/{created.json()['data']['automationId']}/runs/list"
    sku = f"SCOPED-{time.time_ns()}"
    assert env.client.post(EVENTS, json=_event(sku), headers={**auth, "Idempotency-Key": sku}).status_code == 202
    worker_pass(env, tenant)
    assert other.admin_call("GET", runs).json()["data"]["records"] == []
    worker_pass(env, other)
    assert len(other.admin_call("GET", runs).json()["data"]["records"]) == 1


@pytest.mark.rule("op.event.automation-consumes")
def test_an_automation_only_accepts_published_triggers_and_known_commands(tenant: TenantUsers) -> None:
    response = tenant.admin_call("POST", "/automations", json={
        "name": "Bad", "trigger": {"source": "erp", "eventType": "x"},
        "actions": [{"kind": "command", "command": "assets.delete", "input": {}}],
    })
    assert response.status_code == 400
    errors = response.json()["data"]["fieldErrors"]
    assert "trigger.source" in errors and "actions[0].command" in errors


def test_a_viewer_cannot_manage_automations(tenant: TenantUsers) -> None:
    response = tenant.admin_call("POST", "/automations", role="viewer", json={
        "name": "x", "trigger": {"source": "robot-fleet", "eventType": "inventory.received"},
        "actions": [{"kind": "sessionCommand", "command": "stock-ins:create", "payload": {"sku": "$.data.sku"}}]})
    assert response.status_code == 403
    assert response.json()["data"]["permission"] == "automations:manage"


def test_an_automation_is_read_by_id_with_the_view_permission_only(env: Env, tenant: TenantUsers) -> None:
    created = tenant.admin_call("POST", "/automations", json={
        "name": "Receipts", "trigger": {"source": "robot-fleet", "eventType": "inventory.received"},
        "actions": [{"kind": "sessionCommand", "command": "stock-ins:create", "payload": {"sku": "$.data.sku"}}],
    }).json()["data"]
    response = tenant.admin_call("GET", f"/automations/{created['automationId']}")
    assert response.status_code == 200, response.text
    assert response.json()["data"] == created
    refused = tenant.admin_call("GET", f"/automations/{created['automationId']}", role="viewer")
    assert refused.status_code == 403
    assert refused.json()["data"]["permission"] == "automations:view"
    assert env.new_tenant().admin_call("GET", f"/automations/{created['automationId']}").status_code == 404
