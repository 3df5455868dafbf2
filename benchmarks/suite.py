"""Tessera's benchmark suite: every endpoint the performance targets name, against an independent
baseline, the limit (the floor under any Python service on the same data) and, where they answer the
same calls, the two peers a team would pick instead, all in the same ABBA runs, driven by wrk on
loopback, with the server CPU per request beside every figure.

    .venv/bin/python benchmarks/suite.py [--backend postgresql|sqlite|both] [--duration 10]
        [--connections 16] [--records 100000] [--only token,whoami,...] [--rounds 1] [--warmup 2]
        [--threads 1] [--webhook-events 2000] [--webhook-duration 20] [--keep-db]

Needs ``wrk`` on the PATH, the packages of ``requirements/bench.txt`` (the peers' frameworks, locked),
PostgreSQL at ``TESSERA_TEST_PG_URL`` (default ``postgresql://postgres@127.0.0.1:5432/test``; the suite
creates and drops its own database there) for the PostgreSQL backend and the webhook figures, and
Linux (CPU pinning, ``/proc``).

Why it is built this way: the host is noisy and its speed changes from day to day, so absolute
figures mean little; a ratio to other servers doing the same database work, measured in the same
run, minutes apart, on the same data and CPU, is what the targets are written in. The baseline owes
nothing to Tessera (it used to call Tessera's own service functions, which measured only the
framework layers and hid Tessera's data path): ``benchmarks/baseline`` answers the same requests
with the same rules and the same rows, written by hand with the fewest round trips
(``benchmarks/roundtrips.py`` counts them), on psycopg as Tessera must. The limit is the same
server on asyncpg, with nothing left to take away; Tessera's ratio to it says how much of what Python
can do at all Tessera delivers. The peers
(``benchmarks/peers``) are what a team would build instead of Tessera's token endpoint and protected
calls: Authlib's client credentials grant on Flask under gunicorn, and FastAPI with SQLAlchemy's
asyncio extension. The issue's figures came from
one worker process pinned to one core; so here.

The targets (``targets()``, each a ``harness.servers.Target``: a name, a command line, a port,
environment; another server is one more entry there and gets its own lines):

==========  ========================================================================================
tessera     the real app from ``create_app`` (``benchmarks/_serve.py``), one uvicorn worker, request
            validation on as always, response validation off as in production, JSON logs at WARNING
baseline    ``python -m baseline``: a bare ASGI callable on uvicorn (uvloop, httptools, no access log),
            psycopg 3 async (Tessera's driver: a fixed pool opened full, autocommit, statements
            prepared on first use, binary rows; aiosqlite on SQLite), hand-written SQL on Tessera's
            tables, one statement per request: a read is the bearer digest joined to credential,
            installation, application, tenant and the record or page, a token and its audit row one
            statement, a command's token check, key, record, audit entry and outbox rows one; the call
            audit queued and written every 50 ms; one uvicorn worker
limit       the same server on asyncpg (``BASELINE_DRIVER=asyncpg``), PostgreSQL only: its round trip
            costs about half psycopg's CPU, so it is the floor under any Python service on these tables;
            every endpoint below but session-list and webhooks. On SQLite both would run aiosqlite, so
            there the baseline is the limit too
authlib     ``gunicorn 'peers.authlib_flask:create_app()'``: one gthread worker with ``--connections``
            threads, Authlib's AuthorizationServer, ClientCredentialsGrant and ResourceProtector,
            SQLAlchemy ORM (sync) on Tessera's tables
fastapi     ``python -m peers.fastapi_app``: FastAPI, pydantic response models, ``Security``
            dependency for the token, SQLAlchemy ORM (asyncio), one uvicorn worker
==========  ========================================================================================

What it measures, per backend (``--backend``, default both):

==================  =============================================================================
``--only`` key      endpoint (targets)
==================  =============================================================================
token               ``POST /oauth2/token``, client credentials in the form body, rotating over 16
                    credentials of one installation (all five)
whoami              ``GET /api/open/v1/whoami``, rotating over 16 bearer tokens (all five)
read                ``GET /api/open/v1/resources/assets/{pid}``, rotating over 5,000 pids (all five)
list                ``GET /api/open/v1/resources/assets?limit=50``: the first page and 199 cursors
                    spread over the 100,000 assets (cursors issued with the server key)
session-list        ``GET /api/dynamic/assets/list``: ``filters`` (status in in_stock, assigned),
                    ``keyword`` (10 asset kinds), ``sortField``/``sortOrder`` (name asc, value desc,
                    purchasedAt desc), pages 1 and 2 of 10, over 100,000 assets of the tenant
command             ``POST /api/open/v1/commands/inventory.stock-ins.create:execute``: a create (no
                    If-Match), a unique ``Idempotency-Key`` and sku per request; writes the record, its
                    audit entry, its outbox row (``inventory.stock-in.created``) and the key
event               ``POST /api/open/v1/event-sources/robot-fleet/events``, unique Idempotency-Key
session-create      ``POST /api/meta/commands/execute/assets:create`` with a unique
                    ``X-Idempotent-Key`` and ``serialNo`` per request
webhooks            ``benchmarks/webhooks.py`` run as is (PostgreSQL only): deliveries per second with
                    1 and 2 worker processes against a bare signed-POST loop, and the p50/p95/p99 of
                    event-to-delivery latency (from the command's commit to the receiver)
==================  =============================================================================

Steps, per backend:

1. A fresh database (PostgreSQL: a new database next to ``TESSERA_TEST_PG_URL``'s; SQLite: a file in
   a temporary directory), migrated. Through the services (``harness.endpoints.setup``): tenants
   ``bench`` and ``other``, a user of ``bench`` with the ``admin`` role and the platform role that
   creates applications, its session JWT; an application installed into ``bench`` (``production``)
   with every scope, 16 credentials and one token each. Then, in bulk with progress, ``--records``
   assets of ``bench`` and ``--records``/10 of ``other`` (noise the tenant scoping must skip), and
   ``VACUUM ANALYZE`` / ``ANALYZE``.
2. The targets the selected endpoints need, with the same ``TESSERA_*`` variables and every rate
   limit out of reach, pinned to the first CPU of this process's affinity mask (a forking server's
   children inherit it) and wrk to the second (the database is not pinned; with fewer than two CPUs
   nothing is pinned and the output says so).
3. Per endpoint: one request to each of its targets first, checking they answer 2xx and alike: every
   field that does not differ by design equal to Tessera's (a token minted per request, a new
   record's pid and timestamps, a sealed cursor aside; the request's own unique key put back as
   ``@KEY@``), and for list each target's ``nextCursor`` followed on every target to the same page.
   Then a ``--warmup`` wrk run per target; then ``--rounds`` rounds in ABBA order over the endpoint's
   targets (Tessera, baseline[, limit][, authlib, fastapi, fastapi, authlib][, limit], baseline, Tessera) of
   ``--duration`` runs, so a drift over the run (caches, tables growing with the writes) favours none.
   wrk (``harness/wrk.lua`` with a requests file generated per endpoint) runs ``--threads`` threads
   and ``--connections`` connections with a 30 s timeout; every request rotates over the endpoint's
   variants and every POST carries a unique key. Requests per second count 2xx responses only.
4. After every write run (token issue included) the database is checked: the rows the run added
   (records, outbox rows, completed idempotency keys, audit entries, inbound events, access tokens:
   whichever the endpoint writes) must agree with each other and lie between the 2xx responses wrk
   counted and the requests wrk wrote (the difference is requests still in flight when wrk stopped,
   which the server finishes); every target is checked the same way. Any non-2xx response or socket
   error fails the row; its samples are printed.
5. The table: per endpoint, one line per target with the medians over its runs of requests per
   second, p50/p95/p99 latency (wrk's histogram of every completed request, ms) and the server's CPU
   per 2xx response (the process and its children, from ``/proc``; the database's CPU is not in it);
   Tessera/baseline with its target (token issue, whoami, read by pid, list page of 50, inbound event
   and session list >= 0.5x; command execute and session command >= 0.4x), Tessera/limit with the
   issue's target (>= 0.5x on token issue, whoami, read by pid, list page of 50, command execute,
   inbound event and session command create; ``LIMIT_TARGET``; on SQLite on the baseline's line, which
   is the limit there), Tessera/peer with the target >= 2.0x
   (``PEER_TARGET``), and Tessera's p99/p50 (target <= 3 at 16 connections, ``TAIL_TARGET``; shown
   without a target at other connection counts); then the webhook rows (PostgreSQL) and each server's
   peak resident set size (``VmHWM``). Everything, per-run figures included (server CPU ms per request, host CPU, rows,
   statuses), goes to ``benchmarks/results/suite-<--backend>.json`` and the tables to
   ``benchmarks/results/suite-<--backend>.txt`` (``suite-both.txt`` by default; the directory is not
   committed); the webhook run's own report to ``benchmarks/results/suite-webhooks.json``.

Exit status 1 when any check failed (a target missed is reported, not a failure).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx
from harness import BENCH_DIR, RESULTS_DIR, ROOT, cli, cpu, log, results, tables, wrk
from harness import endpoints as ep
from harness.databases import BACKENDS, fresh
from harness.endpoints import (
    LIMIT_TARGET,
    OTHER_TENANT,
    PEER_TARGET,
    SPECS,
    TAIL_CONNECTIONS,
    TAIL_TARGET,
    TENANT,
    Fixture,
    Spec,
)
from harness.order import abba
from harness.servers import (
    BASELINE,
    FASTAPI_PEER,
    LIMIT,
    TESSERA,
    Pinning,
    Server,
    Target,
    authlib_peer,
    check_alive,
    running,
)
from sqlalchemy import Engine

SUBJECT, REFERENCE = TESSERA.name, BASELINE.name  # the ratio of the targets is subject/reference
FLOOR = LIMIT.name  # the limit (PostgreSQL only; on SQLite the baseline): Tessera/limit against LIMIT_TARGET
PEERS = ("authlib", FASTAPI_PEER.name)
WEBHOOKS = "webhooks"
KEYS = (*(s.key for s in SPECS), WEBHOOKS)


def targets(connections: int) -> tuple[Target, ...]:
    """Tessera, the independent baseline, the limit (the baseline on asyncpg) and the two peers (gunicorn's
    threads: one per wrk connection)."""
    return TESSERA, BASELINE, LIMIT, authlib_peer(connections), FASTAPI_PEER


def measured(spec: Spec, backend: str) -> list[str]:
    """The targets an endpoint runs on: Tessera and the baseline always, the limit and the peers where
    they answer it (the limit on PostgreSQL only: on SQLite the baseline is the limit)."""
    floors = (FLOOR,) if spec.limit and backend == "postgresql" else ()
    return [SUBJECT, REFERENCE, *floors, *(PEERS if spec.peers else ())]


# -- checks before measuring -----------------------------------------------------------------------

def ask(server: Server, call: wrk.Call) -> httpx.Response:
    return httpx.request(call.method, server.base_url + call.path, headers=call.headers,
                         content=None if call.body is None else call.body.encode(), timeout=60)


def verify_alike(spec: Spec, servers: dict[str, Server], calls: list[wrk.Call]) -> list[str]:
    """One request (two for list: the first page and a cursor) to each target: 2xx, and every
    deterministic field equal to Tessera's (``ep.comparable``: the request's own key put back as @KEY@)."""
    problems = []
    for index in ((0, 1) if spec.key == "list" else (0,)):
        answers = {}
        for name, server in servers.items():
            key = f"check-{spec.key}-{name}"
            response = ask(server, calls[index].with_key(key))
            if not response.is_success:
                problems.append(f"{name} answered HTTP {response.status_code}: {response.text[:300]}")
                continue
            try:
                answers[name] = ep.comparable(spec, response, key)
            except (ValueError, KeyError, TypeError) as exc:
                problems.append(f"{name} answered an unexpected body ({exc!r}): {response.text[:300]}")
        first, *others = list(answers.items()) or [("", None)]
        problems += [f"the targets answer differently: {first[0]} {str(first[1])[:400]} | {name} {str(answer)[:400]}"
                     for name, answer in others if answer != first[1]]
    if spec.key == "list":
        problems += verify_cursors(servers, calls[0])
    return problems


def verify_cursors(servers: dict[str, Server], first_page: wrk.Call) -> list[str]:
    """Each target's ``nextCursor`` followed on every target: the same second page everywhere."""
    problems, pages = [], {}
    for issuer, server in servers.items():
        cursor = ask(server, first_page).json().get("nextCursor")
        if not cursor:
            problems.append(f"{issuer} gave no nextCursor on a first page")
            continue
        follow = wrk.Call("GET", first_page.path + "&" + str(httpx.QueryParams({"cursor": cursor})),
                          first_page.headers)
        for reader, other in servers.items():
            response = ask(other, follow)
            if not response.is_success:
                problems.append(f"{issuer}'s cursor on {reader}: HTTP {response.status_code} {response.text[:200]}")
            else:
                pages[(issuer, reader)] = response.json()["items"]
    if len({json.dumps(items, sort_keys=True) for items in pages.values()}) > 1:
        problems.append(f"cursors followed across targets lead to different pages: {sorted(pages)}")
    return problems


# -- measuring -------------------------------------------------------------------------------------

@dataclass
class Run:
    """One measured wrk run against one target, with its checks."""

    target: str
    round: int
    wrk: wrk.WrkRun
    server_cpu_ms: float | None  # server process (and children) CPU per 2xx response
    host_cpu_pct: float | None  # how busy all CPUs were (100 = all saturated)
    rows: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


@dataclass
class Stats:
    """Medians over a target's runs of one endpoint."""

    rps: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    server_cpu_ms: float | None
    runs: int

    @staticmethod
    def of(runs: list[Run]) -> Stats:
        def mid(values: list[float], digits: int) -> float:
            return round(statistics.median(values), digits)

        cpu_ms = [r.server_cpu_ms for r in runs if r.server_cpu_ms is not None]
        return Stats(mid([r.wrk.rps for r in runs], 1), mid([r.wrk.p50_ms for r in runs], 2),
                     mid([r.wrk.p95_ms for r in runs], 2), mid([r.wrk.p99_ms for r in runs], 2),
                     mid(cpu_ms, 3) if cpu_ms else None, len(runs))


@dataclass
class Verdict:
    """A figure against its target: at least ``target`` (a ratio of requests per second), or, with
    ``most``, at most (Tessera's p99/p50)."""

    value: float | None
    target: float | None
    most: bool = False

    @property
    def met(self) -> bool | None:
        if self.value is None or self.target is None:
            return None
        return self.value <= self.target if self.most else self.value >= self.target


@dataclass
class Row:
    """One endpoint of the final table."""

    label: str
    key: str
    stats: dict[str, Stats]  # by target
    versus: dict[str, Verdict]  # Tessera's requests per second over each other target's, against its target
    tail: Verdict | None  # Tessera's p99/p50
    problems: list[str] = field(default_factory=list)
    note: str = ""
    request: str = ""
    runs: list[Run] = field(default_factory=list)


def measure(spec: Spec, server: Server, requests_file: Path, tag: str, round_no: int, engine: Engine,
            args: argparse.Namespace, pinning: Pinning) -> Run:
    (done,), usage, rows, problems = ep.checked(spec, engine, cpu.Meter({"server": cpu.of_tree(server.pid)}),
                                                lambda: [wrk.run(server.base_url, requests_file, tag, args.duration,
                                                                 args.connections, args.threads, pinning.load)])
    return Run(server.name, round_no, done, usage.ms_per(done.ok, 3)["server"], usage.host_pct(), rows, problems)


def latency_text(run: wrk.WrkRun) -> str:
    return f"{run.rps:>8,.1f} req/s  p50 {run.p50_ms:7.2f}  p95 {run.p95_ms:7.2f}  p99 {run.p99_ms:7.2f} ms"


def warm_up(spec: Spec, servers: dict[str, Server], requests_file: Path, engine: Engine, args: argparse.Namespace,
            pinning: Pinning) -> list[str]:
    """A ``--warmup`` run per target (its writes settled before the next starts); the problems it met."""
    problems = []
    for name, server in servers.items():
        warm = wrk.run(server.base_url, requests_file, f"{spec.key}-{name}-warm", args.warmup, args.connections,
                       args.threads, pinning.load)
        log(f"  warm-up {name:<13} {args.warmup:g} s: {latency_text(warm)}"
            + (f"  {warm.not_ok} non-2xx {warm.statuses} {warm.samples[:1]}" if warm.not_ok else ""))
        if warm.not_ok:
            problems.append(f"warm-up on {name}: {warm.not_ok} non-2xx responses {warm.statuses}: {warm.samples}")
        if spec.kind != "read":
            ep.quiesce(engine)
    return problems


def verdicts(spec: Spec, stats: dict[str, Stats], connections: int) -> tuple[dict[str, Verdict], Verdict]:
    """Tessera/baseline against the endpoint's target, Tessera/limit against ``LIMIT_TARGET`` (over the
    baseline where the limit did not run: on SQLite, where they are one), Tessera/peer against
    ``PEER_TARGET``, and Tessera's p99/p50 (its target applies at ``TAIL_CONNECTIONS`` connections)."""
    subject = stats[SUBJECT]
    wanted = {REFERENCE: spec.target, FLOOR: LIMIT_TARGET}
    versus = {name: Verdict(round(subject.rps / s.rps, 3) if s.rps else None, wanted.get(name, PEER_TARGET))
              for name, s in stats.items() if name != SUBJECT}
    if spec.limit and FLOOR not in stats and REFERENCE in versus:
        versus[FLOOR] = Verdict(versus[REFERENCE].value, LIMIT_TARGET)
    tail = round(subject.p99_ms / subject.p50_ms, 2) if subject.p50_ms else None
    return versus, Verdict(tail, TAIL_TARGET if connections == TAIL_CONNECTIONS else None, most=True)


def measure_endpoint(spec: Spec, fx: Fixture, all_servers: dict[str, Server], engine: Engine, tmp: Path,
                     args: argparse.Namespace, pinning: Pinning, backend: str) -> Row:
    servers = {name: all_servers[name] for name in measured(spec, backend)}
    calls = ep.calls_for(spec, fx)
    requests_file = wrk.write_requests(tmp / f"requests-{spec.key}.lua", calls)
    log(f"\n[{backend}] {spec.label}: {spec.request}; {len(calls):,} request variants; targets {', '.join(servers)}")
    problems = [f"before measuring: {p}" for p in verify_alike(spec, servers, calls)]
    log("  the targets answer alike" if not problems else f"  CHECK FAILED: {problems}")
    problems += warm_up(spec, servers, requests_file, engine, args, pinning)
    order = abba(list(servers), args.rounds)
    runs: list[Run] = []
    for number, name in enumerate(order, start=1):
        run = measure(spec, servers[name], requests_file, f"{spec.key}-{name}-r{number}",
                      (number - 1) // (2 * len(servers)) + 1, engine, args, pinning)
        runs.append(run)
        rows = f"  rows {run.rows}" if run.rows else ""
        cpu_ms = f"  server CPU {run.server_cpu_ms:.2f} ms/req" if run.server_cpu_ms is not None else ""
        log(f"  run {number}/{len(order)} {name:<13} {run.wrk.seconds:.1f} s: {latency_text(run.wrk)}  ({run.wrk.ok:,} "
            f"2xx, {run.wrk.sent - run.wrk.requests} in flight at stop){cpu_ms}{rows}"
            + ("" if not run.problems else f"  PROBLEM: {run.problems}"))
        problems += [f"run {number} ({name}): {p}" for p in run.problems]
        check_alive(all_servers.values())
    stats = {name: Stats.of([r for r in runs if r.target == name]) for name in servers}
    versus, tail = verdicts(spec, stats, args.connections)
    log("  => " + ", ".join(f"{name} {s.rps:,.1f} req/s" for name, s in stats.items()) + "; Tessera/"
        + ", ".join(f"{name} {tables.times(v.value)}" + ("" if v.target is None else
                                                           f" (>= {v.target:g}x: {'met' if v.met else 'NOT met'})")
                    for name, v in versus.items())
        + f"; Tessera p99/p50 {tail.value}" + ("" if not problems else f"; {len(problems)} problem(s)"))
    return Row(spec.label, spec.key, stats, versus, tail, problems, request=spec.request, runs=runs)


# -- webhooks --------------------------------------------------------------------------------------

def webhook_rows(args: argparse.Namespace) -> tuple[list[Row], dict[str, Any]]:
    """Run ``benchmarks/webhooks.py`` as is (its own database, worker processes and receiver) and turn
    its headline figures into table rows."""
    results_file = RESULTS_DIR / "suite-webhooks.json"
    results_file.unlink(missing_ok=True)
    command = [sys.executable, str(BENCH_DIR / "webhooks.py"), "--events", str(args.webhook_events),
               "--duration", f"{args.webhook_duration:g}", "--results-file", str(results_file)]
    log(f"\n[postgresql] webhooks: webhooks.py {' '.join(command[2:])}")
    started = time.perf_counter()
    with subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          errors="replace") as process:
        assert process.stdout is not None
        for line in process.stdout:
            log(f"  [webhooks] {line.rstrip()}")
        status = process.wait()
    log(f"  webhooks.py exited with {status} after {time.perf_counter() - started:.0f} s")
    if not results_file.exists():
        return [Row("webhooks", WEBHOOKS, {}, {}, None,
                    [f"benchmarks/webhooks.py wrote no results (exit {status}); see its output above"])], {}
    report = json.loads(results_file.read_text())
    failures = [f"webhooks.py: {f}" for f in report.get("failures", [])]
    if status != 0 and not failures:
        failures.append(f"webhooks.py exited with {status}")
    rows = []
    for name, figures in report.get("headline", {}).items():
        if not name.startswith("deliveries_per_second_"):
            continue
        workers = name.removeprefix("deliveries_per_second_").split("_", 1)[0]
        rows.append(Row(
            f"webhook deliveries/s ({workers} worker{'s' if workers != '1' else ''})", WEBHOOKS,
            {t: Stats(figures[t], 0, 0, 0, None, 1) for t in ("tessera", "baseline") if figures.get(t) is not None},
            {REFERENCE: Verdict(figures.get("ratio"), None)}, None, failures,
            note="deliveries per second draining a backlog (tessera worker processes vs a bare signed-POST loop)"))
    latency = report.get("headline", {}).get("latency_from_commit_ms")
    if latency:
        config = report.get("arguments", {})
        rows.append(Row(
            "webhook event-to-delivery", WEBHOOKS, {"tessera": Stats(0, latency["p50"], latency["p95"], latency["p99"],
                                                                     None, 1)}, {}, None, failures,
            note=f"from the command's commit to the receiver, {config.get('rate', '?')} commands/s, worker poll "
                 f"{config.get('poll', '?')} s; no baseline"))
    return rows, report


# -- report ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Line:
    """One target of one endpoint: a line of the table."""

    row: Row
    target: str
    first: bool  # the endpoint's first line, which names it

    @property
    def stats(self) -> Stats | None:
        return self.row.stats.get(self.target)


def _verdict_columns(header: str, pick: Any, value_text: Any, target_text: Any) -> list[tables.Column | str]:
    def met(line: Line) -> str:
        verdict = pick(line)
        return "" if verdict is None or verdict.met is None else ("yes" if verdict.met else "NO")

    return [tables.SEP,
            tables.Column(header, lambda line: None if pick(line) is None else pick(line).value, value_text),
            tables.Column("target", lambda line: None if pick(line) is None else pick(line).target, target_text),
            tables.Column("met?", met, str, "<")]


def table(rows: list[Row]) -> list[str]:
    """Per endpoint, one line per target: requests per second, latency percentiles and server CPU per
    request (medians of the runs); Tessera over the baseline or a peer with its target (``Tessera/x``), over
    the limit with its own (``Tessera/limit``, on the limit's line, or on the baseline's where the limit did not
    run); Tessera's p99/p50 with its target."""
    lines = [Line(row, name, i == 0) for row in rows for i, name in enumerate(row.stats)]

    def stat(attr: str, digits: int) -> tables.Column:
        header = {"rps": "req/s", "server_cpu_ms": "CPU ms/req"}.get(attr, f"{attr[:3]} ms")
        return tables.Column(header, lambda line: None if line.stats is None else getattr(line.stats, attr),
                             lambda v: tables.fixed(v, digits, zero_is_missing=True))

    def label(line: Line) -> str:
        return (line.row.label + (" (FAILED CHECKS)" if line.row.problems else "")) if line.first else ""

    columns: list[tables.Column | str] = [
        tables.Column("endpoint", label, str, "<"), tables.SEP, tables.Column("target", "target", str, "<"),
        tables.SEP, stat("rps", 1), stat("p50_ms", 2), stat("p95_ms", 2), stat("p99_ms", 2), tables.SEP,
        stat("server_cpu_ms", 3)]
    times = lambda v: "-" if v is None else f"{v:.2f}x"  # noqa: E731 - a formatter, named for reading
    at_least = lambda v: "" if v is None else f">={v:g}x"  # noqa: E731
    columns += _verdict_columns("Tessera/x", lambda line: line.row.versus.get(line.target)
                                if line.target != FLOOR else None, times, at_least)
    columns += _verdict_columns("Tessera/limit", lambda line: line.row.versus.get(FLOOR) if line.target == FLOOR or (
        line.target == REFERENCE and FLOOR not in line.row.stats) else None, times, at_least)
    columns += _verdict_columns("p99/p50", lambda line: line.row.tail if line.target == SUBJECT else None,
                                lambda v: "" if v is None else f"{v:.2f}", lambda v: "" if v is None else f"<={v:g}")
    return tables.render(columns, lines)


def webhook_table(rows: list[Row]) -> list[str]:
    """The webhook figures (``benchmarks/webhooks.py``): Tessera's workers against a bare signed-POST loop."""
    if not rows:
        return []

    def get(name: str, attr: str) -> Any:
        return lambda row: None if name not in row.stats else getattr(row.stats[name], attr)

    fixed = lambda v: tables.fixed(v, 1, zero_is_missing=True)  # noqa: E731 - a formatter, named for reading
    ratio = lambda row: row.versus.get(REFERENCE).value if row.versus.get(REFERENCE) else None  # noqa: E731
    return ["webhooks (benchmarks/webhooks.py; baseline: a bare signed-POST loop):", *tables.render([
        tables.Column("figure", "label", str, "<"), tables.SEP,
        tables.Column("Tessera /s", get(SUBJECT, "rps"), fixed), tables.Column("baseline /s", get(REFERENCE, "rps"),
                                                                              fixed),
        tables.Column("ratio", ratio, lambda v: "-" if v is None else f"{v:.2f}x"), tables.SEP,
        tables.Column("p50 ms", get(SUBJECT, "p50_ms"), fixed), tables.Column("p95 ms", get(SUBJECT, "p95_ms"), fixed),
        tables.Column("p99 ms", get(SUBJECT, "p99_ms"), fixed)], rows)]


@dataclass
class BackendReport:
    backend: str
    rows: list[Row] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)


def run_backend(name: str, args: argparse.Namespace, selected: list[Spec], pinning: Pinning) -> BackendReport:
    out = BackendReport(name)
    log(f"\n##### backend: {name} #####")
    try:
        with fresh(name, f"suite-{name}", args.keep_db) as ws:
            fx = ep.setup(ws.env, args.records)
            engine = ws.backend.engine()
            try:
                out.info = {"versions": results.versions(engine), "database": ws.backend.label, "assets": fx.assets,
                            "other_tenant_assets": fx.noise, "setup_seconds": round(fx.setup_seconds, 1),
                            "seed_seconds": round(fx.seed_seconds, 1), "application": fx.app_pid,
                            "installation": fx.installation_pid, "credentials": len(fx.credentials)}
                needed = [t for t in targets(args.connections) if any(t.name in measured(s, name) for s in selected)]
                with running(needed, ws.env, ws.tmp, pinning.server) as servers:
                    for spec in selected:
                        row = measure_endpoint(spec, fx, servers, engine, ws.tmp, args, pinning, name)
                        out.rows.append(row)
                        out.failures += [f"{name}, {spec.label}: {p}" for p in row.problems]
                    out.info["peak_rss_mib"] = {n: cpu.tree_memory_mib(s.pid, "VmHWM") for n, s in servers.items()}
                    if any(r.problems for r in out.rows):
                        for server in servers.values():
                            log(f"\n{server.name} log (last lines):\n{server.log_tail(15)}")
            finally:
                engine.dispose()
    except (AssertionError, RuntimeError, httpx.HTTPError) as exc:
        out.failures.append(f"{name}: run aborted: {exc}")
        log(f"ABORTED: {exc}")
    if name == "postgresql" and args.webhooks:
        rows, report = webhook_rows(args)
        out.rows += rows
        out.info["webhooks"] = report
        out.failures += list(dict.fromkeys(p for r in rows for p in r.problems))
    return out


def report_lines(out: BackendReport, args: argparse.Namespace, pinning: Pinning) -> list[str]:
    info = out.info
    lines = [f"=== Tessera benchmark suite: {out.backend} ==="]
    if info.get("versions"):
        lines += results.describe(info["versions"])
    if "assets" in info:
        lines.append(f"{info['assets']:,} assets in {TENANT!r} (+{info['other_tenant_assets']:,} in "
                     f"{OTHER_TENANT!r}) | wrk {args.threads} thread(s), {args.connections} connections | "
                     f"{args.duration:g} s per run, {args.rounds} round(s) of ABBA (median of {2 * args.rounds} runs "
                     f"per target) after {args.warmup:g} s warm-up | {pinning.describe()}")
        lines.append("targets: tessera (the service, one uvicorn worker) | baseline (benchmarks/baseline: bare ASGI "
                     "on uvicorn with uvloop and httptools, psycopg/aiosqlite, hand-written SQL, one statement per "
                     "request) | limit (the baseline on asyncpg; PostgreSQL only, on SQLite the baseline is the "
                     "limit) | authlib (benchmarks/peers: Authlib + "
                     f"Flask, gunicorn 1 gthread worker x {args.connections} threads) | fastapi (benchmarks/peers: "
                     "FastAPI + SQLAlchemy async, one uvicorn worker); CPU ms/req: the server process and its "
                     "children per 2xx response (the database's CPU is not in it)")
    lines += table([r for r in out.rows if r.key != WEBHOOKS])
    lines.append("Tessera/x and Tessera/limit: Tessera's requests per second over this line's target's (medians); "
                 f"p99/p50: Tessera's (its target applies at {TAIL_CONNECTIONS} connections)")
    lines += webhook_table([r for r in out.rows if r.key == WEBHOOKS])
    if rss := info.get("peak_rss_mib"):
        lines.append("peak resident set size (VmHWM, process and children) at the end: "
                     + ", ".join(f"{t} {'-' if v is None else f'{v:,.1f} MiB'}" for t, v in rss.items()))
    lines += [f"note, {row.label}: {row.note}" for row in out.rows if row.note]
    return lines


def main() -> int:
    args = (cli.Arguments(__doc__, "suite-{backend}").backend("both", both=True)
            .records(100_000, ep.LIST_CURSORS).duration(10.0).warmup(2.0).connections(16)
            .add("--threads", type=int, default=1, help="wrk threads (default 1: wrk has one CPU)")
            .check(lambda a: 1 <= a.threads <= a.connections, "--threads must be 1 to --connections")
            .add("--only", default=",".join(KEYS), help=f"comma-separated, of: {','.join(KEYS)} (default all)")
            .check(lambda a: {k.strip() for k in a.only.split(",") if k.strip()} <= set(KEYS),
                   f"--only: choose of {', '.join(KEYS)}")
            .add("--rounds", type=int, default=1, help="ABBA rounds per endpoint (default 1: 2 runs per target)")
            .add("--webhook-events", type=int, default=2000, help="webhooks.py --events (default 2000)")
            .add("--webhook-duration", type=float, default=20.0, help="webhooks.py --duration (default 20)")
            .at_least("--rounds", 1).keep_db().wrk("--duration", "--warmup")).parse()
    only = [k.strip() for k in args.only.split(",") if k.strip()]
    args.webhooks = WEBHOOKS in only
    selected = [s for s in SPECS if s.key in only]

    started = time.perf_counter()
    backends = BACKENDS if args.backend == "both" else (args.backend,)
    pinning = Pinning.choose()
    log(f"Tessera benchmark suite: {', '.join(backends)}; endpoints {', '.join(s.key for s in selected) or '-'}"
        f"{' + webhooks' if args.webhooks else ''}; targets {', '.join(t.name for t in targets(args.connections))}; "
        f"{pinning.describe()}")
    if args.webhooks and "postgresql" not in backends:
        log("note: webhooks are measured on PostgreSQL only (benchmarks/webhooks.py); not run")
    reports = [run_backend(name, args, selected, pinning) for name in backends]

    lines: list[str] = []
    for out in reports:
        out.lines = report_lines(out, args, pinning)
        lines += [*([""] if lines else []), *out.lines]
    if args.webhooks and "postgresql" not in backends:
        lines.append("webhooks: not run (benchmarks/webhooks.py runs on PostgreSQL only)")
    failures = [f for out in reports for f in out.failures]
    return cli.conclude(args, {
        "config": {"order": "ABBA", "pinning": pinning.describe(),
                   "targets": {t.name: t.command for t in targets(args.connections)},
                   "endpoints": {s.label: s.request for s in selected}, "scopes": ep.SCOPES},
        "backends": {out.backend: {**{k: v for k, v in out.info.items() if k != "webhooks"},
                                   "rows": [asdict(r) for r in out.rows], "table": out.lines,
                                   "webhooks_report": out.info.get("webhooks")} for out in reports},
    }, lines, failures, started)


if __name__ == "__main__":
    sys.exit(main())
