"""Scale-out, measured: two API processes and two delivery workers on one PostgreSQL, with Redis for the
rate limits, as the README's "Scaling out" runs them; one command.

    .venv/bin/python benchmarks/scaleout.py [--records 20000] [--duration 10] [--connections 16]
        [--warmup 2] [--keys 50] [--delivery-seconds 15] [--endpoints 1] [--poll 1]

Needs ``wrk`` on the PATH, PostgreSQL at ``TESSERA_TEST_PG_URL`` (default
``postgresql://postgres@127.0.0.1:5432/test``; a fresh database is made next to it and dropped at the
end), Redis at ``TESSERA_REDIS_URL`` (default ``redis://127.0.0.1:6379/0``; every key this run writes
carries a ``TESSERA_REDIS_PREFIX`` unique to the run and is deleted at the end) and Linux (``/proc``).

Why it is built this way: the README claims that API processes keep nothing in memory that correctness
depends on. The claim has two halves, and each is checked where it could break. Throughput should grow
with processes. Rate limits must hold across them, because their counters live in Redis. Idempotency
must hold across them, because each claim is a PostgreSQL row under a unique constraint. Deliveries
must stay exactly-once, because workers lease them with ``FOR UPDATE SKIP LOCKED``. Every API process
is the real service (``benchmarks/_serve.py``, what ``tessera serve`` runs, minus migrating) and every
worker the real ``tessera worker --threads 1``. All of them get the same ``TESSERA_SECRET_KEY``,
``TESSERA_DATABASE_URL``, ``TESSERA_REDIS_URL`` and ``TESSERA_REDIS_PREFIX``, with
``TESSERA_WORKERS_IN_PROCESS=false`` and ``TESSERA_WEBHOOK_ALLOW_LOOPBACK=true``. The fixture is the
suite's (``suite.setup``: tenant ``bench`` with ``--records`` assets, an admin user and its session JWT,
an installation with every scope, 16 credentials and tokens); requests, wrk and its Lua script are the
suite's too (``suite.calls_for``, ``suite.write_requests``, ``suite.run_wrk``).

Four parts, each with checks (exit status 1 when one fails):

1. **Throughput with one and two API processes.** Endpoints: whoami, read by pid, session list
   and command execute (a write: record, audit entry, outbox row and idempotency key). Every
   rate limit is out of reach, yet every session request is still counted in Redis, and the run
   checks that Redis holds those counters. One process gets one wrk with ``--connections``. Two
   processes get two wrk processes at once, one per API process, with half the connections each;
   their 2xx rates are summed, and p50/p95/p99 are printed per wrk. The order is ABBA (1, 2, 2, 1)
   after a ``--warmup`` on both processes, and the figures are medians. Nothing is pinned, because
   two API processes need both cores, and wrk, PostgreSQL and anything else on the host share those
   cores too. Beside each figure is the host's busy share of all CPUs, with the CPU of the API
   processes, PostgreSQL (the whole server), wrk and the rest of the host (other users of the machine
   included), in percent of one core, so a reader sees when the host saturates and what else took it.
   Any non-2xx answer or socket error fails the row. After each write run the rows it added must
   agree with what wrk counted (``suite.check_rows``). The workers are not started yet: they would
   take CPU from what is measured. The commands' outbox rows wait for part 4.
2. **Rate limits hold across processes.** Two more API processes use ``TESSERA_RATE_LIMIT_READ=100``,
   the other limits at their defaults, and a Redis prefix of their own. One session user sends
   101 + 9 reads (``GET /api/dynamic/assets/list``) alternating between them, back to back. Reads 1
   to 100 must answer 200, with ``RateLimit`` ``r=`` counting down 99 to 0 across both processes.
   Read 101 and the rest must answer 429 ``RATE_LIMITED`` with ``Retry-After``. Both processes must
   have served reads and refused some. The same is done for the token endpoint's limit
   (``TESSERA_RATE_LIMIT_TOKEN``, default 60 a minute per client id) with one credential: 60 tokens,
   then 429 ``rate_limit_exceeded``. The windows are fixed minutes (``tessera/ratelimit.py``:
   ``floor(time / 60)``, the same clock on one host). A burst that would start in the last
   ``WINDOW_MARGIN`` seconds of a minute waits for the next minute. A burst whose first and last
   request fall in different minutes is run again once, in a minute nothing has counted in yet.
3. **Idempotency holds across processes.** ``--keys`` ``Idempotency-Key`` values, each sent at the
   same moment (two threads at a barrier, warm keep-alive connections) to both API processes with
   the same body, on the command endpoint. ``tessera/openplatform/commands/execute.py`` commits the claim in a
   transaction of its own, so one of two outcomes is right. Either both answer the same 2xx with the
   same record (one ``idempotentReplay: false``, one ``true``), or one answers 2xx and the other 409
   ``idempotency_in_progress``. The database must then hold exactly one stock-in record, one
   ``inventory.stock-in.created`` outbox row and one completed key per key. The session command
   endpoint (``POST /api/meta/commands/execute/assets:create`` with ``X-Idempotent-Key``) is tried the
   same way. Its key row commits with the change, so the duplicate waits for it: one ``code "0"`` and
   one ``IDEMPOTENT_REPLAY`` with the same record. Exactly one asset and one key row per key.
4. **Deliveries through the whole topology.** Two ``tessera worker --threads 1`` processes start
   (``TESSERA_WORKER_POLL_SECONDS=--poll``, logs at INFO so each attempt is logged) and first fan out
   the earlier parts' events, which have no endpoint. Then come a receiver
   (``_webhook_peers.py receive``) and ``--endpoints`` endpoints subscribed to
   ``inventory.stock-in.created``. A control endpoint is subscribed only to
   ``assets.assignment.changed`` and must receive nothing. All are made through
   ``tessera.events.endpoints.create_endpoint``. wrk drives the command through both API
   processes for ``--delivery-seconds`` while both workers deliver, and the run waits, with progress,
   until the receiver has every delivery and the queues are empty. The checks come from
   ``benchmarks/webhooks.py``: one delivery per event and subscribed endpoint, each
   ``X-Webhook-Delivery`` received exactly once with a body of its event and a signature that
   verifies, every delivery ``delivered`` by one 204 attempt. Beyond those: the outbox rows lie
   between the 2xx answers and the requests wrk wrote, no two attempts of one delivery overlap in
   time (``delivery_attempts``: ``attempted_at`` plus ``latency_ms``), nothing in the database is
   pending, retrying, dead or undispatched, and both workers made attempts. Attempt rows do not say
   which worker made them, so each worker's ``webhook.attempt`` log lines are counted. Deliveries per
   second run from the first command to the last delivery. Event-to-delivery p50/p95/p99 is the
   receiver's clock minus the outbox row's ``occurred_at``. wrk sends commands as fast as the API
   processes take them, and the workers share the same two cores, so a backlog can build up during
   the load. These latencies include it: they are not an idle queue's.

Results go to ``benchmarks/results/scaleout.json`` (every run's figures) and ``scaleout.txt`` (the
tables printed at the end).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import resource
import secrets
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import _seed
import httpx
import op_token
import psycopg
import redis
import session_list as common
import suite
import webhooks
from sqlalchemy import Engine

from storage.db import make_engine
from storage.migrate import upgrade
from storage.types import utcnow
from tessera.core.settings import PROJECT_ROOT, load_settings
from tessera.events import endpoints as webhook_admin
from tessera.runtime import build_runtime
from tessera.session.auth.actors import resolve_actor

log = _seed.log

REDIS_URL = "redis://127.0.0.1:6379/0"
RESULTS_JSON = suite.RESULTS_DIR / "scaleout.json"
RESULTS_TEXT = suite.RESULTS_DIR / "scaleout.txt"
THROUGHPUT_KEYS = ("whoami", "read", "session-list", "command")
ORDER = (1, 2, 2, 1)  # API processes per run: ABBA
EXTRA_AFTER_LIMIT = 9  # requests sent after the first refusal, so both processes refuse some
WINDOW_MARGIN = 5.0  # seconds: a burst does not start closer than this to the end of a minute window
EVENT = "inventory.stock-in.created"
CONTROL_EVENT = "assets.assignment.changed"
SESSION_READ_PATH = "/api/dynamic/assets/list"
DRAIN_TIMEOUT = 300.0


# -- CPU ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CpuMark:
    at: float  # monotonic
    host: tuple[float, float] | None  # (busy, total) CPU seconds of the host
    api: list[float | None]  # CPU seconds of each API process
    postgres: float | None
    children: float  # CPU seconds of this process's reaped children: the wrk processes of the run


def cpu_mark(api: list[common.Server], postmaster: int | None) -> CpuMark:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return CpuMark(time.monotonic(), common.host_cpu_seconds(),
                   [common.process_cpu_seconds(s.process.pid) for s in api], op_token.postgres_cpu_seconds(postmaster),
                   usage.ru_utime + usage.ru_stime)


def cpu_use(before: CpuMark, after: CpuMark) -> dict[str, Any]:
    """Host busy % of all CPUs; the API processes, PostgreSQL, wrk and the rest of the host in % of one core."""
    wall = max(after.at - before.at, 1e-6)

    def pct(a: float | None, b: float | None) -> float | None:
        return None if a is None or b is None else round((b - a) / wall * 100, 1)

    host = other = None
    api = [pct(a, b) for a, b in zip(before.api, after.api, strict=True)]
    postgres, wrk = pct(before.postgres, after.postgres), pct(before.children, after.children)
    if before.host and after.host and after.host[1] > before.host[1]:
        busy, total = after.host[0] - before.host[0], after.host[1] - before.host[1]
        host = round(busy / total * 100, 1)
        # Everything else that ran: this process, the workers when they run, other users of the host.
        known = sum(v or 0 for v in [*api, postgres, wrk])
        other = round(max(0.0, busy / wall * 100 - known), 1)
    return {"host_busy_pct": host, "api_cpu_pct": api, "postgres_cpu_pct": postgres, "wrk_cpu_pct": wrk,
            "other_cpu_pct": other}


# -- wrk ---------------------------------------------------------------------------------------------

def wrk_parallel(targets: list[tuple[str, int]], requests_file: Path, tag: str, seconds: float) -> list[suite.WrkRun]:
    """One wrk (one thread) per (base URL, connections), all at once, none pinned."""
    results: list[suite.WrkRun | BaseException] = [RuntimeError("wrk did not run")] * len(targets)
    unpinned = suite.Pinning(None, None)

    def run(index: int, base_url: str, connections: int) -> None:
        try:
            results[index] = suite.run_wrk(base_url, requests_file, f"{tag}-{index}", seconds,
                                           argparse.Namespace(threads=1, connections=connections), unpinned)
        except BaseException as exc:  # reported below, with the others' results
            results[index] = exc

    threads = [threading.Thread(target=run, args=(i, url, c)) for i, (url, c) in enumerate(targets)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for result in results:
        if isinstance(result, BaseException):
            raise RuntimeError(f"wrk failed: {result}")
    return [r for r in results if isinstance(r, suite.WrkRun)]


def bad_answers(runs: list[suite.WrkRun]) -> int:
    return sum(r.not_ok + sum(r.socket_errors.values()) for r in runs)


def alive(servers: list[common.Server]) -> None:
    for server in servers:
        if server.process.poll() is not None:
            raise RuntimeError(f"{server.name} exited with {server.process.returncode}:\n{server.log_tail()}")


# -- part 1: throughput ------------------------------------------------------------------------------

def median(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return round(statistics.median(present), 1) if present else None


def throughput(fx: suite.Fixture, api: list[common.Server], engine: Engine, postmaster: int | None,
               redis_client: redis.Redis, load_prefix: str, tmp: Path, args: argparse.Namespace,
               failures: list[str]) -> list[dict[str, Any]]:
    """Per endpoint: one API process against two, ABBA, medians."""
    rows = []
    half = args.connections // 2
    for key in THROUGHPUT_KEYS:
        spec = next(s for s in suite.SPECS if s.key == key)
        requests_file = tmp / f"scaleout-{key}.lua"
        suite.write_requests(requests_file, suite.calls_for(spec, fx))
        log(f"\n[throughput] {spec.label}: {spec.request}")
        problems: list[str] = []
        warm = wrk_parallel([(s.base_url, half) for s in api], requests_file, f"{key}-warm", args.warmup)
        log(f"  warm-up {args.warmup:g} s on both processes: {sum(r.rps for r in warm):,.1f} req/s, "
            f"{bad_answers(warm)} non-2xx or socket errors")
        if bad_answers(warm):
            problems.append(f"warm-up: {bad_answers(warm)} non-2xx or socket errors, e.g. "
                            f"{[s for r in warm for s in r.samples][:2]}")
        if spec.kind != "read":
            suite.quiesce(engine)
        runs: list[dict[str, Any]] = []
        for number, processes in enumerate(ORDER, 1):
            targets = [(server.base_url, args.connections // processes) for server in api[:processes]]
            since = suite.marks(engine) if spec.kind != "read" else {}
            before = cpu_mark(api, postmaster)
            results = wrk_parallel(targets, requests_file, f"{key}-{number}", args.duration)
            cpu = cpu_use(before, cpu_mark(api, postmaster))
            ok, sent, bad = sum(r.ok for r in results), sum(r.sent for r in results), bad_answers(results)
            run_problems = []
            if bad:
                run_problems.append(f"{bad} non-2xx answers or socket errors "
                                    f"{[(r.statuses, r.socket_errors) for r in results]}, e.g. "
                                    f"{[s for r in results for s in r.samples][:2]}")
            written: dict[str, int] = {}
            if spec.kind != "read":
                written = suite.settled_rows(engine, spec, since, ok)
                run_problems += suite.check_rows(written, ok, sent)
            else:
                time.sleep(0.2)  # the last requests of the run drain before the next one starts
            alive(api)
            run = {"processes": processes, "rps": round(sum(r.rps for r in results), 1),
                   "wrk": [{"target": url, "connections": connections, "rps": round(r.rps, 1), "ok": r.ok,
                            "not_ok": r.not_ok, "socket_errors": r.socket_errors, "sent": r.sent,
                            "p50_ms": round(r.p50_ms, 2), "p95_ms": round(r.p95_ms, 2), "p99_ms": round(r.p99_ms, 2)}
                           for (url, connections), r in zip(targets, results, strict=True)],
                   **cpu, "rows": written, "problems": run_problems}
            runs.append(run)
            api_cpu = " + ".join(f"{v:.0f}%" for v in cpu["api_cpu_pct"][:processes] if v is not None)
            log(f"  run {number}/{len(ORDER)}, {processes} process(es): {run['rps']:8,.1f} req/s "
                f"({' + '.join(f'{r.rps:,.1f}' for r in results)})  p99 "
                f"{' / '.join(f'{r.p99_ms:.1f}' for r in results)} ms | host busy {cpu['host_busy_pct']}%, API "
                f"{api_cpu}, PostgreSQL {cpu['postgres_cpu_pct']}%, wrk {cpu['wrk_cpu_pct']}%, rest of the host "
                f"{cpu['other_cpu_pct']}% of a core | "
                f"{ok:,} 2xx, {bad} other{f', rows {written}' if written else ''}"
                + (f"  PROBLEM: {run_problems}" if run_problems else ""))
            problems += [f"run {number} ({processes} process(es)): {p}" for p in run_problems]
        row = summarize(spec, runs, problems)
        if key == "session-list":
            counted = redis_counted(redis_client, f"{load_prefix}:rl:read:*")
            row["redis_read_counts"] = counted
            log(f"  Redis holds the session reads' rate-limit counters: {counted:,} reads in the windows it keeps")
            if not counted:
                problems.append(f"no read counters under {load_prefix}:rl:read:* in Redis: the limits did not go "
                                "through Redis")
        log(f"  => 1 process {row['one']['rps']:,.1f} req/s, 2 processes {row['two']['rps']:,.1f} req/s, "
            f"x{row['growth']}" + (f"; {len(problems)} problem(s)" if problems else ""))
        failures += [f"throughput, {spec.label}: {p}" for p in problems]
        rows.append(row)
    return rows


def summarize(spec: suite.Spec, runs: list[dict[str, Any]], problems: list[str]) -> dict[str, Any]:
    """Medians per process count; latency per wrk (index 0 and 1), CPU summed over the API processes."""
    def side(processes: int) -> dict[str, Any]:
        mine = [r for r in runs if r["processes"] == processes]
        latency = {p: [median([r["wrk"][i][f"{p}_ms"] for r in mine]) for i in range(processes)]
                   for p in ("p50", "p95", "p99")}
        return {"rps": median([r["rps"] for r in mine]) or 0.0, **latency,
                "host_busy_pct": median([r["host_busy_pct"] for r in mine]),
                "api_cpu_pct": median([sum(v or 0 for v in r["api_cpu_pct"]) for r in mine]),
                "postgres_cpu_pct": median([r["postgres_cpu_pct"] for r in mine]),
                "wrk_cpu_pct": median([r["wrk_cpu_pct"] for r in mine]),
                "other_cpu_pct": median([r["other_cpu_pct"] for r in mine])}

    one, two = side(1), side(2)
    return {"endpoint": spec.label, "request": spec.request, "one": one, "two": two,
            "growth": round(two["rps"] / one["rps"], 2) if one["rps"] else None, "runs": runs,
            "problems": problems}


def redis_counted(client: redis.Redis, pattern: str) -> int:
    return sum(int(client.get(k) or 0) for k in client.scan_iter(match=pattern, count=500))


# -- part 2: rate limits -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Answer:
    process: int
    status: int
    code: str
    retry_after: str | None
    remaining: int | None  # r= of the RateLimit header


def remaining_of(header: str | None) -> int | None:
    for part in (header or "").split(";"):
        if part.strip().startswith("r="):
            return int(part.strip()[2:])
    return None


def burst(clients: list[httpx.Client], count: int, send: Callable[[httpx.Client], httpx.Response],
          window_seconds: int) -> tuple[list[Answer], int, bool]:
    """``count`` requests alternating between the processes, inside one rate-limit window: (answers,
    bursts sent, whether the last burst stayed in one window). A burst the window boundary split is
    sent once more, in a window nothing counted in yet."""
    answers: list[Answer] = []
    for attempt in (1, 2):
        left = window_seconds - time.time() % window_seconds
        if left < WINDOW_MARGIN:
            log(f"  {left:.1f} s left in this window: waiting for the next")
            time.sleep(left + 0.2)
        first_window = int(time.time() // window_seconds)
        answers = []
        for n in range(count):
            index = n % len(clients)
            response = send(clients[index])
            try:
                body = response.json()
            except ValueError:
                body = {}
            answers.append(Answer(index, response.status_code, str(body.get("code", "")),
                                  response.headers.get("retry-after"), remaining_of(response.headers.get("ratelimit"))))
        last_window = int(time.time() // window_seconds)
        if first_window == last_window:
            return answers, attempt, True
        if attempt == 1:
            # The next window already holds the tail of this burst: wait for the one after it.
            wait = (last_window + 1) * window_seconds - time.time() + 0.2
            log(f"  the window turned during the burst: once more in a fresh window, in {wait:.0f} s")
            time.sleep(wait)
    return answers, 2, False


def check_burst(label: str, sent: tuple[list[Answer], int, bool], limit: int, refusal_code: str,
                countdown: bool) -> dict[str, Any]:
    answers, attempts, one_window = sent
    statuses = [a.status for a in answers]
    problems = []
    if not one_window:
        problems.append("a window boundary split both bursts")
    if statuses[:limit] != [200] * limit:
        problems.append(f"requests 1 to {limit} answered {dict(Counter(statuses[:limit]))}, expected all 200")
    refused = answers[limit:]
    if [a.status for a in refused] != [429] * len(refused):
        problems.append(f"requests {limit + 1} to {len(answers)} answered {dict(Counter(a.status for a in refused))}, "
                        "expected all 429")
    codes = Counter(a.code for a in answers if a.status == 429)
    if set(codes) - {refusal_code}:
        problems.append(f"refusal codes {dict(codes)}, expected {refusal_code}")
    if any(a.retry_after is None for a in answers if a.status == 429):
        problems.append("a refusal without Retry-After")
    served_by = sorted({a.process for a in answers if a.status == 200})
    refused_by = sorted({a.process for a in answers if a.status == 429})
    if served_by != [0, 1] or refused_by != [0, 1]:
        problems.append(f"processes that served {served_by}, that refused {refused_by}: expected both, both")
    remaining = [a.remaining for a in answers[:limit]]
    if countdown and remaining != list(range(limit - 1, -1, -1)):
        problems.append(f"RateLimit r= of requests 1 to {limit} is {remaining[:5]}...{remaining[-5:]}, expected "
                        f"{limit - 1} down to 0 across both processes")
    first_refusal = statuses.index(429) + 1 if 429 in statuses else None
    held = not problems
    log(f"  {label}: {len(answers)} requests alternating between 2 processes: {statuses.count(200)} answered 200, "
        f"{statuses.count(429)} answered 429 {dict(codes)}; first refusal at request {first_refusal}; served by "
        f"processes {served_by}, refused by {refused_by}"
        + (f"; RateLimit r= counted down {remaining[0]} to {remaining[-1]} across both" if countdown else "")
        + f"; {'held' if held else 'DID NOT HOLD: ' + '; '.join(problems)}")
    return {"requests": len(answers), "limit": limit, "ok": statuses.count(200), "refused": statuses.count(429),
            "first_refusal": first_refusal, "codes": dict(codes), "served_by": served_by, "refused_by": refused_by,
            "remaining_countdown": countdown and remaining == list(range(limit - 1, -1, -1)),
            "bursts_sent": attempts, "one_window": one_window, "held": held, "problems": problems,
            "statuses": statuses}


def rate_limits(fx: suite.Fixture, env: dict[str, str], tmp: Path, failures: list[str]) -> dict[str, Any]:
    """Part 2: the 101st read of a minute, and the 61st token of a client, refused whichever process answers."""
    limited_env = {k: v for k, v in env.items() if not k.startswith("TESSERA_RATE_LIMIT_")}
    limited_env |= {"TESSERA_RATE_LIMIT_READ": "100", "TESSERA_REDIS_PREFIX": env["TESSERA_REDIS_PREFIX"] + "-limits"}
    settings = load_settings(limited_env)
    read_limit, token_limit = settings.rate_limit_read, settings.rate_limit_token
    log(f"\n[rate limits] two more API processes: read limit {read_limit} a minute per tenant and user, token "
        f"limit {token_limit} a minute per client id (the default), write {settings.rate_limit_write}, login "
        f"{settings.rate_limit_login}; Redis prefix {settings.redis_prefix}")
    limited = [common.start_server(f"limited-{i}", "_serve.py", limited_env, tmp) for i in range(2)]
    clients = [httpx.Client(base_url=s.base_url, timeout=30) for s in limited]
    client_id, client_secret = fx.credentials[0]
    try:
        for client in clients:  # keep-alive connections open before the bursts
            client.get("/api/health").raise_for_status()
        read_burst = burst(
            clients, read_limit + 1 + EXTRA_AFTER_LIMIT,
            lambda c: c.get(SESSION_READ_PATH, params={"pageNum": 1, "pageSize": 1},
                            headers={"Authorization": f"Bearer {fx.jwt}"}),
            settings.rate_limit_window_seconds)
        reads = check_burst("session reads", read_burst, read_limit, "RATE_LIMITED", countdown=True)
        token_burst = burst(
            clients, token_limit + 1 + EXTRA_AFTER_LIMIT,
            lambda c: c.post("/oauth2/token", data={"grant_type": "client_credentials", "client_id": client_id,
                                                    "client_secret": client_secret}),
            settings.rate_limit_window_seconds)
        tokens = check_burst(f"token requests of client {client_id}", token_burst, token_limit, "rate_limit_exceeded",
                             countdown=False)
        alive(limited)
    finally:
        for client in clients:
            client.close()
        for server in limited:
            server.stop()
    failures += [f"rate limit across processes, session reads: {p}" for p in reads["problems"]]
    failures += [f"rate limit across processes, token requests: {p}" for p in tokens["problems"]]
    return {"read": reads, "token": tokens, "redis_prefix": settings.redis_prefix}


# -- part 3: idempotency -----------------------------------------------------------------------------

def both_at_once(clients: list[httpx.Client], send: Callable[[httpx.Client], httpx.Response]) -> list[httpx.Response]:
    """The same request to every process at the same moment (threads released together by a barrier)."""
    barrier = threading.Barrier(len(clients))
    out: list[httpx.Response | BaseException] = [RuntimeError("not sent")] * len(clients)

    def go(index: int) -> None:
        barrier.wait()
        try:
            out[index] = send(clients[index])
        except BaseException as exc:
            out[index] = exc

    threads = [threading.Thread(target=go, args=(i,)) for i in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for result in out:
        if isinstance(result, BaseException):
            raise RuntimeError(f"a request failed: {result!r}")
    return [r for r in out if isinstance(r, httpx.Response)]


def body_of(response: httpx.Response) -> dict[str, Any]:
    try:
        body = response.json()
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def open_outcome(responses: list[httpx.Response]) -> str | None:
    """The documented outcomes of one key at two processes at once; None for anything else."""
    pairs = sorted(((r.status_code, body_of(r)) for r in responses), key=lambda p: p[0])
    (s1, b1), (s2, b2) = pairs
    if 200 <= s1 < 300 and s1 == s2:
        replays = sorted(bool(b.get("idempotentReplay")) for b in (b1, b2))
        if replays == [False, True] and b1.get("record") == b2.get("record") and b1.get("record"):
            return "same 2xx, once replayed"
    if 200 <= s1 < 300 and s2 == 409 and b2.get("code") == "idempotency_in_progress" \
            and b1.get("idempotentReplay") is False:
        return "2xx + 409 idempotency_in_progress"
    return None


def session_outcome(responses: list[httpx.Response]) -> str | None:
    bodies = sorted((body_of(r) for r in responses), key=lambda b: str(b.get("code")))
    if [r.status_code for r in responses] == [200, 200] and [b.get("code") for b in bodies] == \
            ["0", "IDEMPOTENT_REPLAY"] and bodies[0].get("data") == bodies[1].get("data") and bodies[0].get("data"):
        return "200 + 200 IDEMPOTENT_REPLAY, same record"
    return None


def per_key_counts(db: psycopg.Connection[Any], query: str, prefix: str) -> dict[str, int]:
    return {str(k): int(n) for k, n in db.execute(query, (prefix + "%",)).fetchall()}


def idempotency(fx: suite.Fixture, api: list[common.Server], database_url: str, run_id: str, args: argparse.Namespace,
                failures: list[str]) -> dict[str, Any]:
    """Part 3: the same key at both processes at once runs once."""
    log(f"\n[idempotency] {args.keys} keys, each sent to both API processes at the same moment, on the command "
        f"endpoint and on the session command endpoint")
    clients = [httpx.Client(base_url=s.base_url, timeout=60) for s in api]
    bearer = {"Authorization": f"Bearer {fx.tokens[0]}"}
    session = {"Authorization": f"Bearer {fx.jwt}"}
    open_prefix, session_prefix = f"so-{run_id}-open-", f"so-{run_id}-session-"
    results: dict[str, Any] = {}
    try:
        for client in clients:
            client.get("/api/health").raise_for_status()
        for surface, prefix, send, classify in (
            ("open", open_prefix,
             lambda key: lambda c: c.post(f"/api/open/v1/commands/{suite.COMMAND}:execute",
                                          headers={**bearer, "Idempotency-Key": key},
                                          json={"input": {"sku": key, "quantity": 1, "warehouse": "north",
                                                          "receivedAt": "2026-11-22T08:00:00Z"}}),
             open_outcome),
            ("session", session_prefix,
             lambda key: lambda c: c.post(f"/api/meta/commands/execute/{suite.SESSION_COMMAND}",
                                          headers={**session, "X-Idempotent-Key": key},
                                          json={"payload": {"name": f"Scale-out {key}", "serialNo": key,
                                                            "status": "in_stock", "value": 10.5,
                                                            "purchasedAt": "2026-01-15"}}),
             session_outcome),
        ):
            outcomes: Counter[str] = Counter()
            odd: list[str] = []
            for n in range(args.keys):
                key = f"{prefix}{n}"
                responses = both_at_once(clients, send(key))
                outcome = classify(responses)
                if outcome is None:
                    odd.append(f"{key}: {[(r.status_code, r.text[:200]) for r in responses]}")
                else:
                    outcomes[outcome] += 1
            results[surface] = {"outcomes": dict(outcomes), "odd": odd[:5], "odd_count": len(odd)}
    finally:
        for client in clients:
            client.close()
    with psycopg.connect(database_url) as db:
        counted = {
            "open": {
                "stock-in records": per_key_counts(db, "SELECT data->>'sku', count(*) FROM records WHERE model = "
                                                       "'stockIn' AND data->>'sku' LIKE %s GROUP BY 1", open_prefix),
                "outbox rows": per_key_counts(db, "SELECT payload->>'sku', count(*) FROM outbox_events WHERE "
                                                  f"event_type = '{EVENT}' AND payload->>'sku' LIKE %s GROUP BY 1",
                                              open_prefix),
                "completed keys": per_key_counts(db, "SELECT key, count(*) FROM open_idempotency_keys WHERE "
                                                     "state = 'completed' AND key LIKE %s GROUP BY 1", open_prefix),
            },
            "session": {
                "asset records": per_key_counts(db, "SELECT data->>'serialNo', count(*) FROM records WHERE model = "
                                                    "'asset' AND data->>'serialNo' LIKE %s GROUP BY 1", session_prefix),
                "key rows": per_key_counts(db, "SELECT key, count(*) FROM idempotency_keys WHERE key LIKE %s "
                                               "GROUP BY 1", session_prefix),
            },
        }
    for surface, prefix in (("open", open_prefix), ("session", session_prefix)):
        result = results[surface]
        expected = {f"{prefix}{n}" for n in range(args.keys)}
        problems = [f"{result['odd_count']} keys answered otherwise, e.g. {result['odd'][:2]}"] \
            if result["odd_count"] else []
        per_kind = {}
        for kind, per_key in counted[surface].items():
            per_kind[kind] = dict(Counter(per_key.get(k, 0) for k in sorted(expected)))
            wrong = {k: per_key.get(k, 0) for k in sorted(expected) if per_key.get(k, 0) != 1}
            if wrong or set(per_key) - expected:
                problems.append(f"{kind} per key {per_kind[kind]} (key -> rows), expected exactly 1 each; e.g. "
                                f"{dict(list(wrong.items())[:3])}")
        result |= {"keys": args.keys, "rows_per_key": per_kind, "held": not problems, "problems": problems}
        label = "command endpoint" if surface == "open" else "session command endpoint"
        log(f"  {label}: answers {result['outcomes']}; rows per key (rows: keys) {per_kind}; "
            f"{'held' if not problems else 'DID NOT HOLD: ' + '; '.join(problems)}")
        failures += [f"idempotency across processes, {label}: {p}" for p in problems]
    return results


# -- part 4: deliveries ------------------------------------------------------------------------------

def attempt_lines(worker: common.Server) -> int:
    """The worker's ``webhook.attempt`` log lines so far (it logs at INFO here)."""
    return worker.log_path.read_text(errors="replace").count('"webhook.attempt"')


def overlapping_attempts(db: psycopg.Connection[Any], mark: int) -> tuple[int, int]:
    """(deliveries with more than one attempt, pairs of consecutive attempts of one delivery that overlap)."""
    spans: dict[int, list[tuple[float, float]]] = {}
    for delivery_id, attempted_at, latency_ms in db.execute(
            "SELECT a.delivery_id, a.attempted_at, coalesce(a.latency_ms, 0) FROM delivery_attempts a "
            "JOIN deliveries d ON d.id = a.delivery_id WHERE d.event_id > %s ORDER BY a.delivery_id, a.attempted_at, "
            "a.id", (mark,)):
        start = attempted_at.timestamp()
        spans.setdefault(int(delivery_id), []).append((start, start + int(latency_ms) / 1000))
    retried = sum(1 for s in spans.values() if len(s) > 1)
    overlaps = sum(1 for s in spans.values() for a, b in itertools.pairwise(s) if b[0] < a[1])
    return retried, overlaps


def scalar(db: psycopg.Connection[Any], query: str, params: tuple[Any, ...] = ()) -> int:
    row = db.execute(query, params).fetchone()  # type: ignore[arg-type]
    return int(row[0]) if row else 0


def unfinished_anywhere(db: psycopg.Connection[Any]) -> tuple[dict[str, int], int]:
    statuses = {str(s): int(n) for s, n in db.execute(
        "SELECT status, count(*) FROM deliveries WHERE status IN ('pending', 'retrying', 'dead') GROUP BY status")}
    return statuses, scalar(db, "SELECT count(*) FROM outbox_events WHERE dispatched_at IS NULL")


def make_endpoints(env: dict[str, str], fx: suite.Fixture, receiver: webhooks.Receiver,
                   count: int) -> tuple[list[webhooks.Endpoint], webhooks.Endpoint]:
    rt = build_runtime(load_settings(env))
    try:
        actor = resolve_actor(rt, fx.jwt, None)

        def endpoint(path: str, types: list[str]) -> webhooks.Endpoint:
            made = webhook_admin.create_endpoint(rt, actor, fx.installation_pid,
                                                 {"url": receiver.server.base_url + path, "eventTypes": types},
                                                 "scaleout-setup")
            return webhooks.Endpoint(made["endpointId"], made["url"], path, made["secret"], tuple(made["eventTypes"]))

        return [endpoint(f"/hook/{i}", [EVENT]) for i in range(count)], endpoint("/hook/control", [CONTROL_EVENT])
    finally:
        rt.close()


def deliveries(fx: suite.Fixture, api: list[common.Server], env: dict[str, str], tmp: Path, database_url: str,
               args: argparse.Namespace, failures: list[str]) -> dict[str, Any]:
    """Part 4: commands through both API processes, deliveries by both workers, each exactly once."""
    log(f"\n[deliveries] 2 API processes, 2 workers (`tessera worker --threads 1`, poll {args.poll:g} s), a receiver, "
        f"{args.endpoints} endpoint(s) subscribed to {EVENT} and a control endpoint ({CONTROL_EVENT} only); "
        f"{args.delivery_seconds:g} s of commands through both API processes")
    worker_env = env | {"TESSERA_LOG_LEVEL": "INFO", "TESSERA_WORKER_POLL_SECONDS": str(args.poll)}
    workers = webhooks.start_workers(2, worker_env, tmp, "scaleout")
    receiver: webhooks.Receiver | None = None
    problems: list[str] = []
    try:
        webhooks.wait_ready(workers)
        log(f"  workers running: pids {', '.join(str(w.process.pid) for w in workers)}")
        with psycopg.connect(database_url, autocommit=True) as db:
            started = time.monotonic()
            backlog = scalar(db, "SELECT count(*) FROM outbox_events WHERE dispatched_at IS NULL")
            # The earlier parts' events have no endpoint yet: the workers fan them out to nobody first.
            webhooks.wait_until_finished(db, 0, timeout=DRAIN_TIMEOUT)
            left = scalar(db, "SELECT count(*) FROM outbox_events WHERE dispatched_at IS NULL")
            log(f"  the earlier parts' {backlog:,} outbox rows dispatched (to no endpoint) in "
                f"{time.monotonic() - started:.1f} s" + (f"; {left} still undispatched" if left else ""))
            if left:
                raise RuntimeError(f"{left} earlier outbox rows not dispatched within {DRAIN_TIMEOUT:g} s")
            receiver = webhooks.Receiver(env, tmp)
            endpoints, control = make_endpoints(env, fx, receiver, args.endpoints)
            mark = webhooks.outbox_mark(db)
            received_mark = receiver.count()
            attempts_before = [attempt_lines(w) for w in workers]
            spec = next(s for s in suite.SPECS if s.key == "command")
            requests_file = tmp / "scaleout-deliveries.lua"
            suite.write_requests(requests_file, suite.calls_for(spec, fx))
            load_started = time.time()
            runs = wrk_parallel([(s.base_url, args.connections // 2) for s in api], requests_file, "deliver",
                                args.delivery_seconds)
            load_seconds = time.time() - load_started
            during_load = receiver.count() - received_mark
            ok, sent, bad = sum(r.ok for r in runs), sum(r.sent for r in runs), bad_answers(runs)
            log(f"  {ok:,} commands answered 2xx in {load_seconds:.1f} s ({ok / load_seconds:,.1f}/s: "
                f"{' + '.join(f'{r.rps:,.1f}' for r in runs)}), {bad} other; "
                f"{during_load:,} delivered meanwhile")
            if bad:
                problems.append(f"{bad} non-2xx answers or socket errors while driving commands, e.g. "
                                f"{[s for r in runs for s in r.samples][:2]}")
            time.sleep(1.0)  # requests in flight when wrk stopped commit
            events = scalar(db, "SELECT count(*) FROM outbox_events WHERE id > %s", (mark,))
            expected = events * len(endpoints)
            if not ok <= events <= sent:
                problems.append(f"{events:,} outbox rows for {ok:,} 2xx answers and {sent:,} requests written")
            log(f"  {events:,} events x {len(endpoints)} endpoint(s) = {expected:,} deliveries to wait for")
            got = webhooks.wait_for_requests(receiver, received_mark, expected, "delivered",
                                             timeout=max(DRAIN_TIMEOUT, expected / 10))
            webhooks.wait_until_finished(db, mark, timeout=60)
            time.sleep(webhooks.SETTLE_SECONDS)
            received = receiver.entries(received_mark)
            rows, event_rows = webhooks.deliveries_since(db, mark)
            retried, overlaps = overlapping_attempts(db, mark)
            unfinished, undispatched = unfinished_anywhere(db)
    finally:
        problems += webhooks.stop_workers(workers)
        if receiver is not None:
            receiver.stop()
    per_worker = [attempt_lines(w) - before for w, before in zip(workers, attempts_before, strict=True)]
    if got < expected:
        problems.append(f"only {got:,} of {expected:,} deliveries arrived in time")
    problems += webhooks.check_deliveries(rows, event_rows, endpoints, control)
    by_endpoint = {e.pid: e for e in [*endpoints, control]}
    request_problems, counts = webhooks.check_requests(
        received, {r.pid: (by_endpoint[r.endpoint_pid], r.event_id, r.request_id) for r in rows}, event_type=EVENT)
    problems += request_problems
    if overlaps:
        problems.append(f"{overlaps} pairs of attempts of one delivery overlap in time")
    if unfinished or undispatched:
        problems.append(f"left unfinished in the database: deliveries {unfinished}, undispatched outbox rows "
                        f"{undispatched}")
    if not all(n > 0 for n in per_worker):
        problems.append(f"attempts per worker {per_worker}: a worker did none")
    if sum(per_worker) != len(rows):
        problems.append(f"{sum(per_worker)} webhook.attempt log lines for {len(rows)} deliveries")
    occurred = {r.pid: r.occurred_at for r in rows}
    latencies = sorted(r.at - occurred[r.headers["x-webhook-delivery"]] for r in received
                       if r.headers.get("x-webhook-delivery") in occurred)
    last = max((r.at for r in received), default=load_started)
    seconds = max(last - load_started, 1e-6)
    statuses = Counter(r.status for r in rows)
    result = {
        "commands_ok": ok, "commands_sent": sent, "commands_per_second": round(ok / load_seconds, 1),
        "events": events, "endpoints": len(endpoints), "expected": expected, "received": len(received),
        **{k: counts[k] for k in ("distinct_deliveries", "duplicates", "missing", "unexpected", "signatures_verified")},
        "delivery_statuses": dict(statuses), "attempts_per_delivery": dict(Counter(r.attempt_rows for r in rows)),
        "retried_deliveries": retried, "overlapping_attempts": overlaps, "attempts_per_worker": per_worker,
        "unfinished_in_database": unfinished, "undispatched_in_database": undispatched,
        "seconds_first_command_to_last_delivery": round(seconds, 1),
        "delivered_during_load": during_load,
        "drain_seconds_after_load": round(max(0.0, last - load_started - load_seconds), 1),
        "deliveries_per_second": round(len(received) / seconds, 1),
        "event_to_delivery_ms": webhooks.summary_ms(latencies), "poll_seconds": args.poll,
        "held": not problems, "problems": problems,
    }
    log(f"  {counts['distinct_deliveries']:,} of {expected:,} delivered ({counts['duplicates']} duplicates, "
        f"{counts['missing']} missing, {counts['signatures_verified']:,} signatures verified), statuses "
        f"{dict(statuses)}, attempts per delivery {result['attempts_per_delivery']}, overlapping attempts {overlaps}, "
        f"attempts per worker {per_worker}; {result['deliveries_per_second']} deliveries/s; event-to-delivery "
        f"{result['event_to_delivery_ms']} ms; {'held' if not problems else 'DID NOT HOLD: ' + '; '.join(problems)}")
    failures += [f"deliveries: {p}" for p in problems]
    return result


# -- report ------------------------------------------------------------------------------------------

def pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}%"


def ms_list(values: list[float | None]) -> str:
    return " / ".join("-" if v is None else f"{v:.1f}" for v in values)


def report_lines(report: dict[str, Any], failures: list[str]) -> list[str]:
    config, info = report["config"], report.get("versions", {})
    lines = ["=== Tessera scale-out: API processes and workers on one PostgreSQL, Redis for rate limits ==="]
    if info:
        lines.append(f"Python {info['python']} | {info['database'].split(' on ')[0]} | {info['platform']} | "
                     f"{info['cpus']} CPUs | {info.get('wrk', '').split(' Copyright')[0]}")
    lines.append(f"{config['records']:,} assets | wrk: 1 thread, {config['connections']} connections in all (2 "
                 f"processes: 2 wrk x {config['connections'] // 2}), {config['duration']:g} s runs in order "
                 f"1,2,2,1 API processes after {config['warmup']:g} s warm-up, medians | nothing pinned: 2 API "
                 "processes need both cores, which wrk and PostgreSQL share | rate limits out of reach, counted in "
                 "Redis")
    header = (f"{'endpoint':<16} | {'API procs':>9} | {'req/s':>9} | {'growth':>6} | {'p50 ms':>13} | "
              f"{'p95 ms':>13} | {'p99 ms':>13} | {'host busy':>9} | {'API CPU':>7} | {'PG CPU':>6} | {'wrk CPU':>7} | "
              f"{'rest':>5}")
    lines += ["", "1. throughput with one and two API processes (p50/p95/p99 per wrk; host busy in % of all "
              f"{info.get('cpus', '?')} cores; CPU of the API processes, PostgreSQL (the whole server, other "
              "databases included), wrk and the rest of the host (other users included) in % of one core)", header,
              "-" * len(header)]
    for row in report.get("throughput", []):
        for n, side in ((1, row["one"]), (2, row["two"])):
            growth = f"x{row['growth']}" if n == 2 and row["growth"] is not None else ""
            lines.append(f"{row['endpoint'] if n == 1 else '':<16} | {n:>9} | {side['rps']:>9,.1f} | {growth:>6} | "
                         f"{ms_list(side['p50']):>13} | {ms_list(side['p95']):>13} | {ms_list(side['p99']):>13} | "
                         f"{pct(side['host_busy_pct']):>9} | {pct(side['api_cpu_pct']):>7} | "
                         f"{pct(side['postgres_cpu_pct']):>6} | {pct(side['wrk_cpu_pct']):>7} | "
                         f"{pct(side['other_cpu_pct']):>5}"
                         + ("  FAILED CHECKS" if n == 2 and row["problems"] else ""))
    rl = report.get("rate_limits")
    if rl:
        lines += ["", "2. rate limits across 2 API processes (Redis), requests alternating between them"]
        for label, part in (("session reads (user)", rl["read"]), ("tokens (client id)", rl["token"])):
            lines.append(f"{label:<21} limit {part['limit']:>3}/min: {part['requests']} sent, {part['ok']} x 200, "
                         f"{part['refused']} x 429 {part['codes']}, first refusal #{part['first_refusal']}, "
                         f"served by {part['served_by']}, refused by {part['refused_by']}"
                         + (", RateLimit r= counted down across both" if part["remaining_countdown"] else "")
                         + f": {'held' if part['held'] else 'DID NOT HOLD'}")
    idem = report.get("idempotency")
    if idem:
        lines += ["", "3. idempotency: each key sent to both API processes at the same moment"]
        for label, surface in (("command (Idempotency-Key)", "open"), ("session command (X-Idempotent-Key)",
                                                                       "session")):
            part = idem[surface]
            lines.append(f"{label:<35} {part['keys']} keys: answers {part['outcomes']}; rows per key (rows: keys) "
                         f"{part['rows_per_key']}: {'held' if part['held'] else 'DID NOT HOLD'}")
    d = report.get("deliveries")
    if d:
        lat = d["event_to_delivery_ms"]
        lines += ["", f"4. deliveries: 2 API processes + 2 workers + receiver, commands for "
                      f"{config['delivery_seconds']:g} s",
                  f"commands 2xx {d['commands_ok']:,} ({d['commands_per_second']:,.1f}/s) -> {d['events']:,} events x "
                  f"{d['endpoints']} endpoint(s) = {d['expected']:,} deliveries; received {d['received']:,}, distinct "
                  f"{d['distinct_deliveries']:,}, duplicates {d['duplicates']}, missing {d['missing']}, signatures "
                  f"verified {d['signatures_verified']:,}",
                  f"statuses {d['delivery_statuses']}, attempts per delivery {d['attempts_per_delivery']}, "
                  f"overlapping attempts {d['overlapping_attempts']}, left pending/retrying/dead "
                  f"{d['unfinished_in_database'] or 0}, undispatched {d['undispatched_in_database']}, attempts per "
                  f"worker {d['attempts_per_worker']}: {'held' if d['held'] else 'DID NOT HOLD'}",
                  f"{d['deliveries_per_second']:,.1f} deliveries/s (first command to last delivery, "
                  f"{d['seconds_first_command_to_last_delivery']:g} s: {d['delivered_during_load']:,} delivered during "
                  f"the {config['delivery_seconds']:g} s of load, the rest in {d['drain_seconds_after_load']:g} s "
                  f"after it); event-to-delivery p50 {lat['p50']:,.0f} ms, p95 {lat['p95']:,.0f} ms, p99 "
                  f"{lat['p99']:,.0f} ms (outbox occurred_at to receiver, backlog included; worker poll "
                  f"{d['poll_seconds']:g} s)"]
    lines += ["", "result: " + ("PASS" if not failures else "FAIL")]
    lines += [f"FAILED: {f}" for f in failures]
    return lines


def guarded(failures: list[str], label: str, step: Callable[[], Any]) -> Any:
    """Run one part; an exception fails it (and is reported) without stopping the others."""
    try:
        return step()
    except (RuntimeError, AssertionError, httpx.HTTPError, psycopg.Error, redis.RedisError) as exc:
        failures.append(f"{label}: aborted: {exc}")
        log(f"ABORTED {label}: {exc}")
        return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=20_000, help="assets of the tenant (default 20000)")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per throughput run (default 10)")
    parser.add_argument("--connections", type=int, default=16, help="wrk connections in all, even (default 16)")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds of warm-up per endpoint (default 2)")
    parser.add_argument("--keys", type=int, default=50, help="idempotency keys per endpoint in part 3 (default 50)")
    parser.add_argument("--delivery-seconds", type=float, default=15.0,
                        help="seconds of commands in part 4 (default 15)")
    parser.add_argument("--endpoints", type=int, default=1, help="endpoints subscribed to the event (default 1)")
    parser.add_argument("--poll", type=float, default=1.0,
                        help="TESSERA_WORKER_POLL_SECONDS of the workers (default 1, the service's)")
    args = parser.parse_args()
    if args.connections < 2 or args.connections % 2:
        parser.error("--connections must be even and at least 2")
    if args.duration <= 0 or args.warmup <= 0 or args.delivery_seconds <= 0 or args.keys < 1 or args.endpoints < 1:
        parser.error("--duration, --warmup, --delivery-seconds, --keys and --endpoints must be positive")
    if args.records < suite.LIST_CURSORS:
        parser.error(f"--records must be at least {suite.LIST_CURSORS}")
    if args.poll < 0.01:
        parser.error("--poll must be at least 0.01 (the service's minimum)")
    if shutil.which("wrk") is None:
        parser.error("wrk is not on the PATH")

    started = time.perf_counter()
    failures: list[str] = []
    run_id = secrets.token_hex(4)
    redis_url = os.environ.get("TESSERA_REDIS_URL") or REDIS_URL
    prefix = f"tessera-scaleout-{run_id}"
    redis_client = redis.Redis.from_url(redis_url, socket_timeout=5)
    try:
        redis_client.ping()
    except redis.RedisError as exc:
        parser.error(f"Redis at {redis_url} does not answer: {exc}")
    report: dict[str, Any] = {
        "benchmark": "scaleout", "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "config": {"records": args.records, "duration": args.duration, "connections": args.connections,
                   "warmup": args.warmup, "keys": args.keys, "delivery_seconds": args.delivery_seconds,
                   "endpoints": args.endpoints, "poll": args.poll, "order": list(ORDER), "pinning": "none",
                   "redis": redis_url, "redis_prefix": prefix},
    }
    log(f"Tessera scale-out benchmark: 2 API processes (benchmarks/_serve.py) and 2 workers on a fresh PostgreSQL "
        f"database, Redis at {redis_url} (prefix {prefix}); nothing pinned")
    with tempfile.TemporaryDirectory(prefix="tessera-scaleout-") as tmp_name:
        tmp = Path(tmp_name)
        backend = _seed.create_backend("postgresql", tmp)
        engine: Engine | None = None
        api: list[common.Server] = []
        try:
            log(f"database: {backend.label}")
            upgrade(backend.sqlalchemy_url)
            env = common.server_env(backend.url, secrets.token_urlsafe(48), tmp / "var", PROJECT_ROOT / "models.yaml")
            env |= {name: suite.UNLIMITED for name in ("TESSERA_RATE_LIMIT_READ", "TESSERA_RATE_LIMIT_WRITE",
                                                       "TESSERA_RATE_LIMIT_LOGIN", "TESSERA_RATE_LIMIT_TOKEN")}
            env |= {"TESSERA_REDIS_URL": redis_url, "TESSERA_REDIS_PREFIX": prefix,
                    "TESSERA_WORKERS_IN_PROCESS": "false", "TESSERA_WEBHOOK_ALLOW_LOOPBACK": "true"}
            fx = suite.setup(env, args.records)
            log(f"set up in {fx.setup_seconds:.1f} s: {fx.assets:,} assets in {suite.TENANT!r}")
            engine = make_engine(backend.sqlalchemy_url, pool_size=2)
            report["versions"] = suite.versions(engine)
            postmaster = op_token.postmaster_pid(backend.url)
            api = [common.start_server(f"api-{i}", "_serve.py", env, tmp) for i in range(2)]
            log(f"API processes: {', '.join(f'{s.base_url} (pid {s.process.pid})' for s in api)}")
            db_engine = engine
            report["throughput"] = guarded(failures, "throughput", lambda: throughput(
                fx, api, db_engine, postmaster, redis_client, prefix, tmp, args, failures)) or []
            report["rate_limits"] = guarded(failures, "rate limits", lambda: rate_limits(fx, env, tmp, failures))
            report["idempotency"] = guarded(failures, "idempotency", lambda: idempotency(
                fx, api, backend.url, run_id, args, failures))
            report["deliveries"] = guarded(failures, "deliveries", lambda: deliveries(
                fx, api, env, tmp, backend.url, args, failures))
            for server in api:
                if server.process.poll() is not None:
                    failures.append(f"{server.name} died (exit {server.process.returncode}):\n{server.log_tail()}")
        finally:
            for server in api:
                server.stop()
            if engine is not None:
                engine.dispose()
            backend.drop()
            for key in redis_client.scan_iter(match=f"{prefix}*", count=500):
                redis_client.delete(key)
    report["failures"] = failures
    report["finished_at"] = utcnow().isoformat(timespec="seconds")
    report["total_seconds"] = round(time.perf_counter() - started)
    try:
        lines = report_lines(report, failures)
    except (KeyError, TypeError, IndexError) as exc:
        lines = [f"(the tables could not be printed: {exc!r}; see the JSON)", "result: FAIL",
                 *[f"FAILED: {f}" for f in failures]]
    log("\n" + "\n".join(lines))
    suite.RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    RESULTS_JSON.write_text(json.dumps({**report, "table": lines}, indent=2, ensure_ascii=False, default=str) + "\n")
    RESULTS_TEXT.write_text("\n".join(lines) + "\n")
    log(f"\nresults written to {RESULTS_JSON.relative_to(PROJECT_ROOT)} and {RESULTS_TEXT.relative_to(PROJECT_ROOT)}; "
        f"total time {report['total_seconds']} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
