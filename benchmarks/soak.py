"""Memory soak: one Tessera worker process under the suite's mixed load for ten minutes, its resident
set size sampled throughout; the growth after warm-up must stay within 10%.

    .venv/bin/python benchmarks/soak.py [--backend postgresql|sqlite] [--minutes 10] [--records 20000]
        [--connections 16] [--slice 30] [--sample 5] [--warmup-minutes 1] [--limit-pct 10] [--tracemalloc]

Why: a leak in a long-lived server (a cache keyed by something unbounded, validators or decorator
stacks built per request instead of per operation, call-audit rows queued faster than written,
connections never returned) shows as resident memory that keeps climbing under steady load, long
after the peaks the suite's ten-second runs see. Ten minutes of every endpoint the suite measures,
mixed in one rotation, is that load.

1. A fresh database (``--backend``), set up as the suite does (``harness.endpoints.setup``, with
   ``--records`` assets), every rate limit out of reach.
2. The real service, ``benchmarks/_serve.py`` (one uvicorn worker; no in-process delivery worker, so
   the commands' outbox rows wait in the database), pinned to one CPU with wrk on the other.
3. One requests file mixing the suite's eight endpoints, 500 entries each, interleaved, each endpoint
   cycling through its own variants, every POST with a unique key; wrk runs it in back-to-back
   ``--slice`` second slices until ``--minutes`` have passed, one progress line per slice.
4. A sampler thread reads ``VmRSS`` (and ``RssAnon``, ``RssFile``, ``RssShmem``) every ``--sample``
   seconds. Judged: growth = (highest sample after warm-up - the sample at the end of the first
   ``--warmup-minutes``) / that sample, at most ``--limit-pct``. Printed as well: ``VmHWM``, the
   per-minute medians and a least-squares slope after warm-up (MiB per minute).

With ``--tracemalloc`` the server traces Python's allocations (slower, so the figures are not
comparable with a normal run) and writes a snapshot at the end of warm-up and at the end; the report
then lists the lines of code whose allocations grew most in between, which separates memory Python
objects hold from memory held outside Python's allocator (SQLite's page caches, glibc arenas).

Exit status 1 when a non-2xx answer or socket error was seen, the server died, or growth exceeded the
limit. Results go to ``benchmarks/results/soak-<backend>.json`` and ``.txt``.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import threading
import time
import tracemalloc
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from harness import cli, cpu, log, wrk
from harness import endpoints as ep
from harness.databases import fresh
from harness.servers import TESSERA, Pinning, Server, start

PER_ENDPOINT = 500  # entries of each endpoint in the mixed rotation


@dataclass
class Sample:
    """One reading of the server's resident set size."""

    seconds: float  # since the load started
    rss_mib: float
    anon_mib: float | None = None  # RssAnon: the heap, Python objects, SQLite page caches
    file_mib: float | None = None  # RssFile + RssShmem: mapped files (libraries, SQLite's WAL index)


@dataclass
class Slice:
    """One wrk slice of the soak."""

    started_s: float
    seconds: float
    ok: int
    not_ok: int
    socket_errors: dict[str, int]
    rps: float
    p99_ms: float
    rss_mib: float | None
    samples: list[str] = field(default_factory=list)


class Sampler(threading.Thread):
    """Reads the server's ``VmRSS`` (and what it is made of) every ``interval`` seconds until stopped."""

    def __init__(self, pid: int, interval: float, started: float) -> None:
        super().__init__(daemon=True)
        self.pid, self.interval, self.started = pid, interval, started
        self.samples: list[Sample] = []
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.is_set():
            if (value := cpu.memory_mib(self.pid)) is not None:
                anon, file, shmem = (cpu.memory_mib(self.pid, key) for key in ("RssAnon", "RssFile", "RssShmem"))
                self.samples.append(Sample(time.monotonic() - self.started, value, anon,
                                           None if file is None else file + (shmem or 0.0)))
            self.stopped.wait(self.interval)


def snapshot(server: Server, trace_dir: Path, number: int) -> None:
    """Ask the traced server for snapshot ``number`` and wait until it is written."""
    path = trace_dir / f"snapshot-{number}.pickle"
    os.kill(server.pid, signal.SIGUSR1)
    deadline, size = time.monotonic() + 120, -1
    while time.monotonic() < deadline:
        if path.exists() and path.stat().st_size == size > 0:
            return
        size = path.stat().st_size if path.exists() else -1
        time.sleep(1)
    raise RuntimeError(f"the server wrote no {path.name} within 120 s")


def allocation_growth(server: Server, trace_dir: Path, top: int = 15) -> list[str]:
    """The lines whose traced allocations grew most between the warm-up and the final snapshot."""
    snapshot(server, trace_dir, 2)
    first = tracemalloc.Snapshot.load(str(trace_dir / "snapshot-1.pickle"))
    last = tracemalloc.Snapshot.load(str(trace_dir / "snapshot-2.pickle"))
    traced = sum(s.size for s in last.statistics("filename")) / 2**20
    lines = [f"traced Python allocations at the end: {traced:.1f} MiB; growth since warm-up, top {top}:"]
    lines += [f"  {d.size_diff / 1024:+9.1f} KiB  {d.count_diff:+7d} blocks  {d.traceback[0]}"
              for d in last.compare_to(first, "lineno")[:top]]
    log("\n".join(lines))
    return lines


def load(server: Server, requests_file: Path, args: argparse.Namespace, pinning: Pinning,
         trace_dir: Path | None) -> tuple[list[Slice], list[Sample]]:
    """Back-to-back wrk slices for ``--minutes``, one progress line each, the sampler running throughout."""
    total = args.minutes * 60
    warm_snapshot_taken = trace_dir is None
    started = time.monotonic()
    sampler = Sampler(server.pid, args.sample, started)
    sampler.start()
    slices: list[Slice] = []
    try:
        number = 0
        while (elapsed := time.monotonic() - started) < total - 1:
            number += 1
            seconds = int(min(args.slice, total - elapsed))  # wrk takes whole seconds
            if seconds < 1:
                break
            run = wrk.run(server.base_url, requests_file, f"soak{number}", seconds, args.connections, 1, pinning.load)
            now_rss = cpu.memory_mib(server.pid)
            slices.append(Slice(round(elapsed, 1), round(run.seconds, 1), run.ok, run.not_ok, run.socket_errors,
                                round(run.rps, 1), round(run.p99_ms, 1), now_rss, run.samples))
            log(f"  {elapsed + run.seconds:6.0f}/{total:.0f} s  {run.rps:7.1f} req/s  p99 {run.p99_ms:7.1f} ms  "
                f"non-2xx {run.not_ok}  socket errors {sum(run.socket_errors.values())}  "
                f"resident {now_rss or 0:.1f} MiB")
            if server.died() is not None:
                break
            if not warm_snapshot_taken and trace_dir is not None and \
                    time.monotonic() - started >= args.warmup_minutes * 60:
                snapshot(server, trace_dir, 1)
                warm_snapshot_taken = True
    finally:
        sampler.stopped.set()
        sampler.join()
    return slices, sampler.samples


def judge(samples: list[Sample], args: argparse.Namespace, failures: list[str]) -> dict[str, Any]:
    """Growth after warm-up against the limit, and the figures a reader needs to see the trend."""
    warm = args.warmup_minutes * 60
    before = [s for s in samples if s.seconds <= warm]
    after = [s for s in samples if s.seconds > warm]
    if not before or not after:
        failures.append("too few resident-size samples to judge growth")
        return {}
    reference, highest = before[-1].rss_mib, max(s.rss_mib for s in after)
    growth = (highest - reference) / reference * 100
    minutes: dict[int, list[float]] = {}
    for s in samples:
        minutes.setdefault(int(s.seconds // 60), []).append(s.rss_mib)
    slope = statistics.linear_regression([s.seconds / 60 for s in after], [s.rss_mib for s in after]).slope \
        if len(after) >= 3 else 0.0
    if growth > args.limit_pct:
        failures.append(f"resident size grew {growth:.1f}% after warm-up (limit {args.limit_pct}%)")
    return {
        "rss_after_warmup_mib": round(reference, 1), "rss_highest_after_warmup_mib": round(highest, 1),
        "rss_last_mib": round(samples[-1].rss_mib, 1), "growth_pct": round(growth, 2), "limit_pct": args.limit_pct,
        "slope_mib_per_minute": round(slope, 3),
        "rss_median_per_minute_mib": {m + 1: round(statistics.median(v), 1) for m, v in sorted(minutes.items())},
        "anon_after_warmup_mib": before[-1].anon_mib, "anon_last_mib": samples[-1].anon_mib,
        "file_after_warmup_mib": before[-1].file_mib, "file_last_mib": samples[-1].file_mib,
    }


def soak(args: argparse.Namespace) -> tuple[dict[str, Any], list[str]]:
    """Set up, serve, load and sample; returns the report and the failures."""
    pinning = Pinning.choose()
    failures: list[str] = []
    report: dict[str, Any] = {"backend": args.backend, "minutes": args.minutes, "records": args.records,
                              "connections": args.connections, "pinning": pinning.describe()}
    with fresh(args.backend, f"soak-{args.backend}") as ws:
        trace_dir = ws.tmp / "tracemalloc" if args.tracemalloc else None
        if trace_dir is not None:
            trace_dir.mkdir()
            ws.env["TESSERA_BENCH_TRACEMALLOC_DIR"] = str(trace_dir)
        fx = ep.setup(ws.env, args.records)
        lists = [ep.calls_for(spec, fx) for spec in ep.SPECS]  # interleaved, so every slice sees every endpoint
        calls = [variants[i % len(variants)] for i in range(PER_ENDPOINT) for variants in lists]
        requests_file = wrk.write_requests(ws.tmp / "soak-requests.lua", calls)
        log(f"{len(calls):,} requests in the rotation ({PER_ENDPOINT} per endpoint, {len(ep.SPECS)} endpoints); "
            f"{pinning.describe()}")
        server = start(TESSERA, ws.env, ws.tmp, pinning.server)
        try:
            report["rss_at_start_mib"] = cpu.memory_mib(server.pid)
            log(f"tessera listening on {server.base_url} (pid {server.pid}), resident "
                f"{report['rss_at_start_mib']:.1f} MiB before load")
            slices, samples = load(server, requests_file, args, pinning, trace_dir)
            if trace_dir is not None:
                report["tracemalloc_growth"] = allocation_growth(server, trace_dir)
            report["peak_rss_mib"] = cpu.memory_mib(server.pid, "VmHWM")
            if (why := server.died()) is not None:
                failures.append(why)
        finally:
            server.stop()
    report["slices"] = [asdict(s) for s in slices]
    report["samples"] = [[round(s.seconds, 1), round(s.rss_mib, 2), s.anon_mib, s.file_mib] for s in samples]
    if bad := [s for s in slices if s.not_ok or s.socket_errors]:
        failures.append(f"{sum(s.not_ok for s in bad)} non-2xx answers and socket errors "
                        f"{[s.socket_errors for s in bad if s.socket_errors]} in {len(bad)} slices; samples: "
                        f"{[x for s in bad for x in s.samples][:3]}")
    report |= judge(samples, args, failures)
    return report, failures


def report_lines(report: dict[str, Any], failures: list[str]) -> list[str]:
    slices = report.get("slices") or []
    ok, seconds = sum(s["ok"] for s in slices), sum(s["seconds"] for s in slices)
    return [
        f"=== Tessera memory soak: {report['backend']} ===",
        f"{report['minutes']:g} min of the suite's eight endpoints mixed, {report['connections']} connections, "
        f"{report['records']:,} assets; {report['pinning']}",
        f"requests: {ok:,} answered 2xx in {seconds:.0f} s ({ok / seconds if seconds else 0:.1f} req/s)",
        f"resident size (VmRSS): {report.get('rss_at_start_mib') or 0:.1f} MiB before load, "
        f"{report.get('rss_after_warmup_mib')} MiB after warm-up, highest after warm-up "
        f"{report.get('rss_highest_after_warmup_mib')} MiB, last {report.get('rss_last_mib')} MiB",
        f"growth after warm-up: {report.get('growth_pct')}% (limit {report.get('limit_pct')}%); "
        f"slope {report.get('slope_mib_per_minute')} MiB/min; peak (VmHWM) {report.get('peak_rss_mib') or 0:.1f} MiB",
        f"of which anonymous (RssAnon): {report.get('anon_after_warmup_mib')} MiB after warm-up, "
        f"{report.get('anon_last_mib')} MiB last; mapped files and shared memory (RssFile + RssShmem): "
        f"{report.get('file_after_warmup_mib')} MiB after warm-up, {report.get('file_last_mib')} MiB last",
        "median VmRSS per minute (MiB): " + ", ".join(
            f"{m}: {v}" for m, v in (report.get("rss_median_per_minute_mib") or {}).items()),
        *(report.get("tracemalloc_growth") or []),
        "result: " + ("PASS" if not failures else "FAIL"), *(f"  - {f}" for f in failures),
    ]


def main() -> int:
    args = (cli.Arguments(__doc__, "soak-{backend}").backend().records(20_000, ep.LIST_CURSORS).connections(16)
            .add("--minutes", type=float, default=10.0, help="length of the load (default 10)")
            .add("--slice", type=float, default=30.0, help="seconds per wrk run (default 30)")
            .add("--sample", type=float, default=5.0, help="seconds between RSS samples (default 5)")
            .add("--warmup-minutes", type=float, default=1.0, help="minutes before the reference sample (default 1)")
            .add("--limit-pct", type=float, default=10.0, help="allowed growth after warm-up (default 10)")
            .add("--tracemalloc", action="store_true",
                 help="trace the server's Python allocations and list the lines that grew (slower)")
            .check(lambda a: 0 < a.warmup_minutes < a.minutes, "--warmup-minutes must be positive and shorter than "
                                                               "--minutes")
            .check(lambda a: a.sample > 0, "--sample must be positive").wrk("--slice")).parse()
    started = time.perf_counter()
    report, failures = soak(args)
    return cli.conclude(args, report, report_lines(report, failures), failures, started)


if __name__ == "__main__":
    sys.exit(main())
