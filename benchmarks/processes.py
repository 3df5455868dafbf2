"""What ``tessera serve --workers N`` buys: the same endpoints through 1 and 2 (optionally 4) HTTP
processes of the real serving command, on PostgreSQL, one after the other.

    .venv/bin/python benchmarks/processes.py [--processes 1,2] [--duration 10] [--connections 32]
        [--warmup 1] [--records 10000] [--keep-db]

Needs ``wrk`` on the PATH, PostgreSQL at ``TESSERA_TEST_PG_URL`` (default
``postgresql://postgres@127.0.0.1:5432/test``; a fresh database is made next to it and dropped at the
end) and Linux (``/proc``).

Why it is built this way: ``tessera serve --workers N`` (``tessera/cli.py``, ``_serve``) is what an
operator runs, so that is what is started here, as is, rather than ``benchmarks/_serve.py``: with N
above 1 it runs N uvicorn processes through the factory ``tessera.app:serve_app`` on one listening
socket, the uvicorn supervisor above them. ``TESSERA_WORKERS_IN_PROCESS=false`` keeps the delivery
worker out (no in-process task with N = 1, no ``tessera worker`` process beside them with N > 1), so
nothing but HTTP competes for the CPUs. Nothing is pinned: the point of a second process is the second
core, and wrk (one thread) and PostgreSQL share the host's cores with the servers, so the speed-up
is what a 2-core host gives, not what two idle cores would.

Steps:

1. A fresh PostgreSQL database, migrated; through the services (``harness.endpoints.setup``, the
   suite's fixture): tenants ``bench`` and ``other``, an application installed into ``bench`` with
   16 credentials and a bearer token each; then ``--records`` assets of ``bench`` (+10 % of
   ``other``) in bulk. Every rate limit is out of reach (``harness.databases.server_env``).
2. For each N of ``--processes``: ``<venv>/bin/tessera serve --host 127.0.0.1 --port <free port>
   --workers N`` in a process group of its own (it migrates first: a no-op here), until
   ``GET /api/health`` answers 200; the number of HTTP processes in its tree is checked against N.
3. Per endpoint, whoami (``GET /api/open/v1/whoami``, rotating over the 16 tokens) and read by pid
   (``GET /api/open/v1/resources/assets/{pid}``, rotating over 5,000 pids): a ``--warmup`` wrk run,
   then ``--duration`` seconds of wrk (1 thread, ``--connections``, ``harness/wrk.lua``). Requests
   per second count 2xx answers; p50/p99 come from wrk's histogram of every completed request. The
   server's CPU is that of the whole process tree of the serve command (supervisor and every HTTP
   process, from ``/proc``), per 2xx answer; PostgreSQL's, wrk's and the rest of the host's are
   measured beside it, with each HTTP process's share (how evenly the shared socket spread the
   connections). Any non-2xx answer or socket error fails the run (exit status 1).
4. The group gets SIGTERM (SIGKILL after ``STOP_TIMEOUT`` s) before the next N and at exit; the
   database is dropped (unless ``--keep-db``).

The table: endpoint | processes | req/s | p50 | p99 | CPU ms/req | speed-up (req/s over the
1-process figure of the endpoint), then where the CPU went. Everything goes to
``benchmarks/results/processes.json`` and the tables to ``processes.txt``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from harness import ROOT, cpu, log, results, stats, tables, wrk
from harness import endpoints as ep
from harness.databases import fresh, pg_activity
from harness.servers import HOST, Server, Target, free_port, wait_ready
from sqlalchemy import Engine

BACKEND = "postgresql"
ENDPOINTS = ("whoami", "read")
STOP_TIMEOUT = 15.0  # seconds the serve command's group gets after SIGTERM before SIGKILL
NOISY_PCT = 20.0  # the rest of the host's share of all CPUs from which a run is flagged
TESSERA_BIN = Path(sys.prefix) / "bin" / "tessera"


# -- the serve command's process group -------------------------------------------------------------

def serve_target(processes: int) -> Target:
    return Target(f"serve-{processes}", (str(TESSERA_BIN), "serve", "--host", "{host}", "--port", "{port}",
                                         "--workers", str(processes)))


def launch(target: Target, env: dict[str, str], log_dir: Path) -> tuple[Server, list[str]]:
    """``harness.servers.launch``, but in a process group of its own, so the whole tree can be stopped;
    the server and its command line."""
    port = free_port()
    command = [part.format(host=HOST, port=port) for part in target.command]
    log_path = log_dir / f"{target.name}.log"
    with log_path.open("wb") as log_file:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    return Server(target, process, log_path, port), command


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stop_group(server: Server, timeout: float = STOP_TIMEOUT) -> str:
    """SIGTERM to the group, then SIGKILL to whatever is left of it after ``timeout``; how it ended."""
    pgid = server.pid  # start_new_session: the leader's pid is the group's id
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    with contextlib.suppress(subprocess.TimeoutExpired):
        server.process.wait(timeout=timeout)
    while group_alive(pgid) and time.monotonic() < deadline:
        time.sleep(0.1)
    killed = group_alive(pgid) or server.process.poll() is None
    if killed:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pgid, signal.SIGKILL)
        server.process.wait(timeout=10)
    code = server.process.returncode
    how = f"killed (SIGKILL after {timeout:g} s)" if killed else "stopped"
    # One process: uvicorn shuts down gracefully on SIGTERM and then raises the signal again.
    return f"{how}, exit {code}" + (" (SIGTERM re-raised after a graceful shutdown)" if code == -signal.SIGTERM else "")


def role(pid: int, leader: int) -> str:
    """What a process of the serve command's tree is, from its command line."""
    if pid == leader:
        return "serve"
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return "gone"
    if "spawn_main" in command or "multiprocessing-fork" in command:
        return "http"
    if "resource_tracker" in command:
        return "resource tracker"
    if " worker" in command:
        return "worker"
    return "other"


def tree_cpu(leader: int) -> dict[int, float]:
    """CPU seconds so far of every live process of the tree."""
    return {pid: seconds for pid in cpu.descendants(leader) if (seconds := cpu.process_cpu_seconds(pid)) is not None}


def http_processes(leader: int, processes: int) -> list[int]:
    """The processes that serve HTTP: the leader itself with one process, its spawned children with more."""
    if processes == 1:
        return [leader]
    return [pid for pid in cpu.descendants(leader) if role(pid, leader) == "http"]


# -- measuring -------------------------------------------------------------------------------------

@dataclass
class Run:
    """One measured wrk run of one endpoint against one serve command."""

    endpoint: str
    label: str
    processes: int
    wrk: wrk.WrkRun
    rps: float
    p50_ms: float
    p99_ms: float
    non_2xx: int
    server_cpu_ms: float | None  # the serve command's whole tree, per 2xx answer
    postgres_cpu_ms: float | None
    wrk_cpu_ms: float | None
    other_cpu_ms: float | None
    host_cpu_pct: float | None  # how busy all CPUs were
    other_cpu_pct: float | None  # the rest of the host's share of all CPUs
    pct_of_core: dict[str, float | None]  # server, postgres, wrk, other: percent of one core
    http_pct_of_core: list[float]  # each HTTP process, percent of one core, busiest first
    pg_sessions_opened: int  # connections opened to the run's database during the run
    other_db_xacts: int  # transactions in other databases meanwhile (their CPU is in the postgres column)
    speedup: float | None = None
    problems: list[str] = field(default_factory=list)


def measure(spec: ep.Spec, server: Server, processes: int, requests_file: Path, engine: Engine,
            args: argparse.Namespace, postmaster: int | None, pg: psycopg.Connection[Any]) -> Run:
    meter = cpu.Meter({"server": cpu.of_tree(server.pid), "postgres": cpu.of_postgres(postmaster),
                       "wrk": cpu.children_cpu_seconds})
    http = http_processes(server.pid, processes)
    before, activity = tree_cpu(server.pid), pg_activity(pg)
    started = time.monotonic()
    (done,), usage, _rows, problems = ep.checked(
        spec, engine, meter, lambda: [wrk.run(server.base_url, requests_file, f"{spec.key}-{processes}",
                                              args.duration, args.connections, 1)])
    wall = time.monotonic() - started
    after, sessions_xacts = tree_cpu(server.pid), pg_activity(pg)
    split = sorted((round((after[p] - before[p]) / wall * 100, 1) for p in http if p in before and p in after),
                   reverse=True)
    per = usage.ms_per(done.ok, 3)
    return Run(spec.key, spec.label, processes, done, round(done.rps, 1), round(done.p50_ms, 2),
               round(done.p99_ms, 2), done.not_ok, per["server"], per["postgres"], per["wrk"], per["other"],
               usage.host_pct(), usage.other_pct(), usage.pct_of_core(), split, sessions_xacts[0] - activity[0],
               sessions_xacts[1] - activity[1], problems=problems)


def warm_up(spec: ep.Spec, server: Server, processes: int, requests_file: Path, args: argparse.Namespace) -> list[str]:
    warm = wrk.run(server.base_url, requests_file, f"{spec.key}-{processes}-warm", args.warmup, args.connections, 1)
    log(f"  warm-up {spec.label} {args.warmup:g} s: {warm.rps:,.1f} req/s, {warm.ok:,} 2xx"
        + (f", {warm.not_ok:,} non-2xx {warm.statuses} {warm.samples[:1]}" if warm.not_ok else ""))
    problems = []
    if warm.not_ok:
        problems.append(f"warm-up: {warm.not_ok:,} non-2xx responses {warm.statuses}; samples: {warm.samples}")
    if warm.socket_errors:
        problems.append(f"warm-up: socket errors {warm.socket_errors}")
    return problems


@dataclass
class Started:
    """What is known of one serve command."""

    processes: int
    command: list[str]
    pid: int
    http_pids: list[int]
    ready_seconds: float
    peak_rss_mib: float | None = None
    stopped: str = ""


def one_count(processes: int, env: dict[str, str], tmp: Path, requests: dict[str, Path], engine: Engine,
              args: argparse.Namespace, postmaster: int | None,
              pg: psycopg.Connection[Any]) -> tuple[Started, list[Run], list[str]]:
    """Start ``tessera serve --workers processes``, measure every endpoint, stop its group."""
    target = serve_target(processes)
    server, command = launch(target, env, tmp)
    info = Started(processes, command, server.pid, [], 0.0)
    log(f"\n[{processes} process{'es' if processes > 1 else ''}] {' '.join(info.command)} (pid {server.pid})")
    runs: list[Run] = []
    failures: list[str] = []
    label = f"{processes} process{'es' if processes > 1 else ''}"
    try:
        started = time.perf_counter()
        wait_ready(server)
        info.ready_seconds = round(time.perf_counter() - started, 1)
        log(f"  GET /api/health answered 200 after {info.ready_seconds:g} s on {server.base_url}")
        for key in ENDPOINTS:
            spec = ep.BY_KEY[key]
            problems = warm_up(spec, server, processes, requests[key], args)
            if not info.http_pids:  # after the first warm-up: every HTTP process has started by then
                info.http_pids = http_processes(server.pid, processes)
                roles = [role(p, server.pid) for p in cpu.descendants(server.pid)]
                log(f"  process tree: {', '.join(roles)}; {len(info.http_pids)} serving HTTP")
                if len(info.http_pids) != processes:
                    failures.append(f"{label}: {len(info.http_pids)} HTTP processes in the tree, expected {processes}")
            run = measure(spec, server, processes, requests[key], engine, args, postmaster, pg)
            run.problems = problems + run.problems
            runs.append(run)
            shares = " + ".join(f"{p:.0f}%" for p in run.http_pct_of_core)
            log(f"  {spec.label}: {run.rps:,.1f} req/s  p50 {run.p50_ms:.2f}  p99 {run.p99_ms:.2f} ms  "
                f"({run.wrk.ok:,} 2xx, {run.non_2xx:,} non-2xx)  server CPU {tables.fixed(run.server_cpu_ms, 3)} "
                f"ms/req  host busy {tables.pct(run.host_cpu_pct)}  HTTP processes {shares or '-'} of a core"
                + (f"  PROBLEM: {run.problems}" if run.problems else ""))
            failures += [f"{label}, {spec.label}: {p}" for p in run.problems]
            if (why := server.died()) is not None:
                raise RuntimeError(why)
        info.peak_rss_mib = cpu.tree_memory_mib(server.pid, "VmHWM")
    except RuntimeError as exc:
        failures.append(f"{label}: aborted: {exc}")
        log(f"  ABORTED: {exc}")
    finally:
        info.stopped = stop_group(server)
        log(f"  serve command {info.stopped}")
    if failures:
        log(f"\n{target.name} log (last lines):\n{server.log_tail(20)}")
    return info, runs, failures


# -- report ----------------------------------------------------------------------------------------

def with_speedups(runs: list[Run]) -> None:
    single = {r.endpoint: r.rps for r in runs if r.processes == 1}
    for run in runs:
        run.speedup = stats.ratio(run.rps, single.get(run.endpoint))


def table(runs: list[Run]) -> list[str]:
    ms = tables.fixed
    ordered = sorted(runs, key=lambda r: (ENDPOINTS.index(r.endpoint), r.processes))
    first = {id(r) for i, r in enumerate(ordered) if i == 0 or ordered[i - 1].endpoint != r.endpoint}
    name = tables.Column("endpoint", lambda r: r.label + (" (FAILED CHECKS)" if r.problems else "")
                         if id(r) in first else "", str, "<")
    main = tables.render([
        name, tables.Column("processes", "processes"), tables.SEP,
        tables.Column("req/s", "rps", lambda v: ms(v, 1)), tables.Column("p50 ms", "p50_ms", ms),
        tables.Column("p99 ms", "p99_ms", ms), tables.SEP, tables.Column("CPU ms/req", "server_cpu_ms",
                                                                          lambda v: ms(v, 3)),
        tables.SEP, tables.Column("speed-up vs 1 process", "speedup", tables.times)], ordered)

    def core(key: str) -> Callable[[Run], float | None]:
        return lambda run: run.pct_of_core.get(key)

    where = tables.render([
        name, tables.Column("processes", "processes"), tables.SEP,
        tables.Column("host busy", "host_cpu_pct", tables.pct), tables.SEP,
        tables.Column("server", core("server"), tables.pct), tables.Column("postgres", core("postgres"), tables.pct),
        tables.Column("wrk", core("wrk"), tables.pct), tables.Column("other", core("other"), tables.pct), tables.SEP,
        tables.Column("each HTTP process", lambda r: " + ".join(f"{p:.0f}%" for p in r.http_pct_of_core) or "-",
                      str, "<"), tables.SEP,
        tables.Column("postgres ms/req", "postgres_cpu_ms", lambda v: ms(v, 3)),
        tables.Column("pg conns", "pg_sessions_opened")], ordered)
    legend = ("where the CPU went (percent of one core over the run; host busy: share of all CPUs; other: the rest "
              "of the host, loopback softirq included; pg conns: connections opened during the run):")
    return [*main, "", legend, *where]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", default="1,2", help="comma-separated HTTP process counts (default 1,2)")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per measured run (default 10)")
    parser.add_argument("--connections", type=int, default=32, help="wrk connections (default 32; 1 wrk thread)")
    parser.add_argument("--warmup", type=float, default=1.0, help="seconds of warm-up per endpoint (default 1)")
    parser.add_argument("--records", type=int, default=10_000, help="assets of the tenant (default 10000)")
    parser.add_argument("--keep-db", action="store_true", help="keep the database afterwards and print its URL")
    args = parser.parse_args()
    try:
        counts = list(dict.fromkeys(int(p) for p in args.processes.split(",") if p.strip()))
    except ValueError:
        parser.error("--processes: comma-separated integers, e.g. 1,2,4")
    if not counts or min(counts) < 1:
        parser.error("--processes: at least one count, each at least 1")
    if args.duration <= 0 or args.warmup <= 0 or args.connections < 1:
        parser.error("--duration, --warmup and --connections must be positive")
    if args.records < ep.LIST_CURSORS:
        parser.error(f"--records must be at least {ep.LIST_CURSORS}")
    if not wrk.available():
        parser.error("wrk is not on the PATH")
    if not TESSERA_BIN.exists():
        parser.error(f"{TESSERA_BIN} does not exist (run this with the checkout's virtualenv)")

    started = time.perf_counter()
    config = (f"PostgreSQL | tessera serve --workers N, N in {', '.join(map(str, counts))}, "
              "TESSERA_WORKERS_IN_PROCESS=false (no delivery worker), rate limits out of reach | "
              f"wrk 1 thread, {args.connections} connections, {args.warmup:g} s warm-up + {args.duration:g} s "
              "per run | "
              f"nothing pinned: wrk and PostgreSQL share the host's {os.cpu_count()} cores with the servers")
    log(f"processes benchmark: {config}")
    runs: list[Run] = []
    failures: list[str] = []
    servers: list[Started] = []
    info: dict[str, str] = {}
    fixture: dict[str, Any] = {}
    try:
        with fresh(BACKEND, "processes", args.keep_db, TESSERA_WORKERS_IN_PROCESS="false") as ws:
            fx = ep.setup(ws.env, args.records)
            fixture = {"assets": fx.assets, "other_tenant_assets": fx.noise, "tokens": len(fx.tokens),
                       "read_pids": len(fx.pids), "setup_seconds": round(fx.setup_seconds, 1)}
            requests = {key: wrk.write_requests(ws.tmp / f"requests-{key}.lua", ep.calls_for(ep.BY_KEY[key], fx))
                        for key in ENDPOINTS}
            postmaster = cpu.postmaster_pid(ws.backend.url)
            engine = ws.backend.engine()
            try:
                info = results.versions(engine)
                with psycopg.connect(ws.backend.url, autocommit=True) as pg:
                    for processes in counts:
                        started_one, found, problems = one_count(processes, ws.env, ws.tmp, requests, engine, args,
                                                                 postmaster, pg)
                        servers.append(started_one)
                        runs += found
                        failures += problems
            finally:
                engine.dispose()
    except (AssertionError, RuntimeError, OSError) as exc:
        failures.append(f"run aborted: {exc}")
        log(f"ABORTED: {exc}")

    with_speedups(runs)
    lines = ["=== what tessera serve --workers N buys (PostgreSQL) ===", *(results.describe(info) if info else []),
             config,
             f"{fixture.get('assets', 0):,} assets; whoami rotates over {fixture.get('tokens', 0)} bearer tokens, read "
             f"by pid over {fixture.get('read_pids', 0):,} pids; req/s counts 2xx answers; CPU ms/req: the serve "
             "command's whole process tree per 2xx answer (PostgreSQL's CPU is not in it)",
             *table(runs)]
    lines += [f"peak RSS (VmHWM, process tree) with {s.processes} process{'es' if s.processes > 1 else ''}: "
              f"{tables.fixed(s.peak_rss_mib, 1)} MiB" for s in servers]
    noisy = [n for r in runs for n in cpu.noise(f"{r.label}, {r.processes} process(es)", r.other_cpu_pct,
                                                r.other_db_xacts, NOISY_PCT)]
    lines += cpu.noise_lines(noisy, NOISY_PCT)
    lines += [f"FAILED: {f}" for f in failures]
    log("\n" + "\n".join(lines))
    results.write("processes", args, {
        "config": {"backend": BACKEND, "command": f"{TESSERA_BIN} serve --host 127.0.0.1 --port <free> --workers N",
                   "env": {"TESSERA_WORKERS_IN_PROCESS": "false"}, "pinning": "none",
                   "endpoints": {ep.BY_KEY[k].label: ep.BY_KEY[k].request for k in ENDPOINTS}},
        "versions": info, "fixture": fixture, "servers": [asdict(s) for s in servers],
        "results": [asdict(r) for r in runs], "noisy_runs": noisy, "failures": failures}, lines)
    log(f"total time {time.perf_counter() - started:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
