"""Tessera's benchmark suite: every endpoint the performance targets name, against a bare Starlette
baseline doing the same SQL, in the same run, driven by wrk on loopback; one command.

    .venv/bin/python benchmarks/suite.py [--backend postgresql|sqlite|both] [--duration 10]
        [--connections 16] [--records 100000] [--only token,whoami,...] [--rounds 1] [--warmup 2]
        [--threads 1] [--webhook-events 2000] [--webhook-duration 20] [--keep-db]

Needs ``wrk`` on the PATH, PostgreSQL at ``TESSERA_TEST_PG_URL`` (default
``postgresql://postgres@127.0.0.1:5432/test``; the suite creates and drops its own database there)
for the PostgreSQL backend and the webhook figures, and Linux (CPU pinning, ``/proc``).

Why it is built this way: the host is noisy and its speed changes from day to day, so absolute
figures mean little; a ratio to a baseline doing the same database work, measured in the same run,
minutes apart, on the same data and CPU, is what the targets are written in. The issue's figures
came from one worker process pinned to one core; so here.

What it measures, per backend (``--backend``, default both):

==================  =============================================================================
``--only`` key      endpoint (Tessera and baseline alike)
==================  =============================================================================
token               ``POST /oauth2/token``, client credentials in the form body, rotating over 16
                    credentials of one installation
whoami              ``GET /api/open/v1/whoami``, rotating over 16 bearer tokens
read                ``GET /api/open/v1/resources/assets/{pid}``, rotating over 5,000 pids
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
2. Tessera (``benchmarks/_serve.py``: the real app from ``create_app``, one uvicorn worker, request
   validation on as always, response validation off as in production, JSON logs at WARNING) and
   the baseline (``benchmarks/_baseline_suite.py``: bare Starlette calling the same service functions
   as Tessera's handlers, so the same SQL, without Connexion, validation, middleware, rate limiting
   or call audit), with the same ``TESSERA_*`` variables and every rate limit out of reach, pinned to
   the first CPU of this process's affinity mask and wrk to the second (the database is not pinned;
   with fewer than two CPUs nothing is pinned and the output says so). The servers compared are
   ``TARGETS`` (``harness.servers.Target``: a name, a command line, a port, environment); another
   server is one more entry there, and gets its own columns.
3. Per endpoint: one request to each target first, checking both answer 2xx alike (same body for
   reads; same shape for writes); then a ``--warmup`` wrk run per target; then ``--rounds`` rounds
   of four ``--duration`` runs in ABBA order (Tessera, baseline, baseline, Tessera) so a drift over
   the run (caches, tables growing with the writes) favours neither. wrk (``harness/wrk.lua`` with a
   requests file generated per endpoint) runs ``--threads`` threads and ``--connections``
   connections with a 30 s timeout; every request rotates over the endpoint's variants and every
   POST carries a unique key. Requests per second count 2xx responses only.
4. After every write run (token issue included) the database is checked: the rows the run added
   (records, outbox rows, completed idempotency keys, audit entries, inbound events, access tokens:
   whichever the endpoint writes) must agree with each other and lie between the 2xx responses wrk
   counted and the requests wrk wrote (the difference is requests still in flight when wrk stopped,
   which the server finishes); the baseline is checked the same way. Any non-2xx response or socket
   error fails the row; its samples are printed.
5. The table: per endpoint the medians over the runs of Tessera's and the baseline's requests per
   second and p50/p95/p99 latency (wrk's histogram of every completed request, ms), the ratio of the
   medians of requests per second, the target (token issue and reads >= 0.5x, writes >= 0.4x) and
   whether it is met; the webhook rows (PostgreSQL); the server processes' CPU per 2xx response
   (where the ratio goes); the peak resident set size (``VmHWM``) of both server processes.
   Everything, per-run figures included (server CPU ms per request, host CPU, rows, statuses), goes
   to ``benchmarks/results/suite-<--backend>.json`` and the tables to
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
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx
from harness import BENCH_DIR, RESULTS_DIR, ROOT, cpu, log, results, tables, wrk
from harness import endpoints as ep
from harness.databases import BACKENDS, fresh
from harness.endpoints import OTHER_TENANT, SPECS, TENANT, Fixture, Spec
from harness.order import abba
from harness.servers import BASELINE, TESSERA, Pinning, Server, check_alive, running
from sqlalchemy import Engine

TARGETS = (TESSERA, BASELINE)  # the first is measured against the second (the ratio and its target)
WEBHOOKS = "webhooks"
KEYS = (*(s.key for s in SPECS), WEBHOOKS)


# -- checks before measuring -----------------------------------------------------------------------

def verify_alike(spec: Spec, servers: dict[str, Server], calls: list[wrk.Call]) -> list[str]:
    """One request (two for list: first page and a cursor) to each target: 2xx and alike."""
    problems = []
    for index in ((0, 1) if spec.key == "list" else (0,)):
        answers = {}
        for name, server in servers.items():
            call = calls[index].with_key(f"check-{spec.key}-{name}")
            response = httpx.request(call.method, server.base_url + call.path, headers=call.headers,
                                     content=None if call.body is None else call.body.encode(), timeout=60)
            if not response.is_success:
                problems.append(f"{name} answered HTTP {response.status_code}: {response.text[:300]}")
                continue
            try:
                answers[name] = ep.comparable(spec, response)
            except (ValueError, KeyError, TypeError) as exc:
                problems.append(f"{name} answered an unexpected body ({exc!r}): {response.text[:300]}")
        first, *others = list(answers.items()) or [("", None)]
        problems += [f"the targets answer differently: {first[0]} {str(first[1])[:400]} | {name} {str(answer)[:400]}"
                     for name, answer in others if answer != first[1]]
    return problems


# -- measuring -------------------------------------------------------------------------------------

@dataclass
class Run:
    """One measured wrk run against one target, with its checks."""

    target: str
    round: int
    wrk: wrk.WrkRun
    server_cpu_ms: float | None  # server process CPU per 2xx response
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
class Row:
    """One line of the final table."""

    label: str
    key: str
    stats: dict[str, Stats]  # by target
    ratio: float | None  # the first target's requests per second over the second's
    target: float | None
    met: bool | None
    problems: list[str] = field(default_factory=list)
    note: str = ""
    request: str = ""
    runs: list[Run] = field(default_factory=list)


def measure(spec: Spec, server: Server, requests_file: Path, tag: str, round_no: int, engine: Engine,
            args: argparse.Namespace, pinning: Pinning) -> Run:
    (done,), usage, rows, problems = ep.checked(spec, engine, cpu.Meter({"server": cpu.of_processes([server.pid])}),
                                                lambda: [wrk.run(server.base_url, requests_file, tag, args.duration,
                                                                 args.connections, args.threads, pinning.load)])
    return Run(server.name, round_no, done, usage.ms_per(done.ok, 3)["server"], usage.host_pct(), rows, problems)


def latency_text(run: wrk.WrkRun) -> str:
    return f"{run.rps:>8,.1f} req/s  p50 {run.p50_ms:7.2f}  p95 {run.p95_ms:7.2f}  p99 {run.p99_ms:7.2f} ms"


def measure_endpoint(spec: Spec, fx: Fixture, servers: dict[str, Server], engine: Engine, tmp: Path,
                     args: argparse.Namespace, pinning: Pinning, backend: str) -> Row:
    calls = ep.calls_for(spec, fx)
    requests_file = wrk.write_requests(tmp / f"requests-{spec.key}.lua", calls)
    log(f"\n[{backend}] {spec.label}: {spec.request}; {len(calls):,} request variants")
    problems = [f"before measuring: {p}" for p in verify_alike(spec, servers, calls)]
    log("  the targets answer alike" if not problems else f"  CHECK FAILED: {problems}")
    for name, server in servers.items():
        warm = wrk.run(server.base_url, requests_file, f"{spec.key}-{name}-warm", args.warmup, args.connections,
                       args.threads, pinning.load)
        log(f"  warm-up {name:<8} {args.warmup:g} s: {latency_text(warm)}"
            + (f"  {warm.not_ok} non-2xx {warm.statuses} {warm.samples[:1]}" if warm.not_ok else ""))
        if warm.not_ok:
            problems.append(f"warm-up on {name}: {warm.not_ok} non-2xx responses {warm.statuses}: {warm.samples}")
        if spec.kind != "read":
            ep.quiesce(engine)
    order = abba(list(servers), args.rounds)
    runs: list[Run] = []
    for number, name in enumerate(order, start=1):
        run = measure(spec, servers[name], requests_file, f"{spec.key}-{name}-r{number}",
                      (number - 1) // (2 * len(servers)) + 1, engine, args, pinning)
        runs.append(run)
        rows = f"  rows {run.rows}" if run.rows else ""
        cpu_ms = f"  server CPU {run.server_cpu_ms:.2f} ms/req" if run.server_cpu_ms is not None else ""
        log(f"  run {number}/{len(order)} {name:<8} {run.wrk.seconds:.1f} s: {latency_text(run.wrk)}  ({run.wrk.ok:,} "
            f"2xx, {run.wrk.sent - run.wrk.requests} in flight at stop){cpu_ms}{rows}"
            + ("" if not run.problems else f"  PROBLEM: {run.problems}"))
        problems += [f"run {number} ({name}): {p}" for p in run.problems]
        check_alive(servers.values())
    stats = {name: Stats.of([r for r in runs if r.target == name]) for name in servers}
    subject, reference = (stats[t.name] for t in TARGETS[:2])
    ratio = round(subject.rps / reference.rps, 3) if reference.rps else None
    met = ratio is not None and ratio >= spec.target
    log("  => " + ", ".join(f"{name} {s.rps:,.1f} req/s" for name, s in stats.items())
        + f", ratio {tables.times(ratio)} (target >= {spec.target:g}x: {'met' if met else 'NOT met'})"
        + ("" if not problems else f"; {len(problems)} problem(s)"))
    return Row(spec.label, spec.key, stats, ratio, spec.target, met, problems, request=spec.request, runs=runs)


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
        return [Row("webhooks", WEBHOOKS, {}, None, None, None,
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
            figures.get("ratio"), None, None, failures,
            note="deliveries per second draining a backlog (tessera worker processes vs a bare signed-POST loop)"))
    latency = report.get("headline", {}).get("latency_from_commit_ms")
    if latency:
        config = report.get("arguments", {})
        rows.append(Row(
            "webhook event-to-delivery", WEBHOOKS, {"tessera": Stats(0, latency["p50"], latency["p95"], latency["p99"],
                                                                     None, 1)}, None, None, None, failures,
            note=f"from the command's commit to the receiver, {config.get('rate', '?')} commands/s, worker poll "
                 f"{config.get('poll', '?')} s; no baseline"))
    return rows, report


# -- report ----------------------------------------------------------------------------------------

def table(rows: list[Row]) -> list[str]:
    """The final table: medians per target, the ratio of requests per second, the target, met or not."""
    def stat(name: str, attr: str, digits: int) -> tables.Column:
        def get(row: Row) -> float | None:
            found = row.stats.get(name)
            return None if found is None else getattr(found, attr)

        header = f"{'Tessera' if name == 'tessera' else name} req/s" if attr == "rps" else f"{attr[:3]} ms"
        return tables.Column(header, get, lambda v: tables.fixed(v, digits, zero_is_missing=True))

    def met(row: Row) -> str:
        text = "-" if row.met is None else ("yes" if row.met else "NO")
        return text + (" (FAILED CHECKS)" if row.problems else "")

    columns: list[tables.Column | str] = [tables.Column("endpoint", "label", str, "<")]
    for target in TARGETS:
        columns += [tables.SEP, stat(target.name, "rps", 1), stat(target.name, "p50_ms", 2),
                    stat(target.name, "p95_ms", 2), stat(target.name, "p99_ms", 2)]
    columns += [tables.SEP, tables.Column("ratio", "ratio", lambda v: "-" if v is None else f"{v:.2f}x"), tables.SEP,
                tables.Column("target", "target", lambda v: "-" if v is None else f">={v:g}x"), tables.SEP,
                tables.Column("met?", met, str, "<")]
    return tables.render(columns, rows)


def cpu_table(rows: list[Row]) -> list[str]:
    """Server CPU per 2xx response (medians): where the ratio goes, independent of the load generator."""
    names = [t.name for t in TARGETS]
    measured = [r for r in rows if all(r.stats.get(n) and r.stats[n].server_cpu_ms for n in names)]
    if not measured:
        return []

    def ms(name: str) -> Callable[[Row], float]:
        return lambda row: row.stats[name].server_cpu_ms or 0.0

    columns: list[tables.Column | str] = [tables.Column("endpoint", "label", str, "<")]
    for name in names:
        columns += [tables.SEP, tables.Column(f"{'Tessera' if name == 'tessera' else name} CPU ms/req", ms(name),
                                              lambda v: f"{v:.3f}")]
    columns += [tables.SEP, tables.Column("extra ms/req", lambda r: ms(names[0])(r) - ms(names[1])(r),
                                          lambda v: f"{v:.3f}")]
    return ["server process CPU per 2xx response (median of the runs; the database's CPU is not in it):",
            *tables.render(columns, measured)]


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
                with running(TARGETS, ws.env, ws.tmp, pinning.server) as servers:
                    for spec in selected:
                        row = measure_endpoint(spec, fx, servers, engine, ws.tmp, args, pinning, name)
                        out.rows.append(row)
                        out.failures += [f"{name}, {spec.label}: {p}" for p in row.problems]
                    out.info["peak_rss_mib"] = {n: cpu.memory_mib(s.pid, "VmHWM") for n, s in servers.items()}
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
                     f"per target) after {args.warmup:g} s warm-up | {pinning.describe()} | one uvicorn worker per "
                     "server")
    lines += table(out.rows)
    lines += cpu_table(out.rows)
    if rss := info.get("peak_rss_mib"):
        lines.append("peak resident set size (VmHWM) at the end: "
                     + ", ".join(f"{t} {'-' if v is None else f'{v:,.1f} MiB'}" for t, v in rss.items()))
    lines += [f"note, {row.label}: {row.note}" for row in out.rows if row.note]
    lines += [f"FAILED: {failure}" for failure in out.failures]
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=(*BACKENDS, "both"), default="both")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per measured run (default 10)")
    parser.add_argument("--connections", type=int, default=16, help="wrk connections (default 16)")
    parser.add_argument("--threads", type=int, default=1, help="wrk threads (default 1: wrk has one CPU)")
    parser.add_argument("--records", type=int, default=100_000, help="assets of the tenant (default 100000)")
    parser.add_argument("--only", default=",".join(KEYS), help=f"comma-separated, of: {','.join(KEYS)} (default all)")
    parser.add_argument("--rounds", type=int, default=1, help="ABBA rounds per endpoint (default 1: 2 runs per target)")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds of warm-up per endpoint and target")
    parser.add_argument("--webhook-events", type=int, default=2000, help="webhooks.py --events (default 2000)")
    parser.add_argument("--webhook-duration", type=float, default=20.0, help="webhooks.py --duration (default 20)")
    parser.add_argument("--keep-db", action="store_true", help="keep the databases afterwards")
    args = parser.parse_args()
    only = [k.strip() for k in args.only.split(",") if k.strip()]
    if unknown := sorted(set(only) - set(KEYS)):
        parser.error(f"--only: unknown {', '.join(unknown)}; choose from {', '.join(KEYS)}")
    if args.duration <= 0 or args.warmup <= 0 or args.connections < 1 or args.threads < 1 or args.rounds < 1:
        parser.error("--duration, --warmup, --connections, --threads and --rounds must be positive")
    if args.connections < args.threads:
        parser.error("--connections must be at least --threads")
    if args.records < ep.LIST_CURSORS:
        parser.error(f"--records must be at least {ep.LIST_CURSORS}")
    if not wrk.available():
        parser.error("wrk is not on the PATH")
    args.webhooks = WEBHOOKS in only
    selected = [s for s in SPECS if s.key in only]

    started = time.perf_counter()
    backends = BACKENDS if args.backend == "both" else (args.backend,)
    pinning = Pinning.choose()
    log(f"Tessera benchmark suite: {', '.join(backends)}; endpoints {', '.join(s.key for s in selected) or '-'}"
        f"{' + webhooks' if args.webhooks else ''}; targets {', '.join(t.name for t in TARGETS)}; "
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
    log("\n" + "\n".join(lines))
    failures = [f for out in reports for f in out.failures]
    results.write(f"suite-{args.backend}", args, {
        "config": {"order": "ABBA", "pinning": pinning.describe(), "targets": {t.name: t.command for t in TARGETS},
                   "endpoints": {s.label: s.request for s in selected}, "scopes": ep.SCOPES},
        "backends": {out.backend: {**{k: v for k, v in out.info.items() if k != "webhooks"},
                                   "rows": [asdict(r) for r in out.rows], "table": out.lines,
                                   "webhooks_report": out.info.get("webhooks")} for out in reports},
        "failures": failures,
    }, lines)
    log(f"total time {time.perf_counter() - started:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
