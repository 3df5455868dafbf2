"""An installation's view of the Open Platform, for tests: tokens, seeded assets, reads and commands."""

from __future__ import annotations

import time
from typing import Any

from storage.records import RecordRepository
from tessera.records.payloads import validate_payload
from tests.conftest import Env, TenantUsers, bearer, issue_token

READ_ALL = ("assets.read", "inventory.stockins.read")

ASSETS = "/api/open/v1/resources/assets"

ALL = ("assets.read", "assets.manage", "inventory.stockins.read", "inventory.stockins.manage")

ASSIGN = "/api/open/v1/commands/assets.assign:execute"

CREATE_STOCK_IN = "/api/open/v1/commands/inventory.stock-ins.create:execute"

EVENTS = "/api/open/v1/event-sources/robot-fleet/events"


def new_key() -> str:
    return f"key-{time.time_ns()}"


def token_for(env: Env, tenant: TenantUsers, scopes: tuple[str, ...] = READ_ALL) -> tuple[dict[str, str], str]:
    cred = tenant.install(scopes=scopes)
    token = issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"]
    return bearer(token), cred["installationId"]


def seed_assets(tenant: TenantUsers, count: int, prefix: str = "A") -> list[str]:
    """Assets written straight through the repository (the session API's write limit is 30 a minute)."""
    rt = tenant.env.runtime
    model = rt.declarations.models["asset"]
    payloads = [{"name": f"{prefix}{i}", "serialNo": f"{prefix}-{i}-{time.time_ns()}"} for i in range(count)]

    async def insert() -> list[str]:
        async with rt.db.write() as conn:
            repo = RecordRepository(conn, tenant.tenant_id, model)
            now = rt.clock.now()
            return [(await repo.insert(validate_payload(model, payload, partial=False), None, now=now)).pid
                    for payload in payloads]

    return tenant.env.run(insert)


def delete_asset(tenant: TenantUsers, pid: str) -> None:
    rt = tenant.env.runtime

    async def delete() -> None:
        async with rt.db.write() as conn:
            repo = RecordRepository(conn, tenant.tenant_id, rt.declarations.models["asset"])
            row = await repo.get(pid)
            assert row is not None
            await repo.soft_delete(row, now=rt.clock.now())

    tenant.env.run(delete)


class Integration:
    """One installation's token in a fresh tenant, with helpers for reads and commands."""

    def __init__(self, env: Env, tenant: TenantUsers, scopes: tuple[str, ...] = ALL) -> None:
        self.env = env
        self.tenant = tenant
        self.cred = tenant.install(scopes=scopes)
        self.auth: dict[str, str] = {}
        self.refresh()

    def refresh(self) -> None:
        """A new token of the same installation (after moving the clock past the old one's life)."""
        cred = self.cred
        self.auth = bearer(issue_token(self.env, cred["clientId"], cred["clientSecret"]).json()["access_token"])

    def read(self, pid: str) -> Any:
        return self.env.client.get(f"/api/open/v1/resources/assets/{pid}", headers=self.auth)

    def etag(self, pid: str) -> str:
        return str(self.read(pid).headers["ETag"])

    def assign(self, pid: str, assignee: str, *, if_match: str | None, key: str | None) -> Any:
        headers = dict(self.auth)
        if if_match is not None:
            headers["If-Match"] = if_match
        if key is not None:
            headers["Idempotency-Key"] = key
        return self.env.client.post(ASSIGN, json={"targetPid": pid, "input": {"assignee": assignee}}, headers=headers)
