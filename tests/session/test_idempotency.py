"""Idempotent command execution: X-Idempotent-Key or clientRequestId, 24 hours, safe under races."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from tessera.core.clock import ShiftedClock
from tessera.core.errors import IdempotencyKeyConflict
from tessera.session.commands import execute as commands
from tests.conftest import Env, TenantUsers, actor_for

CREATE = "/api/meta/commands/execute/assets:create"


def _total(env: Env, tenant: TenantUsers) -> int:
    return env.client.get("/api/dynamic/assets/list", headers=tenant.headers()).json()["data"]["total"]


@pytest.mark.rule("session.command.endpoint", "session.error.idempotent-replay")
def test_a_repeated_key_replays_the_original_result_without_a_second_effect(env: Env, tenant: TenantUsers) -> None:
    headers = {**tenant.headers(), "X-Idempotent-Key": "key-1"}
    body = {"payload": {"name": "Laptop", "serialNo": "IDEM-1"}}
    first = env.client.post(CREATE, json=body, headers=headers)
    second = env.client.post(CREATE, json=body, headers=headers)
    assert first.json()["code"] == "0"
    assert second.status_code == 200
    assert second.json()["code"] == "IDEMPOTENT_REPLAY"
    assert second.json()["data"] == first.json()["data"]
    assert _total(env, tenant) == 1


@pytest.mark.rule("session.command-body.client-request-id", "session.error.idempotent-replay")
def test_client_request_id_in_the_body_works_like_the_header(env: Env, tenant: TenantUsers) -> None:
    body = {"payload": {"name": "Laptop", "serialNo": "IDEM-2"}, "clientRequestId": "body-key"}
    first = env.client.post(CREATE, json=body, headers=tenant.headers())
    second = env.client.post(CREATE, json=body, headers=tenant.headers())
    assert second.json()["code"] == "IDEMPOTENT_REPLAY"
    assert second.json()["data"]["id"] == first.json()["data"]["id"]
    assert _total(env, tenant) == 1


def test_the_same_key_with_a_different_request_is_a_conflict(env: Env, tenant: TenantUsers) -> None:
    headers = {**tenant.headers(), "X-Idempotent-Key": "key-3"}
    env.client.post(CREATE, json={"payload": {"name": "A", "serialNo": "IDEM-3"}}, headers=headers)
    response = env.client.post(CREATE, json={"payload": {"name": "B", "serialNo": "IDEM-4"}}, headers=headers)
    assert response.status_code == 409
    assert response.json()["code"] == "IDEMPOTENCY_KEY_CONFLICT"
    assert _total(env, tenant) == 1


def test_a_repeated_key_replays_even_where_running_the_command_again_would_fail(
        env: Env, tenant: TenantUsers) -> None:
    """The command runs before its key is looked at: a failure is answered only if the key is unused."""
    created = env.client.post(CREATE, json={"payload": {"name": "A", "serialNo": "IDEM-6"}},
                              headers=tenant.headers()).json()["data"]
    update = {"operationType": "UPDATE", "targetRecordId": created["id"], "payload": {"name": "B"}}
    headers = {**tenant.headers(), "X-Idempotent-Key": "key-6"}
    first = env.client.post("/api/meta/commands/execute/assets:update", json=update, headers=headers)
    deleted = env.client.post("/api/meta/commands/execute/assets:delete", headers=tenant.headers(),
                              json={"operationType": "DELETE", "targetRecordId": created["id"]})
    assert (first.json()["code"], deleted.json()["code"]) == ("0", "0")
    again = env.client.post("/api/meta/commands/execute/assets:update", json=update, headers=headers)
    assert again.json()["code"] == "IDEMPOTENT_REPLAY"
    assert again.json()["data"] == first.json()["data"]


def test_a_failed_command_does_not_consume_its_key(env: Env, tenant: TenantUsers) -> None:
    headers = {**tenant.headers(), "X-Idempotent-Key": "key-5"}
    bad = env.client.post(CREATE, json={"payload": {"name": "A"}}, headers=headers)
    assert bad.status_code == 400
    good = env.client.post(CREATE, json={"payload": {"name": "A", "serialNo": "IDEM-5"}}, headers=headers)
    assert good.json()["code"] == "0"


def test_keys_are_scoped_to_the_user(env: Env, tenant: TenantUsers) -> None:
    other = env.new_tenant()
    body = {"payload": {"name": "A", "serialNo": "IDEM-6"}}
    first = env.client.post(CREATE, json=body, headers={**tenant.headers(), "X-Idempotent-Key": "shared"})
    second = env.client.post(CREATE, json=body, headers={**other.headers(), "X-Idempotent-Key": "shared"})
    assert first.json()["code"] == second.json()["code"] == "0"
    assert first.json()["data"]["id"] != second.json()["data"]["id"]


@pytest.mark.rule("session.idempotency.window-24h")
def test_a_key_older_than_the_dedupe_window_executes_again(env: Env, tenant: TenantUsers,
                                                           clock: ShiftedClock) -> None:
    body = {"payload": {"name": "A", "serialNo": "IDEM-7"}}
    env.client.post(CREATE, json=body, headers={**tenant.headers(), "X-Idempotent-Key": "key-7"})
    clock.advance(24 * 3600 - 5)
    tenant.sign_in_again()  # the session JWT lives 8 hours
    headers = {**tenant.headers(), "X-Idempotent-Key": "key-7"}
    assert env.client.post(CREATE, json=body, headers=headers).json()["code"] == "IDEMPOTENT_REPLAY"
    clock.advance(6)
    again = env.client.post(
        CREATE, json={"payload": {"name": "A", "serialNo": "IDEM-7b"}}, headers=headers
    )
    assert again.json()["code"] == "0"
    assert _total(env, tenant) == 2


@pytest.mark.rule("session.error.idempotent-replay")
def test_concurrent_duplicates_execute_once(env: Env, tenant: TenantUsers) -> None:
    """Eight threads send the same key at once: one effect, every answer the same record."""
    actor = actor_for(env, tenant.headers())
    body = {"payload": {"name": "Race", "serialNo": "RACE-1"}}

    def run(_: int) -> tuple[str, bool]:
        try:
            outcome = env.run(commands.execute, env.runtime, actor, "assets:create", dict(body), "race-key", None)
        except IdempotencyKeyConflict:  # pragma: no cover - would be a failure below
            return ("conflict", False)
        return (outcome.data["id"], outcome.replay)

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(run, range(8)))
    ids = {record_id for record_id, _ in results}
    assert len(ids) == 1, results
    assert sum(1 for _, replay in results if not replay) == 1
    assert _total(env, tenant) == 1
