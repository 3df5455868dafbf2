"""Owners' throttles on a webhook endpoint: a rate limit in deliveries per second and a cap on
deliveries awaiting an answer at once, both holding across workers (tessera/webhooks/throttle.py)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tessera.background.worker import Worker
from tests.conftest import Env, TenantUsers
from tests.support.receivers import Receiver, receiver
from tests.support.webhooks import Hooked, register, worker_pass

PEOPLE = ("ann", "ben", "cy", "dee", "eli", "fay")


def _throttle(hooked: Hooked, **values: Any) -> Any:
    return hooked.tenant.admin_call("PUT", f"/webhook-endpoints/{hooked.endpoint['endpointId']}", json=values)


def _changes(hooked: Hooked, count: int) -> None:
    for person in PEOPLE[:count]:
        hooked.change(person)


@contextmanager
def running_workers(env: Env, tenant: TenantUsers, count: int) -> Iterator[None]:
    """``count`` workers of the tenant's queues running on the app's loop, each polling only every 30 s."""
    workers = [Worker(env.runtime, poll_seconds=30.0, tenant_id=tenant.tenant_id) for _ in range(count)]

    async def start() -> list[asyncio.Task[None]]:
        return [asyncio.get_running_loop().create_task(w.run_forever()) for w in workers]

    tasks = env.run(start)
    try:
        yield
    finally:
        for worker in workers:
            worker.stop()
        for task in tasks:
            env.run(asyncio.wait_for, task, 10)


def _wait_for(hook: Receiver, count: int, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while len(hook.requests) < count and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(hook.requests) >= count, f"{len(hook.requests)} of {count} arrived within {seconds} s"


def test_owners_set_and_lift_an_endpoints_throttles(env: Env, tenant: TenantUsers) -> None:
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook)
        limited = _throttle(hooked, rateLimit=5, maxInFlight=2)
        assert limited.status_code == 200, limited.text
        assert (limited.json()["data"]["rateLimit"], limited.json()["data"]["maxInFlight"]) == (5, 2)
        lifted = _throttle(hooked, rateLimit=None)
        assert (lifted.json()["data"]["rateLimit"], lifted.json()["data"]["maxInFlight"]) == (None, 2)


def test_a_throttle_out_of_range_is_refused(env: Env, tenant: TenantUsers) -> None:
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook)
        for values in ({"rateLimit": 0}, {"maxInFlight": 1001}, {"rateLimit": "fast"}):
            refused = _throttle(hooked, **values)
            assert refused.status_code == 400, (values, refused.text)
            assert refused.json()["code"] == "VALIDATION_ERROR"


def test_a_rate_limited_endpoint_gets_each_delivery_at_its_own_slot(env: Env, tenant: TenantUsers, clock: Any) -> None:
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook)
        _throttle(hooked, rateLimit=1)
        _changes(hooked, 3)
        worker_pass(env, tenant)
        worker_pass(env, tenant)
        assert len(hook.requests) == 1  # the next slot is a second away
        clock.advance(1.0)
        worker_pass(env, tenant)
        assert len(hook.requests) == 2


def test_a_running_worker_wakes_for_the_next_slot_instead_of_its_poll(env: Env, tenant: TenantUsers) -> None:
    """Five deliveries at 10 per second take at least 0.4 s (slots 0.1 s apart, however late the
    machine runs), and all arrive well before the worker's 30 s poll: it woke for each slot."""
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook)
        _throttle(hooked, rateLimit=10)
        _changes(hooked, 5)
        started = time.monotonic()
        with running_workers(env, tenant, 1):
            _wait_for(hook, 5, seconds=10.0)
    assert hook.arrivals[-1] - started >= 0.35


def test_the_in_flight_cap_holds_across_workers(env: Env, tenant: TenantUsers) -> None:
    with receiver(200, delay=0.3) as hook:
        hooked = Hooked(env, tenant, hook)
        _throttle(hooked, maxInFlight=2)
        _changes(hooked, 6)
        with running_workers(env, tenant, 3):
            _wait_for(hook, 6)
    assert hook.most_in_flight == 2


def test_a_capped_endpoints_backlog_does_not_hold_back_other_endpoints(env: Env, tenant: TenantUsers) -> None:
    with receiver(200) as capped_hook, receiver(200) as other_hook:
        hooked = Hooked(env, tenant, capped_hook)
        other = register(tenant, hooked._installation_id(), other_hook.url)
        assert other.status_code == 200, other.text
        _throttle(hooked, maxInFlight=1)
        _changes(hooked, 5)
        worker_pass(env, tenant)
        assert (len(capped_hook.requests), len(other_hook.requests)) == (1, 5)
