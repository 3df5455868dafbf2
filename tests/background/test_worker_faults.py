"""A worker process killed with SIGKILL while it holds 100 leased deliveries loses none of them.

The scenario runs once per database (the ``killed`` fixture), and each test checks one thing it
showed. 100 deliveries for one endpoint are due; a real ``tessera worker`` process (same database,
same server key) leases all of them and starts sending; the receiver answers its first 10 requests
200 at once and holds the next ones open, so the worker waits, with every delivery still leased and
no outcome recorded (only its in-flight attempts), and is killed with ``kill -9``. Then the
receiver answers 200 to everything, a worker pass in this process finds nothing it may claim while
the dead worker's lease runs, the runtime's clock moves past the lease (no 30 s wait) and worker
passes here deliver the rest: at least once.
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from storage import outbox
from storage.schema.tables import deliveries, delivery_attempts, webhook_endpoints
from tessera.core.clock import ShiftedClock
from tessera.webhooks import sending
from tests.conftest import Env
from tests.support.live_server import ROOT, TESSERA, tessera_env
from tests.support.webhooks import ASSIGNED, drain, register, worker_pass

DELIVERIES = 100
ANSWERED_FIRST = 10  # the killed worker got a 200 for these, and died before recording it
CONCURRENCY = 32  # the killed worker's requests in flight at once (TESSERA_WEBHOOK_CONCURRENCY)
SENT_BEFORE_KILL = ANSWERED_FIRST + CONCURRENCY  # the answered ones freed their slots for as many more
START_SECONDS = 15.0


# -- a receiver that keeps the first worker's requests open ------------------------------------------

@dataclass
class HoldingReceiver:
    """Answers the first ``answer_first`` requests 200 and holds the next ones open (no answer) until
    ``answer_all``; from then on it answers every request 200 at once. Keeps each request's delivery
    id: ``before`` while holding (the killed worker's), ``after`` from ``answer_all`` on."""

    answer_first: int
    url: str = ""
    before: list[str] = field(default_factory=list)
    after: list[str] = field(default_factory=list)
    released: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, delivery: str) -> bool:
        """Keep ``delivery``; whether to hold the request open."""
        with self.lock:
            if self.released.is_set():
                self.after.append(delivery)
                return False
            self.before.append(delivery)
            return len(self.before) > self.answer_first

    def answer_all(self) -> None:
        self.released.set()


class _QuietServer(ThreadingHTTPServer):
    request_queue_size = 256  # a batch connects all at once
    def handle_error(self, request: Any, client_address: Any) -> None:
        """A held request answered after its worker died finds the socket closed: expected, not news."""


@contextmanager
def holding_receiver(answer_first: int) -> Iterator[HoldingReceiver]:
    state = HoldingReceiver(answer_first)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if state.record(self.headers.get("X-Webhook-Delivery", "")):
                state.released.wait(60)
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
        state.answer_all()
        server.shutdown()
        server.server_close()


# -- the scenario ------------------------------------------------------------------------------------

@dataclass
class Killed:
    """What the scenario saw, for the tests to judge."""

    ids: set[str]  # the 100 deliveries' ids
    sent_by_killed: list[str]  # delivery ids of the requests the killed worker made
    sent_while_leased: int  # requests a worker pass made after the kill, the lease still running
    leased_after_that_pass: int
    sent_after_lapse: list[str]  # delivery ids of the requests made after the lease lapsed
    statuses: Counter[str]  # the deliveries' statuses at the end
    attempts: Counter[str]  # the attempt rows of each delivery at the end, by delivery id
    outcomes: Counter[str]  # the attempt rows' outcomes at the end


def _endpoint_with_deliveries(env: Env, url: str) -> tuple[int, int]:
    """A fresh tenant's installation with one endpoint to ``url`` and ``DELIVERIES`` deliveries to it,
    due now (events appended to the outbox and fanned out here); the tenant's and the endpoint's row ids."""
    tenant = env.new_tenant()
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
    with env.sql.connect() as conn:
        endpoint_id = int(conn.execute(select(webhook_endpoints.c.id).where(
            webhook_endpoints.c.pid == response.json()["data"]["endpointId"])).scalar_one())
    env.run(sending.dispatch, rt, tenant_id=tenant.tenant_id)
    assert len(_rows(env, endpoint_id)) == DELIVERIES
    return tenant.tenant_id, endpoint_id


def _rows(env: Env, endpoint_id: int) -> list[Any]:
    with env.sql.connect() as conn:
        return list(conn.execute(select(deliveries.c.pid, deliveries.c.status, deliveries.c.locked_until)
                                 .where(deliveries.c.endpoint_id == endpoint_id)))


def _leased(env: Env, endpoint_id: int) -> int:
    now = datetime.now(UTC)
    return sum(1 for row in _rows(env, endpoint_id) if row.locked_until is not None and row.locked_until > now)


@contextmanager
def worker_process(env: Env, log_dir: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``python -m tessera.cli worker`` on the test's database with the test's key and webhook settings,
    except a 30 s attempt deadline (so it is still waiting when killed); killed at the end if alive."""
    settings = env.runtime.settings
    variables = tessera_env(
        settings.var_dir, TESSERA_ENV="test", TESSERA_DATABASE_URL=env.database_url,
        TESSERA_SECRET_KEY=settings.secret_key.decode(), TESSERA_REDIS_PREFIX=settings.redis_prefix,
        TESSERA_WEBHOOK_ALLOW_LOOPBACK="true", TESSERA_WEBHOOK_RETRY_SCHEDULE="0,0",
        TESSERA_WEBHOOK_TIMEOUT_SECONDS="30", TESSERA_WEBHOOK_CONCURRENCY=str(CONCURRENCY),
        TESSERA_WORKER_POLL_SECONDS="0.1", TESSERA_LOG_LEVEL="WARNING",
        **({"TESSERA_REDIS_URL": settings.redis_url} if settings.redis_url else {}))
    with tempfile.NamedTemporaryFile(dir=log_dir, prefix="worker-", suffix=".log", delete=False) as log:
        proc = subprocess.Popen([*TESSERA, "worker"], cwd=ROOT, env=variables, stdout=log, stderr=subprocess.STDOUT)
    try:
        yield proc
    except BaseException:
        print(Path(log.name).read_text(errors="replace")[-4000:])
        raise
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)


def _wait_until(condition: Callable[[], bool], proc: subprocess.Popen[bytes], state: Callable[[], str]) -> None:
    deadline = time.monotonic() + START_SECONDS
    while not condition():
        assert proc.poll() is None, f"the worker process exited with {proc.returncode} ({state()})"
        assert time.monotonic() < deadline, f"not there within {START_SECONDS:g} s: {state()}"
        time.sleep(0.02)


def _after_the_lease(env: Env, endpoint_id: int, work: Callable[[], None]) -> None:
    """``work`` with the runtime's clock moved 1 s past the latest lease of the endpoint's deliveries."""
    clock = env.runtime.clock
    assert isinstance(clock, ShiftedClock)
    lease = max(row.locked_until for row in _rows(env, endpoint_id) if row.locked_until is not None)
    clock.advance((lease - clock.now()).total_seconds() + 1)
    try:
        work()
    finally:
        clock.reset()


@pytest.fixture(scope="module")
def killed(env: Env, tmp_path_factory: pytest.TempPathFactory) -> Killed:
    with holding_receiver(ANSWERED_FIRST) as hook:
        tenant_id, endpoint_id = _endpoint_with_deliveries(env, hook.url)
        ids = {row.pid for row in _rows(env, endpoint_id)}
        with worker_process(env, tmp_path_factory.mktemp("worker")) as proc:
            _wait_until(lambda: _leased(env, endpoint_id) == DELIVERIES and len(hook.before) == SENT_BEFORE_KILL,
                        proc, lambda: f"{_leased(env, endpoint_id)} leased, {len(hook.before)} requests received")
            os.kill(proc.pid, signal.SIGKILL)
            assert proc.wait(10) == -signal.SIGKILL
        hook.answer_all()
        worker_pass(env, tenant_id)  # the clock not moved: the dead worker's lease still runs
        sent_while_leased, still_leased = len(hook.after), _leased(env, endpoint_id)

        def delivered() -> bool:
            return {row.status for row in _rows(env, endpoint_id)} == {"delivered"}

        _after_the_lease(env, endpoint_id, lambda: drain(env, tenant_id, delivered, rounds=5))
        with env.sql.connect() as conn:
            attempts = list(conn.execute(
                select(deliveries.c.pid, delivery_attempts.c.outcome)
                .join(deliveries, deliveries.c.id == delivery_attempts.c.delivery_id)
                .where(deliveries.c.endpoint_id == endpoint_id)))
        return Killed(ids, list(hook.before), sent_while_leased, still_leased, list(hook.after),
                      Counter(row.status for row in _rows(env, endpoint_id)),
                      Counter(row.pid for row in attempts), Counter(row.outcome for row in attempts))


# -- what it showed -------------------------------------------------------------------------------------

def test_no_other_worker_claims_a_killed_workers_deliveries_while_its_lease_runs(killed: Killed) -> None:
    assert killed.sent_while_leased == 0
    assert killed.leased_after_that_pass == DELIVERIES


def test_every_delivery_a_killed_worker_held_arrives_after_its_lease_lapses(killed: Killed) -> None:
    lost = killed.ids - set(killed.sent_after_lapse)
    assert not lost, f"{len(lost)} of {DELIVERIES} deliveries never sent again, e.g. {sorted(lost)[:3]}"


@pytest.mark.rule("webhook.delivery.at-least-once")
def test_every_delivery_a_killed_worker_held_ends_delivered(killed: Killed) -> None:
    assert killed.statuses == Counter({"delivered": DELIVERIES})


@pytest.mark.rule("webhook.delivery.at-least-once")
def test_only_the_requests_the_killed_worker_had_made_arrive_twice(env: Env, killed: Killed) -> None:
    """At least once: what the killed worker had sent (answered or not) is sent again, nothing else is."""
    received = Counter(killed.sent_by_killed + killed.sent_after_lapse)
    duplicates = {delivery: n for delivery, n in received.items() if n > 1}
    lost = len(killed.ids - set(received))
    print(f"\n[{env.backend}] kill -9 holding {DELIVERIES} leased deliveries: {len(killed.sent_by_killed)} requests "
          f"made before the kill ({ANSWERED_FIRST} answered 200), {len(killed.sent_after_lapse)} after the lease "
          f"lapsed, {len(duplicates)} deliveries received twice, {lost} lost")
    assert len(duplicates) == len(killed.sent_by_killed) == SENT_BEFORE_KILL
    assert set(duplicates) == set(killed.sent_by_killed)
    assert set(duplicates.values()) == {2}


def test_every_request_the_killed_worker_made_is_recorded_as_an_attempt(killed: Killed) -> None:
    """Each attempt row is committed before its request goes out: the killed worker's requests are
    listed (``unknown``: it died before recording their answers), one row per request received."""
    assert killed.attempts == Counter(killed.sent_by_killed + killed.sent_after_lapse)
    assert killed.outcomes == Counter({"unknown": SENT_BEFORE_KILL, "succeeded": DELIVERIES})
