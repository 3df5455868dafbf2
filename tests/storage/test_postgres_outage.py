"""PostgreSQL faults, on a PostgreSQL of the tests' own that they stop, restart and kill connections of.

The server is started here with ``initdb`` and ``pg_ctl`` in a temporary directory on a free port
(as the ``postgres`` user when the tests run as root: ``initdb`` refuses root); the shared server
of the other tests is never touched. When it cannot be started the tests fail saying why.

What they hold the service to (docs/operator/health-and-metrics.md, ``storage/drivers/postgres.py``):

- with the database down, a request that needs it answers 503 in its surface's envelope with
  ``Retry-After`` within ``TESSERA_DATABASE_UNAVAILABLE_SECONDS`` (never a 500, never a hang), and so
  do requests in flight when the server is restarted;
- once the database is back, the first request succeeds within a second, however long the outage
  was, and readiness follows the database within a second both ways;
- a command whose connection died, or whose database went away under it, frees its
  ``Idempotency-Key``: its retry runs instead of answering 409 ``idempotency_in_progress``;
- commands retried with their keys across a restart take effect exactly once (one audit row, one
  outbox event each);
- call-audit rows whose write failed in an outage are kept, and written in order once it is back.
"""

from __future__ import annotations

import logging
import os
import pwd
import shutil
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from sqlalchemy import func, select
from starlette.testclient import TestClient

from storage.drivers.db import make_engine
from storage.openplatform.call_audit import CallAudit
from storage.schema.migrate import upgrade
from storage.schema.tables import audit_log, open_api_calls, outbox_events, records
from tessera.app import create_app
from tessera.background.worker import Worker
from tessera.core.clock import ShiftedClock
from tessera.demo import seed_demo
from tessera.runtime import build_runtime
from tests.conftest import DEMO_PASSWORD, Env, TenantUsers, make_settings
from tests.support.live_server import free_port, serve
from tests.support.openplatform import ASSETS, ASSIGN, Integration, new_key, seed_assets

pytestmark = pytest.mark.allows_5xx  # the 503s are the point (a 500 is asserted against by each test)

BOUND_SECONDS = 1.5  # TESSERA_DATABASE_UNAVAILABLE_SECONDS of the app under test
# What "within the bound" allows on top of it: this 2-core host is shared by other test runs.
SLACK_SECONDS = 0.5
RECOVERY_SECONDS = 1.0
# Long enough for psycopg_pool's doubling reconnect back-off (1, 2, 4, 8, 16 s...) to lag the
# database by many seconds, as it did before probes replaced the pool.
LONG_OUTAGE_SECONDS = 20.0


def _bindir() -> Path:
    found = shutil.which("pg_config")
    if found:
        out = subprocess.run([found, "--bindir"], capture_output=True, text=True, check=False).stdout.strip()
        if out and (Path(out) / "initdb").exists():
            return Path(out)
    for candidate in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (candidate / "initdb").exists():
            return candidate
    pytest.fail("No PostgreSQL server binaries (initdb, pg_ctl) found: install the postgresql package "
                "(pg_config --bindir names where they are).", pytrace=False)


class OwnPostgres:
    """A PostgreSQL cluster of this module: initdb into a temporary directory, pg_ctl to drive it."""

    def __init__(self) -> None:
        self.bindir = _bindir()
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="tessera-own-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.user: str | None = None
        if os.geteuid() == 0:  # initdb and postgres refuse to run as root
            self.user = "postgres"
            try:
                entry = pwd.getpwnam(self.user)
            except KeyError:
                pytest.fail("Running as root and there is no `postgres` user to run initdb as.", pytrace=False)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/tessera"

    def _run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False,
                              stdin=subprocess.DEVNULL)

    def _checked(self, *args: str) -> None:
        result = self._run(*args)
        if result.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            pytest.fail(f"`{' '.join(args[:2])}` failed ({result.returncode}): {result.stderr.strip()}\n{log}",
                        pytrace=False)

    def init(self) -> None:
        self._checked("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                      "--no-sync", "--no-instructions")
        self.start()
        with psycopg.connect(self.url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
            conn.execute("CREATE DATABASE tessera")

    @property
    def _options(self) -> str:
        return (f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={self.root} "
                "-c fsync=off -c synchronous_commit=off -c full_page_writes=off")

    def start(self) -> None:
        # The server's output goes to the log (``-l``), never to this process's pipes, which it
        # would hold open for as long as it runs.
        self._checked("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", self._options, "-w", "-t", "60",
                      "start")

    def stop(self) -> None:
        self._checked("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def restart(self) -> None:
        self._checked("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", self._options, "-m", "fast", "-w",
                      "-t", "60", "restart")

    def running(self) -> bool:
        return self._run("pg_ctl", "-D", str(self.data), "status").returncode == 0

    def connect(self) -> psycopg.Connection[Any]:
        return psycopg.connect(self.url, autocommit=True, connect_timeout=5)

    def destroy(self) -> None:
        if self.running():
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


@dataclass
class Outage:
    """The app on the module's own PostgreSQL, served over HTTP, with a tenant and an installation."""

    pg: OwnPostgres
    env: Env
    base: str
    tenant: TenantUsers
    integration: Integration

    def read(self, pid: str) -> httpx.Response:
        return httpx.get(f"{self.base}{ASSETS}/{pid}", headers=self.integration.auth, timeout=30)

    def assign(self, pid: str, assignee: str, *, if_match: str, key: str) -> httpx.Response:
        return httpx.post(f"{self.base}{ASSIGN}", json={"targetPid": pid, "input": {"assignee": assignee}},
                          headers={**self.integration.auth, "If-Match": if_match, "Idempotency-Key": key},
                          timeout=30)

    def session_list(self) -> httpx.Response:
        return httpx.get(f"{self.base}/api/dynamic/assets/list", headers=self.session, timeout=30)

    def ready(self) -> httpx.Response:
        return httpx.get(f"{self.base}/api/health/ready", timeout=30)

    @property
    def session(self) -> dict[str, str]:
        return self.tenant.headers()


@pytest.fixture(scope="module")
def own_pg() -> Iterator[OwnPostgres]:
    pg = OwnPostgres()
    try:
        pg.init()
        yield pg
    finally:
        pg.destroy()


@pytest.fixture(scope="module")
def outage_app(own_pg: OwnPostgres, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Outage]:
    tmp = tmp_path_factory.mktemp("outage")
    settings = make_settings(tmp, own_pg.url, TESSERA_DATABASE_UNAVAILABLE_SECONDS=str(BOUND_SECONDS),
                             TESSERA_WORKERS_IN_PROCESS="false",
                             # Retries through outages are many calls; rate limits are not under test here.
                             TESSERA_RATE_LIMIT_OPEN="100000", TESSERA_RATE_LIMIT_READ="100000",
                             TESSERA_RATE_LIMIT_WRITE="100000")
    upgrade(settings.database_url)
    runtime = build_runtime(settings, clock=ShiftedClock())
    sql = make_engine(settings.database_url, pool_pre_ping=True)
    with TestClient(create_app(settings, runtime), raise_server_exceptions=False) as client, \
            serve(create_app(settings, runtime)) as base:
        env = Env("postgresql", runtime, client, settings.database_url, sql)
        env.run(seed_demo, runtime, DEMO_PASSWORD)
        tenant = env.new_tenant()
        yield Outage(own_pg, env, base, tenant, Integration(env, tenant))
    sql.dispose()
    runtime.close()


@pytest.fixture
def outage(outage_app: Outage) -> Iterator[Outage]:
    """The app, with its database running when the test starts and when it ends."""
    if not outage_app.pg.running():
        outage_app.pg.start()
    # Both event loops (the HTTP server's, and the test client's that seeds rows) have found out
    # that the database is back: a write is never retried, and a pooled connection that died
    # with the last restart would answer the seeding with 503.
    _until(lambda: outage_app.ready().status_code == 200, 10, "the app is ready")
    _until(lambda: outage_app.env.run(outage_app.env.runtime.db.ping), 10, "the test client's pool is back")
    yield outage_app
    if not outage_app.pg.running():
        outage_app.pg.start()


def _until(check: Callable[[], bool], within: float, what: str, every: float = 0.02) -> float:
    """Seconds until ``check`` held (polled every ``every`` s); fails past ``within``."""
    started = time.monotonic()
    while not check():
        if time.monotonic() - started > within:
            pytest.fail(f"not within {within} s: {what}")
        time.sleep(every)
    return time.monotonic() - started


def _timed(call: Callable[[], httpx.Response]) -> tuple[httpx.Response, float]:
    started = time.monotonic()
    response = call()
    return response, time.monotonic() - started


def _assert_unavailable(response: httpx.Response, surface: str) -> None:
    assert response.status_code == 503, response.text
    assert response.headers["Retry-After"] == "1"
    body = response.json()
    if surface == "open":
        assert body["code"] == "service_unavailable"
        assert body["requestId"] == response.headers["X-Request-Id"]
        assert body["details"] == {}
    else:
        assert body["code"] == "SERVICE_UNAVAILABLE"
        assert body["data"] is None
    assert body["message"]


def _blocked_backends(pg: OwnPostgres) -> list[int]:
    """Backends of the app waiting on a row lock (a command whose record another session holds)."""
    with pg.connect() as conn:
        rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = 'tessera' "
                            "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()").fetchall()
    return [int(r[0]) for r in rows]


class RowHolder:
    """Another session that locks a record until told to let go (or until its server goes away)."""

    def __init__(self, pg: OwnPostgres, pid: str) -> None:
        self.conn = psycopg.connect(pg.url, connect_timeout=5)
        self.conn.execute("SELECT id FROM records WHERE pid = %s FOR UPDATE", (pid,))

    def release(self) -> None:
        try:
            self.conn.rollback()
            self.conn.close()
        except psycopg.Error:  # its server was stopped under it
            pass


def _command_blocked_on(outage: Outage, pid: str, key: str) -> tuple[ThreadPoolExecutor, Future[httpx.Response],
                                                                       RowHolder]:
    """An assign of ``pid`` sent with ``key``, stuck on the record's row lock (its key claimed)."""
    tag = outage.read(pid).headers["ETag"]
    holder = RowHolder(outage.pg, pid)
    pool = ThreadPoolExecutor(1)
    future = pool.submit(outage.assign, pid, "dana", if_match=tag, key=key)
    _until(lambda: bool(_blocked_backends(outage.pg)), 10, "the command waits on the row lock")
    return pool, future, holder


# -- fail fast ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("surface_call", ["open read", "open command", "session list"])
def test_an_outage_answers_503_with_retry_after_within_the_bound(outage: Outage, surface_call: str) -> None:
    pid = seed_assets(outage.tenant, 1, prefix="DOWN")[0]
    tag = outage.read(pid).headers["ETag"]
    session = outage.session
    calls: dict[str, Callable[[], httpx.Response]] = {
        "open read": lambda: outage.read(pid),
        "open command": lambda: outage.assign(pid, "dana", if_match=tag, key=new_key()),
        "session list": lambda: httpx.get(f"{outage.base}/api/dynamic/assets/list", headers=session, timeout=30),
    }
    outage.pg.stop()
    for _ in range(3):  # the first finds the pool's connections dead, the next ones a database known down
        response, took = _timed(calls[surface_call])
        _assert_unavailable(response, "session" if surface_call == "session list" else "open")
        assert took < BOUND_SECONDS + SLACK_SECONDS, took


def test_the_token_endpoint_answers_503_in_the_oauth_envelope_during_an_outage(outage: Outage) -> None:
    cred = outage.integration.cred
    form = {"grant_type": "client_credentials", "client_id": cred["clientId"], "client_secret": cred["clientSecret"]}
    outage.pg.stop()
    response, took = _timed(lambda: httpx.post(f"{outage.base}/oauth2/token", data=form, timeout=30))
    _assert_unavailable(response, "open")
    assert response.json()["error"] == "server_error"  # RFC 6749's code for it; `code` is the precise one
    assert response.headers["Cache-Control"] == "no-store"
    assert took < BOUND_SECONDS + SLACK_SECONDS, took


def test_requests_in_flight_during_a_fast_restart_answer_503_never_500(outage: Outage) -> None:
    pids = seed_assets(outage.tenant, 2, prefix="FLIGHT")
    pool, cut, holder = _command_blocked_on(outage, pids[0], new_key())
    statuses: list[int] = []
    stop = threading.Event()

    def reads() -> None:
        while not stop.is_set():
            statuses.append(outage.read(pids[1]).status_code)
            time.sleep(0.01)

    with pool, ThreadPoolExecutor(1) as reader:
        loop = reader.submit(reads)
        time.sleep(0.2)
        outage.pg.restart()  # the blocked command's backend is shut down under it (AdminShutdown)
        response = cut.result(30)
        time.sleep(0.3)
        stop.set()
        loop.result(30)
    holder.release()
    _assert_unavailable(response, "open")
    assert set(statuses) <= {200, 503}, statuses
    assert statuses[-1] == 200  # and the reads came back with the database


# -- recover at once ----------------------------------------------------------------------------------
def test_the_first_request_after_a_long_outage_succeeds_within_a_second(outage: Outage) -> None:
    pid = seed_assets(outage.tenant, 1, prefix="BACK")[0]
    outage.pg.stop()
    ended = time.monotonic() + LONG_OUTAGE_SECONDS
    while time.monotonic() < ended:  # requests keep coming during the outage, as in production
        assert outage.read(pid).status_code == 503
        time.sleep(0.5)
    outage.pg.start()  # returns once the server accepts connections
    took = _until(lambda: outage.read(pid).status_code == 200, RECOVERY_SECONDS, "the first 200 after the outage")
    assert took < RECOVERY_SECONDS


def test_call_audit_rows_queued_through_an_outage_are_written_in_order_once_it_is_back(outage: Outage) -> None:
    env = outage.env
    audit = CallAudit(env.runtime.db, env.runtime.clock, flush_seconds=3600.0)  # only the passes below write
    marker = f"outage-audit-{uuid.uuid4().hex[:10]}"

    async def queue_then_write() -> int:
        for i in range(3):
            audit.record(installation_id=None, tenant_id=outage.tenant.tenant_id, client_id=None, method="GET",
                         path="/api/open/v1/whoami", status=503, request_id=f"{marker}-{i}")
        await audit.flush()
        return audit.pending

    outage.pg.stop()
    assert env.run(queue_then_write) == 3  # the pass failed: every row is kept
    outage.pg.start()
    _until(lambda: env.run(env.runtime.db.ping), 10, "the database answers the app's loop")
    env.run(audit.close)  # its last pass
    assert audit.pending == 0
    with env.sql.connect() as conn:
        written = conn.execute(select(open_api_calls.c.request_id).where(open_api_calls.c.request_id.like(
            f"{marker}-%")).order_by(open_api_calls.c.id)).scalars().all()
    assert written == [f"{marker}-0", f"{marker}-1", f"{marker}-2"]


def test_readiness_follows_the_database_both_ways_within_a_second(outage: Outage) -> None:
    assert outage.ready().json()["data"] == {"status": "up", "database": "up", "databaseWrite": "up"}
    outage.pg.stop()
    down = _until(lambda: outage.ready().status_code == 503, RECOVERY_SECONDS, "readiness says 503")
    body = outage.ready().json()
    assert body["code"] == "SERVICE_UNAVAILABLE"
    assert body["data"] == {"status": "down", "database": "down", "databaseWrite": "down"}
    time.sleep(3)  # a few seconds down, so the pool has started backing off
    outage.pg.start()
    up = _until(lambda: outage.ready().status_code == 200, RECOVERY_SECONDS, "readiness says 200 again")
    assert down < RECOVERY_SECONDS and up < RECOVERY_SECONDS


def test_readiness_names_the_write_check_when_the_database_refuses_writes(outage: Outage) -> None:
    with outage.pg.connect() as conn:
        conn.execute("ALTER DATABASE tessera SET default_transaction_read_only = on")
    try:
        outage.pg.restart()  # every new session is read-only; reads still answer
        read_only = {"status": "down", "database": "up", "databaseWrite": "down"}
        _until(lambda: outage.ready().json()["data"] == read_only, 5, "readiness names the write check")
        response = outage.ready()
        assert response.status_code == 503
        assert response.json()["message"] == "The database does not accept writes."
    finally:
        with outage.pg.connect() as conn:
            conn.execute("SET default_transaction_read_only = off")
            conn.execute("ALTER DATABASE tessera RESET default_transaction_read_only")
        outage.pg.restart()
    _until(lambda: outage.ready().status_code == 200, 5, "readiness says 200 again")


# -- the key of a failed command ----------------------------------------------------------------------
def test_a_command_whose_connection_was_killed_frees_its_key(outage: Outage) -> None:
    pid = seed_assets(outage.tenant, 1, prefix="KILL")[0]
    key = new_key()
    pool, cut, holder = _command_blocked_on(outage, pid, key)
    with pool, outage.pg.connect() as conn:
        for backend in _blocked_backends(outage.pg):
            conn.execute("SELECT pg_terminate_backend(%s)", (backend,))
        response = cut.result(30)
    holder.release()
    _assert_unavailable(response, "open")
    # A killed connection may have failed the probe that follows it: for its 0.2 s the service answers
    # 503 with Retry-After, and a client asks again (seen in a fresh clone: the read got that 503).
    read = _answered(lambda: outage.read(pid))
    assert read.status_code == 200, read.text
    retry = _answered(lambda: outage.assign(pid, "dana", if_match=read.headers["ETag"], key=key))
    assert retry.status_code == 200, retry.text
    assert retry.json()["idempotentReplay"] is False


def _answered(send: Callable[[], httpx.Response]) -> httpx.Response:
    """As a client does on 503: again until the database answers, within the issue's 1 s bound."""
    deadline = time.monotonic() + 1.0
    response = send()
    while response.status_code == 503 and time.monotonic() < deadline:
        time.sleep(0.05)
        response = send()
    return response


def test_a_command_cut_by_a_stopped_database_frees_its_key_once_it_is_back(outage: Outage) -> None:
    pid = seed_assets(outage.tenant, 1, prefix="STOP")[0]
    tag = outage.read(pid).headers["ETag"]
    key = new_key()
    pool, cut, holder = _command_blocked_on(outage, pid, key)
    with pool:
        outage.pg.stop()  # the release cannot run now: it is owed to the database
        response = cut.result(30)
    holder.release()
    _assert_unavailable(response, "open")
    outage.pg.start()
    # As a client does on 503: again until the database answers, within the 1 s bound (a
    # probe that failed just before the start answers its 0.2 s with 503). Never 409: the key is free.
    deadline = time.monotonic() + 1.0
    retry = outage.assign(pid, "dana", if_match=tag, key=key)
    while retry.status_code == 503 and time.monotonic() < deadline:
        time.sleep(0.05)
        retry = outage.assign(pid, "dana", if_match=tag, key=key)
    assert retry.status_code == 200, retry.text
    assert retry.json()["idempotentReplay"] is False


# -- exactly once ---------------------------------------------------------------------------------------
def _until_done(send: Callable[[], httpx.Response], seen: list[int]) -> httpx.Response:
    """Send until 200, as a retrying client does: the same request (and key) after each 503 or 409."""
    deadline = time.monotonic() + 60
    while True:
        response = send()
        seen.append(response.status_code)
        if response.status_code == 200 or time.monotonic() > deadline:
            return response
        assert response.status_code in (503, 409), response.text  # never a 500
        time.sleep(float(response.headers.get("Retry-After", "1")) / 5)


def test_commands_retried_with_their_keys_across_a_restart_take_effect_exactly_once(outage: Outage) -> None:
    pids = seed_assets(outage.tenant, 60, prefix="ONCE")
    tags = {pid: outage.read(pid).headers["ETag"] for pid in pids}
    session = outage.session
    names = [f"once-{uuid.uuid4().hex[:12]}" for _ in range(20)]
    seen: list[int] = []

    def assign(pid: str) -> httpx.Response:
        key = f"once-{uuid.uuid4().hex}"
        return _until_done(lambda: outage.assign(pid, f"user-{pid[-6:]}", if_match=tags[pid], key=key), seen)

    def create(name: str) -> httpx.Response:  # a session command, its key in X-Idempotent-Key
        headers = {**session, "X-Idempotent-Key": f"key-{name}"}
        return _until_done(lambda: httpx.post(
            f"{outage.base}/api/meta/commands/execute/assets:create", headers=headers, timeout=30,
            json={"payload": {"name": name, "serialNo": f"SN-{name}"}}), seen)

    # One command is held on its record's row lock, so the restart cuts at least that one in the
    # middle of its transaction (how many of the others it cuts is up to the moment it comes).
    holder = RowHolder(outage.pg, pids[0])
    cut: list[int] = []
    with ThreadPoolExecutor(1) as held, ThreadPoolExecutor(6) as pool:
        key = f"once-{uuid.uuid4().hex}"
        first = held.submit(_until_done, lambda: outage.assign(pids[0], f"user-{pids[0][-6:]}",
                                                               if_match=tags[pids[0]], key=key), cut)
        _until(lambda: bool(_blocked_backends(outage.pg)), 10, "the held command waits on the row lock")
        futures = [first, *(pool.submit(assign, pid) for pid in pids[1:]),
                   *(pool.submit(create, name) for name in names)]
        _until(lambda: len(seen) >= 6, 30, "the first commands answered")
        outage.pg.restart()  # in the middle of the batch, and of the held command's transaction
        results = [f.result(90) for f in futures]
    holder.release()
    assert all(r.status_code == 200 for r in results), [r.text for r in results if r.status_code != 200]
    assert cut[0] == 503  # the restart did cut through the batch
    created = [r.json()["data"]["id"] for r in results[len(pids):]]
    with outage.env.sql.connect() as conn:
        audited: dict[str, int] = dict(conn.execute(
            select(audit_log.c.target_id, func.count()).where(audit_log.c.target_id.in_(pids + created))
            .group_by(audit_log.c.target_id)).all())
        events = conn.execute(select(outbox_events.c.payload).where(
            outbox_events.c.tenant_id == outage.tenant.tenant_id,
            outbox_events.c.event_type == "assets.assignment.changed")).scalars().all()
        rows = conn.execute(select(records.c.data).where(
            records.c.tenant_id == outage.tenant.tenant_id, records.c.model == "asset")).scalars().all()
    per_pid = {pid: sum(1 for e in events if e["pid"] == pid) for pid in pids}
    per_name = {name: sum(1 for data in rows if data.get("name") == name) for name in names}
    # One audit row per change: the seeded assets were written straight through the repository.
    assert audited == dict.fromkeys(pids + created, 1)
    assert per_pid == dict.fromkeys(pids, 1)
    assert per_name == dict.fromkeys(names, 1)


def test_a_worker_pauses_once_through_an_outage_and_resumes_with_the_work_queued_before_it(
        outage: Outage, caplog: pytest.LogCaptureFixture) -> None:
    worker = Worker(outage.env.runtime, tenant_id=outage.tenant.tenant_id)
    pid = seed_assets(outage.tenant, 1, prefix="PAUSE")[0]
    tag = outage.read(pid).headers["ETag"]
    assert outage.assign(pid, "before-outage", if_match=tag, key=new_key()).status_code == 200
    assert _undispatched(outage, pid) == 1  # its event waits in the outbox
    outage.pg.stop()
    with caplog.at_level(logging.INFO, logger="tessera.worker"):
        for _ in range(3):
            assert outage.env.run(worker.guarded_pass) == 0
        assert worker.paused
        outage.pg.start()
        _until(lambda: not outage.env.run(worker.guarded_pass) and not worker.paused, 10, "a pass succeeds")
    said = [record.getMessage() for record in caplog.records if record.name == "tessera.worker"]
    assert said == ["worker.paused", "worker.resumed"]  # once per outage, and no failure traces
    assert _undispatched(outage, pid) == 0


def _undispatched(outage: Outage, pid: str) -> int:
    """Events about ``pid`` still in the outbox (the module's other tests leave events of their own)."""
    with outage.env.sql.connect() as conn:
        waiting = conn.execute(select(outbox_events.c.payload).where(
            outbox_events.c.tenant_id == outage.tenant.tenant_id, outbox_events.c.dispatched_at.is_(None))).scalars()
        return sum(1 for payload in waiting if payload.get("pid") == pid)
