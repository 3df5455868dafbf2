"""Benchmark of Tessera's outbound webhook delivery on PostgreSQL, against a bare signed-POST loop.

    .venv/bin/python benchmarks/webhooks.py [--events 2000] [--endpoints 2] [--workers 2] [--rate 50]
        [--duration 20] [--poll 0.05] [--keep-db] [--results-file benchmarks/results/webhooks.json]

What is measured:

* ``deliveries/s``: how fast Tessera's workers empty a backlog, outbox to receiver, with one worker and
  with ``--workers`` workers (each a ``tessera worker --threads 1`` process, the scale-out the
  service documents: several workers share the work through leases claimed with ``FOR UPDATE SKIP
  LOCKED``). ``--events`` outbox rows are appended with ``storage.outbox.append`` (the payload
  ``assets.assignment.changed`` gets from the capability registry, for a demo asset whose assignee
  changes, and a request id: exactly the row a committed ``assets.assign`` command writes) in ONE
  transaction, which is held open until the worker processes have started and commits at t0; every
  event goes to ``--endpoints`` subscribed endpoints, so one run is events x endpoints deliveries.
  The figure is deliveries / (last request at the receiver - t0): fan-out (``dispatch``), leases,
  attempts, signing and the POSTs, all included. A worker pass fans out up to 200 events (one
  ``deliveries`` insert per endpoint each) and then delivers up to 20, so on a backlog the fan-out
  runs ahead of delivery: ``fan-out s`` is t0 to the start of the last dispatch pass of the run (the
  latest ``dispatched_at``), ``then/s`` the delivery rate from there to the end (delivery alone).
* the baseline, in the same run: the same number of POSTs with the same bytes (the bodies Tessera
  delivered in its one-worker run, the same delivery and request ids, each endpoint's secret), signed
  the same way (HMAC-SHA-256 of ``<timestamp>.<body>``, the same headers), sent by a bare loop with
  ``httpx.Client`` (``benchmarks/_webhook_peers.py send``) and no database: one loop process for the
  one-worker row, ``--workers`` loop processes (the jobs dealt round-robin) for the other. t0 is a
  start time all loops wait for. The ratio tessera/baseline is the cost of the outbox, lease and
  attempt bookkeeping (plus the per-attempt URL check and secret unsealing, whose in-process cost is
  printed separately so it can be told apart). Order: tessera 1, baseline 1, baseline N, tessera N
  (ABBA).
* ``event-to-delivery latency``: one ``tessera worker`` process runs continuously while this process
  runs real ``assets.assign`` commands through ``tessera.openplatform.commands.execute.execute`` (a caller
  from a real client-credentials token, If-Match from the previous outcome, a unique Idempotency-Key
  and a unique assignee per command, rotating over the demo tenant's assets) at ``--rate`` commands
  a second for ``--duration`` seconds. Latency of each delivery = the wall-clock time at which the
  receiver got the request - the wall-clock time at which ``execute`` returned (its transaction had
  committed); also from the outbox row's ``occurred_at`` (set inside the transaction, so slightly
  earlier). p50/p95/p99/max over all deliveries (every event goes to every subscribed endpoint).
  The worker sleeps ``TESSERA_WORKER_POLL_SECONDS`` (``--poll``) when a pass finds nothing, which
  bounds the latency from below on an idle queue.

The receiver (``benchmarks/_webhook_peers.py receive``) is a bare ASGI app under uvicorn (uvloop,
httptools) in its own process on 127.0.0.1: it answers 204 at once and keeps the time, path, headers
and raw body of every request. A bare httpx loop got about 10% more requests a second out of it than
out of a threaded ``http.server`` on this host, and it does not share a GIL with anything else.

Setup (in process, through the services): a fresh PostgreSQL database (as ``benchmarks/session_list.py``),
migrated; the demo data (``tessera.demo.seed_demo``: tenant ``demo`` with 120 assets); as
``admin@demo.example`` an application installed into ``demo`` (``production``, ``assets.read
assets.manage``), ``--endpoints`` endpoints subscribed to ``assets.assignment.changed`` plus one
control endpoint subscribed only to ``inventory.stock-in.created`` (it must receive nothing), all on
the receiver, through ``tessera.events.endpoints.create_endpoint`` (which returns each secret
once). ``TESSERA_WEBHOOK_ALLOW_LOOPBACK=true``; worker logs are JSON at WARNING, as the other
benchmarks run the server (the per-attempt INFO line is therefore not written).

Checks (exit status 1 when one fails), after every run: each event has exactly one delivery per
subscribed endpoint and none for the control endpoint; the receiver got each ``X-Webhook-Delivery``
exactly once, on the path of its endpoint, with the body of its event (id and type), Tessera's
``Content-Type`` and ``User-Agent``, no ``X-Request-Id``; every signature verifies with the endpoint's
secret (``tessera.events.verify.verify``, at the time the request arrived); every delivery is
``delivered`` after one attempt answered 204. At the end: no delivery pending, retrying or dead and no
undispatched outbox row.

CPU columns are CPU milliseconds per delivery from ``/proc``: the senders (the worker processes, or
the baseline loops as they report it), the receiver, PostgreSQL (all its processes, as
``benchmarks/op_token.py`` counts them), ``bench`` (this process: it polls the receiver for progress)
and ``other``, the rest of the host. A run where the rest of the host took ``NOISY_PCT`` or more of
all CPUs, or where other databases had transactions, is flagged ``NOISY HOST`` (not a failure).
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import httpx
import op_token
import psycopg
import session_list as common
from sqlalchemy.engine import make_url

from storage import outbox
from storage.migrate import upgrade
from storage.types import utcnow
from tessera.core.settings import PROJECT_ROOT, load_settings
from tessera.demo import seed_demo
from tessera.events import endpoints as webhook_admin
from tessera.events import sending as deliveries
from tessera.events.urls import check_url
from tessera.events.verify import WebhookVerificationError, verify
from tessera.openplatform.commands import execute as op_commands
from tessera.openplatform.identity import applications, credentials, installations
from tessera.openplatform.resources import reads as op_resources
from tessera.openplatform.tokens import grants as op_tokens
from tessera.openplatform.tokens.grants import Caller
from tessera.runtime import Runtime, build_runtime
from tessera.session.auth.actors import resolve_actor
from tessera.session.auth.login import login

log = common.log

RESULTS_FILE = common.BENCH_DIR / "results" / "webhooks.json"
PEERS = common.BENCH_DIR / "_webhook_peers.py"
EVENT = "assets.assignment.changed"
CONTROL_EVENT = "inventory.stock-in.created"
COMMAND = "assets.assign"
ADMIN_EMAIL = "admin@demo.example"
TENANT = "demo"
# inventory.stockins.read: the control endpoint subscribes to inventory.stock-in.created, which needs it.
SCOPES = ["assets.read", "assets.manage", "inventory.stockins.read"]
NOISY_PCT = 20.0  # the rest of the host's share of all CPUs from which a run is flagged
SETTLE_SECONDS = 0.5  # after the last expected request: time for a duplicate to show
PROGRESS_SECONDS = 1.0
WORKER_READY_LINE = "Tessera worker running"
UNFINISHED = ("pending", "retrying", "dead")


# -- setup ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Endpoint:
    pid: str
    url: str
    path: str
    secret: str
    event_types: tuple[str, ...]


@dataclass
class Setup:
    caller: Caller
    endpoints: list[Endpoint]  # subscribed to EVENT
    control: Endpoint  # subscribed to CONTROL_EVENT only
    assets: list[dict[str, Any]]  # published representation of the demo tenant's assets
    etags: dict[str, str]
    seconds: float


def setup_tenant(rt: Runtime, receiver_url: str, endpoint_count: int) -> Setup:
    """Demo data, application, installation, endpoints, and an Open Platform caller, all through the services."""
    started = time.perf_counter()
    password = seed_demo(rt, secrets.token_urlsafe(16))
    session = login(rt, ADMIN_EMAIL, password, "bench-login")
    actor = resolve_actor(rt, session["jwt"], None)
    app = applications.create_application(rt, actor, {"name": "Webhook benchmark", "description": "webhooks.py"},
                                      "bench-setup")
    inst = installations.create_installation(rt, actor, app["appId"],
                                        {"tenantId": TENANT, "environment": "production", "scopes": SCOPES},
                                        "bench-setup")

    def endpoint(path: str, types: list[str]) -> Endpoint:
        made = webhook_admin.create_endpoint(rt, actor, inst["installationId"],
                                             {"url": receiver_url + path, "eventTypes": types}, "bench-setup")
        return Endpoint(made["endpointId"], made["url"], path, made["secret"], tuple(made["eventTypes"]))

    endpoints = [endpoint(f"/hook/{i}", [EVENT]) for i in range(endpoint_count)]
    control = endpoint("/hook/control", [CONTROL_EVENT])
    cred = credentials.create_credential(rt, actor, inst["installationId"], "bench-setup")
    token = op_tokens.issue(rt, {"grant_type": "client_credentials", "client_id": cred["clientId"],
                                 "client_secret": cred["clientSecret"]}, None, {}, "bench-setup")["access_token"]
    caller = op_tokens.validate(rt, token)
    assets = op_resources.list_page(rt, caller, "assets", 200, None)["items"]
    etags = {a["pid"]: op_resources.read(rt, caller, "assets", a["pid"])[1] for a in assets}
    return Setup(caller, endpoints, control, assets, etags, time.perf_counter() - started)


def non_db_costs(rt: Runtime, endpoint: Endpoint, database_url: str, rounds: int = 2000) -> dict[str, float]:
    """Microseconds per attempt of the steps ``deliveries.attempt`` takes besides the database and the POST."""
    with psycopg.connect(database_url) as conn:
        row = conn.execute("SELECT s.secret_encrypted FROM webhook_secrets s JOIN webhook_endpoints e "
                           "ON e.id = s.endpoint_id WHERE e.pid = %s", (endpoint.pid,)).fetchone()
    assert row is not None
    sealed = str(row[0])
    fake = cast(Any, SimpleNamespace(event_pid="evt_" + "x" * 26, event_type=EVENT, occurred_at=utcnow(),
                                     payload={"pid": "ast_" + "x" * 26, "assignee": "bench-000001",
                                              "status": "assigned", "previousAssignee": "alice"}))
    costs: dict[str, float] = {}
    steps = {
        "check_url": lambda: check_url(endpoint.url, allow_loopback=True),
        "unseal_secret": lambda: rt.sealed_secrets.open(sealed),
        "body_and_signature": lambda: deliveries.signature(endpoint.secret, int(time.time()),
                                                           deliveries.body_of(fake)),
    }
    for name, step in steps.items():
        started = time.perf_counter()
        for _ in range(rounds):
            step()
        costs[name] = round((time.perf_counter() - started) / rounds * 1e6, 1)
    return costs


# -- processes --------------------------------------------------------------------------------------

class Receiver:
    """The receiver process and its read-back API."""

    def __init__(self, env: dict[str, str], log_dir: Path) -> None:
        port = common.free_port()
        log_path = log_dir / "receiver.log"
        with log_path.open("wb") as log_file:
            process = subprocess.Popen([sys.executable, str(PEERS), "receive", "--port", str(port)], cwd=PROJECT_ROOT,
                                       env=env, stdout=log_file, stderr=subprocess.STDOUT)
        self.server = common.Server("receiver", f"http://127.0.0.1:{port}", process, log_path)
        self.client = httpx.Client(base_url=self.server.base_url, timeout=30)
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"the receiver exited with {process.returncode}:\n{self.server.log_tail()}")
            try:
                self.count()
                return
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    @property
    def pid(self) -> int:
        return self.server.process.pid

    def count(self) -> int:
        return int(self.client.get("/_count").json()["count"])

    def entries(self, start: int, end: int | None = None) -> list[Received]:
        params = {"from": str(start)} | ({"to": str(end)} if end is not None else {})
        return [Received(at, method, path, headers, base64.b64decode(body))
                for at, method, path, headers, body in self.client.get("/_log", params=params).json()]

    def stop(self) -> None:
        self.client.close()
        self.server.stop()


@dataclass(frozen=True)
class Received:
    at: float  # wall clock, seconds
    method: str
    path: str
    headers: dict[str, str]  # lower-case names
    body: bytes


def worker_command() -> list[str]:
    script = Path(sys.executable).parent / "tessera"
    if script.exists():
        return [str(script), "worker", "--threads", "1"]
    return [sys.executable, "-c", "import sys; from tessera.cli import main; sys.exit(main(['worker']))"]


def start_workers(count: int, env: dict[str, str], log_dir: Path, tag: str) -> list[common.Server]:
    """``count`` ``tessera worker`` processes, returned once each has printed that it runs."""
    workers = []
    for index in range(count):
        log_path = log_dir / f"worker-{tag}-{index}.log"
        with log_path.open("wb") as log_file:
            process = subprocess.Popen(worker_command(), cwd=PROJECT_ROOT, env=env, stdout=log_file,
                                       stderr=subprocess.STDOUT)
        workers.append(common.Server(f"worker {tag}-{index}", "", process, log_path))
    return workers


def wait_ready(workers: list[common.Server], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    for worker in workers:
        while WORKER_READY_LINE not in worker.log_path.read_text(errors="replace"):
            if worker.process.poll() is not None:
                raise RuntimeError(f"{worker.name} exited with {worker.process.returncode}:\n{worker.log_tail()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"{worker.name} did not start within {timeout:g} s:\n{worker.log_tail()}")
            time.sleep(0.05)


def stop_workers(workers: list[common.Server]) -> list[str]:
    """SIGTERM (the worker finishes its pass and exits); the log tail of any that died on its own."""
    problems = [f"{w.name} died during the run (exit {w.process.returncode}):\n{w.log_tail()}"
                for w in workers if w.process.poll() is not None]
    for worker in workers:
        if worker.process.poll() is None:
            worker.process.send_signal(signal.SIGTERM)
    for worker in workers:
        worker.stop()
    return problems


# -- CPU ----------------------------------------------------------------------------------------------

@dataclass
class CpuMark:
    host: tuple[float, float] | None
    postgres: float | None
    receiver: float | None
    main: float | None
    senders: float | None  # the worker processes; None for baseline loops (they report their own)
    other_db_xacts: int


def other_db_xacts(conn: psycopg.Connection[Any]) -> int:
    row = conn.execute("SELECT coalesce(sum(xact_commit + xact_rollback), 0) FROM pg_stat_database "
                       "WHERE datname IS DISTINCT FROM current_database()").fetchone()
    return int(row[0]) if row else 0


def cpu_mark(db: psycopg.Connection[Any], postmaster: int | None, receiver: Receiver,
             workers: list[common.Server] | None) -> CpuMark:
    senders = None
    if workers is not None:
        found = [common.process_cpu_seconds(w.process.pid) for w in workers]
        senders = None if any(v is None for v in found) else sum(v for v in found if v is not None)
    return CpuMark(common.host_cpu_seconds(), op_token.postgres_cpu_seconds(postmaster),
                   common.process_cpu_seconds(receiver.pid), common.process_cpu_seconds(os.getpid()), senders,
                   other_db_xacts(db))


def cpu_columns(before: CpuMark, after: CpuMark, deliveries_done: int,
                sender_cpu: float | None = None) -> dict[str, Any]:
    """CPU ms per delivery per source, host busy %, the rest of the host's share of all CPUs."""
    def delta(a: float | None, b: float | None) -> float | None:
        return None if a is None or b is None else b - a

    senders = sender_cpu if sender_cpu is not None else delta(before.senders, after.senders)
    parts = {"senders": senders, "receiver": delta(before.receiver, after.receiver),
             "postgres": delta(before.postgres, after.postgres), "main": delta(before.main, after.main)}
    per = max(1, deliveries_done) / 1000
    out: dict[str, Any] = {f"{k}_cpu_ms": None if v is None else round(v / per, 3) for k, v in parts.items()}
    out["other_db_xacts"] = after.other_db_xacts - before.other_db_xacts
    if before.host and after.host:
        busy, total = after.host[0] - before.host[0], after.host[1] - before.host[1]
        known = [v for v in parts.values() if v is not None]
        # Clamped: the sources tick separately, so on a quiet host the sum can overshoot by a little.
        other = max(0.0, busy - sum(known))
        out |= {"host_cpu_pct": round(100 * busy / total, 1) if total else 0.0,
                "other_cpu_ms": round(other / per, 3),
                "other_cpu_pct": round(100 * other / total, 1) if total else 0.0}
        out["cpu_seconds"] = {k: round(v, 3) for k, v in {**parts, "host_busy": busy, "host_capacity": total}.items()
                              if v is not None}
    return out


# -- waiting and checking ---------------------------------------------------------------------------

def wait_for_requests(receiver: Receiver, mark: int, expected: int, label: str, timeout: float) -> int:
    """Poll the receiver until ``expected`` requests arrived after ``mark`` (or the timeout); prints progress."""
    started = time.monotonic()
    last = started
    while True:
        got = receiver.count() - mark
        now = time.monotonic()
        if got >= expected or now - started > timeout:
            log(f"  {label}: {got:,} / {expected:,} requests received ({now - started:.1f} s)")
            return got
        if now - last >= PROGRESS_SECONDS:
            log(f"  {label}: {got:,} / {expected:,} requests received ({now - started:.1f} s)")
            last = now
        time.sleep(0.02)


def wait_until_finished(db: psycopg.Connection[Any], outbox_mark: int, timeout: float = 30.0) -> None:
    """Until no delivery of the run's events is still due or leased (the last attempt's row is written after
    the receiver answered) and every event is dispatched."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        row = db.execute(
            "SELECT (SELECT count(*) FROM outbox_events WHERE id > %s AND dispatched_at IS NULL), "
            "(SELECT count(*) FROM deliveries d JOIN outbox_events e ON e.id = d.event_id WHERE e.id > %s "
            "AND (d.status IN ('pending', 'retrying') OR d.locked_until IS NOT NULL))",
            (outbox_mark, outbox_mark)).fetchone()
        if row is not None and row[0] == 0 and row[1] == 0:
            return
        time.sleep(0.05)


def outbox_mark(db: psycopg.Connection[Any]) -> int:
    row = db.execute("SELECT coalesce(max(id), 0) FROM outbox_events").fetchone()
    return int(row[0]) if row else 0


@dataclass(frozen=True)
class DeliveryRow:
    pid: str
    event_id: str
    request_id: str | None
    occurred_at: float  # epoch seconds
    endpoint_pid: str
    status: str
    attempts: int
    last_http_status: int | None
    attempt_rows: int
    attempt_ok_rows: int


def deliveries_since(db: psycopg.Connection[Any], mark: int) -> tuple[list[DeliveryRow], dict[str, Any]]:
    """The run's deliveries (those of events after ``mark``) and its events by event id."""
    events = {r[0]: {"request_id": r[1], "occurred_at": r[2].timestamp(), "type": r[3]} for r in db.execute(
        "SELECT event_id, request_id, occurred_at, event_type FROM outbox_events WHERE id > %s", (mark,))}
    rows = [DeliveryRow(r[0], r[1], r[2], r[3].timestamp(), r[4], r[5], r[6], r[7], r[8], r[9]) for r in db.execute(
        "SELECT d.pid, e.event_id, e.request_id, e.occurred_at, w.pid, d.status, d.attempts, d.last_http_status, "
        "(SELECT count(*) FROM delivery_attempts a WHERE a.delivery_id = d.id), "
        "(SELECT count(*) FROM delivery_attempts a WHERE a.delivery_id = d.id AND a.http_status = 204) "
        "FROM deliveries d JOIN outbox_events e ON e.id = d.event_id JOIN webhook_endpoints w ON w.id = d.endpoint_id "
        "WHERE e.id > %s ORDER BY d.id", (mark,))]
    return rows, events


def check_requests(received: list[Received], expected: dict[str, tuple[Endpoint, str, str | None]],
                   prefix: str = "", event_type: str = EVENT) -> tuple[list[str], dict[str, Any]]:
    """Each expected delivery (id -> endpoint, event id, request id) arrived exactly once, where and as it
    should (a body of ``event_type``), with a signature that verifies; nothing else arrived. (problems,
    counts). ``benchmarks/scaleout.py`` uses it too."""
    problems: list[str] = []
    by_delivery = Counter(r.headers.get("x-webhook-delivery", "") for r in received)
    duplicates = {k: n for k, n in by_delivery.items() if n > 1}
    missing = sorted(set(expected) - set(by_delivery))
    unexpected = sorted(set(by_delivery) - set(expected))
    if duplicates:
        problems.append(f"{len(duplicates)} deliveries received more than once, e.g. "
                        f"{dict(list(duplicates.items())[:3])}")
    if missing:
        problems.append(f"{len(missing)} deliveries never received, e.g. {missing[:3]}")
    if unexpected:
        problems.append(f"{len(unexpected)} unexpected delivery ids received, e.g. {unexpected[:3]}")
    wrong: Counter[str] = Counter()
    bad_signatures: Counter[str] = Counter()
    verified = 0
    for request in received:
        found = expected.get(request.headers.get("x-webhook-delivery", ""))
        if found is None:
            continue
        endpoint, event_id, _request_id = found
        if request.method != "POST" or request.path != prefix + endpoint.path:
            wrong[f"{request.method} {request.path} instead of POST {prefix}{endpoint.path}"] += 1
        try:
            document = json.loads(request.body)
        except ValueError:
            wrong["body is not JSON"] += 1
            document = {}
        if document.get("id") != event_id or document.get("type") != event_type:
            wrong["body of another event"] += 1
        if request.headers.get("content-type") != "application/json":
            wrong[f"Content-Type {request.headers.get('content-type')!r}"] += 1
        if request.headers.get("user-agent") != deliveries.USER_AGENT:
            wrong[f"User-Agent {request.headers.get('user-agent')!r}"] += 1
        if "x-request-id" in request.headers:  # the originating call's id stays inside Tessera
            wrong["X-Request-Id sent to the receiver"] += 1
        try:
            verify(request.body, request.headers, endpoint.secret, now=request.at)
            verified += 1
        except WebhookVerificationError as exc:
            bad_signatures[exc.reason] += 1
    if wrong:
        problems.append(f"requests not as expected: {dict(wrong.most_common(5))}")
    if bad_signatures:
        problems.append(f"{sum(bad_signatures.values())} signatures did not verify: {dict(bad_signatures)}")
    counts = {"received": len(received), "distinct_deliveries": len(by_delivery), "duplicates": len(duplicates),
              "missing": len(missing), "unexpected": len(unexpected),
              "signatures_verified": verified}
    return problems, counts


def check_deliveries(rows: list[DeliveryRow], events: dict[str, Any], endpoints: list[Endpoint],
                     control: Endpoint) -> list[str]:
    """Exactly one delivery per event and subscribed endpoint, none for the control endpoint, all
    delivered by one 204 attempt. ``benchmarks/scaleout.py`` uses it too."""
    problems: list[str] = []
    pairs = Counter((r.event_id, r.endpoint_pid) for r in rows)
    want = {(event_id, e.pid) for event_id in events for e in endpoints}
    if set(pairs) != want or any(n != 1 for n in pairs.values()):
        problems.append(f"deliveries: {len(rows)} for {len(pairs)} (event, endpoint) pairs, expected exactly one "
                        f"for each of {len(want)}; missing {len(want - set(pairs))}, extra {len(set(pairs) - want)}")
    misdirected = sum(1 for r in rows if r.endpoint_pid == control.pid)
    if misdirected:
        problems.append(f"{misdirected} deliveries for the control endpoint (subscribed to "
                        f"{', '.join(control.event_types)} only)")
    statuses = Counter(r.status for r in rows)
    if set(statuses) - {"delivered"}:
        problems.append(f"delivery statuses: {dict(statuses)}")
    odd = [r.pid for r in rows if r.attempts != 1 or r.last_http_status != 204 or r.attempt_rows != 1
           or r.attempt_ok_rows != 1]
    if odd:
        problems.append(f"{len(odd)} deliveries not delivered by exactly one 204 attempt, e.g. {odd[:3]}")
    return problems


# -- runs -----------------------------------------------------------------------------------------------

@dataclass
class Throughput:
    target: str
    workers: int
    deliveries: int
    seconds: float
    per_second: float
    fanout_seconds: float | None = None  # t0 to the start of the last dispatch pass (tessera only)
    after_fanout_per_second: float | None = None  # deliveries/s from then to the last request
    senders_cpu_ms: float | None = None
    receiver_cpu_ms: float | None = None
    postgres_cpu_ms: float | None = None
    main_cpu_ms: float | None = None
    other_cpu_ms: float | None = None
    host_cpu_pct: float | None = None
    other_cpu_pct: float | None = None
    other_db_xacts: int = 0
    cpu_seconds: dict[str, float] = field(default_factory=dict)
    checks: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


@dataclass
class Context:
    rt: Runtime
    db: psycopg.Connection[Any]
    postmaster: int | None
    receiver: Receiver
    setup: Setup
    env: dict[str, str]
    tmp: Path
    args: argparse.Namespace


def tessera_run(ctx: Context, workers_count: int, run_tag: str) -> tuple[Throughput, list[Received]]:
    """Append ``--events`` outbox rows in one transaction, commit once the workers run, time the backlog."""
    args, setup = ctx.args, ctx.setup
    expected = args.events * len(setup.endpoints)
    event = ctx.rt.capabilities.webhook_events[EVENT]
    mark = outbox_mark(ctx.db)
    receiver_mark = ctx.receiver.count()
    workers = start_workers(workers_count, ctx.env, ctx.tmp, run_tag)
    problems: list[str] = []
    try:
        log(f"tessera, {workers_count} worker(s): appending {args.events:,} outbox rows in one transaction "
            f"({expected:,} deliveries), committed once the worker processes run")
        started = time.perf_counter()
        with ctx.rt.db.write() as conn:
            for i in range(args.events):
                asset = setup.assets[i % len(setup.assets)]
                changed = {**asset, "assignee": f"{run_tag}-{i:06d}", "status": "assigned"}
                outbox.append(conn, tenant_id=setup.caller.tenant_id, event_type=EVENT,
                              payload=event.payload(asset["pid"], asset, changed),
                              request_id=f"bench-{run_tag}-{i:06d}")
                if (i + 1) % max(1, args.events // 4) == 0 or i + 1 == args.events:
                    log(f"  appended {i + 1:>7,} / {args.events:,} ({time.perf_counter() - started:.1f} s)")
            wait_ready(workers)
            log(f"  {workers_count} worker process(es) running; committing")
            before = cpu_mark(ctx.db, ctx.postmaster, ctx.receiver, workers)
        t0 = time.time()
        got = wait_for_requests(ctx.receiver, receiver_mark, expected, f"tessera x{workers_count}",
                                timeout=max(60.0, expected / 20))
        after = cpu_mark(ctx.db, ctx.postmaster, ctx.receiver, workers)
        wait_until_finished(ctx.db, mark)
        time.sleep(SETTLE_SECONDS)
    finally:
        problems += stop_workers(workers)
    received = ctx.receiver.entries(receiver_mark)
    if got < expected:
        problems.append(f"only {got:,} of {expected:,} deliveries arrived in time")
    last = max((r.at for r in received), default=t0)
    seconds = max(last - t0, 1e-6)
    rows, events = deliveries_since(ctx.db, mark)
    if len(events) != args.events:
        problems.append(f"{len(events)} outbox rows after the mark, expected {args.events}")
    problems += check_deliveries(rows, events, setup.endpoints, setup.control)
    endpoints = {e.pid: e for e in [*setup.endpoints, setup.control]}
    expected_requests = {r.pid: (endpoints[r.endpoint_pid], r.event_id, r.request_id) for r in rows}
    request_problems, counts = check_requests(received, expected_requests)
    problems += request_problems
    result = Throughput("tessera", workers_count, len(received), round(seconds, 3), round(len(received) / seconds, 1),
                        checks={**counts, "deliveries_in_db": len(rows), "events": len(events)}, problems=problems)
    row = ctx.db.execute("SELECT max(dispatched_at) FROM outbox_events WHERE id > %s", (mark,)).fetchone()
    if row is not None and row[0] is not None:
        # dispatch() stamps the time its pass began: the fan-out of the last events started then.
        fanned_out = row[0].timestamp()
        late = [r.at for r in received if r.at > fanned_out]
        result.fanout_seconds = round(fanned_out - t0, 3)
        if late and last > fanned_out:
            result.after_fanout_per_second = round(len(late) / (last - fanned_out), 1)
    _apply_cpu(result, cpu_columns(before, after, len(received)))
    return result, received


def baseline_run(ctx: Context, loops: int, bodies: list[Received], row_tag: str) -> Throughput:
    """The same POSTs (bodies, delivery and request ids, secrets) from ``loops`` bare httpx loops, no database."""
    by_path = {e.path: e for e in ctx.setup.endpoints}
    prefix = f"/baseline/{row_tag}"
    jobs = [{"url": ctx.receiver.server.base_url + prefix + r.path, "delivery": r.headers["x-webhook-delivery"],
             "request_id": r.headers.get("x-request-id"), "secret": by_path[r.path].secret,
             "body": base64.b64encode(r.body).decode()} for r in bodies]
    receiver_mark = ctx.receiver.count()
    senders = []
    for index in range(loops):
        path = ctx.tmp / f"jobs-{row_tag}-{index}.json"
        path.write_text(json.dumps(jobs[index::loops]))
        senders.append(subprocess.Popen([sys.executable, str(PEERS), "send", "--jobs", str(path)], cwd=PROJECT_ROOT,
                                        env=ctx.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
    problems: list[str] = []
    reports: list[dict[str, Any]] = []
    try:
        for sender in senders:
            assert sender.stdout is not None
            line = sender.stdout.readline().strip()
            if line != "ready":
                raise RuntimeError(f"a baseline loop did not start: {line!r}")
        log(f"baseline, {loops} loop(s): {len(jobs):,} signed POSTs")
        before = cpu_mark(ctx.db, ctx.postmaster, ctx.receiver, None)
        t0 = time.time() + 0.2
        for sender in senders:
            assert sender.stdin is not None
            sender.stdin.write(f"{t0!r}\n")
            sender.stdin.flush()
        got = wait_for_requests(ctx.receiver, receiver_mark, len(jobs), f"baseline x{loops}",
                                timeout=max(60.0, len(jobs) / 20))
        for sender in senders:
            out, _ = sender.communicate(timeout=60)
            reports.append(json.loads(out.strip().splitlines()[-1]))
        after = cpu_mark(ctx.db, ctx.postmaster, ctx.receiver, None)
        time.sleep(SETTLE_SECONDS)
    finally:
        for sender in senders:
            if sender.poll() is None:
                sender.kill()
                sender.wait()
    received = ctx.receiver.entries(receiver_mark)
    if got < len(jobs):
        problems.append(f"only {got:,} of {len(jobs):,} baseline POSTs arrived in time")
    failed = sum(r["failed"] for r in reports)
    if failed:
        problems.append(f"{failed} baseline POSTs failed: {[f for r in reports for f in r['failures']][:3]}")
    expected = {r.headers["x-webhook-delivery"]: (by_path[r.path], json.loads(r.body)["id"],
                                                  r.headers.get("x-request-id")) for r in bodies}
    request_problems, counts = check_requests(received, expected, prefix)
    problems += request_problems
    seconds = max(max((r.at for r in received), default=t0) - t0, 1e-6)
    result = Throughput("baseline", loops, len(received), round(seconds, 3), round(len(received) / seconds, 1),
                        checks=counts, problems=problems)
    _apply_cpu(result, cpu_columns(before, after, len(received), sender_cpu=sum(r["cpu_seconds"] for r in reports)))
    return result


def _apply_cpu(result: Throughput, cpu: dict[str, Any]) -> None:
    for key, value in cpu.items():
        setattr(result, key, value)


@dataclass
class Latency:
    rate: float
    duration_s: float
    poll_seconds: float
    commands: int
    achieved_rate: float
    deliveries: int
    from_commit_ms: dict[str, float]
    from_occurred_at_ms: dict[str, float]
    command_ms: dict[str, float]
    behind_schedule_max_ms: float
    cpu: dict[str, Any] = field(default_factory=dict)
    checks: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def summary_ms(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"p50": round(common.percentile(ordered, 50) * 1000, 2),
            "p95": round(common.percentile(ordered, 95) * 1000, 2),
            "p99": round(common.percentile(ordered, 99) * 1000, 2),
            "max": round(ordered[-1] * 1000, 2) if ordered else 0.0,
            "min": round(ordered[0] * 1000, 2) if ordered else 0.0}


def latency_run(ctx: Context) -> Latency:
    """One worker process running continuously; ``assets.assign`` commands at a steady rate."""
    args, setup = ctx.args, ctx.setup
    commands = max(1, round(args.rate * args.duration))
    expected = commands * len(setup.endpoints)
    mark = outbox_mark(ctx.db)
    receiver_mark = ctx.receiver.count()
    workers = start_workers(1, ctx.env, ctx.tmp, "latency")
    problems: list[str] = []
    committed: dict[str, float] = {}  # assignee -> wall clock when execute returned
    command_seconds: list[float] = []
    behind = 0.0
    pids = [a["pid"] for a in setup.assets]
    etags = dict(setup.etags)
    try:
        wait_ready(workers)
        log(f"latency: 1 worker process running (poll {args.poll:g} s); {commands:,} {COMMAND} commands at "
            f"{args.rate:g}/s for {args.duration:g} s")
        before = cpu_mark(ctx.db, ctx.postmaster, ctx.receiver, workers)
        started = time.perf_counter() + 0.05
        last_progress = started
        for k in range(commands):
            due = started + k / args.rate
            wait = due - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            else:
                behind = max(behind, -wait)
            pid = pids[k % len(pids)]
            assignee = f"latency-{k:06d}"
            sent = time.perf_counter()
            outcome = op_commands.execute(ctx.rt, setup.caller, COMMAND,
                                          {"targetPid": pid, "input": {"assignee": assignee}}, etags[pid],
                                          f"bench-latency-{k:06d}", f"bench-latency-{k:06d}")
            committed[assignee] = time.time()
            command_seconds.append(time.perf_counter() - sent)
            etags[pid] = outcome.etag
            if time.perf_counter() - last_progress >= 5.0:
                last_progress = time.perf_counter()
                log(f"  {k + 1:,} / {commands:,} commands, {ctx.receiver.count() - receiver_mark:,} deliveries "
                    f"received ({last_progress - started:.1f} s)")
        produced_seconds = time.perf_counter() - started
        log(f"  {commands:,} commands in {produced_seconds:.1f} s; waiting for the last deliveries")
        got = wait_for_requests(ctx.receiver, receiver_mark, expected, "latency", timeout=60.0)
        after = cpu_mark(ctx.db, ctx.postmaster, ctx.receiver, workers)
        wait_until_finished(ctx.db, mark)
        time.sleep(SETTLE_SECONDS)
    finally:
        problems += stop_workers(workers)
    if got < expected:
        problems.append(f"only {got:,} of {expected:,} deliveries arrived in time")
    received = ctx.receiver.entries(receiver_mark)
    rows, events = deliveries_since(ctx.db, mark)
    if len(events) != commands:
        problems.append(f"{len(events)} outbox rows for {commands} commands")
    problems += check_deliveries(rows, events, setup.endpoints, setup.control)
    endpoints = {e.pid: e for e in [*setup.endpoints, setup.control]}
    request_problems, counts = check_requests(
        received, {r.pid: (endpoints[r.endpoint_pid], r.event_id, r.request_id) for r in rows})
    problems += request_problems
    from_commit, from_occurred = [], []
    for request in received:
        try:
            document = json.loads(request.body)
            commit_at = committed[document["data"]["assignee"]]
            occurred_at = events[document["id"]]["occurred_at"]
        except (ValueError, KeyError, TypeError):
            continue  # counted by the checks above
        from_commit.append(request.at - commit_at)
        from_occurred.append(request.at - occurred_at)
    return Latency(
        rate=args.rate, duration_s=args.duration, poll_seconds=args.poll, commands=commands,
        achieved_rate=round(commands / produced_seconds, 1), deliveries=len(received),
        from_commit_ms=summary_ms(from_commit), from_occurred_at_ms=summary_ms(from_occurred),
        command_ms=summary_ms(command_seconds), behind_schedule_max_ms=round(behind * 1000, 1),
        cpu=cpu_columns(before, after, len(received)),
        checks={**counts, "deliveries_in_db": len(rows), "events": len(events)}, problems=problems,
    )


# -- report ---------------------------------------------------------------------------------------------

def ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def print_throughput(results: list[Throughput]) -> dict[str, Any]:
    header = (f"{'target':<9} {'workers':>7} {'deliveries':>10} {'seconds':>8} {'deliv/s':>8} {'t/b':>6} "
              f"{'fan-out s':>9} {'then/s':>7} | "
              f"{'CPU ms/delivery: senders':>24} {'receiver':>8} {'postgres':>8} {'bench':>6} {'other':>6} | "
              f"{'host CPU':>8}")
    log("\n" + header)
    log("-" * len(header))
    ratios: dict[str, Any] = {}
    for r in results:
        pair = {x.target: x for x in results if x.workers == r.workers}
        ratio = (round(pair["tessera"].per_second / pair["baseline"].per_second, 3)
                 if set(pair) == {"tessera", "baseline"} and pair["baseline"].per_second else None)
        ratios[str(r.workers)] = ratio
        log(f"{r.target:<9} {r.workers:>7} {r.deliveries:>10,} {r.seconds:>8.2f} {r.per_second:>8,.1f} "
            f"{'' if r.target == 'baseline' or ratio is None else f'x{ratio:.2f}':>6} "
            f"{'' if r.fanout_seconds is None else f'{r.fanout_seconds:.2f}':>9} "
            f"{'' if r.after_fanout_per_second is None else f'{r.after_fanout_per_second:,.1f}':>7} | "
            f"{ms(r.senders_cpu_ms):>24} {ms(r.receiver_cpu_ms):>8} {ms(r.postgres_cpu_ms):>8} "
            f"{ms(r.main_cpu_ms):>6} {ms(r.other_cpu_ms):>6} | "
            f"{'-' if r.host_cpu_pct is None else f'{r.host_cpu_pct:.0f}%':>8}")
    return ratios


def print_latency(lat: Latency) -> None:
    log(f"\nevent-to-delivery latency: {lat.commands:,} {COMMAND} commands at {lat.rate:g}/s (achieved "
        f"{lat.achieved_rate:g}/s) for {lat.duration_s:g} s, 1 worker process, TESSERA_WORKER_POLL_SECONDS="
        f"{lat.poll_seconds:g}")
    header = f"{'from':<22} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8} {'deliveries':>10}"
    log(header)
    log("-" * len(header))
    for label, values in (("commit (execute done)", lat.from_commit_ms),
                          ("outbox occurred_at", lat.from_occurred_at_ms)):
        log(f"{label:<22} {values['p50']:>8.2f} {values['p95']:>8.2f} {values['p99']:>8.2f} {values['max']:>8.2f} "
            f"{lat.deliveries:>10,}")
    cpu = lat.cpu
    log(f"command ({COMMAND} through op_commands.execute): p50 {lat.command_ms['p50']:.2f} ms, p95 "
        f"{lat.command_ms['p95']:.2f} ms; producer at most {lat.behind_schedule_max_ms:g} ms behind schedule; "
        f"CPU ms/delivery: worker {ms(cpu.get('senders_cpu_ms'))}, receiver {ms(cpu.get('receiver_cpu_ms'))}, "
        f"postgres {ms(cpu.get('postgres_cpu_ms'))}, producer {ms(cpu.get('main_cpu_ms'))}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=2000, help="outbox rows per throughput run (default 2000)")
    parser.add_argument("--endpoints", type=int, default=2, help="endpoints subscribed to the event (default 2)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes of the second row (default 2)")
    parser.add_argument("--rate", type=float, default=50.0, help="commands a second in the latency run (default 50)")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of the latency run (default 20)")
    parser.add_argument("--poll", type=float, default=0.05, help="TESSERA_WORKER_POLL_SECONDS (default 0.05)")
    parser.add_argument("--keep-db", action="store_true", help="keep the database afterwards and print its URL")
    parser.add_argument("--results-file", type=Path, default=RESULTS_FILE,
                        help=f"where to write the JSON results (default {RESULTS_FILE.relative_to(PROJECT_ROOT)})")
    args = parser.parse_args()
    if args.events < 1 or args.endpoints < 1 or args.workers < 1 or args.rate <= 0 or args.duration <= 0:
        parser.error("--events, --endpoints, --workers, --rate and --duration must be positive")
    if args.poll < 0.01:
        parser.error("--poll must be at least 0.01 (the service's minimum)")

    started = time.perf_counter()
    log(f"PostgreSQL admin database: {make_url(common.PG_ADMIN_URL).render_as_string(hide_password=True)}")
    database_url = common.create_database()
    failures: list[str] = []
    rt: Runtime | None = None
    receiver: Receiver | None = None
    db: psycopg.Connection[Any] | None = None
    try:
        with tempfile.TemporaryDirectory(prefix="tessera-bench-") as tmp_name:
            tmp = Path(tmp_name)
            log(f"database: {database_url.rsplit('/', 1)[1]}")
            step = time.perf_counter()
            upgrade(common.sqlalchemy_url(database_url))
            log(f"migrated in {time.perf_counter() - step:.1f} s")
            env = common.server_env(database_url, secrets.token_urlsafe(48), tmp / "var", PROJECT_ROOT / "models.yaml")
            env |= {"TESSERA_WEBHOOK_ALLOW_LOOPBACK": "true", "TESSERA_WORKER_POLL_SECONDS": str(args.poll)}
            receiver = Receiver(env, tmp)
            log(f"receiver listening on {receiver.server.base_url} (pid {receiver.pid})")
            rt = build_runtime(load_settings(env))
            setup = setup_tenant(rt, receiver.server.base_url, args.endpoints)
            log(f"demo seeded; {len(setup.endpoints)} endpoints subscribed to {EVENT} and a control endpoint "
                f"({CONTROL_EVENT} only), {len(setup.assets)} assets, caller {setup.caller.client_id} "
                f"({setup.seconds:.1f} s)")
            costs = non_db_costs(rt, setup.endpoints[0], database_url)
            db = psycopg.connect(database_url, autocommit=True)
            postmaster = op_token.postmaster_pid(database_url)
            if postmaster is None:
                log("PostgreSQL does not run on this host (or its processes are hidden): no postgres CPU column")
            ctx = Context(rt, db, postmaster, receiver, setup, env, tmp, args)

            # ABBA: tessera 1, baseline 1, baseline N, tessera N.
            throughput: list[Throughput] = []
            one, bodies = tessera_run(ctx, 1, "t1")
            throughput.append(one)
            throughput.append(baseline_run(ctx, 1, bodies, "b1"))
            throughput.append(baseline_run(ctx, args.workers, bodies, f"b{args.workers}"))
            throughput.append(tessera_run(ctx, args.workers, f"t{args.workers}")[0])
            for r in throughput:
                failures.extend(f"{r.target}, {r.workers} worker(s): {p}" for p in r.problems)
                if not r.problems:
                    log(f"  checked {r.target} x{r.workers}: {json.dumps(r.checks)}")
            latency = latency_run(ctx)
            failures.extend(f"latency: {p}" for p in latency.problems)
            if not latency.problems:
                log(f"  checked latency: {json.dumps(latency.checks)}")

            statuses = {r[0]: r[1] for r in db.execute("SELECT status, count(*) FROM deliveries GROUP BY status")}
            undispatched = db.execute("SELECT count(*) FROM outbox_events WHERE dispatched_at IS NULL").fetchone()
            left = {k: v for k, v in statuses.items() if k in UNFINISHED}
            if left:
                failures.append(f"deliveries left unfinished at the end: {left}")
            if undispatched and undispatched[0]:
                failures.append(f"{undispatched[0]} outbox rows never dispatched")
            if receiver.server.process.poll() is not None:
                failures.append(f"the receiver died:\n{receiver.server.log_tail()}")

            info = common.versions(rt.db.engine)
            sorted_rows = sorted(throughput, key=lambda r: (r.workers, r.target != "tessera"))
            noisy = [f"{r.target} x{r.workers}: the rest of the host used {r.other_cpu_pct:.0f}% of all CPUs"
                     for r in sorted_rows if r.other_cpu_pct is not None and r.other_cpu_pct >= NOISY_PCT]
            noisy += [f"{r.target} x{r.workers}: {r.other_db_xacts:,} transactions in other databases (their CPU is "
                      "in the postgres column)" for r in sorted_rows if r.other_db_xacts]
            lat_other = latency.cpu.get("other_cpu_pct")
            if lat_other is not None and lat_other >= NOISY_PCT:
                noisy.append(f"latency: the rest of the host used {lat_other:.0f}% of all CPUs")
            if latency.cpu.get("other_db_xacts"):
                noisy.append(f"latency: {latency.cpu['other_db_xacts']:,} transactions in other databases")

            log("\n=== Tessera webhook delivery benchmark ===")
            log(f"Python {info['python']} | {info['postgresql']}")
            log(f"{info['platform']} | {info['cpus']} CPUs | "
                + " ".join(f"{p} {info[p]}" for p in ("sqlalchemy", "psycopg", "httpx", "uvicorn") if p in info))
            log(f"throughput: {args.events:,} events x {args.endpoints} endpoints = "
                f"{args.events * args.endpoints:,} deliveries per run, outbox rows appended with "
                f"storage.outbox.append in one transaction | workers: `tessera worker --threads 1` processes | "
                f"TESSERA_WORKER_POLL_SECONDS={args.poll:g} | order tessera 1, baseline 1, baseline "
                f"{args.workers}, tessera {args.workers}")
            ratios = print_throughput(sorted_rows)
            log(f"non-database steps of one attempt, in process (not in the baseline): check_url "
                f"{costs['check_url']:.1f} us, unseal secret {costs['unseal_secret']:.1f} us, body + signature "
                f"{costs['body_and_signature']:.1f} us")
            print_latency(latency)
            log("")
            by = {(r.target, r.workers): r for r in throughput}
            headline: dict[str, Any] = {}
            for count in dict.fromkeys([1, args.workers]):
                t, b = by[("tessera", count)], by[("baseline", count)]
                headline[f"deliveries_per_second_{count}_worker"] = {
                    "tessera": t.per_second, "baseline": b.per_second, "ratio": ratios.get(str(count))}
                log(f"deliveries per second, {count} worker(s): tessera {t.per_second:,.1f} baseline "
                    f"{b.per_second:,.1f} ratio x{ratios.get(str(count)) or 0:.2f}")
            log(f"event-to-delivery latency at {args.rate:g} events/s (from commit): p50 "
                f"{latency.from_commit_ms['p50']:.2f} ms p95 {latency.from_commit_ms['p95']:.2f} ms p99 "
                f"{latency.from_commit_ms['p99']:.2f} ms (poll {args.poll:g} s)")
            headline["latency_from_commit_ms"] = latency.from_commit_ms
            for line in noisy:
                log(f"NOISY HOST: {line}")
            if not noisy:
                log(f"host quiet: the rest of the host used less than {NOISY_PCT:g}% of all CPUs in every run")
            log(f"final delivery statuses: {statuses}")

            results_file: Path = args.results_file
            results_file.parent.mkdir(parents=True, exist_ok=True)
            report = {
                "benchmark": "webhooks",
                "finished_at": utcnow().isoformat(timespec="seconds"),
                "versions": info,
                "config": {
                    "events": args.events, "endpoints": args.endpoints, "workers": args.workers, "rate": args.rate,
                    "duration_s": args.duration, "worker_poll_seconds": args.poll,
                    "event_source_throughput": "storage.outbox.append, one transaction per run",
                    "event_source_latency": f"{COMMAND} via op_commands.execute",
                    "worker": "tessera worker --threads 1 (one process per worker)",
                    "receiver": "bare ASGI under uvicorn (uvloop, httptools), 204",
                    "noisy_threshold_pct": NOISY_PCT, "setup_seconds": round(setup.seconds, 1),
                },
                "throughput": [asdict(r) for r in sorted_rows],
                "ratios_tessera_over_baseline": ratios,
                "non_db_steps_us": costs,
                "latency": asdict(latency),
                "headline": headline,
                "final_delivery_statuses": statuses,
                "noisy_runs": noisy,
                "failures": failures,
            }
            results_file.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
            log(f"results written to {results_file}")
    except (AssertionError, RuntimeError) as exc:
        failures.append(f"run aborted: {exc}")
    finally:
        if db is not None:
            db.close()
        if receiver is not None:
            receiver.stop()
        if rt is not None:
            rt.close()
        if args.keep_db:
            log(f"database kept: {database_url}")
        else:
            common.drop_database(database_url)
            log(f"database {database_url.rsplit('/', 1)[1]} dropped")
    for failure in failures:
        log(f"FAILED: {failure}")
    log(f"total time {time.perf_counter() - started:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
