"""The delivery rules receivers expect (Standard Webhooks): 410 Gone disables the endpoint,
Retry-After is honoured, every attempt says who made it and what the receiver answered, and
workers wake up when work is committed instead of waiting for their next poll."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import uuid
from collections.abc import Iterator
from datetime import timedelta
from email.utils import format_datetime
from typing import Any

import pytest
from sqlalchemy import insert, select, text

from storage.schema.tables import audit_log, outbox_events
from tessera.background.worker import Worker
from tessera.registry.operational import ENDPOINT_DISABLED
from tests.conftest import Env, TenantUsers
from tests.support.receivers import Receiver, receiver
from tests.support.webhooks import ASSIGNED, Hooked, register, worker_pass


def _endpoint(hooked: Hooked) -> dict[str, Any]:
    listed = hooked.tenant.admin_call("GET", f"/webhook-endpoints/{hooked.endpoint['endpointId']}")
    assert listed.status_code == 200, listed.text
    return dict(listed.json()["data"])


def test_a_410_gone_disables_the_endpoint_at_once_and_says_why(env: Env, tenant: TenantUsers) -> None:
    with receiver(410) as hook:
        hooked = Hooked(env, tenant, hook)
        hooked.change("dana")
        worker_pass(env, tenant)
        hooked.change("eve")
        worker_pass(env, tenant)
        assert len(hook.requests) == 1  # nothing more was sent to an endpoint that is gone
    endpoint = _endpoint(hooked)
    assert endpoint["enabled"] is False and endpoint["disabledReason"] == "410 Gone"
    assert hooked.deliveries()[-1]["status"] == "dead"  # a 410 is not retried


def test_disabling_on_410_is_audited(env: Env, tenant: TenantUsers) -> None:
    with receiver(410) as hook:
        hooked = Hooked(env, tenant, hook)
        hooked.change("dana")
        worker_pass(env, tenant)
    with env.sql.connect() as conn:
        entries = conn.execute(select(audit_log.c.actor, audit_log.c.after).where(
            audit_log.c.action == "webhook_endpoint.disabled",
            audit_log.c.target_id == hooked.endpoint["endpointId"])).all()
    assert [(e.actor, e.after) for e in entries] == [("system:webhooks", {"enabled": False, "reason": "410 Gone"})]


def test_an_owner_re_enabling_the_endpoint_clears_the_reason_and_deliveries_resume(
    env: Env, tenant: TenantUsers
) -> None:
    with receiver(410, 200) as hook:
        hooked = Hooked(env, tenant, hook)
        hooked.change("dana")
        worker_pass(env, tenant)
        path = f"/webhook-endpoints/{hooked.endpoint['endpointId']}"
        enabled = tenant.admin_call("PUT", path, json={"enabled": True})
        assert enabled.status_code == 200, enabled.text
        assert enabled.json()["data"]["disabledReason"] is None
        hooked.change("eve")
        worker_pass(env, tenant)
        assert len(hook.requests) == 2


@pytest.mark.rule("webhook.retry.backoff")
def test_a_429_with_retry_after_is_retried_no_sooner_than_it_asks(env: Env, tenant: TenantUsers, clock: Any) -> None:
    with receiver(429, 200, headers={"Retry-After": "4"}) as hook:
        hooked = Hooked(env, tenant, hook)  # the tests' schedule retries at once ("0,0")
        hooked.change("dana")
        worker_pass(env, tenant)
        worker_pass(env, tenant)
        assert len(hook.requests) == 1  # asked to wait 4 s: not yet
        clock.advance(4.1)
        worker_pass(env, tenant)
        assert len(hook.requests) == 2
    assert hooked.deliveries()[0]["status"] == "delivered"


def test_a_retry_after_date_is_honoured_too(env: Env, tenant: TenantUsers, clock: Any) -> None:
    later = format_datetime(clock.now().replace(microsecond=0) + timedelta(seconds=30), usegmt=True)
    with receiver(503, 200, headers={"Retry-After": later}) as hook:
        hooked = Hooked(env, tenant, hook)
        hooked.change("dana")
        worker_pass(env, tenant)
        clock.advance(10)
        worker_pass(env, tenant)
        assert len(hook.requests) == 1
        clock.advance(25)
        worker_pass(env, tenant)
        assert len(hook.requests) == 2


def test_each_attempt_records_its_worker_and_an_excerpt_of_the_answer(env: Env, tenant: TenantUsers) -> None:
    with receiver(500, body=b"upstream exploded: " + b"x" * 2000) as hook:
        hooked = Hooked(env, tenant, hook)
        hooked.change("dana")
        worker_pass(env, tenant)
    [attempt] = hooked.deliveries()[0]["attempts"]
    assert attempt["httpStatus"] == 500
    assert attempt["responseExcerpt"].startswith("upstream exploded: ")
    assert len(attempt["responseExcerpt"]) == 500  # bounded, whatever the receiver sends
    host_pid_task = attempt["worker"].split(":")
    assert len(host_pid_task) == 2 and "/" in host_pid_task[1]


POLL_SECONDS = 30.0
# Well before the poll: only a wake-up delivers this soon, however busy the machine.
WOKEN_WITHIN_SECONDS = POLL_SECONDS / 3


class _NotingWorker(Worker):
    """A worker that says when its first pass is over (it then waits for a wake-up or its poll)."""

    def __init__(self, env: Env, tenant: TenantUsers) -> None:
        super().__init__(env.runtime, poll_seconds=POLL_SECONDS, tenant_id=tenant.tenant_id)
        self.first_pass = asyncio.Event()

    async def run_once(self) -> int:
        done = await super().run_once()
        self.first_pass.set()
        return done


def _listening(env: Env) -> bool:
    """Whether a session of this database LISTENs (the worker's, on PostgreSQL)."""
    with env.sql.connect() as conn:
        return bool(conn.execute(text(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'"
        )).scalar_one())


@contextlib.contextmanager
def waiting_worker(env: Env, tenant: TenantUsers) -> Iterator[None]:
    """A worker of the tenant's queues running on the app's loop that polls only every 30 s, its
    first pass over and (on PostgreSQL) its LISTEN in place: idle, waiting for a wake-up."""
    slow_poll = _NotingWorker(env, tenant)

    async def start() -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(slow_poll.run_forever())
        await asyncio.wait_for(slow_poll.first_pass.wait(), 30)
        return task

    task = env.run(start)
    try:
        deadline = time.monotonic() + 30
        while env.backend == "postgresql" and not _listening(env):
            assert time.monotonic() < deadline, "the worker's LISTEN was not in place within 30 s"
            time.sleep(0.02)
        yield
    finally:
        slow_poll.stop()
        env.run(asyncio.wait_for, task, 10)


def _received_before_the_poll(hook: Receiver, started: float) -> bool:
    """Whether the delivery arrived within ``WOKEN_WITHIN_SECONDS`` (waiting no longer than that)."""
    while not hook.requests and time.monotonic() - started < WOKEN_WITHIN_SECONDS:
        time.sleep(0.01)
    return bool(hook.requests)


def test_a_running_worker_sends_a_committed_event_at_once_not_at_its_next_poll(
    env: Env, tenant: TenantUsers
) -> None:
    """The worker polls every 30 s here; the delivery must arrive well before that."""
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook)
        with waiting_worker(env, tenant):
            started = time.monotonic()
            hooked.change("dana")
            assert _received_before_the_poll(hook, started)


@pytest.mark.parametrize("env", ["postgresql"], indirect=True)  # SQLite has no NOTIFY: workers elsewhere poll
def test_a_commit_by_another_process_wakes_the_worker_through_postgresql_notify(
    env: Env, tenant: TenantUsers
) -> None:
    """Another process commits an event (here: a plain SQL session, which signals nothing in this
    process); PostgreSQL's NOTIFY, sent by a trigger at commit, wakes the worker."""
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook)
        with waiting_worker(env, tenant):
            started = time.monotonic()
            with env.sql.begin() as conn:
                conn.execute(insert(outbox_events).values(
                    event_id=f"evt_{uuid.uuid4().hex[:26]}", tenant_id=tenant.tenant_id, event_type=ASSIGNED,
                    payload={"pid": hooked.pid, "assignee": "zoe", "status": "assigned", "previousAssignee": None},
                    request_id=None, occurred_at=env.runtime.clock.now()))
            assert _received_before_the_poll(hook, started)


def _recover(hooked: Hooked, since: str, role: str = "admin") -> Any:
    return hooked.tenant.admin_call("POST", f"/webhook-endpoints/{hooked.endpoint['endpointId']}/deliveries/recover",
                                    role=role, json={"since": since})


def test_an_owner_recovers_every_dead_delivery_since_a_time_in_one_call(
    env: Env, tenant: TenantUsers, clock: Any
) -> None:
    with receiver(500, 500, 500, 500, 500, 500, 500, 500, 500, 200) as hook:
        hooked = Hooked(env, tenant, hook)
        before = clock.now()
        for name in ("ann", "bob", "cy"):
            hooked.change(name)
        for _ in range(4):  # the tests' schedule: two retries, then dead
            worker_pass(env, tenant)
        assert {d["status"] for d in hooked.deliveries()} == {"dead"}
        response = _recover(hooked, before.isoformat())
        assert response.status_code == 200, response.text
        assert response.json()["data"] == {"recovered": 3, "more": False}
        worker_pass(env, tenant)
    assert {d["status"] for d in hooked.deliveries()} == {"delivered"}
    delivery_ids = [r.headers["x-webhook-delivery"] for r in hook.requests]
    assert len(set(delivery_ids)) == 3  # the same delivery ids as before, each retried


def test_recovering_twice_recovers_nothing_twice(env: Env, tenant: TenantUsers, clock: Any) -> None:
    with receiver(500) as hook:
        hooked = Hooked(env, tenant, hook)
        before = clock.now()
        hooked.change("ann")
        for _ in range(4):
            worker_pass(env, tenant)
        assert _recover(hooked, before.isoformat()).json()["data"] == {"recovered": 1, "more": False}
        assert _recover(hooked, before.isoformat()).json()["data"] == {"recovered": 0, "more": False}


def test_deliveries_before_the_time_are_not_recovered(env: Env, tenant: TenantUsers, clock: Any) -> None:
    with receiver(500) as hook:
        hooked = Hooked(env, tenant, hook)
        hooked.change("ann")
        for _ in range(4):
            worker_pass(env, tenant)
        later = (clock.now() + timedelta(seconds=1)).isoformat()
        assert _recover(hooked, later).json()["data"] == {"recovered": 0, "more": False}


def test_a_time_without_a_zone_is_refused(env: Env, tenant: TenantUsers) -> None:
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook)
        refused = _recover(hooked, "2026-11-22T08:00:00")
    assert refused.status_code == 400
    assert refused.json()["data"]["fieldErrors"].keys() == {"since"}


def test_someone_who_is_not_a_member_of_the_application_cannot_recover(env: Env, tenant: TenantUsers) -> None:
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook)
        refused = _recover(hooked, "2026-11-22T08:00:00Z", role="viewer")  # a tenant viewer, no app role
    assert refused.status_code == 404
    assert refused.json()["code"] == "NOT_FOUND"


def _after_time_moved(hooked: Hooked) -> None:
    """Days passed: the integration's token and the users' JWTs have expired."""
    hooked.refresh()
    hooked.tenant.sign_in_again()


def test_an_endpoint_failing_for_longer_than_the_setting_is_disabled(env: Env, tenant: TenantUsers,
                                                                     clock: Any) -> None:
    days = env.runtime.settings.webhook_disable_after_seconds
    with receiver(500) as hook:
        hooked = Hooked(env, tenant, hook)
        hooked.change("ann")
        worker_pass(env, tenant)  # the streak starts
        clock.advance(days - 60)
        _after_time_moved(hooked)
        hooked.change("bob")
        worker_pass(env, tenant)
        assert _endpoint(hooked)["enabled"] is True  # not long enough yet
        clock.advance(120)
        _after_time_moved(hooked)
        hooked.change("cy")
        worker_pass(env, tenant)
    endpoint = _endpoint(hooked)
    assert endpoint["enabled"] is False
    assert endpoint["disabledReason"].startswith("failing since ")


def test_one_success_ends_the_failing_streak(env: Env, tenant: TenantUsers, clock: Any) -> None:
    days = env.runtime.settings.webhook_disable_after_seconds
    with receiver(500, 200, 500) as hook:
        hooked = Hooked(env, tenant, hook)
        hooked.change("ann")
        worker_pass(env, tenant)  # fails: the streak starts
        worker_pass(env, tenant)  # the retry succeeds: the streak ends
        clock.advance(days + 60)
        _after_time_moved(hooked)
        hooked.change("bob")
        worker_pass(env, tenant)  # fails, but only just started failing
    assert _endpoint(hooked)["enabled"] is True


def test_a_disabled_endpoint_is_announced_to_the_applications_other_endpoints(env: Env, tenant: TenantUsers) -> None:
    with receiver(410) as gone, receiver(200) as listener:
        hooked = Hooked(env, tenant, gone)
        subscribed = register(tenant, hooked._installation_id(), listener.url, (ENDPOINT_DISABLED,))
        assert subscribed.status_code == 200, subscribed.text
        hooked.change("dana")
        worker_pass(env, tenant)  # 410: disabled, and the announcement queued
        worker_pass(env, tenant)  # the announcement delivered
        assert len(listener.requests) == 1
    event = json.loads(listener.requests[0].body)
    assert event["type"] == ENDPOINT_DISABLED
    assert {k: event["data"][k] for k in ("endpointId", "reason")} == {
        "endpointId": hooked.endpoint["endpointId"], "reason": "410 Gone"}


def test_other_applications_of_the_tenant_are_not_told(env: Env, tenant: TenantUsers) -> None:
    with receiver(410) as gone, receiver(200) as stranger:
        hooked = Hooked(env, tenant, gone)
        other = Hooked(env, tenant, stranger)  # another application installed in the same tenant
        subscribed = register(tenant, other._installation_id(), stranger.url, (ENDPOINT_DISABLED,))
        assert subscribed.status_code == 200, subscribed.text
        hooked.change("dana")
        worker_pass(env, tenant)
        worker_pass(env, tenant)
        assert [json.loads(r.body)["type"] for r in stranger.requests] == [ASSIGNED]
