"""Load from httpx clients that check every answer, and the figures of such a run.

Why not wrk everywhere: some benchmarks must look inside every response (the client id a token
resolves to, a record's ETag, the pids of a cursor walk) or follow one response with the next (a
walk by ``nextCursor``). ``drive`` runs ``concurrency`` asyncio clients back to back, each turn
taking the next number of a shared rotation; ``measure`` wraps a warm-up and a measured run with
the CPU and PostgreSQL accounting every such benchmark prints (``Result``); ``compare`` runs every
scenario against every target in ABBA order; ``summary``, ``headline`` and ``noise`` print them alike.
"""

from __future__ import annotations

import asyncio
import itertools
import math
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
import psycopg

from harness import cpu, log, results, stats, tables
from harness.databases import pg_activity
from harness.order import alternating
from harness.servers import Server

Check = Callable[[httpx.Response], str | None]  # None: the answer is right; else what is wrong


def json_body(response: httpx.Response) -> dict[str, Any]:
    """The response's JSON object ({} for anything else): for checks that must not fail on a bad body."""
    try:
        body = response.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


@dataclass
class Load:
    """What one closed-loop run saw."""

    latencies: list[float] = field(default_factory=list)  # of the answers that passed their check
    errors: list[str] = field(default_factory=list)
    responses: int = 0  # HTTP responses of any status
    ok_by: Counter[str] = field(default_factory=Counter)  # passed answers per label (a client id, say)
    elapsed: float = 0.0
    deadline: float = math.inf

    @property
    def running(self) -> bool:
        return time.perf_counter() < self.deadline

    async def request(self, client: httpx.AsyncClient, method: str, url: str,
                      **options: Any) -> tuple[httpx.Response, float] | None:
        """Send and time one request; a transport error is recorded and gives None."""
        sent = time.perf_counter()
        try:
            response = await client.request(method, url, **options)
        except httpx.HTTPError as exc:
            self.errors.append(f"{type(exc).__name__}: {exc}")
            return None
        self.responses += 1
        return response, time.perf_counter() - sent

    async def send(self, client: httpx.AsyncClient, method: str, url: str, check: Check, label: str = "",
                   **options: Any) -> httpx.Response | None:
        """``request``, then ``check``: a passed answer counts (latency, label), a failed one is an error."""
        sent = await self.request(client, method, url, **options)
        if sent is None:
            return None
        response, took = sent
        try:
            problem = check(response)
        except ValueError as exc:  # a body that is not JSON
            problem = f"HTTP {response.status_code}, unreadable body ({exc}): {response.text[:200]}"
        if problem is not None:
            self.errors.append(problem)
            return None
        self.latencies.append(took)
        self.ok_by[label] += 1
        return response


Turn = Callable[[httpx.AsyncClient, Load, int], Awaitable[bool | None]]  # False: this client stops


def drive(concurrency: int, seconds: float | None, turn: Turn, offset: int = 0) -> Load:
    """``concurrency`` clients calling ``turn`` back to back until ``seconds`` have passed (None: until
    every client's turn returned False); each turn gets the next number of one rotation from ``offset``."""

    async def main() -> Load:
        load = Load()
        rotation = itertools.count(offset)
        limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
        async with httpx.AsyncClient(limits=limits, timeout=30.0) as client:
            started = time.perf_counter()
            load.deadline = math.inf if seconds is None else started + seconds

            async def one() -> None:
                while load.running and await turn(client, load, next(rotation)) is not False:
                    pass

            await asyncio.gather(*(one() for _ in range(concurrency)))
            load.elapsed = time.perf_counter() - started
        return load

    return asyncio.run(main())


def gets(url: str, headers: dict[str, str], concurrency: int) -> Callable[[float | None, int], Load]:
    """``run(seconds, offset)`` for ``measure``: ``concurrency`` clients GET ``url`` back to back,
    each answer checked to be 200."""
    def check(response: httpx.Response) -> str | None:
        return None if response.status_code == 200 else f"HTTP {response.status_code}: {response.text[:200]}"

    async def turn(client: httpx.AsyncClient, load: Load, _n: int) -> None:
        await load.send(client, "GET", url, check, headers=headers)

    return lambda seconds, offset: drive(concurrency, seconds, turn, offset)


@dataclass
class Result:
    """One measured run of one scenario against one target."""

    scenario: str
    target: str
    requests: int  # answers that passed their check
    errors: int
    seconds: float
    rps: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    # CPU ms per passed answer: the server process, this load generator, PostgreSQL (all its
    # processes; None on SQLite or when it is not visible), the rest of the host; how busy all CPUs
    # were, and the rest of the host's share of them.
    server_cpu_ms: float | None = None
    client_cpu_ms: float | None = None
    pg_cpu_ms: float | None = None
    other_cpu_ms: float | None = None
    host_cpu_pct: float | None = None
    other_cpu_pct: float | None = None
    cpu_seconds: dict[str, float] = field(default_factory=dict)
    # PostgreSQL: connections opened to the run's database (pool overflow shows here) and
    # transactions in other databases (their CPU is in the postgres column).
    pg_sessions_opened: int | None = None
    other_db_xacts: int | None = None
    warmup_requests: int = 0
    warmup_errors: int = 0
    error_samples: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # the checks after the run (database rows...)
    details: dict[str, Any] = field(default_factory=dict)

    def noise(self, threshold_pct: float) -> list[str]:
        return cpu.noise(f"{self.scenario}, {self.target}", self.other_cpu_pct, self.other_db_xacts, threshold_pct)


def measure(scenario: str, server: Server, run: Callable[[float | None, int], Load], seconds: float | None,
            warmup: float | None, postmaster: int | None = None,
            pg: psycopg.Connection[Any] | None = None) -> tuple[Result, Load, Load]:
    """A warm-up (``run(warmup, 0)``) unless ``warmup`` is None, then the measured run, with CPU read
    around it; returns the result and both loads (for the caller's checks)."""
    warm = run(warmup, 0) if warmup else Load()
    meter = cpu.Meter({"server": cpu.of_processes([server.pid]), "client": time.process_time,
                       "postgres": cpu.of_postgres(postmaster)})
    activity = pg_activity(pg) if pg is not None else None
    before = meter.read()
    load = run(seconds, len(warm.latencies) + 1)
    usage = cpu.Usage.between(before, meter.read())
    if pg is not None and activity is not None:
        sessions, xacts = pg_activity(pg)
        activity = (sessions - activity[0], xacts - activity[1])
    latencies = sorted(load.latencies)
    per = usage.ms_per(len(latencies))
    result = Result(
        scenario=scenario, target=server.name, requests=len(latencies), errors=len(load.errors),
        seconds=round(load.elapsed, 3), rps=round(len(latencies) / load.elapsed, 1) if load.elapsed else 0.0,
        p50_ms=stats.percentile_ms(latencies, 50), p95_ms=stats.percentile_ms(latencies, 95),
        p99_ms=stats.percentile_ms(latencies, 99),
        server_cpu_ms=per["server"], client_cpu_ms=per["client"], pg_cpu_ms=per["postgres"],
        other_cpu_ms=per["other"], host_cpu_pct=usage.host_pct(), other_cpu_pct=usage.other_pct(),
        cpu_seconds=usage.raw(), pg_sessions_opened=activity[0] if activity else None,
        other_db_xacts=activity[1] if activity else None, warmup_requests=len(warm.latencies),
        warmup_errors=len(warm.errors), error_samples=(warm.errors + load.errors)[:5],
    )
    return result, warm, load


def result_columns(scenario_width: int = 0, extra: Sequence[tables.Column | str] = ()) -> list[tables.Column | str]:
    """The columns every httpx-driven benchmark prints; ``extra`` go after the latencies."""
    ms, Column = tables.fixed, tables.Column
    return [
        Column("scenario".ljust(scenario_width), "scenario", str, "<"), Column("target", "target", str, "<"),
        Column("req/s", "rps", lambda v: ms(v, 1)), Column("p50 ms", "p50_ms", ms),
        Column("p95 ms", "p95_ms", ms), Column("p99 ms", "p99_ms", ms),
        Column("requests", "requests", lambda v: f"{v:,}"), Column("errors", "errors", lambda v: f"{v:,}"),
        *extra, tables.SEP,
        Column("CPU ms/req: server", "server_cpu_ms", ms), Column("client", "client_cpu_ms", ms),
        Column("postgres", "pg_cpu_ms", ms), Column("other", "other_cpu_ms", ms), tables.SEP,
        Column("host CPU", "host_cpu_pct", tables.pct), Column("other", "other_cpu_pct", tables.pct),
        Column("pg conns", "pg_sessions_opened"),
    ]


def figure(result: Any, name: str) -> Any:
    """A figure of a result: an attribute, or else one of its ``details``."""
    return getattr(result, name) if hasattr(result, name) else result.details.get(name)


RATIOS = (("rps", "req/s", "rps"), ("p50", "p50", "p50_ms"), ("p95", "p95", "p95_ms"), ("p99", "p99", "p99_ms"),
          ("server_cpu_per_request", "server CPU/req", "server_cpu_ms"))


def ratios(results: Sequence[Any], metrics: Sequence[tuple[str, str, str]] = RATIOS,
           subject: str = "tessera") -> tuple[list[str], dict[str, dict[str, dict[str, float | None]]]]:
    """``subject`` over every other target, per scenario: the lines to print and the figures
    (``{other target: {scenario: {metric: ratio}}}``)."""
    lines: list[str] = []
    figures: dict[str, dict[str, dict[str, float | None]]] = {}
    others = dict.fromkeys(r.target for r in results if r.target != subject)
    width = max([0, *(len(r.scenario) for r in results)])
    for other in others:
        lines.append(f"{subject} / {other}:")
        for scenario in dict.fromkeys(r.scenario for r in results):
            pair = {r.target: r for r in results if r.scenario == scenario}
            if subject not in pair or other not in pair:
                continue
            found = {key: stats.ratio(figure(pair[subject], attr), figure(pair[other], attr))
                     for key, _label, attr in metrics}
            figures.setdefault(other, {})[scenario] = found
            lines.append(f"  {scenario:<{width}} " + "   ".join(
                f"{label} x{found[key]:.2f}" for key, label, _attr in metrics if found[key] is not None))
    return lines, figures


def compare(scenarios: Sequence[tuple[str, str]], servers: dict[str, Server],
            measure_one: Callable[[int, Server], Result]) -> list[Result]:
    """Every scenario (name, what is run) against every target, the targets in ABBA order across
    scenarios (``order.alternating``); the results sorted by scenario, then target."""
    found: list[Result] = []
    for position, (name, what) in enumerate(scenarios):
        for target in alternating(list(servers), position):
            log(f"running {name} against {target}: {what}")
            found.append(measure_one(position, servers[target]))
    names, targets = [n for n, _ in scenarios], list(servers)
    return sorted(found, key=lambda r: (names.index(r.scenario), targets.index(r.target)))


def failures(results: Sequence[Result], servers: dict[str, Server], prefix: str = "") -> list[str]:
    """Failed answers and checks of every run, and servers that died; the log tail of a server that
    answered wrong is printed."""
    found = []
    for r in results:
        label = f"{prefix}{r.scenario}, {r.target}"
        if r.warmup_errors or r.errors:
            found.append(f"{label}: {r.warmup_errors} warm-up and {r.errors} measured answers failed a check, "
                         f"e.g. {r.error_samples[:2]}")
        found += [f"{label}: {p}" for p in r.problems]
    for server in servers.values():
        if (why := server.died()) is not None:
            found.append(f"{prefix}{why}")
        elif any(r.errors or r.warmup_errors for r in results if r.target == server.name):
            log(f"\n{server.name} log (last lines):\n{server.log_tail(20)}")
    return found


def summary(title: str, info: dict[str, str], config: str, found: Sequence[Result],
            extra: Sequence[tables.Column | str] = (),
            metrics: Sequence[tuple[str, str, str]] = RATIOS) -> tuple[list[str], dict[str, Any]]:
    """The report of a comparison: title, versions, configuration, the table and the ratios; (lines, ratios)."""
    ratio_lines, figures = ratios(found, metrics)
    return [f"=== {title} ===", *results.describe(info), config, *tables.render(result_columns(extra=extra), found),
            *ratio_lines], figures


def noise(found: Sequence[Result], threshold_pct: float, quiet: str = "") -> tuple[list[str], list[str]]:
    """(lines, noisy runs): ``NOISY HOST`` per run where the rest of the host was busy, else a quiet line."""
    noisy = [n for r in found for n in r.noise(threshold_pct)]
    return cpu.noise_lines(noisy, threshold_pct, quiet), noisy


def headline(found: Sequence[Result], items: Sequence[tuple[str, str, str, str, str, int]],
             names: Sequence[str]) -> tuple[list[str], dict[str, Any]]:
    """Headline figures, one line each: ``items`` are (label, key, scenario, figure, unit, digits); the
    ratio is the first of ``names`` over the second. (lines, figures by key)"""
    by = {(r.scenario, r.target): r for r in found}
    lines, figures = [], {}
    for label, key, scenario, name, unit, digits in items:
        values = {n: figure(by[(scenario, n)], name) for n in names if (scenario, n) in by}
        quotient = stats.ratio(values.get(names[0]), values.get(names[1]))
        figures[key] = {**values, "ratio": quotient}
        lines.append(f"{label}: " + " ".join(f"{n} {'-' if v is None else f'{v:,.{digits}f}{unit}'}"
                                              for n, v in values.items()) + f" ratio {tables.times(quotient)}")
    return lines, figures
