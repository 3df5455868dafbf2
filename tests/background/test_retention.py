"""Retention: what would grow forever is purged in bounded batches once past its period, and what
is still in use is kept. Time is moved on the app's clock, never waited for, and rows are made the
way the service makes them."""

from __future__ import annotations

import dataclasses
import logging
import time
from typing import Any

import pytest
from sqlalchemy import Table, select

from storage import idempotency as session_keys
from storage.schema.tables import (
    access_tokens,
    automation_runs,
    credentials,
    deliveries,
    delivery_attempts,
    idempotency_keys,
    inbound_events,
    open_api_calls,
    open_idempotency_keys,
    outbox_events,
    webhook_endpoints,
)
from tessera.background import retention
from tessera.background.worker import Worker
from tessera.core.clock import ShiftedClock
from tessera.core.settings import load_settings
from tessera.runtime import Runtime
from tests.conftest import Env, TenantUsers, bearer, issue_token
from tests.support.openplatform import EVENTS, Integration, new_key, seed_assets
from tests.support.receivers import receiver
from tests.support.webhooks import Hooked, drain, worker_pass

DAY = 86400.0
CREATE = "/api/meta/commands/execute/assets:create"
ROBOT_SCOPES = ["events.robot-fleet.publish", "inventory.stockins.read"]


def purge(env: Env, runtime: Runtime | None = None, **kwargs: Any) -> retention.Purged:
    rt = runtime or env.runtime
    return env.run(retention.purge, rt, rt.clock.now(), **kwargs)


def ids(env: Env, table: Table, *where: Any) -> list[int]:
    with env.sql.connect() as conn:
        return [int(i) for i in conn.execute(select(table.c.id).where(*where).order_by(table.c.id)).scalars()]


# -- idempotency keys ------------------------------------------------------------------------------

def _session_key(env: Env, tenant: TenantUsers, key: str) -> list[int]:
    response = env.client.post(CREATE, json={"payload": {"name": "A", "serialNo": key}},
                               headers={**tenant.headers(), "X-Idempotent-Key": key})
    assert response.json()["code"] == "0", response.text
    return ids(env, idempotency_keys, idempotency_keys.c.tenant_id == tenant.tenant_id,
               idempotency_keys.c.key == key)


def _open_key(env: Env, tenant: TenantUsers) -> list[int]:
    integration = Integration(env, tenant)
    pid = seed_assets(tenant, 1)[0]
    key = new_key()
    response = integration.assign(pid, "dana", if_match=integration.etag(pid), key=key)
    assert response.status_code == 200, response.text
    return ids(env, open_idempotency_keys, open_idempotency_keys.c.key == key)


@pytest.mark.rule("session.idempotency.window-24h")
def test_a_session_idempotency_key_past_its_window_is_purged(env: Env, tenant: TenantUsers,
                                                             clock: ShiftedClock) -> None:
    row = _session_key(env, tenant, f"r-{time.time_ns()}")
    assert row
    clock.advance(env.runtime.settings.idempotency_ttl_seconds + 1)
    assert purge(env).counts["idempotency_keys"] >= 1
    assert ids(env, idempotency_keys, idempotency_keys.c.id.in_(row)) == []


def test_an_open_platform_idempotency_key_past_its_window_is_purged(env: Env, tenant: TenantUsers,
                                                                   clock: ShiftedClock) -> None:
    row = _open_key(env, tenant)
    assert row
    clock.advance(env.runtime.settings.idempotency_ttl_seconds + 1)
    assert purge(env).counts["open_idempotency_keys"] >= 1
    assert ids(env, open_idempotency_keys, open_idempotency_keys.c.id.in_(row)) == []


def test_a_key_inside_its_window_is_kept(env: Env, tenant: TenantUsers, clock: ShiftedClock) -> None:
    session_row = _session_key(env, tenant, f"k-{time.time_ns()}")
    open_row = _open_key(env, tenant)
    clock.advance(env.runtime.settings.idempotency_ttl_seconds - 60)
    purge(env)
    assert ids(env, idempotency_keys, idempotency_keys.c.id.in_(session_row)) == session_row
    assert ids(env, open_idempotency_keys, open_idempotency_keys.c.id.in_(open_row)) == open_row


# -- tokens ----------------------------------------------------------------------------------------

def _tokens_of(env: Env, client_id: str) -> list[int]:
    of_credential = select(credentials.c.id).where(credentials.c.client_id == client_id)
    return ids(env, access_tokens, access_tokens.c.credential_id.in_(of_credential))


def test_an_expired_token_is_kept_for_the_period_after_its_expiry_then_purged(
    env: Env, tenant: TenantUsers, clock: ShiftedClock
) -> None:
    integration = Integration(env, tenant)
    tokens = _tokens_of(env, integration.cred["clientId"])
    assert len(tokens) == 1
    settings = env.runtime.settings
    clock.advance(settings.token_ttl_seconds + settings.retention_tokens_seconds - 60)
    purge(env)
    assert _tokens_of(env, integration.cred["clientId"]) == tokens  # expired, but not for a day yet
    clock.advance(120)
    assert purge(env).counts["access_tokens"] >= 1
    assert _tokens_of(env, integration.cred["clientId"]) == []


def test_the_tokens_of_a_revoked_credential_go_a_period_after_the_revocation(
    env: Env, tenant: TenantUsers, clock: ShiftedClock
) -> None:
    integration = Integration(env, tenant)
    client_id = integration.cred["clientId"]
    revoked = tenant.admin_call("POST", f"/credentials/{client_id}/revoke")
    assert revoked.status_code == 200, revoked.text
    clock.advance(env.runtime.settings.retention_tokens_seconds + 60)  # the token has not expired a day yet
    purge(env)
    assert _tokens_of(env, client_id) == []


def test_a_live_token_is_kept(env: Env, tenant: TenantUsers, clock: ShiftedClock) -> None:
    integration = Integration(env, tenant)
    clock.advance(env.runtime.settings.token_ttl_seconds - 60)
    purge(env)
    assert env.client.get("/api/open/v1/whoami", headers=integration.auth).status_code == 200


# -- call audit ------------------------------------------------------------------------------------

def test_a_call_audit_row_older_than_the_period_is_purged(env: Env, tenant: TenantUsers,
                                                          clock: ShiftedClock) -> None:
    integration = Integration(env, tenant)
    request_id = env.client.get("/api/open/v1/whoami", headers=integration.auth).headers["X-Request-Id"]
    env.run(env.runtime.call_audit.flush)
    row = ids(env, open_api_calls, open_api_calls.c.request_id == request_id)
    assert len(row) == 1
    clock.advance(env.runtime.settings.retention_call_audit_seconds - 60)
    purge(env)
    assert ids(env, open_api_calls, open_api_calls.c.id.in_(row)) == row
    clock.advance(120)
    assert purge(env).counts["open_api_calls"] >= 1
    assert ids(env, open_api_calls, open_api_calls.c.id.in_(row)) == []


# -- deliveries and outbox events ------------------------------------------------------------------

def _delivery_rows(env: Env, hooked: Hooked) -> tuple[list[int], list[int], list[int]]:
    """The endpoint's deliveries, their attempts and their outbox events."""
    endpoint = select(webhook_endpoints.c.id).where(webhook_endpoints.c.pid == hooked.endpoint["endpointId"])
    made = ids(env, deliveries, deliveries.c.endpoint_id.in_(endpoint))
    of_made = select(deliveries.c.event_id).where(deliveries.c.id.in_(made))
    return (made, ids(env, delivery_attempts, delivery_attempts.c.delivery_id.in_(made)),
            ids(env, outbox_events, outbox_events.c.id.in_(of_made)))


def _delivered_once(env: Env, tenant: TenantUsers, status: int) -> tuple[list[int], list[int], list[int]]:
    with receiver(status) as hook:
        hooked = Hooked(env, tenant, hook)
        hooked.change("dana")
        worker_pass(env, tenant)
    made, attempts, events = _delivery_rows(env, hooked)
    assert len(made) == len(attempts) == len(events) == 1
    return made, attempts, events


def test_a_delivery_attempt_older_than_the_period_is_purged(env: Env, tenant: TenantUsers,
                                                            clock: ShiftedClock) -> None:
    _, attempts, _ = _delivered_once(env, tenant, 200)
    clock.advance(env.runtime.settings.retention_delivery_attempts_seconds - 60)
    purge(env)
    assert ids(env, delivery_attempts, delivery_attempts.c.id.in_(attempts)) == attempts
    clock.advance(120)
    assert purge(env).counts["delivery_attempts"] >= 1
    assert ids(env, delivery_attempts, delivery_attempts.c.id.in_(attempts)) == []


@pytest.mark.parametrize("answer", [200, 410], ids=["delivered", "dead"])
def test_a_finished_delivery_and_its_event_are_purged_after_the_events_period(
    env: Env, tenant: TenantUsers, clock: ShiftedClock, answer: int
) -> None:
    made, _, events = _delivered_once(env, tenant, answer)
    clock.advance(env.runtime.settings.retention_events_seconds + 60)
    purged = purge(env)
    assert purged.counts["deliveries"] >= 1 and purged.counts["outbox_events"] >= 1
    assert ids(env, deliveries, deliveries.c.id.in_(made)) == []
    assert ids(env, outbox_events, outbox_events.c.id.in_(events)) == []


def test_a_delivery_still_retrying_keeps_itself_and_its_event(env: Env, tenant: TenantUsers,
                                                              clock: ShiftedClock) -> None:
    made, attempts, events = _delivered_once(env, tenant, 500)  # retried (the tests' schedule is "0,0")
    clock.advance(env.runtime.settings.retention_events_seconds + 60)
    purge(env)
    assert ids(env, delivery_attempts, delivery_attempts.c.id.in_(attempts)) == []  # its attempt is old
    assert ids(env, deliveries, deliveries.c.id.in_(made)) == made
    assert ids(env, outbox_events, outbox_events.c.id.in_(events)) == events


def test_a_delivery_waits_for_its_attempts_when_they_are_kept_longer(env: Env, tenant: TenantUsers,
                                                                     clock: ShiftedClock) -> None:
    made, attempts, events = _delivered_once(env, tenant, 200)
    settings = env.runtime.settings
    longer = dataclasses.replace(env.runtime, settings=dataclasses.replace(
        settings, retention_delivery_attempts_seconds=2 * settings.retention_events_seconds))
    clock.advance(settings.retention_events_seconds + 60)
    purge(env, longer)  # no foreign key error: nothing that is referenced goes
    assert ids(env, delivery_attempts, delivery_attempts.c.id.in_(attempts)) == attempts
    assert ids(env, deliveries, deliveries.c.id.in_(made)) == made
    clock.advance(settings.retention_events_seconds)
    purge(env, longer)
    assert ids(env, deliveries, deliveries.c.id.in_(made)) == []
    assert ids(env, outbox_events, outbox_events.c.id.in_(events)) == []


# -- inbound events and automation runs ------------------------------------------------------------

def _robot(env: Env, tenant: TenantUsers, actions: list[dict[str, Any]]) -> tuple[dict[str, str], str]:
    """A robot-fleet installation in the tenant and an automation of its events; the token and the
    automation's id."""
    app = tenant.admin_call("POST", "/applications", json={"name": "Robot fleet"}).json()["data"]
    inst = tenant.admin_call("POST", f"/applications/{app['appId']}/installations", json={
        "tenantId": tenant.code, "environment": "production", "scopes": ROBOT_SCOPES}).json()["data"]
    cred = tenant.admin_call("POST", f"/installations/{inst['installationId']}/credentials").json()["data"]
    token = issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"]
    created = tenant.admin_call("POST", "/automations", json={
        "name": "Receipts", "trigger": {"source": "robot-fleet", "eventType": "inventory.received"},
        "actions": actions})
    assert created.status_code == 200, created.text
    return bearer(token), created.json()["data"]["automationId"]


def _run_to(env: Env, tenant: TenantUsers, actions: list[dict[str, Any]], status: str) -> tuple[list[int], list[int]]:
    """One inbound event whose run ended ``status``: the event's and the run's ids."""
    auth, automation = _robot(env, tenant, actions)
    sku = f"RET-{time.time_ns()}"
    event = {"type": "inventory.received", "schemaVersion": 1, "occurredAt": "2026-11-22T08:00:00Z",
             "data": {"sku": sku, "quantity": 5, "warehouse": "W9"}}
    posted = env.client.post(EVENTS, json=event, headers={**auth, "Idempotency-Key": sku})
    assert posted.status_code == 202, posted.text

    def runs() -> list[dict[str, Any]]:
        return list(tenant.admin_call("GET", f"/automations/{automation}/runs/list").json()["data"]["records"])

    drain(env, tenant, lambda: bool(runs()) and runs()[0]["status"] == status)
    event_ids = ids(env, inbound_events, inbound_events.c.pid == posted.json()["eventId"])
    return event_ids, ids(env, automation_runs, automation_runs.c.inbound_event_id.in_(event_ids))


STOCK_IN = [{"kind": "sessionCommand", "command": "stock-ins:create",
             "payload": {"sku": "$.data.sku", "quantity": "$.data.quantity", "warehouse": "$.data.warehouse",
                         "receivedAt": "$.occurredAt", "source": "robot-fleet"}}]
BROKEN = [{"kind": "sessionCommand", "command": "stock-ins:create",
           "payload": {"sku": "$.data.missing", "quantity": "$.data.quantity"}}]


def test_an_inbound_event_and_its_succeeded_run_are_purged_after_the_events_period(
    env: Env, tenant: TenantUsers, clock: ShiftedClock
) -> None:
    events, runs = _run_to(env, tenant, STOCK_IN, "succeeded")
    assert len(events) == len(runs) == 1
    clock.advance(env.runtime.settings.retention_events_seconds - 60)
    purge(env)
    assert ids(env, automation_runs, automation_runs.c.id.in_(runs)) == runs
    clock.advance(120)
    purged = purge(env)
    assert purged.counts["automation_runs"] >= 1 and purged.counts["inbound_events"] >= 1
    assert ids(env, automation_runs, automation_runs.c.id.in_(runs)) == []
    assert ids(env, inbound_events, inbound_events.c.id.in_(events)) == []


def test_a_parked_run_and_its_event_are_kept(env: Env, tenant: TenantUsers, clock: ShiftedClock) -> None:
    events, runs = _run_to(env, tenant, BROKEN, "parked")
    clock.advance(env.runtime.settings.retention_events_seconds * 3)
    purge(env)
    assert ids(env, automation_runs, automation_runs.c.id.in_(runs)) == runs
    assert ids(env, inbound_events, inbound_events.c.id.in_(events)) == events


# -- batches, the schedule, the settings -----------------------------------------------------------

def test_a_purge_deletes_at_most_one_batch_per_statement_and_finishes_over_several_passes(
    env: Env, tenant: TenantUsers, clock: ShiftedClock
) -> None:
    rt = env.runtime
    prefix = f"batch-{time.time_ns()}"

    async def claim_many() -> None:
        for i in range(25):
            await session_keys.record(rt.db, tenant.tenant_id, 1, f"{prefix}-{i}", "h", 200, None, now=rt.clock.now())

    env.run(claim_many)
    mine = ids(env, idempotency_keys, idempotency_keys.c.key.like(f"{prefix}-%"))
    assert len(mine) == 25
    clock.advance(rt.settings.idempotency_ttl_seconds + 1)
    passes = []
    for _ in range(100):
        purged = purge(env, batch_size=10, max_batches=1)
        passes.append(purged.counts["idempotency_keys"])
        if "idempotency_keys" not in purged.unfinished:
            break
    assert max(passes) == 10 and len(passes) >= 3  # 25 keys (and any older ones), 10 at a time
    assert ids(env, idempotency_keys, idempotency_keys.c.id.in_(mine)) == []


def test_the_worker_runs_the_purge_at_most_once_per_interval(env: Env, clock: ShiftedClock,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []

    async def counted(_rt: Runtime, now: Any) -> retention.Purged:
        calls.append(now)
        return retention.Purged()

    monkeypatch.setattr(retention, "purge", counted)
    interval = env.runtime.settings.retention_interval_seconds
    worker = Worker(env.runtime)
    try:
        env.run(worker.run_once)
        assert calls == []  # the first purge comes an interval after the worker starts
        clock.advance(interval + 1)
        env.run(worker.run_once)
        env.run(worker.run_once)
        assert len(calls) == 1
        clock.advance(interval - 5)
        env.run(worker.run_once)
        assert len(calls) == 1
        clock.advance(10)
        env.run(worker.run_once)
        assert len(calls) == 2
    finally:
        env.run(worker.sender.close)


def test_a_worker_of_one_tenant_runs_no_purge(env: Env, tenant: TenantUsers, clock: ShiftedClock,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Retention is the whole database's: a drain of one tenant must not delete other tenants' rows."""
    calls: list[Any] = []

    async def counted(_rt: Runtime, now: Any) -> retention.Purged:
        calls.append(now)
        return retention.Purged()

    monkeypatch.setattr(retention, "purge", counted)
    worker = Worker(env.runtime, tenant_id=tenant.tenant_id)
    try:
        clock.advance(env.runtime.settings.retention_interval_seconds + 1)
        env.run(worker.run_once)
        assert calls == []
    finally:
        env.run(worker.sender.close)


def test_a_purge_that_left_rows_runs_again_on_the_next_pass(env: Env, clock: ShiftedClock,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []

    async def bounded(_rt: Runtime, now: Any) -> retention.Purged:
        calls.append(now)
        left = ["outbox_events"] if len(calls) == 1 else []
        return retention.Purged(counts={"outbox_events": 10}, unfinished=left)

    monkeypatch.setattr(retention, "purge", bounded)
    worker = Worker(env.runtime)
    try:
        clock.advance(env.runtime.settings.retention_interval_seconds + 1)
        assert env.run(worker.run_once) >= 10  # deleted rows are work: the worker does not sleep
        env.run(worker.run_once)
        env.run(worker.run_once)
        assert len(calls) == 2  # at once after the unfinished one, then an interval later
    finally:
        env.run(worker.sender.close)


def test_each_purge_is_logged_with_its_counts(env: Env, clock: ShiftedClock, caplog: pytest.LogCaptureFixture) -> None:
    schedule = retention.Schedule(env.runtime)
    clock.advance(env.runtime.settings.retention_interval_seconds)
    with caplog.at_level(logging.INFO, logger="tessera.retention"):
        env.run(schedule.run_if_due)
    [record] = [r for r in caplog.records if r.getMessage() == "retention.purged"]
    counts = record.__dict__["counts"]
    assert set(counts) == {"idempotency_keys", "open_idempotency_keys", "access_tokens", "client_assertion_jtis",
                           "open_api_calls",
                           "delivery_attempts", "deliveries", "outbox_events", "automation_runs", "inbound_events"}
    assert record.__dict__["rows"] == sum(counts.values())


def test_the_retention_defaults_are_the_documented_periods(tmp_path: object) -> None:
    settings = load_settings({"TESSERA_VAR_DIR": str(tmp_path)})
    assert retention.periods(settings) == {"idempotency": DAY, "tokens": DAY, "call_audit": 90 * DAY,
                                           "delivery_attempts": 30 * DAY, "events": 30 * DAY, "assertions": 1.0}
    assert settings.retention_interval_seconds == 300 and settings.retention_batch_size == 1000


def test_a_period_of_zero_keeps_that_kind_forever(env: Env, tenant: TenantUsers, clock: ShiftedClock) -> None:
    integration = Integration(env, tenant)
    request_id = env.client.get("/api/open/v1/whoami", headers=integration.auth).headers["X-Request-Id"]
    env.run(env.runtime.call_audit.flush)
    row = ids(env, open_api_calls, open_api_calls.c.request_id == request_id)
    forever = dataclasses.replace(env.runtime, settings=dataclasses.replace(
        env.runtime.settings, retention_call_audit_seconds=0.0))
    clock.advance(365 * DAY)
    assert purge(env, forever).counts["open_api_calls"] == 0
    assert ids(env, open_api_calls, open_api_calls.c.id.in_(row)) == row
