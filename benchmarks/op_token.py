"""Benchmark of the Open Platform token endpoint and token validation on PostgreSQL, against a bare Starlette baseline.

    .venv/bin/python benchmarks/op_token.py [--duration 10] [--concurrency 8] [--keep-db]

Steps:

1. Create a fresh PostgreSQL database (as ``benchmarks/session_list.py`` does), migrate it, seed the
   demo data (``tessera.demo.seed_demo``), log in as ``admin@demo.example`` and, through
   ``tessera.openplatform.identity``, create an application, install it into tenant ``demo``
   (environment ``production``, scopes ``assets.read assets.manage``) and create
   ``CREDENTIALS`` credentials for that installation.
2. Start Tessera (``benchmarks/_serve.py``) and the baseline (``benchmarks/_baseline.py``: bare
   Starlette, the same storage functions, no Connexion, no middleware, no rate limiter), each under
   uvicorn with one worker in its own process on 127.0.0.1, with ``TESSERA_RATE_LIMIT_TOKEN`` out of
   reach for both.
3. Check both targets answer alike: a token minted by either works on both for ``whoami`` (same
   body), a wrong secret is 401 ``invalid_client`` and an unknown token 401 ``invalid_token``.
4. Scenarios, each run against both targets in ABBA order, 2 s warm-up then ``--duration`` seconds of
   load from ``--concurrency`` httpx clients on asyncio:

   * ``token issue``: ``POST /oauth2/token``, client credentials in the form body, rotating over
     the credentials;
   * ``whoami``: ``GET /api/open/v1/whoami`` with pre-issued bearer tokens (one per credential,
     minted alternately by each target), rotating over them.

   Every response is checked (token: 200 and ``token_type`` Bearer; whoami: 200 and the clientId of
   the token), and so is the database after each run, warm-up included: one ``access_tokens`` row and
   one ``oauth.token.issue`` audit entry per token issued, for the right credential; one
   ``open_api_calls`` row per business call, with status 200 and the right client; nothing else.
5. Print the table, the tessera/baseline ratios and the two headline lines, write
   ``benchmarks/results/op_token.json``, stop both servers and drop the database (unless
   ``--keep-db``). Exit status 1 when any check failed.

CPU columns are CPU milliseconds per successful request, from ``/proc``: the server process, this
load generator, and the PostgreSQL server (all its processes, including backends that exited during
the run). A run is flagged as noisy when the rest of the host used 20% or more of all CPUs.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import secrets
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import psycopg
import session_list as common
from sqlalchemy.engine import make_url

from storage.db import make_engine
from storage.migrate import upgrade
from storage.types import utcnow
from tessera.core.settings import PROJECT_ROOT, load_settings
from tessera.demo import seed_demo
from tessera.openplatform.identity import applications, credentials, installations
from tessera.runtime import build_runtime
from tessera.session.auth.actors import resolve_actor
from tessera.session.auth.login import login

log = common.log

RESULTS_FILE = common.BENCH_DIR / "results" / "op_token.json"
TARGETS = common.TARGETS  # ("tessera", "baseline")
WARMUP_SECONDS = 2.0
CREDENTIALS = 50
ADMIN_EMAIL = "admin@demo.example"
TENANT = "demo"
ENVIRONMENT = "production"
SCOPES = ["assets.read", "assets.manage"]
RATE_LIMIT_TOKEN = 1_000_000_000
TOKEN_PATH = "/oauth2/token"
WHOAMI_PATH = "/api/open/v1/whoami"
FORM = {"content-type": "application/x-www-form-urlencoded"}
NOISY_PCT = 20.0  # other processes' share of all CPUs from which a run is flagged
DB_SETTLE_SECONDS = 15.0  # how long the call audit rows, written after the response, may take to appear


@dataclass(frozen=True)
class Credential:
    client_id: str
    secret: str


# -- setup --------------------------------------------------------------------------------------

def setup_open_platform(env: dict[str, str]) -> tuple[str, str, list[Credential], float]:
    """Demo data, then application, installation and credentials through ``op_admin``, in process.

    Returns (application pid, installation pid, credentials, seconds).
    """
    started = time.perf_counter()
    rt = build_runtime(load_settings(env))
    try:
        password = seed_demo(rt, secrets.token_urlsafe(16))
        session = login(rt, ADMIN_EMAIL, password, "bench-login")
        actor = resolve_actor(rt, session["jwt"], None)
        app = applications.create_application(rt, actor, {"name": "Benchmark client", "description": "op_token.py"},
                                          "bench-setup")
        inst = installations.create_installation(
            rt, actor, app["appId"], {"tenantId": TENANT, "environment": ENVIRONMENT, "scopes": SCOPES}, "bench-setup"
        )
        creds = [credentials.create_credential(rt, actor, inst["installationId"], "bench-setup")
                 for _ in range(CREDENTIALS)]
    finally:
        rt.close()
    credentials = [Credential(c["clientId"], c["clientSecret"]) for c in creds]
    return app["appId"], inst["installationId"], credentials, time.perf_counter() - started


def token_form(cred: Credential, secret: str | None = None) -> bytes:
    return urlencode({"grant_type": "client_credentials", "client_id": cred.client_id,
                      "client_secret": cred.secret if secret is None else secret}).encode()


# -- PostgreSQL CPU and bookkeeping ----------------------------------------------------------

def proc_stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/<pid>/stat`` after the command name (state is [0], ppid [1])."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def postmaster_pid(database_url: str) -> int | None:
    """The PostgreSQL server's main process, when it runs on this host (else None)."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        row = conn.execute("SELECT pg_backend_pid()").fetchone()
    fields = proc_stat(int(row[0])) if row else None
    if not fields:
        return None
    parent = int(fields[1])
    try:
        if "postgres" not in Path(f"/proc/{parent}/comm").read_text():
            return None
    except OSError:
        return None
    return parent


def postgres_cpu_seconds(postmaster: int | None) -> float | None:
    """CPU seconds of the whole PostgreSQL server so far: the postmaster, its live children, and
    (through the postmaster's cutime/cstime) the children it has already reaped, so backends that
    come and go during a run (pool overflow connections) are counted too."""
    if postmaster is None:
        return None
    main = proc_stat(postmaster)
    if main is None:
        return None
    ticks = sum(int(main[i]) for i in (11, 12, 13, 14))  # utime, stime, cutime, cstime
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        fields = proc_stat(int(entry.name))
        if fields and int(fields[1]) == postmaster:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


@dataclass
class Marks:
    """Highest ids before a run, and PostgreSQL counters."""

    access_tokens: int
    audit_log: int
    open_api_calls: int
    sessions: int
    other_db_xacts: int


def marks(conn: psycopg.Connection[Any]) -> Marks:
    ids = conn.execute(
        "SELECT (SELECT coalesce(max(id), 0) FROM access_tokens), (SELECT coalesce(max(id), 0) FROM audit_log), "
        "(SELECT coalesce(max(id), 0) FROM open_api_calls)"
    ).fetchone()
    stats = conn.execute(
        "SELECT coalesce(sum(sessions) FILTER (WHERE datname = current_database()), 0), "
        "coalesce(sum(xact_commit + xact_rollback) FILTER (WHERE datname IS DISTINCT FROM current_database()), 0) "
        "FROM pg_stat_database"
    ).fetchone()
    assert ids is not None and stats is not None
    return Marks(int(ids[0]), int(ids[1]), int(ids[2]), int(stats[0]), int(stats[1]))


def new_rows(conn: psycopg.Connection[Any], since: Marks) -> dict[str, Counter[Any]]:
    """Rows added since ``since``, grouped the way the checks need them."""
    tokens = Counter({r[0]: r[1] for r in conn.execute(
        "SELECT c.client_id, count(*) FROM access_tokens t JOIN credentials c ON c.id = t.credential_id "
        "WHERE t.id > %s GROUP BY c.client_id", (since.access_tokens,))})
    audit = Counter({(r[0], r[1]): r[2] for r in conn.execute(
        "SELECT action, actor, count(*) FROM audit_log WHERE id > %s GROUP BY action, actor", (since.audit_log,))})
    calls = Counter({(r[0], r[1], r[2], r[3]): r[4] for r in conn.execute(
        "SELECT client_id, method, path, status, count(*) FROM open_api_calls WHERE id > %s "
        "GROUP BY client_id, method, path, status", (since.open_api_calls,))})
    return {"access_tokens": tokens, "audit_log": audit, "open_api_calls": calls}


def check_database(conn: psycopg.Connection[Any], scenario: str, since: Marks, ok: Counter[str],
                   responses: int) -> tuple[list[str], dict[str, Any]]:
    """Compare the rows a run added with what the client saw; (problems, summary)."""
    expected_rows = sum(ok.values()) if scenario == "token issue" else responses
    table = "access_tokens" if scenario == "token issue" else "open_api_calls"
    deadline = time.monotonic() + DB_SETTLE_SECONDS
    while True:  # the call audit is written after the response is sent: give it time to land
        rows = new_rows(conn, since)
        if sum(rows[table].values()) >= expected_rows or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    time.sleep(0.3)  # and a little more, so an extra row would show too
    rows = new_rows(conn, since)
    problems: list[str] = []

    def expect(label: str, got: Counter[Any], want: Counter[Any]) -> None:
        if +got != +want:
            diff = {str(k): {"got": got.get(k, 0), "want": want.get(k, 0)}
                    for k in sorted(set(got) | set(want), key=str) if got.get(k, 0) != want.get(k, 0)}
            problems.append(f"{label}: {sum(got.values())} rows, expected {sum(want.values())}; "
                            f"differences (first 5): {dict(itertools.islice(diff.items(), 5))}")

    if scenario == "token issue":
        expect("access_tokens per credential", rows["access_tokens"], ok)
        expect("audit_log entries", rows["audit_log"], Counter({("oauth.token.issue", c): n for c, n in ok.items()}))
        expect("open_api_calls", rows["open_api_calls"], Counter())
    else:
        want = Counter({(c, "GET", WHOAMI_PATH, 200): n for c, n in ok.items()})
        expect("open_api_calls per client (GET whoami, 200)", rows["open_api_calls"], want)
        if responses != sum(ok.values()):
            problems.append(f"{responses - sum(ok.values())} responses were not 200 (their rows are counted above)")
        expect("access_tokens", rows["access_tokens"], Counter())
        expect("audit_log entries", rows["audit_log"], Counter())
    summary = {
        "access_tokens": sum(rows["access_tokens"].values()),
        "audit_oauth_token_issue": sum(n for (action, _), n in rows["audit_log"].items()
                                       if action == "oauth.token.issue"),
        "audit_other": sum(n for (action, _), n in rows["audit_log"].items() if action != "oauth.token.issue"),
        "open_api_calls": sum(rows["open_api_calls"].values()),
        "expected": {table: expected_rows},
    }
    return problems, summary


# -- load ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Call:
    headers: dict[str, str]
    content: bytes | None
    client_id: str


@dataclass
class Scenario:
    name: str
    method: str
    path: str
    calls: list[Call]
    check: Callable[[httpx.Response, Call], str | None]


def check_token(response: httpx.Response, _call: Call) -> str | None:
    if response.status_code != 200:
        return f"HTTP {response.status_code}: {response.text[:200]}"
    body = response.json()
    if body.get("token_type") != "Bearer" or not str(body.get("access_token", "")).startswith("tat_"):
        return f"unexpected token response: {response.text[:200]}"
    if body.get("scope") != " ".join(sorted(SCOPES)):
        return f"unexpected scope: {body.get('scope')!r}"
    return None


def check_whoami(response: httpx.Response, call: Call) -> str | None:
    if response.status_code != 200:
        return f"HTTP {response.status_code}: {response.text[:200]}"
    client_id = response.json().get("clientId")
    if client_id != call.client_id:
        return f"clientId {client_id!r}, expected {call.client_id!r}"
    return None


@dataclass
class Outcome:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    responses: int = 0  # HTTP responses of any status
    ok_by_client: Counter[str] = field(default_factory=Counter)
    elapsed: float = 0.0


async def load(base_url: str, scenario: Scenario, concurrency: int, seconds: float, offset: int) -> Outcome:
    """``concurrency`` clients sending requests back to back for ``seconds``, each request taking the
    next call in rotation (starting at ``offset``) and each response checked."""
    outcome = Outcome()
    rotation = itertools.count(offset)
    calls = scenario.calls
    url = base_url + scenario.path
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(limits=limits, timeout=30.0) as client:
        started = time.perf_counter()
        deadline = started + seconds

        async def worker() -> None:
            while time.perf_counter() < deadline:
                call = calls[next(rotation) % len(calls)]
                sent = time.perf_counter()
                try:
                    response = await client.request(scenario.method, url, headers=call.headers,
                                                     content=call.content)
                except httpx.HTTPError as exc:
                    outcome.errors.append(f"{type(exc).__name__}: {exc}")
                    continue
                took = time.perf_counter() - sent
                outcome.responses += 1
                try:
                    problem = scenario.check(response, call)
                except ValueError as exc:  # a body that is not JSON
                    problem = f"HTTP {response.status_code}, unreadable body ({exc}): {response.text[:200]}"
                if problem is None:
                    outcome.latencies.append(took)
                    outcome.ok_by_client[call.client_id] += 1
                else:
                    outcome.errors.append(problem)

        await asyncio.gather(*(worker() for _ in range(concurrency)))
        outcome.elapsed = time.perf_counter() - started
    return outcome


@dataclass
class Result:
    scenario: str
    target: str
    requests: int
    errors: int
    seconds: float
    rps: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    # CPU ms per successful request: the server process, this load generator, the PostgreSQL
    # server, and the rest of the host; host_cpu_pct is how busy all CPUs were (100 = saturated),
    # other_cpu_pct the share of all CPUs the rest of the host took (>= NOISY_PCT: noisy run).
    server_cpu_ms: float | None = None
    client_cpu_ms: float | None = None
    pg_cpu_ms: float | None = None
    other_cpu_ms: float | None = None
    host_cpu_pct: float | None = None
    other_cpu_pct: float | None = None
    cpu_seconds: dict[str, float] = field(default_factory=dict)  # the raw measurements behind the columns
    pg_sessions_opened: int = 0
    other_db_xacts: int = 0
    warmup_requests: int = 0
    warmup_errors: int = 0
    error_samples: list[str] = field(default_factory=list)
    database_problems: list[str] = field(default_factory=list)
    database_rows: dict[str, Any] = field(default_factory=dict)


def measure(scenario: Scenario, server: common.Server, args: argparse.Namespace, db: psycopg.Connection[Any],
            postmaster: int | None) -> Result:
    since = marks(db)
    warmup = asyncio.run(load(server.base_url, scenario, args.concurrency, WARMUP_SECONDS, 0))
    server_before, host_before = common.process_cpu_seconds(server.process.pid), common.host_cpu_seconds()
    pg_before, client_before = postgres_cpu_seconds(postmaster), time.process_time()
    run = asyncio.run(load(server.base_url, scenario, args.concurrency, args.duration, len(warmup.latencies)))
    client_cpu = time.process_time() - client_before
    server_after, host_after = common.process_cpu_seconds(server.process.pid), common.host_cpu_seconds()
    pg_after = postgres_cpu_seconds(postmaster)

    ok = warmup.ok_by_client + run.ok_by_client
    problems, rows = check_database(db, scenario.name, since, ok, warmup.responses + run.responses)
    after = marks(db)

    latencies = sorted(run.latencies)
    per_request = max(1, len(latencies)) / 1000
    cpu: dict[str, Any] = {}
    if server_before is not None and server_after is not None and host_before and host_after:
        server_cpu = server_after - server_before
        pg_cpu = pg_after - pg_before if pg_before is not None and pg_after is not None else None
        busy, total = host_after[0] - host_before[0], host_after[1] - host_before[1]
        cpu = {
            "server_cpu_ms": round(server_cpu / per_request, 2),
            "client_cpu_ms": round(client_cpu / per_request, 2),
            "host_cpu_pct": round(100 * busy / total, 1) if total else 0.0,
        }
        raw = {"host_busy": busy, "host_capacity": total, "server": server_cpu, "client": client_cpu}
        if pg_cpu is not None:
            raw["postgres"] = pg_cpu
            # Clamped: the sources tick separately, so on a quiet host the sum can overshoot by a little.
            other = max(0.0, busy - server_cpu - client_cpu - pg_cpu)
            cpu |= {"pg_cpu_ms": round(pg_cpu / per_request, 2), "other_cpu_ms": round(other / per_request, 2),
                    "other_cpu_pct": round(100 * other / total, 1) if total else 0.0}
        cpu["cpu_seconds"] = {k: round(v, 3) for k, v in raw.items()}
    return Result(
        **cpu,
        scenario=scenario.name, target=server.name, requests=len(latencies), errors=len(run.errors),
        seconds=round(run.elapsed, 3), rps=round(len(latencies) / run.elapsed, 1),
        p50_ms=round(common.percentile(latencies, 50) * 1000, 2),
        p95_ms=round(common.percentile(latencies, 95) * 1000, 2),
        p99_ms=round(common.percentile(latencies, 99) * 1000, 2),
        pg_sessions_opened=after.sessions - since.sessions, other_db_xacts=after.other_db_xacts - since.other_db_xacts,
        warmup_requests=len(warmup.latencies), warmup_errors=len(warmup.errors),
        error_samples=(warmup.errors + run.errors)[:5], database_problems=problems, database_rows=rows,
    )


# -- checks before measuring ---------------------------------------------------------------------

def mint(server: common.Server, cred: Credential) -> str:
    response = httpx.post(server.base_url + TOKEN_PATH, content=token_form(cred), headers=FORM, timeout=30)
    problem = check_token(response, Call(FORM, None, cred.client_id))
    assert problem is None, f"{server.name}: minting a token for {cred.client_id}: {problem}"
    return str(response.json()["access_token"])


def whoami(server: common.Server, token: str) -> httpx.Response:
    return httpx.get(server.base_url + WHOAMI_PATH, headers={"Authorization": f"Bearer {token}"}, timeout=30)


def error_code(response: httpx.Response) -> str | None:
    try:
        body = response.json()
    except ValueError:
        return None
    return body.get("error") or body.get("code") if isinstance(body, dict) else None


def verify_alike(servers: dict[str, common.Server], credentials: list[Credential]) -> list[str]:
    """Both targets mint tokens that work on both, and refuse a wrong secret and an unknown token alike."""
    notes = []
    bodies: dict[tuple[str, str], dict[str, Any]] = {}
    for minter_index, minter in enumerate(servers.values()):
        cred = credentials[minter_index]
        token = mint(minter, cred)
        for checker in servers.values():
            response = whoami(checker, token)
            problem = check_whoami(response, Call({}, None, cred.client_id))
            assert problem is None, f"token minted by {minter.name}, whoami on {checker.name}: {problem}"
            bodies[(minter.name, checker.name)] = response.json()
        first, second = (bodies[(minter.name, name)] for name in servers)
        assert first == second, f"whoami bodies differ for a token minted by {minter.name}: {first} != {second}"
        notes.append(f"a token minted by {minter.name} works on both for whoami (same body, clientId "
                     f"{cred.client_id}, scopes {first['scopes']})")
    for server in servers.values():
        response = httpx.post(server.base_url + TOKEN_PATH, content=token_form(credentials[2], "tsec_wrong"),
                              headers=FORM, timeout=30)
        assert response.status_code == 401 and error_code(response) == "invalid_client", (
            f"{server.name}: wrong secret answered HTTP {response.status_code} {response.text[:300]}")
        response = whoami(server, "tat_" + secrets.token_urlsafe(32))
        assert response.status_code == 401 and error_code(response) == "invalid_token", (
            f"{server.name}: unknown token answered HTTP {response.status_code} {response.text[:300]}")
    notes.append("a wrong secret is 401 invalid_client and an unknown token 401 invalid_token on both")
    return notes


# -- report --------------------------------------------------------------------------------------

def ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 3) if a is not None and b else None


def print_table(results: list[Result]) -> dict[str, dict[str, float | None]]:
    header = (f"{'scenario':<11} {'target':<9} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} "
              f"{'requests':>8} {'errors':>6} | {'CPU ms/req: server':>18} {'client':>6} {'postgres':>8} "
              f"{'other':>6} | {'host CPU':>8} {'pg conns':>8}")
    log("\n" + header)
    log("-" * len(header))

    def ms(value: float | None) -> str:
        return "-" if value is None else f"{value:.2f}"

    for r in results:
        log(f"{r.scenario:<11} {r.target:<9} {r.rps:>8,.1f} {r.p50_ms:>8.2f} {r.p95_ms:>8.2f} {r.p99_ms:>8.2f} "
            f"{r.requests:>8,} {r.errors:>6,} | {ms(r.server_cpu_ms):>18} {ms(r.client_cpu_ms):>6} "
            f"{ms(r.pg_cpu_ms):>8} {ms(r.other_cpu_ms):>6} | "
            f"{'-' if r.host_cpu_pct is None else f'{r.host_cpu_pct:.0f}%':>8} {r.pg_sessions_opened:>8}")
    ratios: dict[str, dict[str, float | None]] = {}
    log("\ntessera / baseline:")
    for scenario in dict.fromkeys(r.scenario for r in results):
        pair = {r.target: r for r in results if r.scenario == scenario}
        if set(pair) != set(TARGETS):
            continue
        t, b = pair["tessera"], pair["baseline"]
        ratios[scenario] = {
            "rps": ratio(t.rps, b.rps), "p50": ratio(t.p50_ms, b.p50_ms), "p95": ratio(t.p95_ms, b.p95_ms),
            "p99": ratio(t.p99_ms, b.p99_ms), "server_cpu_per_request": ratio(t.server_cpu_ms, b.server_cpu_ms),
        }
        parts = [f"{label} x{ratios[scenario][key]:.2f}" for key, label in
                 (("rps", "req/s"), ("p50", "p50"), ("p95", "p95"), ("p99", "p99"),
                  ("server_cpu_per_request", "server CPU/req")) if ratios[scenario][key] is not None]
        log(f"  {scenario:<11} " + "   ".join(parts))
    return ratios


def headline(results: list[Result]) -> dict[str, dict[str, float | None]]:
    by = {(r.scenario, r.target): r for r in results}
    issue_t, issue_b = by[("token issue", "tessera")].rps, by[("token issue", "baseline")].rps
    who_t, who_b = by[("whoami", "tessera")].p95_ms, by[("whoami", "baseline")].p95_ms
    issue_ratio, who_ratio = ratio(issue_t, issue_b), ratio(who_t, who_b)
    log("")
    log(f"tokens issued per second (POST {TOKEN_PATH}): tessera {issue_t:.1f} baseline {issue_b:.1f} "
        f"ratio x{issue_ratio or 0:.2f}")
    log(f"p95 of token validation on a business call (GET {WHOAMI_PATH}): tessera {who_t:.2f} ms "
        f"baseline {who_b:.2f} ms ratio x{who_ratio or 0:.2f}")
    return {
        "tokens_issued_per_second": {"tessera": issue_t, "baseline": issue_b, "ratio": issue_ratio},
        "token_validation_p95_ms": {"tessera": who_t, "baseline": who_b, "ratio": who_ratio},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=10.0, help="seconds of load per scenario and target")
    parser.add_argument("--concurrency", type=int, default=8, help="concurrent clients (default 8)")
    parser.add_argument("--keep-db", action="store_true", help="keep the database afterwards and print its URL")
    args = parser.parse_args()
    if args.duration <= 0 or args.concurrency < 1:
        parser.error("--duration and --concurrency must be positive")

    started = time.perf_counter()
    models_file = PROJECT_ROOT / "models.yaml"
    log(f"PostgreSQL admin database: {make_url(common.PG_ADMIN_URL).render_as_string(hide_password=True)}")
    database_url = common.create_database()
    servers: dict[str, common.Server] = {}
    failures: list[str] = []
    db: psycopg.Connection[Any] | None = None
    try:
        with tempfile.TemporaryDirectory(prefix="tessera-bench-") as tmp:
            tmp_dir = Path(tmp)
            log(f"database: {database_url.rsplit('/', 1)[1]}")
            step = time.perf_counter()
            upgrade(common.sqlalchemy_url(database_url))
            log(f"migrated in {time.perf_counter() - step:.1f} s")

            env = common.server_env(database_url, secrets.token_urlsafe(48), tmp_dir / "var", models_file)
            env["TESSERA_RATE_LIMIT_TOKEN"] = str(RATE_LIMIT_TOKEN)
            app_pid, installation_pid, credentials, setup_seconds = setup_open_platform(env)
            log(f"demo seeded; application {app_pid}, installation {installation_pid} in tenant {TENANT!r} "
                f"({ENVIRONMENT}, scopes {' '.join(SCOPES)}), {len(credentials)} credentials "
                f"({setup_seconds:.1f} s)")

            for name, script in (("tessera", "_serve.py"), ("baseline", "_baseline.py")):
                servers[name] = common.start_server(name, script, env, tmp_dir)
                log(f"{name} listening on {servers[name].base_url} (pid {servers[name].process.pid})")

            for note in verify_alike(servers, credentials):
                log(f"verified: {note}")
            # One bearer token per credential for the business calls, minted alternately by each target.
            minters = list(servers.values())
            tokens = [(cred, mint(minters[i % 2], cred)) for i, cred in enumerate(credentials)]
            log(f"pre-issued {len(tokens)} bearer tokens (one per credential, alternately by each target)")

            scenarios = [
                Scenario("token issue", "POST", TOKEN_PATH,
                         [Call(FORM, token_form(c), c.client_id) for c in credentials], check_token),
                Scenario("whoami", "GET", WHOAMI_PATH,
                         [Call({"authorization": f"Bearer {t}"}, None, c.client_id) for c, t in tokens],
                         check_whoami),
            ]
            db = psycopg.connect(database_url, autocommit=True)
            postmaster = postmaster_pid(database_url)
            if postmaster is None:
                log("PostgreSQL does not run on this host (or its processes are hidden): no postgres CPU column")

            results: list[Result] = []
            for position, scenario in enumerate(scenarios):
                # ABBA order, so a drift over the run (caches, WAL, table growth) favours neither target.
                for name in TARGETS if position % 2 == 0 else TARGETS[::-1]:
                    log(f"running {scenario.name} against {name}: {WARMUP_SECONDS:g} s warm-up + "
                        f"{args.duration:g} s, {args.concurrency} clients")
                    result = measure(scenario, servers[name], args, db, postmaster)
                    results.append(result)
                    label = f"{scenario.name}, {name}"
                    if result.warmup_errors or result.errors:
                        failures.append(f"{label}: {result.warmup_errors} warm-up and {result.errors} measured "
                                        f"responses failed the check, e.g. {result.error_samples[:2]}")
                    failures.extend(f"{label}: database: {p}" for p in result.database_problems)
                    if not result.database_problems:
                        log(f"  database checked: {json.dumps(result.database_rows)}")
            results.sort(key=lambda r: ([s.name for s in scenarios].index(r.scenario), TARGETS.index(r.target)))
            for server in servers.values():
                if server.process.poll() is not None:
                    failures.append(f"{server.name} died during the run:\n{server.log_tail()}")
                elif any(r.errors or r.warmup_errors for r in results if r.target == server.name):
                    log(f"\n{server.name} log (last lines):\n{server.log_tail(20)}")

            noisy = [f"{r.scenario}, {r.target}: other processes used {r.other_cpu_pct:.0f}% of host CPU"
                     for r in results if r.other_cpu_pct is not None and r.other_cpu_pct >= NOISY_PCT]
            other_db = [f"{r.scenario}, {r.target}: {r.other_db_xacts} transactions in other databases "
                        "(their CPU is in the postgres column)" for r in results if r.other_db_xacts]

            engine = make_engine(common.sqlalchemy_url(database_url))
            try:
                info = common.versions(engine)
            finally:
                engine.dispose()
            log("\n=== Tessera Open Platform token benchmark ===")
            log(f"Python {info['python']} | {info['postgresql']}")
            log(f"{info['platform']} | {info['cpus']} CPUs | "
                + " ".join(f"{p} {info[p]}" for p in ("connexion", "starlette", "uvicorn", "sqlalchemy",
                                                        "psycopg", "httpx") if p in info))
            log(f"{len(credentials)} credentials of one installation ({TENANT}, {ENVIRONMENT}, {' '.join(SCOPES)}) | "
                f"concurrency {args.concurrency} | duration {args.duration:g} s per run "
                f"(+{WARMUP_SECONDS:g} s warm-up) | ABBA order")
            ratios = print_table(results)
            headlines = headline(results)
            log("")
            for line in noisy:
                log(f"NOISY HOST: {line}")
            for line in other_db:
                log(f"note: {line}")
            if not noisy:
                log(f"host quiet: other processes used less than {NOISY_PCT:g}% of host CPU in every run")

            RESULTS_FILE.parent.mkdir(parents=True, exist_ok=True)
            report = {
                "benchmark": "op_token",
                "finished_at": utcnow().isoformat(timespec="seconds"),
                "versions": info,
                "config": {
                    "duration_s": args.duration, "warmup_s": WARMUP_SECONDS, "concurrency": args.concurrency,
                    "credentials": len(credentials), "tokens": len(tokens), "tenant": TENANT,
                    "environment": ENVIRONMENT, "scopes": SCOPES, "rate_limit_token": RATE_LIMIT_TOKEN,
                    "setup_seconds": round(setup_seconds, 1), "noisy_threshold_pct": NOISY_PCT,
                },
                "endpoints": {"token issue": f"POST {TOKEN_PATH}", "whoami": f"GET {WHOAMI_PATH}"},
                "results": [asdict(r) for r in results],
                "ratios_tessera_over_baseline": ratios,
                "headline": headlines,
                "noisy_runs": noisy,
                "other_database_activity": other_db,
                "failures": failures,
            }
            RESULTS_FILE.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
            log(f"results written to {RESULTS_FILE.relative_to(PROJECT_ROOT)}")
    except AssertionError as exc:
        failures.append(f"check before measuring failed: {exc}")
    finally:
        if db is not None:
            db.close()
        for server in servers.values():
            server.stop()
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
