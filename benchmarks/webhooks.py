"""Benchmark of Tessera's outbound webhook delivery on PostgreSQL, against a bare signed-POST loop.

    .venv/bin/python benchmarks/webhooks.py [--events 2000] [--endpoints 2] [--workers 2] [--rate 50]
        [--duration 20] [--poll 0.05] [--keep-db] [--results-file benchmarks/results/webhooks.json]

What is measured:

* ``deliveries/s``: how fast Tessera's workers empty a backlog, outbox to receiver, with one worker and
  with ``--workers`` workers (each a ``tessera worker --tasks 1`` process, the scale-out the
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

Setup, through the services: a fresh PostgreSQL database, the demo data (``tessera.demo.seed_demo``:
tenant ``demo``, 120 assets); as ``admin@demo.example`` an application installed into ``demo``, and on
the receiver (``harness.deliveries``: a bare ASGI app in its own process that answers 204 and keeps
every request) ``--endpoints`` endpoints subscribed to ``assets.assignment.changed`` plus a control
endpoint subscribed only to ``inventory.stock-in.created``. ``TESSERA_WEBHOOK_ALLOW_LOOPBACK=true``;
worker logs are JSON at WARNING.

Checks after every run (``harness.deliveries``; exit status 1 when one fails): each event has exactly
one delivery per subscribed endpoint and none for the control endpoint; the receiver got each
``X-Webhook-Delivery`` exactly once, on its endpoint's path, with its event's body, Tessera's headers
and no ``X-Request-Id``, signed so that ``tessera.webhooks.verify.verify`` accepts it; every delivery is
``delivered`` by one 204 attempt. At the end: nothing pending, retrying, dead or undispatched.

CPU columns are CPU ms per delivery (``harness.cpu``): the senders (the workers, or the baseline
loops as they report it), the receiver, PostgreSQL, ``bench`` (this process, polling the receiver)
and ``other``, the rest of the host; a run where the rest of the host took ``NOISY_PCT`` or more of
all CPUs, or other databases had transactions, is flagged ``NOISY HOST`` (not a failure).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import psycopg
from harness import ROOT, cli, cpu, log, results, seeding, stats, tables
from harness.databases import fresh, pg_activity
from harness.deliveries import (
    PEERS,
    SETTLE_SECONDS,
    UNFINISHED,
    Endpoint,
    Received,
    Receiver,
    check_requests,
    judge,
    make_endpoints,
    outbox_mark,
    wait_until_finished,
)
from harness.servers import Server, launch, stop_all, wait_ready, worker

from storage import outbox
from tessera.openplatform.commands import execute as op_commands
from tessera.openplatform.resources import reads as op_resources
from tessera.openplatform.tokens import bearer
from tessera.openplatform.tokens.bearer import Caller
from tessera.runtime import Runtime
from tessera.webhooks import sending
from tessera.webhooks.urls import check_url

EVENT = "assets.assignment.changed"
CONTROL_EVENT = "inventory.stock-in.created"
COMMAND = "assets.assign"
TENANT = "demo"
# inventory.stockins.read: the control endpoint subscribes to inventory.stock-in.created, which needs it.
SCOPES = ["assets.read", "assets.manage", "inventory.stockins.read"]
NOISY_PCT = 20.0  # the rest of the host's share of all CPUs from which a run is flagged


@dataclass
class Setup:
    caller: Caller
    endpoints: list[Endpoint]  # subscribed to EVENT
    control: Endpoint  # subscribed to CONTROL_EVENT only
    assets: list[dict[str, Any]]  # published representation of the demo tenant's assets
    etags: dict[str, str]
    seconds: float


async def setup_tenant(rt: Runtime, receiver_url: str, endpoint_count: int) -> Setup:
    """Demo data, application, installation, endpoints, and an Open Platform caller, all through the services."""
    started = time.perf_counter()
    admin = await seeding.demo_admin(rt)
    inst = await seeding.install(rt, admin, "Webhook benchmark", TENANT, SCOPES, 1)
    endpoints, control = await make_endpoints(rt, admin.actor, inst.installation_pid, receiver_url, endpoint_count,
                                              EVENT, CONTROL_EVENT)
    caller = await bearer.validate(rt, await seeding.issue_token(rt, inst.credentials[0]))
    assets = (await op_resources.list_page(rt, caller, "assets", 200, None))["items"]
    etags = {a["pid"]: (await op_resources.read(rt, caller, "assets", a["pid"]))[1] for a in assets}
    return Setup(caller, endpoints, control, assets, etags, time.perf_counter() - started)


def non_db_costs(rt: Runtime, endpoint: Endpoint, db: psycopg.Connection[Any], rounds: int = 2000) -> dict[str, float]:
    """Microseconds per attempt of the steps a delivery attempt takes besides the database and the POST."""
    row = db.execute("SELECT s.secret_encrypted FROM webhook_secrets s JOIN webhook_endpoints e "
                     "ON e.id = s.endpoint_id WHERE e.pid = %s", (endpoint.pid,)).fetchone()
    assert row is not None
    sealed = str(row[0])
    fake = cast(Any, SimpleNamespace(event_pid="evt_" + "x" * 26, event_type=EVENT, occurred_at=rt.clock.now(),
                                     payload={"pid": "ast_" + "x" * 26, "assignee": "bench-000001",
                                              "status": "assigned", "previousAssignee": "alice"}))
    steps: dict[str, Callable[[], object]] = {
        "check_url": lambda: check_url(endpoint.url, allow_loopback=True),
        "unseal_secret": lambda: rt.secret_box.open(sealed),
        "body_and_signature": lambda: sending.signature_headers(
            "tessera", [endpoint.secret], int(time.time()), "dlv_bench", sending.body_of(fake)),
    }
    costs: dict[str, float] = {}
    for name, step in steps.items():
        started = time.perf_counter()
        for _ in range(rounds):
            step()
        costs[name] = round((time.perf_counter() - started) / rounds * 1e6, 1)
    return costs


# -- runs ------------------------------------------------------------------------------------------

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

    def start_workers(self, count: int, tag: str) -> list[Server]:
        """``count`` ``tessera worker --tasks 1`` processes, started at once (not waited for)."""
        return [launch(worker(f"worker-{tag}-{i}"), self.env, self.tmp) for i in range(count)]

    def meter(self, workers: list[Server] | None) -> tuple[cpu.Meter, int]:
        """CPU of the senders (the workers; baseline loops report their own), the receiver, PostgreSQL and
        this process; and the transactions in other databases so far."""
        sources = {"receiver": cpu.of_processes([self.receiver.server.pid]),
                   "postgres": cpu.of_postgres(self.postmaster), "main": cpu.of_processes([os.getpid()])}
        if workers is not None:
            sources["senders"] = cpu.of_processes(w.pid for w in workers)
        return cpu.Meter(sources), pg_activity(self.db)[1]


@dataclass
class Usage:
    """CPU ms per delivery by source (senders, receiver, postgres, main, other), and host figures."""

    cpu_ms: dict[str, float | None] = field(default_factory=dict)
    host_cpu_pct: float | None = None
    other_cpu_pct: float | None = None
    other_db_xacts: int = 0
    cpu_seconds: dict[str, float] = field(default_factory=dict)

    @staticmethod
    def of(before: cpu.Reading, after: cpu.Reading, xacts: int, deliveries: int, **given: float | None) -> Usage:
        usage = cpu.Usage.between(before, after, **given)
        return Usage(usage.ms_per(deliveries, 3), usage.host_pct(), usage.other_pct(), xacts, usage.raw())


@dataclass
class Throughput:
    target: str
    workers: int
    deliveries: int
    seconds: float
    per_second: float
    fanout_seconds: float | None = None  # t0 to the start of the last dispatch pass (tessera only)
    after_fanout_per_second: float | None = None  # deliveries/s from then to the last request
    usage: Usage = field(default_factory=Usage)
    checks: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


async def append_backlog(ctx: Context, workers: list[Server],
                         run_tag: str) -> tuple[cpu.Meter, int, cpu.Reading, float]:
    """``--events`` outbox rows appended in one transaction, committed once every worker process runs;
    (the meter, the other databases' transactions and its reading just before the commit, t0: the
    wall-clock time right after it)."""
    args, setup = ctx.args, ctx.setup
    event = ctx.rt.capabilities.webhook_events[EVENT]
    started = time.perf_counter()
    async with ctx.rt.db.write() as conn:
        now = ctx.rt.clock.now()
        for i in range(args.events):
            asset = setup.assets[i % len(setup.assets)]
            changed = {**asset, "assignee": f"{run_tag}-{i:06d}", "status": "assigned"}
            await outbox.append(conn, tenant_id=setup.caller.tenant_id, event_type=EVENT, now=now,
                                payload=event.payload(asset["pid"], asset, changed),
                                request_id=f"bench-{run_tag}-{i:06d}")
            if (i + 1) % max(1, args.events // 4) == 0 or i + 1 == args.events:
                log(f"  appended {i + 1:>7,} / {args.events:,} ({time.perf_counter() - started:.1f} s)")
        for w in workers:
            await asyncio.to_thread(wait_ready, w)
        log(f"  {len(workers)} worker process(es) running; committing")
        meter, xacts = ctx.meter(workers)
        before = meter.read()
    return meter, xacts, before, time.time()


def tessera_run(ctx: Context, workers_count: int, run_tag: str) -> tuple[Throughput, list[Received]]:
    """Append ``--events`` outbox rows in one transaction, commit once the workers run, time the backlog."""
    args, setup = ctx.args, ctx.setup
    expected = args.events * len(setup.endpoints)
    mark, receiver_mark = outbox_mark(ctx.db), ctx.receiver.count()
    workers = ctx.start_workers(workers_count, run_tag)
    problems: list[str] = []
    try:
        log(f"tessera, {workers_count} worker(s): appending {args.events:,} outbox rows in one transaction "
            f"({expected:,} deliveries), committed once the worker processes run")
        meter, xacts, before, t0 = seeding.run(ctx.rt, append_backlog(ctx, workers, run_tag))
        got = ctx.receiver.wait_for(receiver_mark, expected, f"tessera x{workers_count}", max(60.0, expected / 20))
        after, xacts = meter.read(), pg_activity(ctx.db)[1] - xacts
        wait_until_finished(ctx.db, mark)
    finally:
        problems += stop_all(workers)
    run = judge(ctx.db, ctx.receiver, mark, receiver_mark, setup.endpoints, setup.control, EVENT, (got, expected),
                args.events)
    received = run.received
    last = max((r.at for r in received), default=t0)
    seconds = max(last - t0, 1e-6)
    result = Throughput("tessera", workers_count, len(received), round(seconds, 3), round(len(received) / seconds, 1),
                        usage=Usage.of(before, after, xacts, len(received)), checks=run.counts,
                        problems=problems + run.problems)
    row = ctx.db.execute("SELECT max(dispatched_at) FROM outbox_events WHERE id > %s", (mark,)).fetchone()
    if row is not None and row[0] is not None:
        # dispatch() stamps the time its pass began: the fan-out of the last events started then.
        fanned_out = row[0].timestamp()
        late = [r.at for r in received if r.at > fanned_out]
        result.fanout_seconds = round(fanned_out - t0, 3)
        if late and last > fanned_out:
            result.after_fanout_per_second = round(len(late) / (last - fanned_out), 1)
    return result, received


def baseline_run(ctx: Context, loops: int, bodies: list[Received], row_tag: str) -> Throughput:
    """The same POSTs (bodies, delivery and request ids, secrets) from ``loops`` bare httpx loops, no database."""
    by_path = {e.path: e for e in ctx.setup.endpoints}
    prefix = f"/baseline/{row_tag}"
    jobs = [{"url": ctx.receiver.base_url + prefix + r.path, "delivery": r.headers["x-webhook-delivery"],
             "request_id": r.headers.get("x-request-id"), "secret": by_path[r.path].secret,
             "body": base64.b64encode(r.body).decode()} for r in bodies]
    receiver_mark = ctx.receiver.count()
    senders = []
    for index in range(loops):
        path = ctx.tmp / f"jobs-{row_tag}-{index}.json"
        path.write_text(json.dumps(jobs[index::loops]))
        senders.append(subprocess.Popen([sys.executable, str(PEERS), "send", "--jobs", str(path)], cwd=ROOT,
                                        env=ctx.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True))
    problems: list[str] = []
    reports: list[dict[str, Any]] = []
    try:
        for sender in senders:
            assert sender.stdout is not None
            if (line := sender.stdout.readline().strip()) != "ready":
                raise RuntimeError(f"a baseline loop did not start: {line!r}")
        log(f"baseline, {loops} loop(s): {len(jobs):,} signed POSTs")
        meter, xacts = ctx.meter(None)
        before = meter.read()
        t0 = time.time() + 0.2
        for sender in senders:
            assert sender.stdin is not None
            sender.stdin.write(f"{t0!r}\n")
            sender.stdin.flush()
        got = ctx.receiver.wait_for(receiver_mark, len(jobs), f"baseline x{loops}", max(60.0, len(jobs) / 20))
        reports = [json.loads(sender.communicate(timeout=60)[0].strip().splitlines()[-1]) for sender in senders]
        after, xacts = meter.read(), pg_activity(ctx.db)[1] - xacts
        time.sleep(SETTLE_SECONDS)  # for a duplicate to show
    finally:
        for sender in senders:
            if sender.poll() is None:
                sender.kill()
                sender.wait()
    received = ctx.receiver.entries(receiver_mark)
    if got < len(jobs):
        problems.append(f"only {got:,} of {len(jobs):,} baseline POSTs arrived in time")
    if failed := sum(r["failed"] for r in reports):
        problems.append(f"{failed} baseline POSTs failed: {[f for r in reports for f in r['failures']][:3]}")
    expected = {r.headers["x-webhook-delivery"]: (by_path[r.path], json.loads(r.body)["id"],
                                                  r.headers.get("x-request-id")) for r in bodies}
    request_problems, counts = check_requests(received, expected, EVENT, prefix)
    problems += request_problems
    seconds = max(max((r.at for r in received), default=t0) - t0, 1e-6)
    return Throughput("baseline", loops, len(received), round(seconds, 3), round(len(received) / seconds, 1),
                      usage=Usage.of(before, after, xacts, len(received),
                                     senders=sum(r["cpu_seconds"] for r in reports)),
                      checks=counts, problems=problems)


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
    usage: Usage = field(default_factory=Usage)
    checks: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


@dataclass
class Produced:
    """What the latency run's producer did."""

    committed: dict[str, float] = field(default_factory=dict)  # assignee -> wall clock when execute returned
    command_seconds: list[float] = field(default_factory=list)
    behind: float = 0.0  # the most the producer was behind its schedule, seconds
    seconds: float = 0.0


async def produce(ctx: Context, commands: int, receiver_mark: int) -> Produced:
    """``commands`` ``assets.assign`` commands through ``execute`` at ``--rate`` a second, rotating over the
    demo assets (If-Match from the previous outcome, a unique assignee and Idempotency-Key each)."""
    args, setup = ctx.args, ctx.setup
    pids = [a["pid"] for a in setup.assets]
    etags = dict(setup.etags)
    out = Produced()
    await ctx.rt.db.ping()  # this loop's connections open before the schedule starts
    started = time.perf_counter() + 0.05
    last_progress = started
    for k in range(commands):
        wait = started + k / args.rate - time.perf_counter()
        if wait > 0:
            await asyncio.sleep(wait)
        else:
            out.behind = max(out.behind, -wait)
        pid, assignee = pids[k % len(pids)], f"latency-{k:06d}"
        sent = time.perf_counter()
        outcome = await op_commands.execute(ctx.rt, setup.caller, COMMAND,
                                            {"targetPid": pid, "input": {"assignee": assignee}},
                                            frozenset({etags[pid]}), f"bench-latency-{k:06d}", f"bench-latency-{k:06d}")
        out.committed[assignee] = time.time()
        out.command_seconds.append(time.perf_counter() - sent)
        etags[pid] = outcome.etag
        if time.perf_counter() - last_progress >= 5.0:
            last_progress = time.perf_counter()
            log(f"  {k + 1:,} / {commands:,} commands, {ctx.receiver.count() - receiver_mark:,} deliveries "
                f"received ({last_progress - started:.1f} s)")
    out.seconds = time.perf_counter() - started
    return out


def latency_run(ctx: Context) -> Latency:
    """One worker process running continuously; ``assets.assign`` commands at a steady rate."""
    args, setup = ctx.args, ctx.setup
    commands = max(1, round(args.rate * args.duration))
    expected = commands * len(setup.endpoints)
    mark, receiver_mark = outbox_mark(ctx.db), ctx.receiver.count()
    workers = ctx.start_workers(1, "latency")
    problems: list[str] = []
    try:
        wait_ready(workers[0])
        log(f"latency: 1 worker process running (poll {args.poll:g} s); {commands:,} {COMMAND} commands at "
            f"{args.rate:g}/s for {args.duration:g} s")
        meter, xacts = ctx.meter(workers)
        before = meter.read()
        produced = seeding.run(ctx.rt, produce(ctx, commands, receiver_mark))
        log(f"  {commands:,} commands in {produced.seconds:.1f} s; waiting for the last deliveries")
        got = ctx.receiver.wait_for(receiver_mark, expected, "latency", 60.0)
        after, xacts = meter.read(), pg_activity(ctx.db)[1] - xacts
        wait_until_finished(ctx.db, mark)
    finally:
        problems += stop_all(workers)
    run = judge(ctx.db, ctx.receiver, mark, receiver_mark, setup.endpoints, setup.control, EVENT, (got, expected),
                commands)
    from_commit, from_occurred = [], []
    for request in run.received:
        try:
            document = json.loads(request.body)
            commit_at = produced.committed[document["data"]["assignee"]]
            occurred_at = run.events[document["id"]]["occurred_at"]
        except (ValueError, KeyError, TypeError):
            continue  # counted by the checks above
        from_commit.append(request.at - commit_at)
        from_occurred.append(request.at - occurred_at)
    return Latency(
        rate=args.rate, duration_s=args.duration, poll_seconds=args.poll, commands=commands,
        achieved_rate=round(commands / produced.seconds, 1), deliveries=len(run.received),
        from_commit_ms=stats.summary_ms(from_commit), from_occurred_at_ms=stats.summary_ms(from_occurred),
        command_ms=stats.summary_ms(produced.command_seconds), behind_schedule_max_ms=round(produced.behind * 1000, 1),
        usage=Usage.of(before, after, xacts, len(run.received)), checks=run.counts, problems=problems + run.problems)


# -- report ----------------------------------------------------------------------------------------

def throughput_table(rows: list[Throughput]) -> tuple[list[str], dict[str, float | None]]:
    ratios = {}
    for count in dict.fromkeys(r.workers for r in rows):
        pair = {r.target: r.per_second for r in rows if r.workers == count}
        ratios[str(count)] = stats.ratio(pair.get("tessera"), pair.get("baseline"))

    def ms(source: str) -> tables.Column:
        header = "CPU ms/delivery: senders" if source == "senders" else ("bench" if source == "main" else source)
        return tables.Column(header, lambda r: r.usage.cpu_ms.get(source), tables.fixed)

    columns: list[tables.Column | str] = [
        tables.Column("target", "target", str, "<"), tables.Column("workers", "workers"),
        tables.Column("deliveries", "deliveries", lambda v: f"{v:,}"),
        tables.Column("seconds", "seconds", tables.fixed),
        tables.Column("deliv/s", "per_second", lambda v: tables.fixed(v, 1)),
        tables.Column("t/b", lambda r: ratios[str(r.workers)] if r.target == "tessera" else None,
                      lambda v: "" if v is None else f"x{v:.2f}"),
        tables.Column("fan-out s", "fanout_seconds", lambda v: "" if v is None else f"{v:.2f}"),
        tables.Column("then/s", "after_fanout_per_second", lambda v: "" if v is None else f"{v:,.1f}"), tables.SEP,
        ms("senders"), ms("receiver"), ms("postgres"), ms("main"), ms("other"), tables.SEP,
        tables.Column("host CPU", lambda r: r.usage.host_cpu_pct, tables.pct)]
    return tables.render(columns, rows), ratios


def latency_lines(lat: Latency) -> list[str]:
    cpu_ms = {k: tables.fixed(v) for k, v in lat.usage.cpu_ms.items()}
    return [
        f"event-to-delivery latency: {lat.commands:,} {COMMAND} commands at {lat.rate:g}/s (achieved "
        f"{lat.achieved_rate:g}/s) for {lat.duration_s:g} s, 1 worker process, TESSERA_WORKER_POLL_SECONDS="
        f"{lat.poll_seconds:g}",
        *tables.render([tables.Column("from", "label", str, "<"),
                        *(tables.Column(f"{p} ms", p, tables.fixed) for p in ("p50", "p95", "p99", "max")),
                        tables.Column("deliveries", lambda _: lat.deliveries, lambda v: f"{v:,}")],
                       [{"label": "commit (execute done)", **lat.from_commit_ms},
                        {"label": "outbox occurred_at", **lat.from_occurred_at_ms}]),
        f"command ({COMMAND} through op_commands.execute): p50 {lat.command_ms['p50']:.2f} ms, p95 "
        f"{lat.command_ms['p95']:.2f} ms; producer at most {lat.behind_schedule_max_ms:g} ms behind schedule; "
        f"CPU ms/delivery: worker {cpu_ms.get('senders')}, receiver {cpu_ms.get('receiver')}, postgres "
        f"{cpu_ms.get('postgres')}, producer {cpu_ms.get('main')}"]


def measure_all(ctx: Context, costs: dict[str, float]) -> tuple[list[str], dict[str, Any], list[str]]:
    """The four throughput runs (ABBA: tessera 1, baseline 1, baseline N, tessera N) and the latency run;
    (report lines, report, failures)."""
    args = ctx.args
    failures: list[str] = []
    one, bodies = tessera_run(ctx, 1, "t1")
    throughput = [one, baseline_run(ctx, 1, bodies, "b1"), baseline_run(ctx, args.workers, bodies, f"b{args.workers}"),
                  tessera_run(ctx, args.workers, f"t{args.workers}")[0]]
    for r in throughput:
        failures += [f"{r.target}, {r.workers} worker(s): {p}" for p in r.problems]
        log(f"  checked {r.target} x{r.workers}: {json.dumps(r.checks)}" if not r.problems else
            f"  CHECK FAILED, {r.target} x{r.workers}: {r.problems}")
    latency = latency_run(ctx)
    failures += [f"latency: {p}" for p in latency.problems]
    statuses = {r[0]: r[1] for r in ctx.db.execute("SELECT status, count(*) FROM deliveries GROUP BY status")}
    if left := {k: v for k, v in statuses.items() if k in UNFINISHED}:
        failures.append(f"deliveries left unfinished at the end: {left}")
    if undispatched := ctx.db.execute("SELECT count(*) FROM outbox_events WHERE dispatched_at IS NULL").fetchone():
        failures += [f"{undispatched[0]} outbox rows never dispatched"] if undispatched[0] else []
    if (why := ctx.receiver.server.died()) is not None:
        failures.append(why)
    rows = sorted(throughput, key=lambda r: (r.workers, r.target != "tessera"))
    table, ratios = throughput_table(rows)
    with seeding.direct(ctx.rt) as engine:
        info = results.versions(engine)
    by = {(r.target, r.workers): r.per_second for r in throughput}
    counts = list(dict.fromkeys([1, args.workers]))
    headline: dict[str, Any] = {f"deliveries_per_second_{n}_worker": {
        "tessera": by[("tessera", n)], "baseline": by[("baseline", n)], "ratio": ratios[str(n)]} for n in counts}
    headline["latency_from_commit_ms"] = lat = latency.from_commit_ms
    noisy = [n for label, u in [*((f"{r.target} x{r.workers}", r.usage) for r in rows), ("latency", latency.usage)]
             for n in cpu.noise(label, u.other_cpu_pct, u.other_db_xacts, NOISY_PCT)]
    lines = [
        "=== Tessera webhook delivery benchmark ===", *results.describe(info),
        f"throughput: {args.events:,} events x {args.endpoints} endpoints = {args.events * args.endpoints:,} "
        f"deliveries per run, outbox rows appended with storage.outbox.append in one transaction | workers: "
        f"`tessera worker --tasks 1` processes | TESSERA_WORKER_POLL_SECONDS={args.poll:g} | order tessera 1, "
        f"baseline 1, baseline {args.workers}, tessera {args.workers}", *table,
        f"non-database steps of one attempt, in process (not in the baseline): check_url {costs['check_url']:.1f} us, "
        f"unseal secret {costs['unseal_secret']:.1f} us, body + signature {costs['body_and_signature']:.1f} us", "",
        *latency_lines(latency), "",
        *(f"deliveries per second, {n} worker(s): tessera {by[('tessera', n)]:,.1f} baseline "
          f"{by[('baseline', n)]:,.1f} ratio {tables.times(ratios[str(n)])}" for n in counts),
        f"event-to-delivery latency at {args.rate:g} events/s (from commit): p50 {lat['p50']:.2f} ms p95 "
        f"{lat['p95']:.2f} ms p99 {lat['p99']:.2f} ms (poll {args.poll:g} s)",
        *cpu.noise_lines(noisy, NOISY_PCT), f"final delivery statuses: {statuses}"]
    return lines, {"throughput": [asdict(r) for r in rows], "ratios": ratios, "non_db_steps_us": costs,
                   "latency": asdict(latency), "headline": headline, "final_delivery_statuses": statuses,
                   "noisy_runs": noisy}, failures


def main() -> int:
    args = (cli.Arguments(__doc__, "webhooks").records(2000, 1, "--events", "outbox rows per throughput run")
            .add("--endpoints", type=int, default=2, help="endpoints subscribed to the event (default 2)")
            .add("--workers", type=int, default=2, help="worker processes of the second row (default 2)")
            .add("--rate", type=float, default=50.0, help="commands a second in the latency run (default 50)")
            .duration(20.0, "seconds of the latency run")
            .add("--poll", type=float, default=0.05, help="TESSERA_WORKER_POLL_SECONDS (default 0.05)")
            .at_least("--endpoints", 1).at_least("--workers", 1).check(lambda a: a.rate > 0, "--rate must be positive")
            .at_least("--poll", 0.01).keep_db()).parse()

    started = time.perf_counter()
    failures: list[str] = []
    lines: list[str] = []
    report: dict[str, Any] = {}
    try:
        with fresh("postgresql", "webhooks", args.keep_db, TESSERA_WEBHOOK_ALLOW_LOOPBACK="true",
                   TESSERA_WORKER_POLL_SECONDS=str(args.poll)) as ws, seeding.runtime(ws.env) as rt, \
                psycopg.connect(ws.backend.url, autocommit=True) as db:
            receiver = Receiver(ws.env, ws.tmp)
            try:
                setup = seeding.run(rt, setup_tenant(rt, receiver.base_url, args.endpoints))
                log(f"demo seeded; {len(setup.endpoints)} endpoints subscribed to {EVENT} and a control endpoint "
                    f"({CONTROL_EVENT} only), {len(setup.assets)} assets, caller {setup.caller.client_id} "
                    f"({setup.seconds:.1f} s)")
                costs = non_db_costs(rt, setup.endpoints[0], db)
                ctx = Context(rt, db, cpu.postmaster_pid(ws.backend.url), receiver, setup, ws.env, ws.tmp, args)
                lines, report, failures = measure_all(ctx, costs)
            finally:
                receiver.stop()
        report["config"] = {"worker": "tessera worker --tasks 1 (one process per worker)",
                            "noisy_threshold_pct": NOISY_PCT, "setup_seconds": round(setup.seconds, 1)}
    except (AssertionError, RuntimeError) as exc:
        failures.append(f"run aborted: {exc}")
    return cli.conclude(args, report, lines, failures, started)


if __name__ == "__main__":
    sys.exit(main())
