"""Benchmark of the session API list endpoint on PostgreSQL, against a bare Starlette baseline.

    .venv/bin/python benchmarks/session_list.py [--records 100000] [--duration 10] [--concurrency 8] [--keep-db]

Steps:

1. Create a fresh PostgreSQL database (unique name, next to the tests' admin database), migrate it,
   seed one tenant with one admin user and N asset records (``benchmarks/_seed.py``: bulk inserts
   through SQLAlchemy Core: the JSON shape of ``tessera.demo.asset_payload``,
   ``storage.records.search_text``, the unique values of unique fields), then ``VACUUM ANALYZE``
   (statistics for the planner, a flushed trigram GIN pending list and a visibility map: the steady
   state autovacuum would reach) and ``CHECKPOINT``.
2. Start Tessera (``benchmarks/_serve.py``: the real app, response validation off, JSON logs at
   WARNING, the read rate limit out of reach) and the baseline (``benchmarks/_baseline.py``: bare
   Starlette, same SQL, same engine settings, JWT decode only), each under uvicorn with one worker in
   its own process, on 127.0.0.1.
3. Log in through ``POST /api/auth/login``; check both targets answer every scenario with 200 and
   the same records; then per scenario and target (ABBA order), 2 s warm-up and ``--duration``
   seconds of load from ``--concurrency`` httpx clients on asyncio.
4. Print the table and tessera/baseline ratios, write ``benchmarks/results/session_list.json``, show
   ``EXPLAIN ANALYZE`` of the count and page queries, stop both servers and drop the database
   (unless ``--keep-db``).

The scenario: ``status eq in_stock`` + a keyword + ``sortField=name asc``, ``pageSize=10``, page 1 and
page 500. Page 500 must be full, so the keyword is the most selective candidate that still leaves
at least 5,000 matches in the seeded data (see ``KEYWORD_CANDIDATES``), unless ``--keyword`` is given.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import platform
import random
import re
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from datetime import timedelta
from importlib import metadata
from pathlib import Path
from typing import Any

import httpx
import psycopg
from _seed import PG_ADMIN_URL, analyze, create_database, drop_database, insert_batches, log, record_row, sqlalchemy_url
from psycopg import sql
from sqlalchemy import Engine, event
from sqlalchemy.engine import make_url

from storage import identity
from storage.db import make_engine
from storage.migrate import upgrade
from storage.records import RecordRepository
from storage.types import utcnow
from storage.unit import Database
from tessera.core.crypto import Passwords
from tessera.core.settings import PROJECT_ROOT
from tessera.demo import asset_payload
from tessera.registry.models import load_declarations
from tessera.session.listing import parse_list_request

BENCH_DIR = Path(__file__).resolve().parent
RESULTS_FILE = BENCH_DIR / "results" / "session_list.json"

TENANT = "bench"
EMAIL = "admin@bench.example"
MODEL = "asset"
PAGE_KEY = "assets"
SEED = 20261122
BATCH = 10_000
PAGE_SIZE = 10
DEEP_PAGE = 500
WARMUP_SECONDS = 2.0
STATUS_FILTER = [{"fieldName": "status", "operator": "eq", "value": "in_stock"}]
# Most selective first. "thinkpad" is one asset kind in ten (about 5% of records with the filter),
# "ati" two (Dell Latitude, Docking Station), "-sn-" is in every serial number (the fallback for
# small data sets, where nothing selective leaves page 500 full).
KEYWORD_CANDIDATES = ("thinkpad", "ati", "-sn-")
TARGETS = ("tessera", "baseline")


# -- database ---------------------------------------------------------------------------------
# create_database, drop_database, sqlalchemy_url, PG_ADMIN_URL and log come from _seed.py; the other
# benchmarks reach them through this module as ``common.<name>``.


@dataclass
class Seeded:
    tenant_id: int
    user_id: int
    records: int
    seconds: float


def seed(engine: Engine, models_file: Path, count: int, password: str) -> Seeded:
    """One tenant, one admin user and ``count`` assets, in batches of ``BATCH`` rows per transaction."""
    declarations = load_declarations(models_file)
    model = declarations.models[MODEL]
    db = Database(engine)
    with db.write() as conn:
        tenant_id = identity.create_tenant(conn, TENANT, "Benchmark Tenant", declarations.roles)
        user = identity.create_user(conn, EMAIL, "Benchmark Admin", Passwords().hash(password), tenant_id)
        identity.add_membership(conn, tenant_id, user.id, "admin")
    rng = random.Random(SEED)
    started = time.perf_counter()
    # Creation times one second apart, ending now, as if the records had been created one by one.
    first_created = utcnow() - timedelta(seconds=count)

    def make_row(position: int) -> dict[str, Any]:
        index = position + 1
        return record_row(tenant_id, model, asset_payload(rng, TENANT, index), user.id,
                          first_created + timedelta(seconds=index))

    insert_batches(db, count, make_row, {model.code: model}, BATCH)
    analyze(engine)
    return Seeded(tenant_id, user.id, count, time.perf_counter() - started)


def list_params(keyword: str, page_num: int) -> dict[str, str]:
    return {
        "pageNum": str(page_num),
        "pageSize": str(PAGE_SIZE),
        "keyword": keyword,
        "sortField": "name",
        "sortOrder": "asc",
        "filters": json.dumps(STATUS_FILTER, separators=(",", ":")),
    }


@contextlib.contextmanager
def captured_statements(engine: Engine) -> Iterator[list[tuple[str, Any]]]:
    """The SQL text and parameters the engine sends while the block runs."""
    statements: list[tuple[str, Any]] = []

    def before(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool) -> None:
        statements.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", before)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", before)


def run_list(engine: Engine, models_file: Path, tenant_id: int, params: dict[str, str]) -> tuple[int, list[Any]]:
    """The service's own list code, run in process: (total, rows)."""
    model = load_declarations(models_file).models[MODEL]
    with Database(engine).read() as conn:
        repo = RecordRepository(conn, tenant_id, model)
        rows, total = repo.list(parse_list_request(params, repo.list_fields()))
    return total, rows


def choose_keyword(engine: Engine, models_file: Path, tenant_id: int, forced: str | None) -> tuple[str, int]:
    needed = PAGE_SIZE * DEEP_PAGE
    for keyword in [forced] if forced else KEYWORD_CANDIDATES:
        total, _ = run_list(engine, models_file, tenant_id, list_params(keyword, 1))
        log(f"  keyword {keyword!r} with status eq in_stock: {total:,} matches")
        if total >= needed:
            return keyword, total
    raise SystemExit(
        f"no keyword leaves {needed:,} matches (page {DEEP_PAGE} of size {PAGE_SIZE} would not be full); "
        "seed more records or pass --keyword"
    )


# -- servers ----------------------------------------------------------------------------------

def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    name: str
    base_url: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()  # SIGTERM: uvicorn shuts down gracefully, the lifespan disposes the pool
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)


def server_env(database_url: str, secret_key: str, var_dir: Path, models_file: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TESSERA_")}
    env.update({
        "TESSERA_ENV": "production",
        "TESSERA_DATABASE_URL": database_url,
        "TESSERA_SECRET_KEY": secret_key,
        "TESSERA_VAR_DIR": str(var_dir),
        "TESSERA_MODELS_FILE": str(models_file),
        "TESSERA_RESPONSE_VALIDATION": "false",
        "TESSERA_LOG_JSON": "true",
        "TESSERA_LOG_LEVEL": "WARNING",
        "TESSERA_RATE_LIMIT_READ": str(10**9),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(PROJECT_ROOT), os.environ.get("PYTHONPATH")])),
    })
    return env


def start_server(name: str, script: str, env: dict[str, str], log_dir: Path, cpus: set[int] | None = None) -> Server:
    """Start ``script`` on a free port and wait for ``/api/health``; with ``cpus``, the process (and so
    every thread it starts) runs only on those CPUs (``benchmarks/suite.py`` pins the servers)."""
    port = free_port()
    log_path = log_dir / f"{name}.log"

    def pin() -> None:  # in the child, before the interpreter starts: no thread escapes the mask
        if cpus:
            os.sched_setaffinity(0, cpus)

    with log_path.open("wb") as log_file:
        process = subprocess.Popen(
            [sys.executable, str(BENCH_DIR / script), "--host", "127.0.0.1", "--port", str(port)],
            cwd=PROJECT_ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT, preexec_fn=pin if cpus else None,
        )
    server = Server(name, f"http://127.0.0.1:{port}", process, log_path)
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited with {process.returncode} before answering:\n{server.log_tail()}")
        try:
            if httpx.get(f"{server.base_url}/api/health", timeout=2).status_code == 200:
                return server
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            server.stop()
            raise RuntimeError(f"{name} did not answer /api/health within 60 s:\n{server.log_tail()}")
        time.sleep(0.1)


# -- load -------------------------------------------------------------------------------------

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
    # CPU time per successful request: the server process, this load generator, and the rest of
    # the host (PostgreSQL, mostly); host_cpu_pct is how busy all CPUs were (100 = saturated).
    server_cpu_ms: float | None = None
    client_cpu_ms: float | None = None
    other_cpu_ms: float | None = None
    host_cpu_pct: float | None = None
    error_samples: list[str] = field(default_factory=list)


def process_cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process so far (Linux ``/proc``; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def host_cpu_seconds() -> tuple[float, float] | None:
    """(busy, total) CPU seconds of the whole host, summed over CPUs (Linux ``/proc/stat``)."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    except (OSError, ValueError, IndexError):
        return None
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle + iowait
    total = sum(values[:8])  # guest time is already counted in user
    ticks = os.sysconf("SC_CLK_TCK")
    return (total - idle) / ticks, total / ticks


def percentile(sorted_values: list[float], pct: float) -> float:
    """Nearest-rank percentile of an ascending list (0.0 when empty)."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(pct / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


async def load(
    url: str, headers: dict[str, str], concurrency: int, seconds: float
) -> tuple[list[float], list[str], float]:
    """``concurrency`` clients sending requests back to back for ``seconds``: latencies, errors, elapsed."""
    latencies: list[float] = []
    errors: list[str] = []
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(headers=headers, limits=limits, timeout=30.0) as client:
        started = time.perf_counter()
        deadline = started + seconds

        async def worker() -> None:
            while time.perf_counter() < deadline:
                sent = time.perf_counter()
                try:
                    response = await client.get(url)
                except httpx.HTTPError as exc:
                    errors.append(f"{type(exc).__name__}: {exc}")
                    continue
                if response.status_code == 200:
                    latencies.append(time.perf_counter() - sent)
                else:
                    errors.append(f"HTTP {response.status_code}: {response.text[:200]}")

        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - started
    return latencies, errors, elapsed


def measure(scenario: str, server: Server, path: str, headers: dict[str, str], args: argparse.Namespace) -> Result:
    url = server.base_url + path
    asyncio.run(load(url, headers, args.concurrency, WARMUP_SECONDS))
    server_before, host_before = process_cpu_seconds(server.process.pid), host_cpu_seconds()
    client_before = time.process_time()
    latencies, errors, elapsed = asyncio.run(load(url, headers, args.concurrency, args.duration))
    client_cpu = time.process_time() - client_before
    server_after, host_after = process_cpu_seconds(server.process.pid), host_cpu_seconds()
    latencies.sort()
    per_request = max(1, len(latencies)) / 1000
    cpu: dict[str, float] = {}
    if server_before is not None and server_after is not None and host_before and host_after:
        server_cpu = server_after - server_before
        busy, total = host_after[0] - host_before[0], host_after[1] - host_before[1]
        cpu = {
            "server_cpu_ms": round(server_cpu / per_request, 2),
            "client_cpu_ms": round(client_cpu / per_request, 2),
            "other_cpu_ms": round(max(0.0, busy - server_cpu - client_cpu) / per_request, 2),
            "host_cpu_pct": round(100 * busy / total, 1) if total else 0.0,
        }
    return Result(**cpu,
        scenario=scenario, target=server.name, requests=len(latencies), errors=len(errors), seconds=round(elapsed, 3),
        rps=round(len(latencies) / elapsed, 1),
        p50_ms=round(percentile(latencies, 50) * 1000, 2),
        p95_ms=round(percentile(latencies, 95) * 1000, 2),
        p99_ms=round(percentile(latencies, 99) * 1000, 2),
        error_samples=errors[:5],
    )


def verify(servers: dict[str, Server], paths: dict[str, str], headers: dict[str, str]) -> dict[str, Any]:
    """Every target answers every scenario with 200, ``PAGE_SIZE`` records and the same ones."""
    seen: dict[str, Any] = {}
    for scenario, path in paths.items():
        answers = {}
        for name, server in servers.items():
            response = httpx.get(server.base_url + path, headers=headers, timeout=30)
            assert response.status_code == 200, f"{name} {scenario}: HTTP {response.status_code} {response.text[:500]}"
            body = response.json()
            assert body["code"] == "0", f"{name} {scenario}: {body}"
            data = body["data"]
            assert len(data["records"]) == PAGE_SIZE, f"{name} {scenario}: {len(data['records'])} records"
            assert data["total"] >= PAGE_SIZE * DEEP_PAGE, f"{name} {scenario}: total {data['total']}"
            answers[name] = data
        first, *others = answers.values()
        for other in others:
            assert other == first, f"{scenario}: the targets disagree:\n{json.dumps(answers, indent=1)[:3000]}"
        seen[scenario] = {
            "total": first["total"],
            "first": {k: first["records"][0][k] for k in ("id", "name", "status")},
        }
    return seen


# -- EXPLAIN ----------------------------------------------------------------------------------

PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def explain_plans(engine: Engine, models_file: Path, tenant_id: int, keyword: str) -> dict[str, Any]:
    """EXPLAIN ANALYZE of the statements the list code sends, for page 1 and page ``DEEP_PAGE``.

    Each statement is explained twice: planned for its actual values (what the first executions on a
    connection get) and as a generic plan (what PostgreSQL may switch to once psycopg has prepared
    the statement, after 5 executions per connection; then it is one plan for every page).
    """
    captured: list[tuple[str, str, dict[str, Any]]] = []
    for label, page in (("page 1", 1), (f"page {DEEP_PAGE}", DEEP_PAGE)):
        with captured_statements(engine) as statements:
            run_list(engine, models_file, tenant_id, list_params(keyword, page))
        for statement, parameters in statements:
            if "FROM records" not in statement:
                continue
            kind = "count" if statement.lstrip().upper().startswith("SELECT COUNT") else "page"
            if kind == "count" and any(c[0].startswith("count") for c in captured):
                continue  # the count query is the same for every page
            captured.append((f"{kind} query" + ("" if kind == "count" else f", {label}"), statement, parameters))
    plans: dict[str, Any] = {}
    url = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(url, autocommit=True) as conn:
        for label, statement, parameters in captured:
            custom = [r[0] for r in conn.execute("EXPLAIN (ANALYZE, BUFFERS) " + statement, parameters)]
            names: list[str] = []

            def positional(match: re.Match[str], names: list[str] = names) -> str:
                if match.group(1) not in names:
                    names.append(match.group(1))
                return f"${names.index(match.group(1)) + 1}"

            prepared = PLACEHOLDER.sub(positional, statement).replace("%%", "%")
            args = sql.SQL(", ").join(sql.Literal(parameters[n]) for n in names)
            execute = sql.SQL("EXECUTE bench_stmt ({})").format(args)
            conn.execute(sql.SQL("PREPARE bench_stmt AS {}").format(sql.SQL(prepared)))  # type: ignore[arg-type]
            try:
                # What the planner settles on with the default plan_cache_mode (auto) once the
                # statement is prepared: 5 custom plans, then the generic one if it looks no dearer.
                for _ in range(10):
                    conn.execute(execute).fetchall()
                chosen = conn.execute(
                    "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'bench_stmt'"
                ).fetchone()
                conn.execute("SET plan_cache_mode = force_generic_plan")
                generic = [r[0] for r in conn.execute(sql.SQL("EXPLAIN (ANALYZE, BUFFERS) {}").format(execute))]
            finally:
                conn.execute("RESET plan_cache_mode")
                conn.execute("DEALLOCATE bench_stmt")
            plans[label] = {
                "sql": statement,
                "parameters": {k: str(v) for k, v in parameters.items()},
                "custom_plan": custom,
                "generic_plan": generic,
                "steady_state": {"generic_plans": chosen[0], "custom_plans": chosen[1]} if chosen else None,
            }
    return plans


def scan_findings(plan: list[str]) -> list[str]:
    findings = []
    text = "\n".join(plan)
    used = re.findall(r"(?:Bitmap Index Scan on|Index (?:Only )?Scan(?: Backward)? using) (\w+)", text)
    findings.extend(f"uses index {index}" for index in dict.fromkeys(used))
    if re.search(r"Seq Scan on records", text):
        findings.append("SEQUENTIAL SCAN over records")
    sort = re.search(r"Sort Method: ([^\n]+)", text)
    if sort:
        findings.append(f"sort: {sort.group(1).strip()}")
    worst = worst_estimate(plan)
    if worst:
        findings.append(worst)
    timing = re.search(r"Execution Time: ([\d.]+) ms", text)
    if timing:
        findings.append(f"execution {timing.group(1)} ms")
    return findings


NODE_ROWS = re.compile(r"->\s+(.+?)\s+\(cost=\S+ rows=(\d+) width=\d+\) \(actual time=\S+ rows=(\d+) loops=(\d+)\)")


def worst_estimate(plan: list[str]) -> str | None:
    """The scan or join node whose row estimate is furthest from the actual rows, when 10x or more.

    Such a misestimate is what makes the planner pick one index over another; for example, the
    planner ignores the statistics of partial expression indexes, so ``data ->> 'status' = ...``
    gets the default 0.5% selectivity unless extended statistics cover the expression.
    """
    worst: tuple[float, str] | None = None
    for line in plan:
        match = NODE_ROWS.search(line)
        if not match or match.group(1).startswith(("Sort", "Limit", "Aggregate", "Gather")):
            continue
        estimated, actual = int(match.group(2)), int(match.group(3)) * int(match.group(4))
        ratio = max(estimated, 1) / max(actual, 1)
        factor = max(ratio, 1 / ratio)
        if factor >= 10 and (worst is None or factor > worst[0]):
            direction = "under" if actual > estimated else "over"
            worst = (factor, f"rows {direction}estimated {factor:.0f}x on {match.group(1)} "
                             f"(estimated {estimated:,}, actual {actual:,})")
    return worst[1] if worst else None


def print_plans(plans: dict[str, Any]) -> list[str]:
    warnings = []
    for label, plan in plans.items():
        log(f"\n--- EXPLAIN ANALYZE, {label} ---")
        log(plan["sql"])
        log("parameters: " + json.dumps(plan["parameters"], ensure_ascii=False))
        log("\n  planned for its values (custom plan):")
        for line in plan["custom_plan"]:
            log("    " + line)
        log("  generic plan (prepared statement, plan_cache_mode=force_generic_plan):")
        for line in plan["generic_plan"]:
            log("    " + line)
        steady = plan["steady_state"]
        if steady:
            chosen = "generic" if steady["generic_plans"] else "custom"
            log(f"  prepared, plan_cache_mode=auto, 10 executions: {steady['generic_plans']} generic, "
                f"{steady['custom_plans']} custom plans -> the {chosen} plan is used in steady state")
        for kind in ("custom_plan", "generic_plan"):
            findings = scan_findings(plan[kind])
            log(f"  {kind.replace('_', ' ')}: " + "; ".join(findings))
            if any("SEQUENTIAL" in f for f in findings):
                warnings.append(f"{label}: the {kind.replace('_', ' ')} reads records sequentially")
    return warnings


# -- report -----------------------------------------------------------------------------------

def versions(engine: Engine) -> dict[str, str]:
    with engine.connect() as conn:
        pg_version = conn.exec_driver_sql("SELECT version()").scalar_one()
    info = {"python": sys.version.split()[0], "postgresql": str(pg_version), "platform": platform.platform(),
            "cpus": str(os.cpu_count())}
    for package in ("connexion", "starlette", "uvicorn", "uvloop", "httptools", "sqlalchemy", "psycopg", "httpx"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            info[package] = metadata.version(package)
    return info


def print_table(results: list[Result]) -> dict[str, dict[str, float]]:
    header = (f"{'scenario':<10} {'target':<9} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} "
              f"{'requests':>8} {'errors':>6} | {'CPU ms/req: server':>18} {'client':>6} {'pg+rest':>7} "
              f"{'host CPU':>8}")
    log("\n" + header)
    log("-" * len(header))

    def ms(value: float | None) -> str:
        return "-" if value is None else f"{value:.2f}"

    for r in results:
        log(f"{r.scenario:<10} {r.target:<9} {r.rps:>8,.1f} {r.p50_ms:>8.2f} {r.p95_ms:>8.2f} {r.p99_ms:>8.2f} "
            f"{r.requests:>8,} {r.errors:>6,} | {ms(r.server_cpu_ms):>18} {ms(r.client_cpu_ms):>6} "
            f"{ms(r.other_cpu_ms):>7} {'-' if r.host_cpu_pct is None else f'{r.host_cpu_pct:.0f}%':>8}")
    ratios: dict[str, dict[str, float]] = {}
    log("\ntessera / baseline:")
    for scenario in dict.fromkeys(r.scenario for r in results):
        pair = {r.target: r for r in results if r.scenario == scenario}
        if set(pair) != set(TARGETS) or not pair["baseline"].rps or not pair["baseline"].p95_ms:
            continue
        rps = pair["tessera"].rps / pair["baseline"].rps
        p95 = pair["tessera"].p95_ms / pair["baseline"].p95_ms
        ratios[scenario] = {"rps": round(rps, 3), "p95": round(p95, 3)}
        log(f"  {scenario:<10} req/s x{rps:.2f}   p95 x{p95:.2f}")
    for r in results:
        for sample in r.error_samples:
            log(f"  error sample ({r.scenario}, {r.target}): {sample}")
    return ratios


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=100_000, help="asset records to seed (default 100000)")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds of load per scenario and target")
    parser.add_argument("--concurrency", type=int, default=8, help="concurrent clients (default 8)")
    parser.add_argument("--keyword", help="keyword to search (default: chosen from the data, see the docstring)")
    parser.add_argument("--keep-db", action="store_true", help="keep the database afterwards and print its URL")
    args = parser.parse_args()
    if args.records < 1 or args.duration <= 0 or args.concurrency < 1:
        parser.error("--records, --duration and --concurrency must be positive")

    started = time.perf_counter()
    models_file = PROJECT_ROOT / "models.yaml"
    log(f"PostgreSQL admin database: {make_url(PG_ADMIN_URL).render_as_string(hide_password=True)}")
    password = secrets.token_urlsafe(16)
    database_url = create_database()
    engine: Engine | None = None
    servers: dict[str, Server] = {}
    try:
        with tempfile.TemporaryDirectory(prefix="tessera-bench-") as tmp:
            tmp_dir = Path(tmp)
            url = sqlalchemy_url(database_url)
            log(f"database: {database_url.rsplit('/', 1)[1]}")
            step = time.perf_counter()
            upgrade(url)
            log(f"migrated in {time.perf_counter() - step:.1f} s")
            engine = make_engine(url)
            log(f"seeding {args.records:,} asset records")
            seeded = seed(engine, models_file, args.records, password)
            log(f"seeded in {seeded.seconds:.1f} s")
            keyword, matches = choose_keyword(engine, models_file, seeded.tenant_id, args.keyword)
            log(f"keyword: {keyword!r} ({matches:,} matches with status eq in_stock)")

            env = server_env(database_url, secrets.token_urlsafe(48), tmp_dir / "var", models_file)
            for name, script in (("tessera", "_serve.py"), ("baseline", "_baseline.py")):
                servers[name] = start_server(name, script, env, tmp_dir)
                log(f"{name} listening on {servers[name].base_url} (pid {servers[name].process.pid})")

            login = httpx.post(f"{servers['tessera'].base_url}/api/auth/login",
                               json={"email": EMAIL, "password": password}, timeout=30)
            assert login.status_code == 200, f"login failed: HTTP {login.status_code} {login.text}"
            headers = {"Authorization": f"Bearer {login.json()['data']['jwt']}"}

            scenarios = {"page 1": 1, f"page {DEEP_PAGE}": DEEP_PAGE}
            paths = {
                name: f"/api/dynamic/{PAGE_KEY}/list?{httpx.QueryParams(list_params(keyword, page))}"
                for name, page in scenarios.items()
            }
            checked = verify(servers, paths, headers)
            for scenario, seen in checked.items():
                log(f"verified {scenario}: both targets answer 200 with the same {PAGE_SIZE} records "
                    f"(total {seen['total']:,}, first {seen['first']['name']!r})")

            results: list[Result] = []
            for position, (scenario, path) in enumerate(paths.items()):
                # ABBA order, so a drift over the run (caches, background writes) favours neither target.
                for name in TARGETS if position % 2 == 0 else TARGETS[::-1]:
                    log(f"running {scenario} against {name}: {WARMUP_SECONDS:g} s warm-up + {args.duration:g} s, "
                        f"{args.concurrency} clients")
                    results.append(measure(scenario, servers[name], path, headers, args))
            results.sort(key=lambda r: (list(paths).index(r.scenario), TARGETS.index(r.target)))
            for server in servers.values():
                if server.process.poll() is not None:
                    raise RuntimeError(f"{server.name} died during the run:\n{server.log_tail()}")
                if any(r.errors for r in results if r.target == server.name):
                    log(f"\n{server.name} log (last lines):\n{server.log_tail(20)}")

            info = versions(engine)
            log("\n=== Tessera session list benchmark ===")
            log(f"Python {info['python']} | {info['postgresql']}")
            log(f"{info['platform']} | {info['cpus']} CPUs | "
                + " ".join(f"{p} {info[p]}" for p in ("connexion", "starlette", "uvicorn", "sqlalchemy",
                                                        "psycopg", "httpx") if p in info))
            log(f"records: {seeded.records:,} | keyword {keyword!r} + status eq in_stock ({matches:,} matches) | "
                f"sort name asc | pageSize {PAGE_SIZE}")
            log(f"concurrency {args.concurrency} | duration {args.duration:g} s per run "
                f"(+{WARMUP_SECONDS:g} s warm-up)")
            ratios = print_table(results)

            plans = explain_plans(engine, models_file, seeded.tenant_id, keyword)
            warnings = print_plans(plans)
            log("")
            if warnings:
                for warning in warnings:
                    log(f"WARNING: {warning}")
            else:
                log("No sequential scan over records in any plan.")

            RESULTS_FILE.parent.mkdir(parents=True, exist_ok=True)
            report = {
                "benchmark": "session_list",
                "finished_at": utcnow().isoformat(timespec="seconds"),
                "versions": info,
                "config": {
                    "records": seeded.records, "duration_s": args.duration, "warmup_s": WARMUP_SECONDS,
                    "concurrency": args.concurrency, "keyword": keyword, "matches": matches,
                    "filters": STATUS_FILTER, "sortField": "name", "sortOrder": "asc", "pageSize": PAGE_SIZE,
                    "seed_seconds": round(seeded.seconds, 1),
                },
                "paths": paths,
                "results": [asdict(r) for r in results],
                "ratios_tessera_over_baseline": ratios,
                "explain": plans,
                "plan_warnings": warnings,
            }
            RESULTS_FILE.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
            log(f"results written to {RESULTS_FILE.relative_to(PROJECT_ROOT)}")
    finally:
        for server in servers.values():
            server.stop()
        if engine is not None:
            engine.dispose()
        if args.keep_db:
            log(f"database kept: {database_url} (tenant {TENANT!r}, user {EMAIL}, password {password})")
        else:
            drop_database(database_url)
            log(f"database {database_url.rsplit('/', 1)[1]} dropped")
    log(f"total time {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
