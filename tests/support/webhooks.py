"""An installation with a webhook endpoint to a real receiver on loopback, and the worker driven to a state."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from tessera.background.worker import Worker
from tests.conftest import Env, TenantUsers
from tests.support.openplatform import Integration, new_key, seed_assets
from tests.support.receivers import Receiver

ASSIGNED = "assets.assignment.changed"


def independent_signature(secret: str, timestamp: str, body: bytes) -> str:
    """The specification's formula, written out here, not imported from the service."""
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def register(tenant: TenantUsers, installation_id: str, url: str, types: tuple[str, ...] = (ASSIGNED,),
             **extra: Any) -> Any:
    return tenant.admin_call("POST", f"/installations/{installation_id}/webhook-endpoints",
                             json={"url": url, "eventTypes": list(types), **extra})


class Hooked(Integration):
    """An installation with an endpoint to a receiver; ``change`` makes one assignment event.
    ``extra`` goes into the registration (``signatureFormat="standard-webhooks"``)."""

    def __init__(self, env: Env, tenant: TenantUsers, hook: Receiver, **extra: Any) -> None:
        super().__init__(env, tenant)
        installation = self._installation_id()
        response = register(tenant, installation, hook.url, **extra)
        assert response.status_code == 200, response.text
        self.endpoint = response.json()["data"]
        self.secret = self.endpoint["secret"]
        self.pid = seed_assets(tenant, 1)[0]

    def _installation_id(self) -> str:
        whoami = self.env.client.get("/api/open/v1/whoami", headers=self.auth).json()
        return str(whoami["installation"]["installationId"])

    def change(self, assignee: str) -> None:
        response = self.assign(self.pid, assignee, if_match=self.etag(self.pid), key=new_key())
        assert response.status_code == 200, response.text

    def deliveries(self) -> list[dict[str, Any]]:
        response = self.tenant.admin_call("GET", f"/webhook-endpoints/{self.endpoint['endpointId']}/deliveries/list")
        assert response.status_code == 200, response.text
        return list(response.json()["data"]["records"])


def tenant_id_of(tenant: TenantUsers | int) -> int:
    return tenant if isinstance(tenant, int) else tenant.tenant_id


def drain(env: Env, tenant: TenantUsers | int, until: Any, rounds: int = 40) -> None:
    """Run worker passes over the tenant's queues until ``until()`` holds; each pass sends what is
    due and waits for the answers."""
    worker = Worker(env.runtime, tenant_id=tenant_id_of(tenant))
    try:
        for _ in range(rounds):
            env.run(worker.run_once)
            if until():
                return
    finally:
        env.run(worker.sender.close)
    raise AssertionError(f"the worker did not get there in {rounds} passes")


def worker_pass(env: Env, tenant: TenantUsers | int, runtime: Any = None) -> int:
    """One pass of a fresh worker (its own HTTP client, closed after) on the app's loop, over the
    tenant's queues only: the tests share one database per backend, and another test's due
    deliveries or runs must neither be sent by this pass nor count in what it returns."""
    worker = Worker(runtime or env.runtime, tenant_id=tenant_id_of(tenant))
    try:
        return env.run(worker.run_once)
    finally:
        env.run(worker.sender.close)
