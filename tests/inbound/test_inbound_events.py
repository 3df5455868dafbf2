"""Inbound events: validated against the registry, deduplicated per installation, stored, answered 202."""

from __future__ import annotations

import time
from typing import Any

import pytest
from sqlalchemy import func, select

from storage.schema.tables import inbound_events
from tests.conftest import Env, TenantUsers, bearer, issue_token
from tests.support.openplatform import EVENTS

GOOD = {"type": "inventory.received", "schemaVersion": 1, "occurredAt": "2026-11-22T08:00:00Z",
        "data": {"sku": "SKU-9", "quantity": 3, "warehouse": "W1"}}


ROBOT = ("events.robot-fleet.publish",)


def robot_token(env: Env, tenant: TenantUsers, scopes: tuple[str, ...] = ROBOT) -> dict[str, str]:
    cred = tenant.install(scopes=scopes)
    return bearer(issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"])


def post(env: Env, auth: dict[str, str], body: Any, key: str | None = "k") -> Any:
    headers = dict(auth)
    if key is not None:
        headers["Idempotency-Key"] = key
    return env.client.post(EVENTS, json=body, headers=headers)


def new_key() -> str:
    return f"evt-{time.time_ns()}"


@pytest.mark.rule("op.event.endpoint-headers")
def test_a_valid_event_is_accepted_with_its_id(env: Env, tenant: TenantUsers) -> None:
    response = post(env, robot_token(env, tenant), GOOD, new_key())
    assert response.status_code == 202, response.text
    body = response.json()
    assert body["eventId"].startswith("evt_") and body["duplicate"] is False


@pytest.mark.rule("op.event.pipeline", "inbound.dedupe-idempotency-key")
def test_the_same_key_and_body_is_a_duplicate_with_the_original_id(env: Env, tenant: TenantUsers) -> None:
    auth, key = robot_token(env, tenant), new_key()
    first = post(env, auth, GOOD, key).json()
    again = post(env, auth, GOOD, key)
    assert again.status_code == 202
    assert again.json() == {"eventId": first["eventId"], "duplicate": True}
    with env.sql.connect() as conn:
        stored = conn.execute(select(func.count()).select_from(inbound_events)
                              .where(inbound_events.c.idempotency_key == key)).scalar_one()
    assert stored == 1


@pytest.mark.rule("inbound.dedupe-idempotency-key")
def test_the_same_key_with_another_body_is_a_conflict(env: Env, tenant: TenantUsers) -> None:
    auth, key = robot_token(env, tenant), new_key()
    post(env, auth, GOOD, key)
    response = post(env, auth, {**GOOD, "data": {**GOOD["data"], "quantity": 4}}, key)
    assert response.status_code == 409
    assert response.json()["code"] == "idempotency_key_conflict"


@pytest.mark.rule("inbound.dedupe-idempotency-key")
def test_keys_are_deduplicated_per_installation(env: Env, tenant: TenantUsers) -> None:
    key = new_key()
    one = post(env, robot_token(env, tenant), GOOD, key).json()
    two = post(env, robot_token(env, tenant), GOOD, key).json()
    assert one["eventId"] != two["eventId"] and two["duplicate"] is False


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"type": "inventory.lost"}, "type"),
        ({"schemaVersion": 2}, "schemaVersion"),
        ({"occurredAt": "yesterday"}, "occurredAt"),
        ({"occurredAt": "2026-11-22T08:00:00+02:00"}, "occurredAt"),
        ({"data": {"sku": "SKU-9", "quantity": 0, "warehouse": "W1"}}, "data.quantity"),
        ({"data": {"sku": "SKU-9", "warehouse": "W1"}}, "data.quantity"),
        ({"data": {"sku": "SKU-9", "quantity": 1, "warehouse": "W1", "robot": "r2"}}, "data.robot"),
    ],
)
@pytest.mark.rule(
    "op.event-body.type",
    "op.event-body.schema-version",
    "op.event-body.occurred-at",
    "op.event-body.data",
    "op.event.pipeline",
    "inbound.type-and-version-identify",
    "op.version.event-schema-version",
)
def test_a_body_that_breaks_the_registry_schema_is_invalid_request(
    env: Env, tenant: TenantUsers, change: dict[str, Any], field: str
) -> None:
    response = post(env, robot_token(env, tenant), {**GOOD, **change}, new_key())
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["code"] == "invalid_request"
    assert field in body["details"]["fieldErrors"], body


@pytest.mark.rule("op.event.endpoint-headers")
def test_an_event_without_an_idempotency_key_is_invalid_request(env: Env, tenant: TenantUsers) -> None:
    response = post(env, robot_token(env, tenant), GOOD, key=None)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_request"


@pytest.mark.rule("op.event.pipeline")
def test_a_token_without_the_source_scope_is_insufficient_scope(env: Env, tenant: TenantUsers) -> None:
    response = post(env, robot_token(env, tenant, scopes=("assets.read",)), GOOD, new_key())
    assert response.status_code == 403
    assert response.json()["details"]["requiredScope"] == "events.robot-fleet.publish"


@pytest.mark.rule("op.capability.unpublished-not-found")
def test_an_unpublished_event_source_does_not_exist(env: Env, tenant: TenantUsers) -> None:
    response = env.client.post("/api/open/v1/event-sources/erp/events", json=GOOD,
                               headers={**robot_token(env, tenant), "Idempotency-Key": new_key()})
    assert response.status_code == 404
    assert response.json()["code"] == "open_api_capability_not_found"
