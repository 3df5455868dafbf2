"""Every request a worker sends is recorded, even when the worker dies right after sending it.

The scenario runs once per database (the ``cut`` fixture), and each test checks one thing it showed.
A real receiver on 127.0.0.1 records every POST and holds it open; a worker pass (``deliver_due``)
sends ``DELIVERIES`` deliveries and is cancelled once the receiver has all the requests: it dies
after sending and before writing any outcome, as a killed worker would. The delivery log is read
while the dead worker's lease runs, after it lapsed, and after a second worker delivered them again.
"""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from sqlalchemy import select

from storage import outbox
from storage.schema.tables import deliveries, delivery_attempts, webhook_endpoints
from tessera.core.clock import ShiftedClock
from tessera.webhooks import sending
from tests.conftest import Env, TenantUsers
from tests.support.webhooks import ASSIGNED, drain, register

DELIVERIES = 3
WAIT_SECONDS = 15.0


@dataclass
class HoldingReceiver:
    """Records the delivery id of every POST; holds each open until ``release``, then answers 200."""

    url: str = ""
    received: list[str] = field(default_factory=list)
    released: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self) -> int:
        with self.lock:
            return len(self.received)


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A held request answered after its worker died finds the socket closed: expected."""


@contextmanager
def holding_receiver() -> Iterator[HoldingReceiver]:
    state = HoldingReceiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            with state.lock:
                state.received.append(self.headers.get("X-Webhook-Delivery", ""))
            state.released.wait(WAIT_SECONDS * 2)
            with suppress(OSError):
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

        def log_message(self, *_args: object) -> None:
            return

    server = _QuietServer(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{server.server_address[1]}/hooks"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        state.released.set()
        server.shutdown()
        server.server_close()


@dataclass
class Cut:
    """What the scenario saw, for the tests to judge."""

    sent_by_dead: list[str]  # delivery ids of the requests the cancelled worker made
    while_leased: list[dict[str, Any]]  # the delivery log while the dead worker's lease ran
    after_lapse: list[dict[str, Any]]  # ... once it had lapsed
    received: Counter[str]  # every request the receiver got, by delivery id
    at_the_end: list[dict[str, Any]]  # the delivery log once every delivery was delivered again
    stored_outcomes: Counter[str]  # the attempt rows' outcomes in the database at the end


def _endpoint_with_deliveries(env: Env, tenant: TenantUsers, url: str) -> tuple[str, int]:
    """An endpoint of the tenant's installation to ``url``, with ``DELIVERIES`` deliveries due now."""
    response = register(tenant, tenant.install()["installationId"], url)
    assert response.status_code == 200, response.text
    rt = env.runtime

    async def append() -> None:
        async with rt.db.write() as conn:
            for i in range(DELIVERIES):
                await outbox.append(conn, tenant_id=tenant.tenant_id, event_type=ASSIGNED, request_id=None,
                                    now=rt.clock.now(), payload={"pid": f"ast_{i:026d}", "assignee": f"a{i}",
                                                                 "status": "assigned", "previousAssignee": None})

    env.run(append)
    env.run(sending.dispatch, rt, tenant_id=tenant.tenant_id)
    endpoint_pid = str(response.json()["data"]["endpointId"])
    with env.sql.connect() as conn:
        endpoint_id = int(conn.execute(select(webhook_endpoints.c.id)
                                       .where(webhook_endpoints.c.pid == endpoint_pid)).scalar_one())
    return endpoint_pid, endpoint_id


def _log(tenant: TenantUsers, endpoint_pid: str) -> list[dict[str, Any]]:
    response = tenant.admin_call("GET", f"/webhook-endpoints/{endpoint_pid}/deliveries/list")
    assert response.status_code == 200, response.text
    return list(response.json()["data"]["records"])


async def _send_and_die(env: Env, tenant: TenantUsers, hook: HoldingReceiver) -> None:
    """A worker pass cancelled once the receiver has every request: sent, nothing recorded after."""
    task = asyncio.ensure_future(sending.deliver_due(env.runtime, limit=100, worker="host:1/doomed",
                                                     tenant_id=tenant.tenant_id))
    deadline = asyncio.get_running_loop().time() + WAIT_SECONDS
    while hook.count() < DELIVERIES:
        assert not task.done(), f"the worker pass ended before sending everything: {task.result()}"
        assert asyncio.get_running_loop().time() < deadline, f"{hook.count()} requests within {WAIT_SECONDS:g} s"
        await asyncio.sleep(0.01)
    task.cancel()
    with suppress(asyncio.CancelledError):
        await task


@pytest.fixture(scope="module")
def cut(env: Env) -> Cut:
    tenant = env.new_tenant()
    clock = env.runtime.clock
    assert isinstance(clock, ShiftedClock)
    with holding_receiver() as hook:
        endpoint_pid, endpoint_id = _endpoint_with_deliveries(env, tenant, hook.url)
        env.run(_send_and_die, env, tenant, hook)
        sent_by_dead = list(hook.received)
        while_leased = _log(tenant, endpoint_pid)
        with env.sql.connect() as conn:
            lease = max(conn.execute(select(deliveries.c.locked_until)
                                     .where(deliveries.c.endpoint_id == endpoint_id)).scalars())
        hook.released.set()
        clock.advance((lease - clock.now() + timedelta(seconds=1)).total_seconds())
        try:
            after_lapse = _log(tenant, endpoint_pid)
            drain(env, tenant, lambda: {d["status"] for d in _log(tenant, endpoint_pid)} == {"delivered"}, rounds=5)
            at_the_end = _log(tenant, endpoint_pid)
        finally:
            clock.reset()
        with env.sql.connect() as conn:
            stored = Counter(conn.execute(
                select(delivery_attempts.c.outcome).join(deliveries, deliveries.c.id == delivery_attempts.c.delivery_id)
                .where(deliveries.c.endpoint_id == endpoint_id)).scalars())
        return Cut(sent_by_dead, while_leased, after_lapse, Counter(hook.received), at_the_end, stored)


def test_a_request_in_flight_is_listed_as_sending(cut: Cut) -> None:
    assert len(cut.sent_by_dead) == DELIVERIES
    attempts = [a for d in cut.while_leased for a in d["attempts"]]
    assert [(a["outcome"], a["httpStatus"], a["worker"]) for a in attempts] == [
        ("sending", None, "host:1/doomed")] * DELIVERIES


def test_a_dead_workers_request_is_listed_as_unknown_once_its_lease_lapses(cut: Cut) -> None:
    attempts = [a for d in cut.after_lapse for a in d["attempts"]]
    assert [a["outcome"] for a in attempts] == ["unknown"] * DELIVERIES
    assert all(a["error"].startswith("worker stopped") for a in attempts)


def test_every_request_the_receiver_got_is_listed_as_an_attempt(cut: Cut) -> None:
    """The fault run: a receiver logged 400 POSTs for 300 deliveries, the database 300 attempts."""
    listed = Counter({d["deliveryId"]: len(d["attempts"]) for d in cut.at_the_end})
    assert listed == cut.received
    assert set(cut.received.values()) == {2}  # the dead worker's request, and the one sent again


@pytest.mark.rule("webhook.retry.same-ids")
def test_the_delivery_is_sent_again_with_the_same_delivery_id(cut: Cut) -> None:
    assert {d["deliveryId"] for d in cut.at_the_end} == set(cut.sent_by_dead)
    assert [[a["outcome"] for a in d["attempts"]] for d in cut.at_the_end] == [["unknown", "succeeded"]] * DELIVERIES


def test_claiming_a_delivery_again_stores_its_lost_attempt_as_unknown(cut: Cut) -> None:
    assert cut.stored_outcomes == Counter({"unknown": DELIVERIES, "succeeded": DELIVERIES})
