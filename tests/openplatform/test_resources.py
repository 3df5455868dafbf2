"""Published resources: keyset pages, signed cursors, reads by pid with a strong ETag, scopes, 404s."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from storage.openplatform import call_audit
from tessera.core.clock import ShiftedClock
from tests.conftest import Env, TenantUsers, bearer, issue_token
from tests.support.openplatform import ASSETS, READ_ALL, delete_asset, seed_assets, token_for


def walk(env: Env, auth: dict[str, str], limit: int, between: Any = None) -> list[str]:
    seen: list[str] = []
    params: dict[str, Any] = {"limit": limit}
    while True:
        response = env.client.get(ASSETS, params=params, headers=auth)
        assert response.status_code == 200, response.text
        page = response.json()
        seen += [item["pid"] for item in page["items"]]
        if page["nextCursor"] is None:
            return seen
        if between is not None:
            between()
        params = {"limit": limit, "cursor": page["nextCursor"]}


@pytest.mark.rule("op.record.pid", "op.list.items-have-pid")
def test_a_page_holds_published_fields_and_pid_only(env: Env, tenant: TenantUsers) -> None:
    auth, _ = token_for(env, tenant)
    seed_assets(tenant, 1)
    item = env.client.get(ASSETS, headers=auth).json()["items"][0]
    assert set(item) == {"pid", "name", "serialNo", "status", "assignee", "value", "purchasedAt",
                         "createdAt", "updatedAt"}
    assert item["pid"].startswith("rec_")


@pytest.mark.rule("op.list.endpoint")
def test_the_default_page_is_fifty_records(env: Env, tenant: TenantUsers) -> None:
    auth, _ = token_for(env, tenant)
    seed_assets(tenant, 51)
    page = env.client.get(ASSETS, headers=auth).json()
    assert len(page["items"]) == 50
    assert page["nextCursor"]


@pytest.mark.parametrize("limit", ["0", "201", "ten"])
@pytest.mark.rule("op.list.endpoint")
def test_a_limit_outside_one_to_two_hundred_is_invalid_request(env: Env, tenant: TenantUsers, limit: str) -> None:
    auth, _ = token_for(env, tenant)
    response = env.client.get(ASSETS, params={"limit": limit}, headers=auth)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_request"
    assert "limit" in response.json()["details"]["fieldErrors"]


@pytest.mark.rule("op.list.endpoint", "op.list.keyset")
def test_walking_all_pages_visits_every_record_once(env: Env, tenant: TenantUsers) -> None:
    auth, _ = token_for(env, tenant)
    created = seed_assets(tenant, 23)
    seen = walk(env, auth, limit=5)
    assert seen == created  # creation order, no gaps, no repeats


@pytest.mark.rule("op.list.keyset")
def test_a_walk_is_stable_under_concurrent_inserts_and_deletes(env: Env, tenant: TenantUsers) -> None:
    auth, _ = token_for(env, tenant)
    created = seed_assets(tenant, 20)
    doomed = created[3::4]  # deleted while the walk is under way, some before and some after the cursor
    survivors = [pid for pid in created if pid not in doomed]
    pending = list(doomed)

    def churn() -> None:
        seed_assets(tenant, 2, prefix="late")
        if pending:
            delete_asset(tenant, pending.pop())

    seen = walk(env, auth, limit=4, between=churn)
    assert len(seen) == len(set(seen)), "a record was repeated"
    assert [pid for pid in seen if pid in survivors] == survivors, "a record that existed throughout was skipped"


@pytest.mark.rule("op.tenant.derived-from-token")
def test_another_tenants_records_are_never_listed(env: Env, tenant: TenantUsers) -> None:
    auth, _ = token_for(env, tenant)
    other = env.new_tenant()
    seed_assets(other, 3)
    mine = seed_assets(tenant, 2)
    assert walk(env, auth, limit=200) == mine


@pytest.mark.rule("op.cursor.tamper-fails")
def test_a_tampered_cursor_is_invalid_cursor(env: Env, tenant: TenantUsers) -> None:
    auth, _ = token_for(env, tenant)
    seed_assets(tenant, 3)
    cursor = env.client.get(ASSETS, params={"limit": 1}, headers=auth).json()["nextCursor"]
    tampered = cursor[:-6] + ("AAAAAA" if not cursor.endswith("AAAAAA") else "BBBBBB")
    response = env.client.get(ASSETS, params={"cursor": tampered}, headers=auth)
    assert response.status_code == 404
    assert response.json()["code"] == "invalid_cursor"


@pytest.mark.rule("op.cursor.contract", "op.cursor.tamper-fails")
def test_a_cursor_changed_only_in_its_padding_bits_is_invalid_cursor(env: Env, tenant: TenantUsers) -> None:
    auth, _ = token_for(env, tenant)
    seed_assets(tenant, 3)
    cursor = env.client.get(ASSETS, params={"limit": 1}, headers=auth).json()["nextCursor"]
    data = cursor.rstrip("=")
    unused_bits = {1: 2, 2: 4}[len(cursor) - len(data)]  # "=" leaves 2 bits of the last character unused, "==" 4
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    last = alphabet.index(data[-1])
    flipped = alphabet[last ^ ((1 << unused_bits) - 1)]  # same decoded bytes, other text
    changed = data[:-1] + flipped + cursor[len(data):]
    assert base64.urlsafe_b64decode(changed) == base64.urlsafe_b64decode(cursor)
    response = env.client.get(ASSETS, params={"cursor": changed}, headers=auth)
    assert response.status_code == 404
    assert response.json()["code"] == "invalid_cursor"


@pytest.mark.rule("op.cursor.contract", "op.cursor.cross-resource-fails")
def test_a_cursor_of_another_resource_is_invalid_cursor(env: Env, tenant: TenantUsers) -> None:
    auth, _ = token_for(env, tenant)
    seed_assets(tenant, 3)
    cursor = env.client.get(ASSETS, params={"limit": 1}, headers=auth).json()["nextCursor"]
    response = env.client.get("/api/open/v1/resources/inventory.stock-ins", params={"cursor": cursor}, headers=auth)
    assert response.status_code == 404
    assert response.json()["code"] == "invalid_cursor"


@pytest.mark.rule("op.token.bound-to-installation")
def test_a_cursor_of_another_installation_is_invalid_cursor(env: Env, tenant: TenantUsers) -> None:
    auth, _ = token_for(env, tenant)
    other_auth, _ = token_for(env, tenant)  # a second installation in the same tenant
    seed_assets(tenant, 3)
    cursor = env.client.get(ASSETS, params={"limit": 1}, headers=auth).json()["nextCursor"]
    response = env.client.get(ASSETS, params={"cursor": cursor}, headers=other_auth)
    assert response.status_code == 404
    assert response.json()["code"] == "invalid_cursor"


@pytest.mark.rule("op.cursor.contract", "op.cursor.expired-fails", "limits.cursor-validity")
def test_a_cursor_is_valid_for_24_hours_and_no_longer(env: Env, tenant: TenantUsers, clock: ShiftedClock) -> None:
    cred = tenant.install(scopes=READ_ALL)

    def fresh_token() -> dict[str, str]:  # tokens live an hour; the cursor outlives many
        return bearer(issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"])

    seed_assets(tenant, 3)
    cursor = env.client.get(ASSETS, params={"limit": 1}, headers=fresh_token()).json()["nextCursor"]
    clock.advance(24 * 3600 - 60)
    assert env.client.get(ASSETS, params={"cursor": cursor}, headers=fresh_token()).status_code == 200
    clock.advance(61)
    response = env.client.get(ASSETS, params={"cursor": cursor}, headers=fresh_token())
    assert response.status_code == 404
    assert response.json()["code"] == "invalid_cursor"


@pytest.mark.rule("op.record.pid", "op.record.strong-etag", "op.read.endpoint")
def test_a_read_by_pid_returns_the_record_and_a_strong_etag(env: Env, tenant: TenantUsers) -> None:
    auth, _ = token_for(env, tenant)
    pid = seed_assets(tenant, 1)[0]
    response = env.client.get(f"{ASSETS}/{pid}", headers=auth)
    assert response.status_code == 200
    assert response.json()["pid"] == pid
    tag = response.headers["ETag"]
    assert tag.startswith('"') and tag.endswith('"') and not tag.startswith("W/")
    assert env.client.get(f"{ASSETS}/{pid}", headers=auth).headers["ETag"] == tag


@pytest.mark.rule("op.record.strong-etag")
def test_the_etag_changes_when_the_record_changes(env: Env, tenant: TenantUsers) -> None:
    auth, _ = token_for(env, tenant)
    pid = seed_assets(tenant, 1)[0]
    before = env.client.get(f"{ASSETS}/{pid}", headers=auth).headers["ETag"]
    response = env.client.post("/api/meta/commands/execute/assets:update", headers=tenant.headers(),
                               json={"operationType": "UPDATE", "targetRecordId": pid, "payload": {"value": 5}})
    assert response.status_code == 200
    assert env.client.get(f"{ASSETS}/{pid}", headers=auth).headers["ETag"] != before


@pytest.mark.rule("op.read.endpoint")
def test_an_unknown_pid_is_resource_not_found(env: Env, tenant: TenantUsers) -> None:
    auth, _ = token_for(env, tenant)
    response = env.client.get(f"{ASSETS}/rec_{'0' * 26}", headers=auth)
    assert response.status_code == 404
    assert response.json()["code"] == "resource_not_found"


@pytest.mark.rule("op.tenant.derived-from-token")
def test_another_tenants_pid_is_resource_not_found(env: Env, tenant: TenantUsers) -> None:
    auth, _ = token_for(env, tenant)
    foreign = seed_assets(env.new_tenant(), 1)[0]
    response = env.client.get(f"{ASSETS}/{foreign}", headers=auth)
    assert response.status_code == 404
    assert response.json()["code"] == "resource_not_found"


def test_a_pid_of_another_resource_is_resource_not_found(env: Env, tenant: TenantUsers) -> None:
    auth, _ = token_for(env, tenant)
    pid = seed_assets(tenant, 1)[0]
    response = env.client.get(f"/api/open/v1/resources/inventory.stock-ins/{pid}", headers=auth)
    assert response.status_code == 404
    assert response.json()["code"] == "resource_not_found"


@pytest.mark.rule("session.record.soft-delete-not-found")
def test_a_soft_deleted_record_is_resource_not_found(env: Env, tenant: TenantUsers) -> None:
    auth, _ = token_for(env, tenant)
    pid = seed_assets(tenant, 1)[0]
    delete_asset(tenant, pid)
    assert env.client.get(f"{ASSETS}/{pid}", headers=auth).status_code == 404


def test_a_read_by_pid_trusts_its_token_and_reads_its_record_in_one_statement(
        env: Env, tenant: TenantUsers, monkeypatch: pytest.MonkeyPatch) -> None:
    auth, _ = token_for(env, tenant)
    pid = seed_assets(tenant, 1)[0]
    statements: list[str] = []
    execute = env.runtime.db.execute

    async def counted(statement: Any, params: Any = None) -> Any:
        if statement is not call_audit.BATCH_STATEMENT:  # the call audit's writer, running beside
            statements.append(str(params))
        return await execute(statement, params)

    monkeypatch.setattr(env.runtime.db, "execute", counted)
    response = env.client.get(f"{ASSETS}/{pid}", headers=auth)
    assert response.status_code == 200
    assert response.json()["pid"] == pid
    assert len(statements) == 1 and pid in statements[0]


def test_a_read_by_pid_with_an_expired_token_is_invalid_token_and_shows_nothing(
        env: Env, tenant: TenantUsers, clock: ShiftedClock) -> None:
    auth, _ = token_for(env, tenant)
    pid = seed_assets(tenant, 1)[0]
    clock.advance(env.runtime.settings.token_ttl_seconds)
    response = env.client.get(f"{ASSETS}/{pid}", headers=auth)
    assert response.status_code == 401
    assert response.json()["code"] == "invalid_token"
    assert pid not in response.text


def test_a_read_by_pid_with_an_unknown_token_is_invalid_token(env: Env, tenant: TenantUsers) -> None:
    pid = seed_assets(tenant, 1)[0]
    response = env.client.get(f"{ASSETS}/{pid}", headers=bearer("tat_not-a-token"))
    assert response.status_code == 401
    assert response.json()["code"] == "invalid_token"


@pytest.mark.rule("op.credential.revoke-invalidates-tokens", "op.error.invalid-token")
def test_a_read_by_pid_after_the_credential_is_revoked_is_invalid_token(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install(scopes=READ_ALL)
    auth = bearer(issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"])
    pid = seed_assets(tenant, 1)[0]
    assert env.client.get(f"{ASSETS}/{pid}", headers=auth).status_code == 200
    assert tenant.admin_call("POST", f"/credentials/{cred['clientId']}/revoke").status_code == 200
    response = env.client.get(f"{ASSETS}/{pid}", headers=auth)
    assert response.status_code == 401
    assert response.json()["code"] == "invalid_token"


@pytest.mark.rule("op.error.invalid-request")
def test_a_pid_holding_a_nul_is_invalid_request_naming_it(env: Env, tenant: TenantUsers) -> None:
    auth, _ = token_for(env, tenant)
    response = env.client.get(f"{ASSETS}/rec_%00{'0' * 25}", headers=auth)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_request"
    assert "pid" in response.json()["details"]["fieldErrors"]


@pytest.mark.parametrize("path", [ASSETS, f"{ASSETS}/rec_0000000000000000000000000"])
@pytest.mark.rule("op.error.insufficient-scope")
def test_a_token_without_the_read_scope_is_insufficient_scope(env: Env, tenant: TenantUsers, path: str) -> None:
    auth, _ = token_for(env, tenant, scopes=("inventory.stockins.read",))
    response = env.client.get(path, headers=auth)
    assert response.status_code == 403
    body = response.json()
    assert body["code"] == "insufficient_scope"
    assert body["details"]["requiredScope"] == "assets.read"


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/open/v1/resources/users"),
        ("GET", "/api/open/v1/resources/assets/rec_x/history"),
        ("GET", "/api/open/v1/dynamic/assets/list"),
        ("POST", "/api/open/v1/commands/assets.delete:execute"),
        ("POST", "/api/open/v1/commands/assets:create:execute"),
    ],
)
@pytest.mark.rule(
    "op.capability.unpublished-not-found",
    "op.capability.no-auto-exposure",
    "op.command.code-form",
    "op.error.envelope-fields",
)
def test_unpublished_routes_are_not_found_before_authentication(env: Env, method: str, path: str) -> None:
    response = env.client.request(method, path)  # no token at all
    assert response.status_code == 404
    body = response.json()
    assert body["code"] == "open_api_capability_not_found"
    assert set(body) == {"code", "message", "requestId", "details"}


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("DELETE", f"{ASSETS}/rec_0000000000000000000000000", "GET"),
        ("POST", ASSETS, "GET"),
        ("GET", "/api/open/v1/commands/assets.assign:execute", "POST"),
    ],
)
def test_unpublished_methods_on_published_paths_are_405_with_allow_before_authentication(
    env: Env, method: str, path: str, allow: str
) -> None:
    response = env.client.request(method, path)  # no token at all
    assert response.status_code == 405
    assert response.headers["Allow"] == allow
    body = response.json()
    assert body["code"] == "open_api_capability_not_found"
    assert set(body) == {"code", "message", "requestId", "details"}
