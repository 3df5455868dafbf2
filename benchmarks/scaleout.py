"""Scale-out, measured: two API processes and two delivery workers on one PostgreSQL, with Redis for the
rate limits, as docs/operator/deployment.md ("Scaling out") runs them; one command.

    .venv/bin/python benchmarks/scaleout.py [--records 20000] [--duration 10] [--connections 16]
        [--warmup 2] [--keys 50] [--delivery-seconds 15] [--endpoints 1] [--poll 1]

Needs ``wrk`` on the PATH, PostgreSQL at ``TESSERA_TEST_PG_URL`` (default
``postgresql://postgres@127.0.0.1:5432/test``; a fresh database is made next to it and dropped at the
end), Redis at ``TESSERA_REDIS_URL`` (default ``redis://127.0.0.1:6379/0``; every key this run writes
carries a ``TESSERA_REDIS_PREFIX`` unique to the run and is deleted at the end) and Linux (``/proc``).

Why it is built this way: the documentation claims that API processes keep nothing in memory that correctness
depends on. Throughput should grow with processes; rate limits must hold across them (their state
lives in Redis), idempotency too (each claim is a PostgreSQL row under a unique constraint), and
deliveries must stay exactly-once (workers lease them with ``FOR UPDATE SKIP LOCKED``). Every API
process is the real service (``benchmarks/_serve.py``) and every worker the real ``tessera worker
--tasks 1``, all with the same ``TESSERA_*`` variables (one secret key, database, Redis URL and
prefix), ``TESSERA_WORKERS_IN_PROCESS=false`` and ``TESSERA_WEBHOOK_ALLOW_LOOPBACK=true``. The fixture,
the requests and wrk are the suite's (``harness.endpoints``, ``harness.wrk``). As the deployment does
with ``tessera migrate``, the indexes that follow models.yaml are built once, after the seeding and
before any process starts (each ``tessera worker`` runs that sync again as it starts: a no-op then).

Four parts, each with checks (exit status 1 when one fails):

1. **Throughput with one and two API processes.** Endpoints: whoami, read by pid, session list
   and command execute (a write: record, audit entry, outbox row and idempotency key). Every
   rate limit is out of reach, yet every session request is still decided in Redis, and the run
   checks, sampling Redis while the session list runs, that Redis holds the read limit's state
   (a sorted set per subject, the times of its requests in the window, which expires a window
   after the subject's last request). One process gets one wrk with ``--connections``. Two
   processes get two wrk processes at once, one per API process, with half the connections each;
   their 2xx rates are summed, and p50/p95/p99 are printed per wrk. The order is ABBA (1, 2, 2, 1)
   after a ``--warmup`` on both processes, and the figures are medians. Nothing is pinned, because
   two API processes need both cores, and wrk, PostgreSQL and anything else on the host share those
   cores too. Beside each figure is the host's busy share of all CPUs, with the CPU of the API
   processes, PostgreSQL (the whole server), wrk and the rest of the host (other users of the machine
   included), in percent of one core, so a reader sees when the host saturates and what else took it.
   Any non-2xx answer or socket error fails the row. After each write run the rows it added must
   agree with what wrk counted (``harness.endpoints.check_rows``). The workers are not started yet: they would
   take CPU from what is measured. The commands' outbox rows wait for part 4.
2. **Rate limits hold across processes.** Two more API processes use ``TESSERA_RATE_LIMIT_READ=100``,
   the other limits at their defaults, and a Redis prefix of their own. One session user sends
   101 + 9 reads (``GET /api/dynamic/assets/list``) alternating between them, back to back. The
   limiter is a sliding log (``tessera/ratelimit.py``): at most 100 reads in any 60 s. So reads 1 to
   100 must answer 200 and, the burst being far shorter than a minute, every read after them 429;
   checked per answer from the client's clocks around each request (the server decided in between):
   no read allowed while 100 were surely in the window, no read refused while fewer than 100 could
   have been, and each allowed read's ``RateLimit`` ``r=`` is 100 minus the reads in the window
   (counting down 99 to 0 across both processes). Refusals answer 429 ``RATE_LIMITED`` with
   ``Retry-After``. Both processes must have served reads and refused some; two processes that
   each kept their own count would let about twice the quota through. The same is done for the token endpoint's limit
   (``TESSERA_RATE_LIMIT_TOKEN``, default 60 a minute per client id) with one
   credential, refused with 429 ``rate_limit_exceeded``. Client and servers read one host's clock.
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
4. **Deliveries through the whole topology.** Two ``tessera worker --tasks 1`` processes start
   (``TESSERA_WORKER_POLL_SECONDS=--poll``, logs at INFO so each attempt is logged) and first fan out
   the earlier parts' events, which have no endpoint. Then come a receiver
   (``_webhook_peers.py receive``) and ``--endpoints`` endpoints subscribed to
   ``inventory.stock-in.created``. A control endpoint is subscribed only to
   ``assets.assignment.changed`` and must receive nothing. All are made through
   ``tessera.webhooks.endpoints.create_endpoint``. wrk drives the command through both API
   processes for ``--delivery-seconds`` while both workers deliver, and the run waits, with progress,
   until the receiver has every delivery and the queues are empty. The checks are
   ``benchmarks/webhooks.py``'s (``harness.deliveries``: exactly once, signed, one 204 attempt each).
   Beyond those: the outbox rows lie
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
import contextlib
import dataclasses
import functools
import itertools
import os
import secrets
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psycopg
import redis
from harness import cli, cpu, log, results, seeding, stats, tables, wrk
from harness import deliveries as dv
from harness import endpoints as ep
from harness.clients import json_body
from harness.databases import RATE_LIMITS, Workspace, fresh
from harness.endpoints import Fixture
from harness.order import abba, at_once
from harness.servers import TESSERA, Server, check_alive, running, start_all, stop_all, worker
from sqlalchemy import Engine

from storage.schema import record_indexes
from tessera.core.settings import load_settings
from tessera.runtime import Runtime

REDIS_URL = "redis://127.0.0.1:6379/0"
THROUGHPUT_KEYS = ("whoami", "read", "session-list", "command")
ORDER = abba([1, 2])  # API processes per run: 1, 2, 2, 1
EXTRA_AFTER_LIMIT = 9  # requests sent after the quota, so both processes refuse some
REDIS_SAMPLE_SECONDS = 0.2  # how often part 1 looks for the read limit's keys in Redis
EVENT = "inventory.stock-in.created"
CONTROL_EVENT = "assets.assignment.changed"
SESSION_READ_PATH = "/api/dynamic/assets/list"
DRAIN_TIMEOUT = 300.0


def sync_indexes(env: dict[str, str]) -> None:
    """What ``tessera migrate`` does beyond the migrations the fresh database had: the indexes that
    follow models.yaml, built once before any process starts, as the deployment runs it."""
    with seeding.runtime(env) as rt:
        report = record_indexes.sync(rt.settings.database_url, rt.declarations.models.values())
    log(f"declared indexes synced in {report.seconds:.1f} s (tessera migrate): {len(report.created)} built")


def api_targets(prefix: str) -> list[Any]:
    """Two API processes: the real service, named ``<prefix>-0`` and ``<prefix>-1``."""
    return [dataclasses.replace(TESSERA, name=f"{prefix}-{i}") for i in range(2)]


# -- part 1: throughput ------------------------------------------------------------------------------

def api_meter(api: list[Server], postmaster: int | None) -> cpu.Meter:
    """The API processes, PostgreSQL (the whole server) and wrk (this process's reaped children)."""
    return cpu.Meter({**{s.name: cpu.of_processes([s.pid]) for s in api}, "postgres": cpu.of_postgres(postmaster),
                      "wrk": cpu.children_cpu_seconds})


def cpu_use(usage: cpu.Usage, api: list[Server]) -> dict[str, Any]:
    """Host busy % of all CPUs; the API processes, PostgreSQL, wrk and the rest of the host in % of one core."""
    pct = usage.pct_of_core()
    return {"host_busy_pct": usage.host_pct(), "api_cpu_pct": [pct[s.name] for s in api],
            "postgres_cpu_pct": pct["postgres"], "wrk_cpu_pct": pct["wrk"], "other_cpu_pct": pct["other"]}


def bad_answers(runs: list[wrk.WrkRun]) -> int:
    return sum(r.bad for r in runs)


@contextlib.contextmanager
def redis_keys(client: redis.Redis, pattern: str) -> Iterator[set[str]]:
    """The keys matching ``pattern`` that Redis held at any of the samples taken, every
    ``REDIS_SAMPLE_SECONDS``, while the block ran (a rate-limit key lives about a second after its
    subject's last request, so it is looked for during the load, not after it)."""
    seen: set[str] = set()
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            seen.update(str(k) for k in client.scan_iter(match=pattern, count=500))
            done.wait(REDIS_SAMPLE_SECONDS)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        yield seen
    finally:
        done.set()
        sampler.join()


def throughput(fx: Fixture, api: list[Server], engine: Engine, postmaster: int | None, redis_client: redis.Redis,
               load_prefix: str, tmp: Path, args: argparse.Namespace, failures: list[str]) -> list[dict[str, Any]]:
    """Per endpoint: one API process against two, ABBA, medians."""
    rows = []
    for key in THROUGHPUT_KEYS:
        spec = ep.BY_KEY[key]
        requests_file = wrk.write_requests(tmp / f"scaleout-{key}.lua", ep.calls_for(spec, fx))
        log(f"\n[throughput] {spec.label}: {spec.request}")
        problems: list[str] = []
        warm = wrk.run_parallel([(s.base_url, args.connections // 2) for s in api], requests_file, f"{key}-warm",
                                args.warmup)
        log(f"  warm-up {args.warmup:g} s on both processes: {sum(r.rps for r in warm):,.1f} req/s, "
            f"{bad_answers(warm)} non-2xx or socket errors")
        if bad_answers(warm):
            problems.append(f"warm-up: {bad_answers(warm)} non-2xx or socket errors, e.g. "
                            f"{[s for r in warm for s in r.samples][:2]}")
        if spec.kind != "read":
            ep.quiesce(engine)
        runs: list[dict[str, Any]] = []
        meter = api_meter(api, postmaster)
        sampled = redis_keys(redis_client, f"{load_prefix}:rl:read:*") if key == "session-list" else None
        with sampled if sampled is not None else contextlib.nullcontext(set[str]()) as read_keys:
            for number, processes in enumerate(ORDER, 1):
                targets = [(server.base_url, args.connections // processes) for server in api[:processes]]
                found, usage, written, run_problems = ep.checked(spec, engine, meter, functools.partial(
                    wrk.run_parallel, targets, requests_file, f"{key}-{number}", args.duration))
                use, ok, bad = cpu_use(usage, api), sum(r.ok for r in found), bad_answers(found)
                check_alive(api)
                runs.append({"processes": processes, "rps": round(sum(r.rps for r in found), 1),
                             "wrk": [{"target": url, "connections": connections, "rps": round(r.rps, 1), "ok": r.ok,
                                      "not_ok": r.not_ok, "socket_errors": r.socket_errors, "sent": r.sent,
                                      "p50_ms": round(r.p50_ms, 2), "p95_ms": round(r.p95_ms, 2),
                                      "p99_ms": round(r.p99_ms, 2)} for (url, connections), r in zip(targets, found,
                                                                                                      strict=True)],
                             **use, "rows": written, "problems": run_problems})
                api_cpu = " + ".join(f"{v:.0f}%" for v in use["api_cpu_pct"][:processes] if v is not None)
                log(f"  run {number}/{len(ORDER)}, {processes} process(es): {runs[-1]['rps']:8,.1f} req/s "
                    f"({' + '.join(f'{r.rps:,.1f}' for r in found)})  p99 "
                    f"{' / '.join(f'{r.p99_ms:.1f}' for r in found)} ms | host busy {use['host_busy_pct']}%, API "
                    f"{api_cpu}, PostgreSQL {use['postgres_cpu_pct']}%, wrk {use['wrk_cpu_pct']}%, rest of the host "
                    f"{use['other_cpu_pct']}% of a core | {ok:,} 2xx, {bad} other"
                    + (f", rows {written}" if written else "")
                    + (f"  PROBLEM: {run_problems}" if run_problems else ""))
                problems += [f"run {number} ({processes} process(es)): {p}" for p in run_problems]
        row = summarize(spec, runs, problems)
        if key == "session-list":
            row["redis_read_subjects"] = len(read_keys)
            log(f"  Redis held the read limit's state of {len(read_keys)} subject(s) while the session list ran")
            if not read_keys:
                problems.append(f"no read limit keys under {load_prefix}:rl:read:* in Redis while the session list "
                                "ran: the limits did not go through Redis")
        log(f"  => 1 process {row['one']['rps']:,.1f} req/s, 2 processes {row['two']['rps']:,.1f} req/s, "
            f"x{row['growth']}" + (f"; {len(problems)} problem(s)" if problems else ""))
        failures += [f"throughput, {spec.label}: {p}" for p in problems]
        rows.append(row)
    return rows


def summarize(spec: ep.Spec, runs: list[dict[str, Any]], problems: list[str]) -> dict[str, Any]:
    """Medians per process count; latency per wrk (index 0 and 1), CPU summed over the API processes."""
    def side(processes: int) -> dict[str, Any]:
        mine = [r for r in runs if r["processes"] == processes]
        latency = {p: [stats.median([r["wrk"][i][f"{p}_ms"] for r in mine]) for i in range(processes)]
                   for p in ("p50", "p95", "p99")}
        return {"rps": stats.median([r["rps"] for r in mine]) or 0.0, **latency,
                "host_busy_pct": stats.median([r["host_busy_pct"] for r in mine]),
                "api_cpu_pct": stats.median([sum(v or 0 for v in r["api_cpu_pct"][:processes]) for r in mine]),
                **{k: stats.median([r[k] for r in mine]) for k in ("postgres_cpu_pct", "wrk_cpu_pct", "other_cpu_pct")}}

    one, two = side(1), side(2)
    return {"endpoint": spec.label, "request": spec.request, "one": one, "two": two,
            "growth": round(two["rps"] / one["rps"], 2) if one["rps"] else None, "runs": runs, "problems": problems}


# -- part 2: rate limits -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Answer:
    process: int
    status: int
    code: str
    retry_after: str | None
    remaining: int | None  # r= of the RateLimit header
    sent: float  # the client's clock (time.time) just before the request and just after its answer
    answered: float


def remaining_of(header: str | None) -> int | None:
    for part in (header or "").split(";"):
        if part.strip().startswith("r="):
            return int(part.strip()[2:])
    return None


def burst(clients: list[httpx.Client], count: int, send: Callable[[httpx.Client], httpx.Response]) -> list[Answer]:
    """``count`` requests, one after the other, alternating between the processes."""
    answers: list[Answer] = []
    for n in range(count):
        index = n % len(clients)
        sent = time.time()
        response = send(clients[index])
        answers.append(Answer(index, response.status_code, str(json_body(response).get("code", "")),
                              response.headers.get("retry-after"), remaining_of(response.headers.get("ratelimit")),
                              sent, time.time()))
    return answers


def in_window(answers: list[Answer], answer: Answer, window: int) -> tuple[int, int]:
    """The allowed answers the sliding log (``tessera/ratelimit.py``) held when it decided ``answer``:
    (surely, possibly), from the client's clocks around each request (the server decided in between).
    Surely: let through before ``answer`` was sent and less than ``window`` before it was answered;
    possibly: any let through that the decision could have seen inside its window."""
    surely = sum(1 for a in answers if a.status == 200 and a is not answer and a.answered <= answer.sent
                 and a.sent > answer.answered - window + 1e-3)
    possibly = sum(1 for a in answers if a.status == 200 and a is not answer and a.sent < answer.answered
                   and a.answered > answer.sent - window)
    return surely, possibly


def window_problems(answers: list[Answer], limit: int, window: int, countdown: bool) -> list[str]:
    """Each answer against the quota shared by both processes: at most ``limit`` let through in any
    ``window`` seconds, a refusal only when ``limit`` were, and ``RateLimit`` ``r=`` what is left."""
    problems: list[str] = []
    for number, answer in enumerate(answers, 1):
        surely, possibly = in_window(answers, answer, window)
        if answer.status == 200:
            if surely + 1 > limit:
                problems.append(f"request {number}: allowed with {surely} already allowed in the window")
            low, high = max(0, limit - possibly - 1), max(0, limit - surely - 1)
            if countdown and (answer.remaining is None or not low <= answer.remaining <= high):
                problems.append(f"request {number}: RateLimit r={answer.remaining}, expected {low} to {high} "
                                f"(of the quota shared by both processes)")
        elif answer.status == 429 and possibly < limit:
            problems.append(f"request {number} refused with at most {possibly} allowed in the window")
    return problems[:5]


def check_burst(label: str, answers: list[Answer], limit: int, window: int, refusal_code: str,
                countdown: bool) -> dict[str, Any]:
    statuses = [a.status for a in answers]
    problems = []
    if statuses[:limit] != [200] * limit:
        problems.append(f"requests 1 to {limit} answered {dict(Counter(statuses[:limit]))}, expected all 200")
    if set(statuses) - {200, 429}:
        problems.append(f"answers {dict(Counter(statuses))}, expected only 200 and 429")
    problems += window_problems(answers, limit, window, countdown)
    codes = Counter(a.code for a in answers if a.status == 429)
    if set(codes) - {refusal_code}:
        problems.append(f"refusal codes {dict(codes)}, expected {refusal_code}")
    if any(a.retry_after is None for a in answers if a.status == 429):
        problems.append("a refusal without Retry-After")
    served_by = sorted({a.process for a in answers if a.status == 200})
    refused_by = sorted({a.process for a in answers if a.status == 429})
    if served_by != [0, 1] or refused_by != [0, 1]:
        problems.append(f"processes that served {served_by}, that refused {refused_by}: expected both, both")
    remaining = [a.remaining for a in answers if a.status == 200]
    first_refusal = statuses.index(429) + 1 if 429 in statuses else None
    seconds = answers[-1].answered - answers[0].sent
    earned = statuses.count(200) - limit
    held = not problems
    log(f"  {label}: {len(answers)} requests alternating between 2 processes in {seconds:.2f} s: "
        f"{statuses.count(200)} answered 200 ({limit} at once + {earned} after the window moved on), "
        f"{statuses.count(429)} answered 429 {dict(codes)}; first refusal at request {first_refusal}; served by "
        f"processes {served_by}, refused by {refused_by}"
        + (f"; RateLimit r= went {remaining[0]} to {remaining[-1]} across both" if countdown and remaining else "")
        + f"; {'held' if held else 'DID NOT HOLD: ' + '; '.join(problems)}")
    return {"requests": len(answers), "limit": limit, "window_seconds": window, "seconds": round(seconds, 3),
            "ok": statuses.count(200), "earned_during_burst": earned, "refused": statuses.count(429),
            "first_refusal": first_refusal, "codes": dict(codes), "served_by": served_by, "refused_by": refused_by,
            "remaining_countdown": countdown and held, "held": held, "problems": problems, "statuses": statuses,
            "remaining": remaining}


def rate_limits(fx: Fixture, env: dict[str, str], tmp: Path, failures: list[str]) -> dict[str, Any]:
    """Part 2: one quota per subject whichever process answers: the reads of a user, the tokens of a client."""
    limited_env = {k: v for k, v in env.items() if k not in RATE_LIMITS}
    limited_env |= {"TESSERA_RATE_LIMIT_READ": "100", "TESSERA_REDIS_PREFIX": env["TESSERA_REDIS_PREFIX"] + "-limits"}
    settings = load_settings(limited_env)
    read_limit, token_limit = settings.rate_limit_read, settings.rate_limit_token
    log(f"\n[rate limits] two more API processes: read limit {read_limit} a minute per user, token "
        f"limit {token_limit} a minute per client id (the default), write {settings.rate_limit_write}, login "
        f"{settings.rate_limit_login}; Redis prefix {settings.redis_prefix}")
    limited = start_all(api_targets("limited"), limited_env, tmp)
    clients = [httpx.Client(base_url=s.base_url, timeout=30) for s in limited]
    cred = fx.credentials[0]
    try:
        for client in clients:  # keep-alive connections open before the bursts
            client.get("/api/health").raise_for_status()
        window = settings.rate_limit_window_seconds
        reads = check_burst("session reads", burst(
            clients, read_limit + 1 + EXTRA_AFTER_LIMIT,
            lambda c: c.get(SESSION_READ_PATH, params={"pageNum": 1, "pageSize": 1},
                            headers={"Authorization": f"Bearer {fx.jwt}"})),
            read_limit, window, "RATE_LIMITED", countdown=True)
        tokens = check_burst(f"token requests of client {cred.client_id}", burst(
            clients, token_limit + 1 + EXTRA_AFTER_LIMIT,
            lambda c: c.post("/oauth2/token", data={"grant_type": "client_credentials", "client_id": cred.client_id,
                                                    "client_secret": cred.secret})),
            token_limit, window, "rate_limit_exceeded", countdown=False)
        check_alive(limited)
    finally:
        for client in clients:
            client.close()
        stop_all(limited)
    failures += [f"rate limit across processes, session reads: {p}" for p in reads["problems"]]
    failures += [f"rate limit across processes, token requests: {p}" for p in tokens["problems"]]
    return {"read": reads, "token": tokens, "redis_prefix": settings.redis_prefix}


# -- part 3: idempotency -----------------------------------------------------------------------------

def open_outcome(responses: list[httpx.Response]) -> str | None:
    """The documented outcomes of one key at two processes at once; None for anything else."""
    pairs = sorted(((r.status_code, json_body(r)) for r in responses), key=lambda p: p[0])
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
    bodies = sorted((json_body(r) for r in responses), key=lambda b: str(b.get("code")))
    if [r.status_code for r in responses] == [200, 200] and [b.get("code") for b in bodies] == \
            ["0", "IDEMPOTENT_REPLAY"] and bodies[0].get("data") == bodies[1].get("data") and bodies[0].get("data"):
        return "200 + 200 IDEMPOTENT_REPLAY, same record"
    return None


ROWS_PER_KEY = {  # surface -> what one key must leave: label -> SQL of (key, rows) for keys LIKE %s
    "open": {
        "stock-in records": "SELECT data->>'sku', count(*) FROM records WHERE model = 'stockIn' AND data->>'sku' "
                            "LIKE %s GROUP BY 1",
        "outbox rows": f"SELECT payload->>'sku', count(*) FROM outbox_events WHERE event_type = '{EVENT}' AND "
                       "payload->>'sku' LIKE %s GROUP BY 1",
        "completed keys": "SELECT key, count(*) FROM open_idempotency_keys WHERE state = 'completed' AND key LIKE %s "
                          "GROUP BY 1",
    },
    "session": {
        "asset records": "SELECT data->>'serialNo', count(*) FROM records WHERE model = 'asset' AND "
                         "data->>'serialNo' LIKE %s GROUP BY 1",
        "key rows": "SELECT key, count(*) FROM idempotency_keys WHERE key LIKE %s GROUP BY 1",
    },
}


def race(clients: list[httpx.Client], keys: list[str], send: Callable[[httpx.Client, str], httpx.Response],
         classify: Callable[[list[httpx.Response]], str | None]) -> dict[str, Any]:
    """Each key to every process at the same instant; the outcomes counted, the odd ones kept."""
    outcomes: Counter[str] = Counter()
    odd: list[str] = []
    for key in keys:
        responses = at_once([functools.partial(send, c, key) for c in clients])
        if (outcome := classify(responses)) is None:
            odd.append(f"{key}: {[(r.status_code, r.text[:200]) for r in responses]}")
        else:
            outcomes[outcome] += 1
    return {"outcomes": dict(outcomes), "odd": odd[:5], "odd_count": len(odd)}


def rows_per_key(db: psycopg.Connection[Any], surface: str, keys: list[str], prefix: str) -> tuple[dict[str, Any],
                                                                                                   list[str]]:
    """Per kind of row: how many keys have how many rows; problems unless exactly one each."""
    per_kind, problems = {}, []
    for kind, query in ROWS_PER_KEY[surface].items():
        per_key = {str(k): int(n) for k, n in db.execute(query, (prefix + "%",)).fetchall()}
        per_kind[kind] = dict(Counter(per_key.get(k, 0) for k in keys))
        wrong = {k: per_key.get(k, 0) for k in keys if per_key.get(k, 0) != 1}
        if wrong or set(per_key) - set(keys):
            problems.append(f"{kind} per key {per_kind[kind]} (rows: keys), expected exactly 1 each; e.g. "
                            f"{dict(list(wrong.items())[:3])}")
    return per_kind, problems


def idempotency(fx: Fixture, api: list[Server], database_url: str, run_id: str, args: argparse.Namespace,
                failures: list[str]) -> dict[str, Any]:
    """Part 3: the same key at both processes at once runs once."""
    log(f"\n[idempotency] {args.keys} keys, each sent to both API processes at the same moment, on the command "
        f"endpoint and on the session command endpoint")
    bearer, session = {"Authorization": f"Bearer {fx.tokens[0]}"}, {"Authorization": f"Bearer {fx.jwt}"}

    def command(client: httpx.Client, key: str) -> httpx.Response:
        return client.post(f"/api/open/v1/commands/{ep.COMMAND}:execute", headers={**bearer, "Idempotency-Key": key},
                           json={"input": {"sku": key, "quantity": 1, "warehouse": "north",
                                           "receivedAt": "2026-11-22T08:00:00Z"}})

    def session_command(client: httpx.Client, key: str) -> httpx.Response:
        return client.post(f"/api/meta/commands/execute/{ep.SESSION_COMMAND}",
                           headers={**session, "X-Idempotent-Key": key},
                           json={"payload": {"name": f"Scale-out {key}", "serialNo": key, "status": "in_stock",
                                             "value": 10.5, "purchasedAt": "2026-01-15"}})

    surfaces = {"open": ("command endpoint", command, open_outcome),
                "session": ("session command endpoint", session_command, session_outcome)}
    clients = [httpx.Client(base_url=s.base_url, timeout=60) for s in api]
    try:
        for client in clients:
            client.get("/api/health").raise_for_status()
        found = {surface: race(clients, [f"so-{run_id}-{surface}-{n}" for n in range(args.keys)], send, classify)
                 for surface, (_, send, classify) in surfaces.items()}
    finally:
        for client in clients:
            client.close()
    with psycopg.connect(database_url) as db:
        for surface, (label, _, _) in surfaces.items():
            result, prefix = found[surface], f"so-{run_id}-{surface}-"
            per_kind, problems = rows_per_key(db, surface, [f"{prefix}{n}" for n in range(args.keys)], prefix)
            if result["odd_count"]:
                problems.insert(0, f"{result['odd_count']} keys answered otherwise, e.g. {result['odd'][:2]}")
            result |= {"keys": args.keys, "rows_per_key": per_kind, "held": not problems, "problems": problems}
            log(f"  {label}: answers {result['outcomes']}; rows per key (rows: keys) {per_kind}; "
                f"{'held' if not problems else 'DID NOT HOLD: ' + '; '.join(problems)}")
            failures += [f"idempotency across processes, {label}: {p}" for p in problems]
    return found


# -- part 4: deliveries ------------------------------------------------------------------------------

def attempt_lines(server: Server) -> int:
    """The worker's ``webhook.attempt`` log lines so far (it logs at INFO here)."""
    return server.log_path.read_text(errors="replace").count('"webhook.attempt"')


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


async def subscribe(rt: Runtime, fx: Fixture, receiver_url: str, count: int) -> tuple[list[dv.Endpoint], dv.Endpoint]:
    """``count`` endpoints on the receiver subscribed to ``EVENT`` and the control endpoint, made by the
    fixture's administrator through the service."""
    actor = await seeding.actor_of(rt, fx.jwt)
    return await dv.make_endpoints(rt, actor, fx.installation_pid, receiver_url, count, EVENT, CONTROL_EVENT)


def deliveries(fx: Fixture, api: list[Server], ws: Workspace, args: argparse.Namespace,
               failures: list[str]) -> dict[str, Any]:
    """Part 4: commands through both API processes, deliveries by both workers, each exactly once."""
    log(f"\n[deliveries] 2 API processes, 2 workers (`tessera worker --tasks 1`, poll {args.poll:g} s), a receiver, "
        f"{args.endpoints} endpoint(s) subscribed to {EVENT} and a control endpoint ({CONTROL_EVENT} only); "
        f"{args.delivery_seconds:g} s of commands through both API processes")
    worker_env = ws.env | {"TESSERA_LOG_LEVEL": "INFO", "TESSERA_WORKER_POLL_SECONDS": str(args.poll)}
    workers = start_all([worker(f"worker-{i}") for i in range(2)], worker_env, ws.tmp)
    receiver: dv.Receiver | None = None
    problems: list[str] = []
    try:
        with psycopg.connect(ws.backend.url, autocommit=True) as db:
            started = time.monotonic()
            backlog = dv.scalar(db, "SELECT count(*) FROM outbox_events WHERE dispatched_at IS NULL")
            # The earlier parts' events have no endpoint yet: the workers fan them out to nobody first.
            dv.wait_until_finished(db, 0, timeout=DRAIN_TIMEOUT)
            left = dv.scalar(db, "SELECT count(*) FROM outbox_events WHERE dispatched_at IS NULL")
            log(f"  the earlier parts' {backlog:,} outbox rows dispatched (to no endpoint) in "
                f"{time.monotonic() - started:.1f} s" + (f"; {left} still undispatched" if left else ""))
            if left:
                raise RuntimeError(f"{left} earlier outbox rows not dispatched within {DRAIN_TIMEOUT:g} s")
            receiver = dv.Receiver(ws.env, ws.tmp)
            with seeding.runtime(ws.env) as rt:
                endpoints, control = seeding.run(rt, subscribe(rt, fx, receiver.base_url, args.endpoints))
            mark, received_mark = dv.outbox_mark(db), receiver.count()
            attempts_before = [attempt_lines(w) for w in workers]
            calls = ep.calls_for(ep.BY_KEY["command"], fx)
            requests_file = wrk.write_requests(ws.tmp / "scaleout-deliveries.lua", calls)
            load_started = time.time()
            runs = wrk.run_parallel([(s.base_url, args.connections // 2) for s in api], requests_file, "deliver",
                                    args.delivery_seconds)
            load_seconds = time.time() - load_started
            during_load = receiver.count() - received_mark
            ok, sent, bad = sum(r.ok for r in runs), sum(r.sent for r in runs), bad_answers(runs)
            log(f"  {ok:,} commands answered 2xx in {load_seconds:.1f} s ({ok / load_seconds:,.1f}/s: "
                f"{' + '.join(f'{r.rps:,.1f}' for r in runs)}), {bad} other; {during_load:,} delivered meanwhile")
            if bad:
                problems.append(f"{bad} non-2xx answers or socket errors while driving commands, e.g. "
                                f"{[s for r in runs for s in r.samples][:2]}")
            time.sleep(1.0)  # requests in flight when wrk stopped commit
            events = dv.scalar(db, "SELECT count(*) FROM outbox_events WHERE id > %s", (mark,))
            expected = events * len(endpoints)
            if not ok <= events <= sent:
                problems.append(f"{events:,} outbox rows for {ok:,} 2xx answers and {sent:,} requests written")
            log(f"  {events:,} events x {len(endpoints)} endpoint(s) = {expected:,} deliveries to wait for")
            got = receiver.wait_for(received_mark, expected, "delivered", max(DRAIN_TIMEOUT, expected / 10))
            dv.wait_until_finished(db, mark, timeout=60)
            run = dv.judge(db, receiver, mark, received_mark, endpoints, control, EVENT, (got, expected))
            retried, overlaps = overlapping_attempts(db, mark)
            unfinished, undispatched = dv.unfinished(db)
    finally:
        problems += stop_all(workers)
        if receiver is not None:
            receiver.stop()
    per_worker = [attempt_lines(w) - before for w, before in zip(workers, attempts_before, strict=True)]
    problems += run.problems
    received, rows, counts = run.received, run.rows, run.counts
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
    latencies = [r.at - occurred[r.headers["x-webhook-delivery"]] for r in received
                 if r.headers.get("x-webhook-delivery") in occurred]
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
        "seconds_first_command_to_last_delivery": round(seconds, 1), "delivered_during_load": during_load,
        "drain_seconds_after_load": round(max(0.0, last - load_started - load_seconds), 1),
        "deliveries_per_second": round(len(received) / seconds, 1),
        "event_to_delivery_ms": stats.summary_ms(latencies), "poll_seconds": args.poll,
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

def report_lines(report: dict[str, Any], failures: list[str]) -> list[str]:
    config, info = report["config"], report.get("versions", {})
    lines = ["=== Tessera scale-out: API processes and workers on one PostgreSQL, Redis for rate limits ===",
             *(results.describe(info) if info else []),
             f"{config['records']:,} assets | wrk: 1 thread, {config['connections']} connections in all (2 processes: "
             f"2 wrk x {config['connections'] // 2}), {config['duration']:g} s runs in order 1,2,2,1 API processes "
             f"after {config['warmup']:g} s warm-up, medians | nothing pinned: 2 API processes need both cores, which "
             "wrk and PostgreSQL share | rate limits out of reach, counted in Redis", "",
             "1. throughput with one and two API processes (p50/p95/p99 per wrk; host busy in % of all "
             f"{info.get('cpus', '?')} cores; CPU of the API processes, PostgreSQL (the whole server, other databases "
             "included), wrk and the rest of the host (other users included) in % of one core)"]
    sides = [{"endpoint": row["endpoint"] if n == 1 else "", "procs": n, **side,
              "growth": row["growth"] if n == 2 else None, "failed": n == 2 and bool(row["problems"])}
             for row in report.get("throughput", []) for n, side in ((1, row["one"]), (2, row["two"]))]

    def latencies(values: list[float | None]) -> str:
        return " / ".join("-" if v is None else f"{v:.1f}" for v in values)

    Column, pct = tables.Column, tables.pct
    lines += tables.render([
        Column("endpoint", "endpoint", str, "<"), tables.SEP, Column("API procs", "procs"), tables.SEP,
        Column("req/s", "rps", lambda v: f"{v:,.1f}"), tables.SEP,
        Column("growth", "growth", lambda v: "" if v is None else f"x{v}"), tables.SEP,
        *(x for p in ("p50", "p95", "p99") for x in (Column(f"{p} ms", p, latencies), tables.SEP)),
        Column("host busy", "host_busy_pct", pct), tables.SEP, Column("API CPU", "api_cpu_pct", pct), tables.SEP,
        Column("PG CPU", "postgres_cpu_pct", pct), tables.SEP, Column("wrk CPU", "wrk_cpu_pct", pct), tables.SEP,
        Column("rest", "other_cpu_pct", pct), Column("", lambda r: "FAILED CHECKS" if r["failed"] else "", str, "<"),
    ], sides)
    rl = report.get("rate_limits")
    if rl:
        lines += ["", "2. rate limits across 2 API processes (Redis), requests alternating between them"]
        for label, part in (("session reads (user)", rl["read"]), ("tokens (client id)", rl["token"])):
            lines.append(f"{label:<21} limit {part['limit']:>3}/{part['window_seconds']} s: {part['requests']} sent in "
                         f"{part['seconds']:.2f} s, {part['ok']} x 200 ({part['earned_during_burst']} earned during "
                         f"the burst), {part['refused']} x 429 {part['codes']}, first refusal "
                         f"#{part['first_refusal']}, served by {part['served_by']}, refused by {part['refused_by']}"
                         + (", RateLimit r= shared by both" if part["remaining_countdown"] else "")
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
    args = (cli.Arguments(__doc__, "scaleout").records(20_000, ep.LIST_CURSORS)
            .duration(10.0, "seconds per throughput run")
            .connections(16).check(lambda a: a.connections >= 2 and a.connections % 2 == 0,
                                   "--connections must be even (half to each API process)")
            .warmup(2.0).check(lambda a: a.warmup > 0, "--warmup must be positive")
            .add("--keys", type=int, default=50, help="idempotency keys per endpoint in part 3 (default 50)")
            .add("--delivery-seconds", type=float, default=15.0, help="seconds of commands in part 4 (default 15)")
            .add("--endpoints", type=int, default=1, help="endpoints subscribed to the event (default 1)")
            .add("--poll", type=float, default=1.0,
                 help="TESSERA_WORKER_POLL_SECONDS of the workers (default 1, the service's)")
            .at_least("--keys", 1).at_least("--endpoints", 1).at_least("--poll", 0.01)
            .wrk("--duration", "--warmup", "--delivery-seconds")).parse()

    started = time.perf_counter()
    failures: list[str] = []
    run_id = secrets.token_hex(4)
    redis_url = os.environ.get("TESSERA_REDIS_URL") or REDIS_URL
    prefix = f"tessera-scaleout-{run_id}"
    redis_client = redis.Redis.from_url(redis_url, socket_timeout=5)
    try:
        redis_client.ping()
    except redis.RedisError as exc:
        sys.exit(f"Redis at {redis_url} does not answer: {exc}")
    report: dict[str, Any] = {
        "config": {**vars(args), "order": list(ORDER), "pinning": "none", "redis": redis_url, "redis_prefix": prefix},
    }
    log(f"Tessera scale-out benchmark: 2 API processes (benchmarks/_serve.py) and 2 workers on a fresh PostgreSQL "
        f"database, Redis at {redis_url} (prefix {prefix}); nothing pinned")
    try:
        with fresh("postgresql", "scaleout", TESSERA_REDIS_URL=redis_url, TESSERA_REDIS_PREFIX=prefix,
                   TESSERA_WORKERS_IN_PROCESS="false", TESSERA_WEBHOOK_ALLOW_LOOPBACK="true") as ws:
            fx = ep.setup(ws.env, args.records)
            sync_indexes(ws.env)
            engine = ws.backend.engine()
            try:
                report["versions"] = results.versions(engine)
                postmaster = cpu.postmaster_pid(ws.backend.url)
                with running(api_targets("api"), ws.env, ws.tmp) as servers:
                    api = list(servers.values())
                    report["throughput"] = guarded(failures, "throughput", lambda: throughput(
                        fx, api, engine, postmaster, redis_client, prefix, ws.tmp, args, failures)) or []
                    report["rate_limits"] = guarded(failures, "rate limits",
                                                    lambda: rate_limits(fx, ws.env, ws.tmp, failures))
                    report["idempotency"] = guarded(failures, "idempotency", lambda: idempotency(
                        fx, api, ws.backend.url, run_id, args, failures))
                    report["deliveries"] = guarded(failures, "deliveries",
                                                   lambda: deliveries(fx, api, ws, args, failures))
                    failures += [why for s in api if (why := s.died()) is not None]
            finally:
                engine.dispose()
    finally:
        for key in redis_client.scan_iter(match=f"{prefix}*", count=500):
            redis_client.delete(key)
    try:
        lines = report_lines(report, failures)
    except (KeyError, TypeError, IndexError) as exc:
        lines = [f"(the tables could not be printed: {exc!r}; see the JSON)", "result: FAIL"]
    return cli.conclude(args, report, lines, failures, started)


if __name__ == "__main__":
    sys.exit(main())
