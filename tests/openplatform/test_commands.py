"""Published commands: If-Match preconditions, Idempotency-Key rules, outbox, one data layer."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from storage import outbox
from storage.records import RecordRepository
from storage.schema.tables import audit_log
from tessera.app import create_app
from tessera.core.clock import ShiftedClock
from tessera.openplatform.commands import execute as op_commands
from tessera.openplatform.commands import idempotency
from tessera.openplatform.tokens import bearer as bearer_tokens
from tests.conftest import Env, TenantUsers
from tests.support.live_server import serve
from tests.support.openplatform import ASSIGN, CREATE_STOCK_IN, Integration, new_key, seed_assets


class Killed(Exception):
    """The process died mid-command (simulated)."""


@pytest.fixture
def app_client(env: Env, tenant: TenantUsers) -> Integration:
    return Integration(env, tenant)


def _events(env: Env, tenant: TenantUsers, event_type: str) -> list[Any]:
    return env.run(outbox.for_tenant, env.runtime.db, tenant.tenant_id, event_type)


def _version(env: Env, tenant: TenantUsers, pid: str) -> int:
    repo = RecordRepository(env.runtime.db, tenant.tenant_id, env.runtime.declarations.models["asset"])
    row = env.run(repo.get, pid)
    assert row is not None
    return int(row.version)


@pytest.mark.rule(
    "op.command-body.target-pid",
    "op.command-body.assign-input",
    "op.command-response.idempotent-replay",
    "op.command.response",
)
def test_assign_changes_the_record_and_returns_its_new_etag(app_client: Integration) -> None:
    pid = seed_assets(app_client.tenant, 1)[0]
    response = app_client.assign(pid, "dana", if_match=app_client.etag(pid), key=new_key())
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["idempotentReplay"] is False
    assert body["commandCode"] == "assets.assign"
    assert body["record"]["assignee"] == "dana" and body["record"]["status"] == "assigned"
    assert response.headers["ETag"] == app_client.etag(pid)


@pytest.mark.parametrize("if_match", [None, '"stale"', "*", "W/{current}", '"other", W/{current}'])
@pytest.mark.rule("op.command.if-match-required", "op.command.precondition-failed", "op.error.precondition-failed")
def test_a_missing_weak_wildcard_or_stale_if_match_is_precondition_failed(
    app_client: Integration, if_match: str | None
) -> None:
    pid = seed_assets(app_client.tenant, 1)[0]
    current = app_client.etag(pid)
    sent = None if if_match is None else if_match.replace("{current}", current)
    response = app_client.assign(pid, "dana", if_match=sent, key=new_key())
    assert response.status_code == 412, response.text
    assert response.json()["code"] == "precondition_failed"
    assert app_client.read(pid).json()["assignee"] is None


@pytest.mark.rule("op.command.precondition-failed")
def test_an_etag_from_before_a_change_is_stale(app_client: Integration) -> None:
    pid = seed_assets(app_client.tenant, 1)[0]
    first = app_client.etag(pid)
    assert app_client.assign(pid, "dana", if_match=first, key=new_key()).status_code == 200
    response = app_client.assign(pid, "eve", if_match=first, key=new_key())
    assert response.status_code == 412
    assert app_client.read(pid).json()["assignee"] == "dana"


def test_one_of_a_list_of_etags_matching_is_enough(app_client: Integration) -> None:
    pid = seed_assets(app_client.tenant, 1)[0]
    response = app_client.assign(pid, "dana", if_match=f'"old", {app_client.etag(pid)}', key=new_key())
    assert response.status_code == 200


@pytest.mark.rule("op.command.idempotency-key-required")
def test_a_command_without_an_idempotency_key_is_invalid_request(app_client: Integration) -> None:
    pid = seed_assets(app_client.tenant, 1)[0]
    response = app_client.assign(pid, "dana", if_match=app_client.etag(pid), key=None)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_request"
    assert app_client.read(pid).json()["assignee"] is None


@pytest.mark.rule("op.command-response.idempotent-replay", "op.command.idempotent-replay")
def test_the_same_key_and_body_replays_the_original_result_without_a_second_effect(
    env: Env, app_client: Integration
) -> None:
    pid = seed_assets(app_client.tenant, 1)[0]
    tag, key = app_client.etag(pid), new_key()
    first = app_client.assign(pid, "dana", if_match=tag, key=key)
    version = _version(env, app_client.tenant, pid)
    again = app_client.assign(pid, "dana", if_match=tag, key=key)
    assert again.status_code == 200
    assert again.json() == {**first.json(), "idempotentReplay": True}
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"]
    assert _version(env, app_client.tenant, pid) == version
    assert len(_events(env, app_client.tenant, "assets.assignment.changed")) == 1


@pytest.mark.rule("op.command.key-conflict")
def test_the_same_key_with_another_body_is_a_conflict(app_client: Integration) -> None:
    pid = seed_assets(app_client.tenant, 1)[0]
    tag, key = app_client.etag(pid), new_key()
    assert app_client.assign(pid, "dana", if_match=tag, key=key).status_code == 200
    response = app_client.assign(pid, "eve", if_match=app_client.etag(pid), key=key)
    assert response.status_code == 409
    assert response.json()["code"] == "idempotency_key_conflict"
    assert app_client.read(pid).json()["assignee"] == "dana"


def test_a_duplicate_while_the_first_is_running_is_in_progress(
    env: Env, app_client: Integration, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over real HTTP: the duplicate's answer must not wait for the first request to finish."""
    pid = seed_assets(app_client.tenant, 1)[0]
    tag, key = app_client.etag(pid), new_key()
    entered, release = threading.Event(), threading.Event()
    real_apply = op_commands._apply

    async def slow_apply(*args: Any, **kwargs: Any) -> Any:
        entered.set()
        assert await asyncio.to_thread(release.wait, 10)
        return await real_apply(*args, **kwargs)

    monkeypatch.setattr(op_commands, "_apply", slow_apply)
    headers = {**app_client.auth, "If-Match": tag, "Idempotency-Key": key}
    body = {"targetPid": pid, "input": {"assignee": "dana"}}
    with serve(create_app(env.runtime.settings, env.runtime)) as base, ThreadPoolExecutor(1) as pool:
        first = pool.submit(httpx.post, base + ASSIGN, json=body, headers=headers, timeout=30)
        assert entered.wait(10)
        duplicate = httpx.post(base + ASSIGN, json=body, headers=headers, timeout=5)
        release.set()
        assert first.result(30).status_code == 200
    assert duplicate.status_code == 409
    assert duplicate.json()["code"] == "idempotency_in_progress"
    assert duplicate.headers["Retry-After"] == "1"


def test_a_claim_left_by_a_dead_process_is_taken_over_after_its_lease(env: Env, app_client: Integration,
                                                                      clock: ShiftedClock) -> None:
    pid = seed_assets(app_client.tenant, 1)[0]
    tag, key = app_client.etag(pid), new_key()
    entered = threading.Event()
    # Simulate a crash mid-command: the claim is committed, the command never completes.
    with pytest.MonkeyPatch.context() as patch:
        async def crash(*_args: Any, **_kwargs: Any) -> Any:
            entered.set()
            raise Killed()

        async def no_cleanup(*_args: Any, **_kwargs: Any) -> None:  # a dead process releases nothing
            return None

        patch.setattr(op_commands, "_apply", crash)
        patch.setattr(op_commands, "_release", no_cleanup)
        with pytest.raises(Killed):
            caller = _caller(env, app_client)
            env.run(op_commands.execute, env.runtime, caller, "assets.assign",
                    {"targetPid": pid, "input": {"assignee": "x"}}, tag, key, None)
    assert app_client.assign(pid, "x", if_match=tag, key=key).json()["code"] == "idempotency_in_progress"
    clock.advance(idempotency.CLAIM_LEASE_SECONDS + 1)
    response = app_client.assign(pid, "x", if_match=tag, key=key)
    assert response.status_code == 200, response.text
    assert response.json()["idempotentReplay"] is False


def _caller(env: Env, integration: Integration) -> Any:
    return env.run(bearer_tokens.validate, env.runtime, integration.auth["Authorization"].split(" ", 1)[1])


@pytest.mark.rule("op.error.precondition-failed")
def test_a_failed_command_releases_its_key(app_client: Integration) -> None:
    pid = seed_assets(app_client.tenant, 1)[0]
    key = new_key()
    assert app_client.assign(pid, "dana", if_match='"stale"', key=key).status_code == 412
    response = app_client.assign(pid, "dana", if_match=app_client.etag(pid), key=key)
    assert response.status_code == 200
    assert response.json()["idempotentReplay"] is False


@pytest.mark.rule("op.command.idempotent-replay")
def test_keys_are_scoped_to_the_installation(env: Env, tenant: TenantUsers) -> None:
    one, two = Integration(env, tenant), Integration(env, tenant)
    first, second = seed_assets(tenant, 2)
    key = new_key()
    assert one.assign(first, "dana", if_match=one.etag(first), key=key).status_code == 200
    response = two.assign(second, "eve", if_match=two.etag(second), key=key)
    assert response.status_code == 200
    assert response.json()["idempotentReplay"] is False


@pytest.mark.rule("op.command.idempotent-replay")
def test_a_key_older_than_24_hours_is_forgotten(app_client: Integration, clock: ShiftedClock) -> None:
    pid = seed_assets(app_client.tenant, 1)[0]
    key = new_key()
    assert app_client.assign(pid, "dana", if_match=app_client.etag(pid), key=key).status_code == 200
    clock.advance(24 * 3600 - 5)
    app_client.refresh()
    assert app_client.assign(pid, "dana", if_match=app_client.etag(pid), key=key).json()["idempotentReplay"] is True
    clock.advance(6)
    response = app_client.assign(pid, "dana", if_match=app_client.etag(pid), key=key)
    assert response.status_code == 200
    assert response.json()["idempotentReplay"] is False


@pytest.mark.rule("op.command.no-last-write-wins")
def test_two_concurrent_writers_with_the_same_etag_exactly_one_wins(
    env: Env, app_client: Integration, monkeypatch: pytest.MonkeyPatch
) -> None:
    pid = seed_assets(app_client.tenant, 1)[0]
    tag = app_client.etag(pid)
    real_update, real_claim = RecordRepository.update, idempotency.claim
    claims, second_claimed = [], threading.Event()

    async def counted_claim(*args: Any, **kwargs: Any) -> Any:
        claims.append(1)
        if len(claims) == 2:
            second_claimed.set()
        return await real_claim(*args, **kwargs)

    async def held_update(self: RecordRepository, current: Any, changes: dict[str, Any], **kwargs: Any) -> Any:
        # The first writer holds the record until the second is claiming its key on its way to the
        # same record: both requests are in flight with the same ETag. (Waited for on a thread: the
        # event loop serves the second request meanwhile.)
        assert await asyncio.to_thread(second_claimed.wait, 10)
        return await real_update(self, current, changes, **kwargs)

    monkeypatch.setattr(idempotency, "claim", counted_claim)
    monkeypatch.setattr(RecordRepository, "update", held_update)
    with ThreadPoolExecutor(2) as pool:
        futures = [pool.submit(app_client.assign, pid, name, if_match=tag, key=new_key()) for name in ("dana", "eve")]
        statuses = sorted(f.result(30).status_code for f in futures)
    assert statuses == [200, 412]
    assert _version(env, app_client.tenant, pid) == 2


@pytest.mark.rule("webhook.delivery.at-least-once")
def test_the_change_its_audit_entry_and_its_outbox_event_commit_together(env: Env, app_client: Integration) -> None:
    pid = seed_assets(app_client.tenant, 1)[0]
    assert app_client.assign(pid, "dana", if_match=app_client.etag(pid), key=new_key()).status_code == 200
    events = _events(env, app_client.tenant, "assets.assignment.changed")
    assert [e.payload for e in events] == [
        {"pid": pid, "assignee": "dana", "status": "assigned", "previousAssignee": None}]
    assert events[0].event_id.startswith("evt_")
    with env.sql.connect() as conn:
        audited = conn.execute(select(func.count()).select_from(audit_log).where(
            audit_log.c.action == "open.command.assets.assign", audit_log.c.target_id == pid)).scalar_one()
    assert audited == 1


@pytest.mark.allows_5xx
def test_a_change_that_fails_to_commit_leaves_no_event_and_no_change(
    env: Env, app_client: Integration, monkeypatch: pytest.MonkeyPatch
) -> None:
    pid = seed_assets(app_client.tenant, 1)[0]

    def broken(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(op_commands.idempotency_store, "complete", broken)  # fails after the change and the event
    response = app_client.assign(pid, "dana", if_match=app_client.etag(pid), key=new_key())
    assert response.status_code == 500
    assert response.json()["code"] == "internal_error"
    assert app_client.read(pid).json()["assignee"] is None
    assert _events(env, app_client.tenant, "assets.assignment.changed") == []


@pytest.mark.rule("op.command-body.assign-input", "op.error.invalid-request")
def test_input_that_breaks_the_command_schema_is_invalid_request(app_client: Integration) -> None:
    pid = seed_assets(app_client.tenant, 1)[0]
    response = app_client.env.client.post(
        ASSIGN, json={"targetPid": pid, "input": {"assignee": "", "extra": 1}},
        headers={**app_client.auth, "If-Match": app_client.etag(pid), "Idempotency-Key": new_key()},
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_request"
    assert set(body["details"]["fieldErrors"]) >= {"input.assignee", "input.extra"}


@pytest.mark.rule("op.command-body.target-pid")
def test_an_unknown_or_foreign_target_is_resource_not_found(env: Env, app_client: Integration) -> None:
    foreign = seed_assets(env.new_tenant(), 1)[0]
    for pid in (foreign, "rec_" + "0" * 26):
        response = app_client.assign(pid, "dana", if_match='"x"', key=new_key())
        assert response.status_code == 404
        assert response.json()["code"] == "resource_not_found"


@pytest.mark.rule("op.error.insufficient-scope")
def test_a_token_without_the_command_scope_is_insufficient_scope(env: Env, tenant: TenantUsers) -> None:
    reader = Integration(env, tenant, scopes=("assets.read",))
    pid = seed_assets(tenant, 1)[0]
    response = reader.assign(pid, "dana", if_match=reader.etag(pid), key=new_key())
    assert response.status_code == 403
    assert response.json()["details"]["requiredScope"] == "assets.manage"


def test_create_stock_in_needs_no_target_and_emits_its_event(env: Env, app_client: Integration) -> None:
    response = env.client.post(CREATE_STOCK_IN, json={"input": {"sku": "SKU-1", "quantity": 4, "warehouse": "W1"}},
                               headers={**app_client.auth, "Idempotency-Key": new_key()})
    assert response.status_code == 200, response.text
    record = response.json()["record"]
    assert record["source"] == "open-platform" and record["quantity"] == 4
    read = env.client.get(f"/api/open/v1/resources/inventory.stock-ins/{record['pid']}", headers=app_client.auth)
    assert read.headers["ETag"] == response.headers["ETag"]
    [event] = _events(env, app_client.tenant, "inventory.stock-in.created")
    assert event.payload["pid"] == record["pid"] and event.payload["source"] == "open-platform"


def test_an_assignment_through_the_open_platform_shows_in_the_session_list(app_client: Integration) -> None:
    tenant = app_client.tenant
    pid = seed_assets(tenant, 1)[0]
    assert app_client.assign(pid, "dana", if_match=app_client.etag(pid), key=new_key()).status_code == 200
    listed = app_client.env.client.get("/api/dynamic/assets/list", headers=tenant.headers()).json()["data"]
    assert [r["assignee"] for r in listed["records"] if r["id"] == pid] == ["dana"]


@pytest.mark.rule("webhook.delivery.on-event")
def test_a_session_update_shows_on_the_open_platform_and_emits_the_same_event(
    env: Env, app_client: Integration
) -> None:
    tenant = app_client.tenant
    pid = seed_assets(tenant, 1)[0]
    before = app_client.etag(pid)
    response = env.client.post("/api/meta/commands/execute/assets:update", headers=tenant.headers(), json={
        "operationType": "UPDATE", "targetRecordId": pid, "payload": {"assignee": "frank"}})
    assert response.status_code == 200
    read = app_client.read(pid)
    assert read.json()["assignee"] == "frank"
    assert read.headers["ETag"] != before
    [event] = _events(env, tenant, "assets.assignment.changed")
    assert event.payload == {"pid": pid, "assignee": "frank", "status": "in_stock", "previousAssignee": None}


def test_a_session_update_of_other_fields_emits_no_assignment_event(env: Env, tenant: TenantUsers) -> None:
    pid = seed_assets(tenant, 1)[0]
    env.client.post("/api/meta/commands/execute/assets:update", headers=tenant.headers(), json={
        "operationType": "UPDATE", "targetRecordId": pid, "payload": {"value": 12}})
    assert _events(env, tenant, "assets.assignment.changed") == []
