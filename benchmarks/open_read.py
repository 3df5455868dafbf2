"""Benchmark of the Open Platform's published-resource reads, against a bare Starlette baseline.

    .venv/bin/python benchmarks/open_read.py [--backend postgresql|sqlite|both] [--assets 10000] [--limit 200]
        [--duration 10] [--concurrency 8] [--solo-walks 5] [--keep-db]

What is measured, per backend, for Tessera and for the baseline in the same run:

* ``read by pid``: ``GET /api/open/v1/resources/assets/{pid}`` with a bearer token, rotating over
  every live pid of the tenant and over ``CREDENTIALS`` tokens; every response must be 200 with the
  record's strong ``ETag`` (the value ``op_resources.etag`` gives for the seeded version) and a body
  with that ``pid``. Requests per second and p50/p95/p99 latency.
* ``walk, N clients``: ``--concurrency`` clients each walking the whole list, again and again:
  ``GET /api/open/v1/resources/assets?limit=L``, then ``?cursor=<nextCursor>&limit=L`` until
  ``nextCursor`` is null. Pages per second (the req/s column), p50/p95/p99 per page, and the wall
  time of each complete walk (median in ``walk s``). Every complete walk must visit exactly the
  tenant's live pids (10,000 by default), none twice; a walk cut by the end of the run is only
  checked for repeats (with a short ``--duration`` no walk may complete: the walk time under load is
  then missing, a note rather than a failure).
* ``walk, 1 client``: ``--solo-walks`` complete walks one after the other by one client on an idle
  server: the total wall time of one walk, and pages per second and per-page latency without load.

Steps:

1. A fresh database: PostgreSQL (a new database next to ``TESSERA_TEST_PG_URL``'s, as
   ``benchmarks/session_list.py`` does) or SQLite (a file in a temporary directory), migrated.
2. In process: tenants ``bench`` and ``other``, an administrator of ``bench`` allowed to create
   applications; through ``tessera.openplatform.identity`` an application, its installation in ``bench``
   (environment ``production``, scope ``assets.read``) and ``CREDENTIALS`` credentials. Then the
   records, in bulk (``benchmarks/_seed.py``: SQLAlchemy Core inserts of ``BATCH`` rows per
   transaction, ids drawn up front, the JSON of ``tessera.demo.asset_payload``, ``search_text``,
   unique-value claims, creation times one second apart), with progress: ``--assets`` live assets
   of ``bench``, interleaved in id order with noise the walk's conditions must skip: deleted assets
   of ``bench`` (``--assets``/20), stock-ins of ``bench`` (``--assets``/20) and assets of ``other``
   (``--assets``/10). Then ``VACUUM ANALYZE`` and ``CHECKPOINT`` (PostgreSQL) or ``ANALYZE`` and a
   WAL checkpoint (SQLite). The live pids and their ETags are read back from the database: the walks
   are checked against that set.
3. Tessera (``benchmarks/_serve.py``: the real app, response validation off, JSON logs at WARNING)
   and the baseline (``benchmarks/_baseline_suite.py``, shared with ``benchmarks/suite.py``: bare
   Starlette, the same ``op_tokens.validate`` and ``op_resources.read``/``list_page`` calls on the
   event loop as Tessera's handlers make them, so the same SQL: one token query, then one record
   query; no Connexion, no middleware, no call audit), each under uvicorn with one worker in its own
   process on 127.0.0.1; ``TESSERA_RATE_LIMIT_TOKEN`` out of reach.
4. One bearer token per credential from Tessera's ``POST /oauth2/token``. Checks that both targets
   answer alike: the same record and ETag for a pid, 404 for a deleted asset and for another
   tenant's, 401 for an unknown token, the same first page, and each target's cursor accepted by
   the other with the same second page.
5. Per scenario, both targets in ABBA order (as ``benchmarks/op_token.py``): 2 s warm-up (not for the
   one-client walks), then ``--duration`` seconds of load from httpx clients on asyncio. After each
   run the ``open_api_calls`` table is checked: Tessera writes one row per business call, after the
   response (part of its cost, in its CPU column, and a PostgreSQL/SQLite write per call the
   baseline does not make); the baseline writes none.
6. The table, the tessera/baseline ratios and the headline figures; ``benchmarks/results/open_read.json``;
   both servers stopped and the database dropped (unless ``--keep-db``). Exit status 1 when any check
   failed (a status other than 200, a missing or wrong ETag, a pid repeated in a walk, a walk that
   does not visit exactly the live pids, a call-audit count off, a server that died).

CPU columns are CPU milliseconds per successful request (page, for walks) from ``/proc``: the server
process, this load generator and, on PostgreSQL, the database server (all its processes, including
backends that exited during the run, as ``benchmarks/op_token.py`` counts them); ``other`` is the
share of all CPUs the rest of the host took, and ``pg conns`` the connections opened to the
benchmark's database during the run (``pg_stat_database.sessions``: pool overflow shows there). A run
where ``other`` reaches ``NOISY_PCT``, or where other databases had transactions (their CPU lands in
the postgres column), is flagged ``NOISY HOST`` (not a failure). The load generator shares the host
with both servers and the database, so read the ratios rather than the absolute figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import math
import os
import platform
import random
import secrets
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from datetime import timedelta
from importlib import metadata
from pathlib import Path
from typing import Any

import _seed
import httpx
import op_token
import session_list as common
from sqlalchemy import Engine, and_, case, func, select
from sqlalchemy.engine import make_url

from storage import identity
from storage.db import make_engine
from storage.migrate import upgrade
from storage.tables import open_api_calls, records
from storage.types import utcnow
from tessera.core.settings import PROJECT_ROOT, load_settings
from tessera.demo import asset_payload, stock_in_payload
from tessera.openplatform.identity import applications, credentials, installations
from tessera.openplatform.resources import reads as op_resources
from tessera.runtime import Runtime, build_runtime
from tessera.session.auth.actors import resolve_actor
from tessera.session.auth.login import login

log = common.log

RESULTS_FILE = common.BENCH_DIR / "results" / "open_read.json"
TARGETS = common.TARGETS  # ("tessera", "baseline")
BACKENDS = ("postgresql", "sqlite")
WARMUP_SECONDS = 2.0
CREDENTIALS = 8
TENANT = "bench"
OTHER_TENANT = "other"
ADMIN_EMAIL = "admin@bench.example"
ENVIRONMENT = "production"
SCOPES = ["assets.read"]
RESOURCE = "assets"
MODEL = "asset"
NOISE_MODEL = "stockIn"
LIST_PATH = f"/api/open/v1/resources/{RESOURCE}"
TOKEN_PATH = "/oauth2/token"
FORM = {"content-type": "application/x-www-form-urlencoded"}
RATE_LIMIT_TOKEN = 1_000_000_000
SEED = 20261122
BATCH = 1_000
NOISY_PCT = 20.0  # the rest of the host's share of all CPUs from which a run is flagged
DB_SETTLE_SECONDS = 15.0  # how long the call audit rows, written after the response, may take to appear


# -- database --------------------------------------------------------------------------------------
# Backend, create_backend, the bulk inserts and analyze come from benchmarks/_seed.py.


@dataclass
class Seeded:
    live: int
    deleted: int
    stock_ins: int
    other_tenant: int
    seconds: float


def seed_records(rt: Runtime, tenant_id: int, other_tenant_id: int, user_id: int, assets: int) -> Seeded:
    """``assets`` live assets of ``TENANT``, interleaved with the noise, ``BATCH`` rows per transaction."""
    asset_model, stock_model = rt.declarations.models[MODEL], rt.declarations.models[NOISE_MODEL]
    rng = random.Random(SEED)
    kinds = ["live"] * assets + ["deleted"] * (assets // 20) + ["stock"] * (assets // 20) + ["other"] * (assets // 10)
    rng.shuffle(kinds)
    total = len(kinds)
    started = time.perf_counter()
    first_created = utcnow() - timedelta(seconds=total)
    counters = {"bench": 0, "other": 0, "stock": 0}

    def make_row(position: int) -> dict[str, Any]:
        kind = kinds[position]
        created = first_created + timedelta(seconds=position)
        if kind == "stock":
            counters["stock"] += 1
            return _seed.record_row(tenant_id, stock_model, stock_in_payload(rng, counters["stock"]), user_id, created)
        if kind == "other":
            counters["other"] += 1
            return _seed.record_row(other_tenant_id, asset_model, asset_payload(rng, OTHER_TENANT, counters["other"]),
                                    user_id, created)
        # live and deleted assets of TENANT share the serial numbers' sequence
        counters["bench"] += 1
        deleted = created + timedelta(milliseconds=500) if kind == "deleted" else None
        return _seed.record_row(tenant_id, asset_model, asset_payload(rng, TENANT, counters["bench"]), user_id,
                                created, deleted)

    _seed.insert_batches(rt.db, total, make_row, {m.code: m for m in (asset_model, stock_model)}, BATCH)
    return Seeded(assets, assets // 20, assets // 20, assets // 10, time.perf_counter() - started)


@dataclass
class Setup:
    credentials: list[op_token.Credential]
    expected: dict[str, str]  # live pid -> ETag, in id order
    deleted_pid: str
    other_tenant_pid: str
    seeded: Seeded
    app_pid: str
    installation_pid: str
    seconds: float


def setup(backend: _seed.Backend, env: dict[str, str], assets: int) -> Setup:
    """Tenants, administrator, application, installation, credentials and records, in process."""
    started = time.perf_counter()
    rt = build_runtime(load_settings(env))
    try:
        password = secrets.token_urlsafe(16)
        with rt.db.write() as conn:
            tenant_id = identity.create_tenant(conn, TENANT, "Benchmark Tenant", rt.declarations.roles)
            other_id = identity.create_tenant(conn, OTHER_TENANT, "Other Tenant", rt.declarations.roles)
            user = identity.create_user(conn, ADMIN_EMAIL, "Benchmark Admin", rt.passwords.hash(password), tenant_id)
            identity.add_membership(conn, tenant_id, user.id, "admin")
            identity.grant_platform_role(conn, user.id, applications.CREATE_PERMISSION)
        session = login(rt, ADMIN_EMAIL, password, "bench-login")
        actor = resolve_actor(rt, session["jwt"], None)
        app = applications.create_application(rt, actor, {"name": "Benchmark reader", "description": "open_read.py"},
                                          "bench-setup")
        inst = installations.create_installation(
            rt, actor, app["appId"], {"tenantId": TENANT, "environment": ENVIRONMENT, "scopes": SCOPES}, "bench-setup"
        )
        creds = [credentials.create_credential(rt, actor, inst["installationId"], "bench-setup")
                 for _ in range(CREDENTIALS)]
        log(f"application {app['appId']}, installation {inst['installationId']} in tenant {TENANT!r} "
            f"({ENVIRONMENT}, scopes {' '.join(SCOPES)}), {len(creds)} credentials")
        total = assets + assets // 20 * 2 + assets // 10
        log(f"seeding {total:,} records: {assets:,} live assets of {TENANT!r}, interleaved with {assets // 20:,} "
            f"deleted assets and {assets // 20:,} stock-ins of {TENANT!r} and {assets // 10:,} assets of "
            f"{OTHER_TENANT!r}")
        seeded = seed_records(rt, tenant_id, other_id, user.id, assets)
        _seed.analyze(rt.db.engine)
        scope = and_(records.c.tenant_id == tenant_id, records.c.model == MODEL)
        with rt.db.read() as conn:
            live = conn.execute(select(records.c.pid, records.c.version)
                                .where(scope, records.c.deleted_at.is_(None)).order_by(records.c.id)).all()
            deleted_pid = conn.execute(select(records.c.pid).where(scope, records.c.deleted_at.is_not(None))
                                       .limit(1)).scalar_one()
            other_pid = conn.execute(select(records.c.pid).where(records.c.tenant_id == other_id).limit(1)).scalar_one()
    finally:
        rt.close()
    expected = {row.pid: op_resources.etag(row) for row in live}
    return Setup(
        credentials=[op_token.Credential(c["clientId"], c["clientSecret"]) for c in creds],
        expected=expected, deleted_pid=deleted_pid, other_tenant_pid=other_pid, seeded=seeded,
        app_pid=app["appId"], installation_pid=inst["installationId"], seconds=time.perf_counter() - started,
    )


# -- checks ----------------------------------------------------------------------------------------

def check_read(response: httpx.Response, pid: str, expected_tag: str) -> str | None:
    if response.status_code != 200:
        return f"read {pid}: HTTP {response.status_code}: {response.text[:200]}"
    tag = response.headers.get("etag")
    if not tag:
        return f"read {pid}: no ETag header"
    if tag.startswith("W/"):
        return f"read {pid}: weak ETag {tag}"
    if tag != expected_tag:
        return f"read {pid}: ETag {tag}, expected {expected_tag}"
    got = response.json().get("pid")
    if got != pid:
        return f"read {pid}: body pid {got!r}"
    return None


def check_page(response: httpx.Response, limit: int) -> tuple[str | None, list[str], str | None]:
    """(problem, the page's pids, nextCursor)."""
    if response.status_code != 200:
        return f"page: HTTP {response.status_code}: {response.text[:200]}", [], None
    body = response.json()
    items, cursor = body.get("items"), body.get("nextCursor")
    if not isinstance(items, list) or (cursor is not None and not isinstance(cursor, str)):
        return f"page: unexpected body {response.text[:200]}", [], None
    pids = [item.get("pid") for item in items]
    if len(pids) > limit or (cursor is not None and len(pids) != limit):
        return f"page: {len(pids)} items with limit {limit}, nextCursor {'set' if cursor else 'null'}", [], None
    if not all(isinstance(pid, str) for pid in pids):
        return "page: an item without a pid", [], None
    return None, pids, cursor


def check_walk(seen: list[str], expected: dict[str, str]) -> str | None:
    distinct = set(seen)
    if len(distinct) == len(seen) == len(expected) and distinct == expected.keys():
        return None
    missing, extra = len(expected.keys() - distinct), len(distinct - expected.keys())
    return (f"walk: {len(seen):,} pids, {len(distinct):,} distinct, expected {len(expected):,} "
            f"({missing:,} missing, {extra:,} not live in the tenant)")


# -- load ------------------------------------------------------------------------------------------

@dataclass
class Outcome:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    responses: int = 0  # HTTP responses of any status (each is one call-audit row on Tessera)
    elapsed: float = 0.0
    walk_seconds: list[float] = field(default_factory=list)  # complete, verified walks
    walk_pages: list[int] = field(default_factory=list)
    partial_walks: int = 0


def client_for(concurrency: int) -> httpx.AsyncClient:
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    return httpx.AsyncClient(limits=limits, timeout=30.0)


async def read_load(base_url: str, auth: list[dict[str, str]], expected: dict[str, str], pids: list[str],
                    concurrency: int, seconds: float, offset: int) -> Outcome:
    """``concurrency`` clients reading back to back, each request the next pid and token in rotation."""
    outcome = Outcome()
    rotation = itertools.count(offset)
    async with client_for(concurrency) as client:
        started = time.perf_counter()
        deadline = started + seconds

        async def worker() -> None:
            while time.perf_counter() < deadline:
                turn = next(rotation)
                pid = pids[turn % len(pids)]
                sent = time.perf_counter()
                try:
                    response = await client.get(f"{base_url}{LIST_PATH}/{pid}", headers=auth[turn % len(auth)])
                except httpx.HTTPError as exc:
                    outcome.errors.append(f"{type(exc).__name__}: {exc}")
                    continue
                took = time.perf_counter() - sent
                outcome.responses += 1
                try:
                    problem = check_read(response, pid, expected[pid])
                except ValueError as exc:
                    problem = f"read {pid}: unreadable body ({exc}): {response.text[:200]}"
                if problem is None:
                    outcome.latencies.append(took)
                else:
                    outcome.errors.append(problem)

        await asyncio.gather(*(worker() for _ in range(concurrency)))
        outcome.elapsed = time.perf_counter() - started
    return outcome


async def walk_load(base_url: str, auth: list[dict[str, str]], expected: dict[str, str], limit: int,
                    concurrency: int, seconds: float | None, walks: int | None, offset: int) -> Outcome:
    """``concurrency`` clients walking the whole list again and again, until ``seconds`` have passed
    (a walk in progress then stops where it is) or ``walks`` walks have started."""
    outcome = Outcome()
    rotation = itertools.count(offset)
    started_walks = itertools.count()
    url = base_url + LIST_PATH
    async with client_for(concurrency) as client:
        started = time.perf_counter()
        deadline = math.inf if seconds is None else started + seconds

        async def walk(headers: dict[str, str]) -> None:
            seen: list[str] = []
            seen_set: set[str] = set()
            params = {"limit": str(limit)}
            walk_started = time.perf_counter()
            pages = 0
            while time.perf_counter() < deadline:
                sent = time.perf_counter()
                try:
                    response = await client.get(url, params=params, headers=headers)
                except httpx.HTTPError as exc:
                    outcome.errors.append(f"page {pages + 1}: {type(exc).__name__}: {exc}")
                    return
                took = time.perf_counter() - sent
                outcome.responses += 1
                try:
                    problem, pids, cursor = check_page(response, limit)
                except ValueError as exc:
                    problem, pids, cursor = f"page: unreadable body ({exc}): {response.text[:200]}", [], None
                if problem is not None:
                    outcome.errors.append(f"page {pages + 1}: {problem}")
                    return
                outcome.latencies.append(took)
                pages += 1
                repeated = [pid for pid in pids if pid in seen_set]
                if repeated:
                    outcome.errors.append(f"page {pages}: {len(repeated)} pids seen earlier in the walk, "
                                          f"e.g. {repeated[0]}")
                    return
                seen += pids
                seen_set.update(pids)
                if cursor is None:
                    problem = check_walk(seen, expected)
                    if problem is None:
                        outcome.walk_seconds.append(time.perf_counter() - walk_started)
                        outcome.walk_pages.append(pages)
                    else:
                        outcome.errors.append(problem)
                    return
                params = {"cursor": cursor, "limit": str(limit)}
            outcome.partial_walks += 1

        async def worker() -> None:
            while time.perf_counter() < deadline and (walks is None or next(started_walks) < walks):
                await walk(auth[next(rotation) % len(auth)])

        await asyncio.gather(*(worker() for _ in range(concurrency)))
        outcome.elapsed = time.perf_counter() - started
    return outcome


@dataclass
class Scenario:
    name: str
    kind: str  # "read" or "walk"
    concurrency: int
    seconds: float | None  # None: a number of walks instead
    walks: int | None = None
    warmup: bool = True


@dataclass
class Result:
    backend: str
    scenario: str
    target: str
    requests: int  # successful requests (pages, for walks)
    errors: int
    seconds: float
    rps: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    walks: int | None = None  # complete, verified walks
    walk_s_p50: float | None = None
    walk_s_min: float | None = None
    walk_s_max: float | None = None
    walk_pages: list[int] = field(default_factory=list)  # distinct page counts of complete walks
    partial_walks: int | None = None
    # CPU ms per successful request: the server process, this load generator, the PostgreSQL server
    # (all its processes, including backends that exited during the run; None on SQLite, which runs
    # inside the server process); host_cpu_pct: how busy all CPUs were (100 = saturated);
    # other_cpu_pct: the share of all CPUs the rest of the host took.
    server_cpu_ms: float | None = None
    client_cpu_ms: float | None = None
    pg_cpu_ms: float | None = None
    host_cpu_pct: float | None = None
    other_cpu_pct: float | None = None
    # PostgreSQL: connections opened to the benchmark's database during the run (a pool too small for
    # the concurrency opens and closes overflow connections), and transactions in other databases
    # (their CPU is in the postgres column).
    pg_sessions_opened: int | None = None
    other_db_xacts: int | None = None
    warmup_requests: int = 0
    warmup_errors: int = 0
    audit_rows: int = 0  # open_api_calls rows written during warm-up and run
    error_samples: list[str] = field(default_factory=list)
    audit_problems: list[str] = field(default_factory=list)


def pg_counters(engine: Engine) -> tuple[int, int] | None:
    """(sessions opened in the benchmark's database, transactions in other databases) so far; None on SQLite."""
    if engine.dialect.name != "postgresql":
        return None
    with engine.connect() as conn:
        row = conn.exec_driver_sql(
            "SELECT coalesce(sum(sessions) FILTER (WHERE datname = current_database()), 0), "
            "coalesce(sum(xact_commit + xact_rollback) FILTER (WHERE datname IS DISTINCT FROM current_database()), 0) "
            "FROM pg_stat_database"
        ).one()
    return int(row[0]), int(row[1])


def audit_mark(engine: Engine) -> int:
    """The last ``open_api_calls`` id once the table has stopped growing: Tessera queues its call-audit
    rows and writes them in batches (``storage/call_audit.py``, every 50 ms), so the rows of the
    calls just made (the checks, the previous run) may land after a mark taken at once."""
    def last() -> int:
        with engine.connect() as conn:
            return int(conn.execute(select(func.coalesce(func.max(open_api_calls.c.id), 0))).scalar_one())

    mark = last()
    deadline = time.monotonic() + DB_SETTLE_SECONDS
    while time.monotonic() < deadline:
        time.sleep(0.3)
        now = last()
        if now == mark:
            break
        mark = now
    return mark


def audit_count(engine: Engine, since: int) -> tuple[int, int]:
    """(rows, rows with status 200) of ``open_api_calls`` added after id ``since``."""
    with engine.connect() as conn:
        row = conn.execute(
            select(func.count(), func.coalesce(func.sum(case((open_api_calls.c.status == 200, 1), else_=0)), 0))
            .where(open_api_calls.c.id > since)
        ).one()
    return int(row[0]), int(row[1])


def check_audit(engine: Engine, target: str, since: int, responses: int, ok: int) -> tuple[list[str], int]:
    """Tessera: one row per response, status 200 for each success; the baseline: none. (problems, rows)"""
    want = responses if target == "tessera" else 0
    deadline = time.monotonic() + DB_SETTLE_SECONDS
    while audit_count(engine, since)[0] < want and time.monotonic() < deadline:
        time.sleep(0.1)  # the rows are written after the responses are sent
    time.sleep(0.3)  # and a little more, so an extra row would show too
    rows, ok_rows = audit_count(engine, since)
    problems = []
    if rows != want:
        problems.append(f"open_api_calls: {rows:,} rows for {responses:,} responses, expected {want:,}")
    if target == "tessera" and ok_rows != ok:
        problems.append(f"open_api_calls: {ok_rows:,} rows with status 200 for {ok:,} successful responses")
    return problems, rows


def run_scenario(scenario: Scenario, base_url: str, auth: list[dict[str, str]], expected: dict[str, str],
                 pids: list[str], limit: int, seconds: float | None, walks: int | None, offset: int) -> Outcome:
    if scenario.kind == "read":
        assert seconds is not None
        return asyncio.run(read_load(base_url, auth, expected, pids, scenario.concurrency, seconds, offset))
    return asyncio.run(walk_load(base_url, auth, expected, limit, scenario.concurrency, seconds, walks, offset))


def measure(backend: _seed.Backend, scenario: Scenario, server: common.Server, auth: list[dict[str, str]],
            expected: dict[str, str], pids: list[str], limit: int, engine: Engine, postmaster: int | None) -> Result:
    since = audit_mark(engine)
    warmup = Outcome()
    if scenario.warmup:
        warmup = run_scenario(scenario, server.base_url, auth, expected, pids, limit, WARMUP_SECONDS, None, 0)
    counters_before = pg_counters(engine)
    server_before, host_before = common.process_cpu_seconds(server.process.pid), common.host_cpu_seconds()
    pg_before, client_before = op_token.postgres_cpu_seconds(postmaster), time.process_time()
    run = run_scenario(scenario, server.base_url, auth, expected, pids, limit, scenario.seconds, scenario.walks,
                       len(warmup.latencies) + 1)
    client_cpu = time.process_time() - client_before
    server_after, host_after = common.process_cpu_seconds(server.process.pid), common.host_cpu_seconds()
    pg_after = op_token.postgres_cpu_seconds(postmaster)
    problems, audit_rows = check_audit(engine, server.name, since, warmup.responses + run.responses,
                                       len(warmup.latencies) + len(run.latencies))
    counters_after = pg_counters(engine)

    latencies = sorted(run.latencies)
    per_request = max(1, len(latencies)) / 1000
    cpu: dict[str, Any] = {}
    if server_before is not None and server_after is not None and host_before and host_after:
        busy, total = host_after[0] - host_before[0], host_after[1] - host_before[1]
        server_cpu = server_after - server_before
        pg_cpu = pg_after - pg_before if pg_before is not None and pg_after is not None else None
        # Clamped: the sources tick separately, so on a quiet host the sum can overshoot by a little.
        other = max(0.0, busy - server_cpu - client_cpu - (pg_cpu or 0.0))
        cpu = {
            "server_cpu_ms": round(server_cpu / per_request, 2),
            "client_cpu_ms": round(client_cpu / per_request, 2),
            "host_cpu_pct": round(100 * busy / total, 1) if total else 0.0,
            "other_cpu_pct": round(100 * other / total, 1) if total else 0.0,
        }
        if pg_cpu is not None:
            cpu["pg_cpu_ms"] = round(pg_cpu / per_request, 2)
    if counters_before is not None and counters_after is not None:
        cpu["pg_sessions_opened"] = counters_after[0] - counters_before[0]
        cpu["other_db_xacts"] = counters_after[1] - counters_before[1]
    walk: dict[str, Any] = {}
    if scenario.kind == "walk":
        times = run.walk_seconds
        walk = {
            "walks": len(times), "partial_walks": run.partial_walks, "walk_pages": sorted(set(run.walk_pages)),
            "walk_s_p50": round(statistics.median(times), 3) if times else None,
            "walk_s_min": round(min(times), 3) if times else None,
            "walk_s_max": round(max(times), 3) if times else None,
        }
    return Result(
        **cpu, **walk,
        backend=backend.name, scenario=scenario.name, target=server.name, requests=len(latencies),
        errors=len(run.errors), seconds=round(run.elapsed, 3), rps=round(len(latencies) / run.elapsed, 1),
        p50_ms=round(common.percentile(latencies, 50) * 1000, 2),
        p95_ms=round(common.percentile(latencies, 95) * 1000, 2),
        p99_ms=round(common.percentile(latencies, 99) * 1000, 2),
        warmup_requests=len(warmup.latencies), warmup_errors=len(warmup.errors), audit_rows=audit_rows,
        error_samples=(warmup.errors + run.errors)[:5], audit_problems=problems,
    )


# -- checks before measuring -----------------------------------------------------------------------

def mint(server: common.Server, cred: op_token.Credential) -> str:
    response = httpx.post(server.base_url + TOKEN_PATH, content=op_token.token_form(cred), headers=FORM, timeout=30)
    assert response.status_code == 200, f"{server.name}: token for {cred.client_id}: HTTP {response.status_code} " \
                                        f"{response.text[:300]}"
    body = response.json()
    assert body.get("scope") == " ".join(SCOPES), f"{server.name}: token scope {body.get('scope')!r}"
    return str(body["access_token"])


def error_code(response: httpx.Response) -> str | None:
    try:
        body = response.json()
    except ValueError:
        return None
    return body.get("code") if isinstance(body, dict) else None


def verify_alike(servers: dict[str, common.Server], auth: dict[str, str], done: Setup, limit: int) -> list[str]:
    """Both targets answer the same reads and pages, refuse alike, and accept each other's cursors."""
    notes = []
    pid = next(iter(done.expected))
    bodies = {}
    for server in servers.values():
        response = httpx.get(f"{server.base_url}{LIST_PATH}/{pid}", headers=auth, timeout=30)
        problem = check_read(response, pid, done.expected[pid])
        assert problem is None, f"{server.name}: {problem}"
        bodies[server.name] = response.json()
    first, second = bodies.values()
    assert first == second, f"the targets read {pid} differently: {first} != {second}"
    notes.append(f"both read {pid} alike with ETag {done.expected[pid]} (fields {', '.join(first)})")
    for label, missing in (("a deleted asset", done.deleted_pid), (f"an asset of {OTHER_TENANT!r}",
                                                                    done.other_tenant_pid)):
        for server in servers.values():
            response = httpx.get(f"{server.base_url}{LIST_PATH}/{missing}", headers=auth, timeout=30)
            assert response.status_code == 404 and error_code(response) == "resource_not_found", (
                f"{server.name}: {label} answered HTTP {response.status_code} {response.text[:300]}")
    for server in servers.values():
        unknown = {"Authorization": "Bearer tat_" + secrets.token_urlsafe(32)}
        response = httpx.get(f"{server.base_url}{LIST_PATH}/{pid}", headers=unknown, timeout=30)
        assert response.status_code == 401 and error_code(response) == "invalid_token", (
            f"{server.name}: an unknown token answered HTTP {response.status_code} {response.text[:300]}")
    notes.append(f"both answer 404 resource_not_found for a deleted asset and for an asset of {OTHER_TENANT!r}, "
                 "and 401 invalid_token for an unknown token")
    pages = {}
    for server in servers.values():
        response = httpx.get(server.base_url + LIST_PATH, params={"limit": limit}, headers=auth, timeout=30)
        problem, _, cursor = check_page(response, limit)
        assert problem is None, f"{server.name}: first page: {problem}"
        pages[server.name] = (response.json()["items"], cursor)
    (first_items, cursor_a), (second_items, cursor_b) = pages.values()
    assert first_items == second_items, "the targets' first pages differ"
    if cursor_a is None or cursor_b is None:
        notes.append(f"both answer the same first page ({len(first_items)} items, no next page)")
        return notes
    names = list(servers)
    seconds = []
    for cursor, reader in ((cursor_a, servers[names[1]]), (cursor_b, servers[names[0]])):
        response = httpx.get(reader.base_url + LIST_PATH, params={"cursor": cursor, "limit": limit}, headers=auth,
                             timeout=30)
        problem, _, _ = check_page(response, limit)
        assert problem is None, f"{reader.name}, following the other target's cursor: {problem}"
        seconds.append(response.json()["items"])
    assert seconds[0] == seconds[1], "the second pages differ when each target follows the other's cursor"
    notes.append(f"both answer the same first page ({len(first_items)} items) and each follows the other's "
                 f"cursor to the same second page")
    return notes


# -- report ----------------------------------------------------------------------------------------

def ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 3) if a is not None and b else None


def versions(engine: Engine) -> dict[str, str]:
    if engine.dialect.name == "postgresql":
        return common.versions(engine)
    info = {"python": sys.version.split()[0], "sqlite": sqlite3.sqlite_version, "platform": platform.platform(),
            "cpus": str(os.cpu_count())}
    for package in ("connexion", "starlette", "uvicorn", "uvloop", "httptools", "sqlalchemy", "httpx"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            info[package] = metadata.version(package)
    return info


def print_table(results: list[Result]) -> dict[str, dict[str, float | None]]:
    header = (f"{'scenario':<18} {'target':<9} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} "
              f"{'requests':>8} {'errors':>6} | {'walks':>5} {'walk s':>7} | {'CPU ms/req: server':>18} "
              f"{'client':>6} {'postgres':>8} | {'host CPU':>8} {'other':>6} {'pg conns':>8}")
    log("\n" + header)
    log("-" * len(header))

    def ms(value: float | None) -> str:
        return "-" if value is None else f"{value:.2f}"

    def pct(value: float | None) -> str:
        return "-" if value is None else f"{value:.0f}%"

    for r in results:
        log(f"{r.scenario:<18} {r.target:<9} {r.rps:>8,.1f} {r.p50_ms:>8.2f} {r.p95_ms:>8.2f} {r.p99_ms:>8.2f} "
            f"{r.requests:>8,} {r.errors:>6,} | {'-' if r.walks is None else r.walks:>5} "
            f"{'-' if r.walk_s_p50 is None else f'{r.walk_s_p50:.3f}':>7} | {ms(r.server_cpu_ms):>18} "
            f"{ms(r.client_cpu_ms):>6} {ms(r.pg_cpu_ms):>8} | "
            f"{pct(r.host_cpu_pct):>8} {pct(r.other_cpu_pct):>6} "
            f"{'-' if r.pg_sessions_opened is None else r.pg_sessions_opened:>8}")
    log("(walks: req/s is pages per second, latencies are per page, walk s is the median wall time of one "
        "complete walk)")
    ratios: dict[str, dict[str, float | None]] = {}
    log("\ntessera / baseline:")
    for scenario in dict.fromkeys(r.scenario for r in results):
        pair = {r.target: r for r in results if r.scenario == scenario}
        if set(pair) != set(TARGETS):
            continue
        t, b = pair["tessera"], pair["baseline"]
        ratios[scenario] = {
            "rps": ratio(t.rps, b.rps), "p50": ratio(t.p50_ms, b.p50_ms), "p95": ratio(t.p95_ms, b.p95_ms),
            "p99": ratio(t.p99_ms, b.p99_ms), "walk_s_p50": ratio(t.walk_s_p50, b.walk_s_p50),
            "server_cpu_per_request": ratio(t.server_cpu_ms, b.server_cpu_ms),
        }
        parts = [f"{label} x{ratios[scenario][key]:.2f}" for key, label in
                 (("rps", "req/s"), ("p50", "p50"), ("p95", "p95"), ("p99", "p99"), ("walk_s_p50", "walk time"),
                  ("server_cpu_per_request", "server CPU/req")) if ratios[scenario][key] is not None]
        log(f"  {scenario:<18} " + "   ".join(parts))
    return ratios


def headline(results: list[Result], read: str, walk_loaded: str, walk_solo: str, count: int,
             limit: int) -> dict[str, Any]:
    by = {(r.scenario, r.target): r for r in results}
    figures: dict[str, Any] = {}

    def line(label: str, key: str, scenario: str, attribute: str, unit: str, digits: int) -> None:
        t, b = getattr(by[(scenario, "tessera")], attribute), getattr(by[(scenario, "baseline")], attribute)
        figures[key] = {"tessera": t, "baseline": b, "ratio": ratio(t, b)}
        shown = " ".join(f"{name} {'-' if v is None else f'{v:,.{digits}f}{unit}'}"
                         for name, v in (("tessera", t), ("baseline", b)))
        quotient = ratio(t, b)
        log(f"{label}: {shown} ratio {'-' if quotient is None else f'x{quotient:.2f}'}")

    log("")
    line("read by pid, requests per second", "read_rps", read, "rps", "", 1)
    line("read by pid, p95", "read_p95_ms", read, "p95_ms", " ms", 2)
    line(f"walk by cursor (limit {limit}), {walk_loaded}: pages per second", "walk_pages_per_s", walk_loaded, "rps",
         "", 1)
    line(f"walk by cursor (limit {limit}), {walk_loaded}: p95 per page", "walk_page_p95_ms", walk_loaded, "p95_ms",
         " ms", 2)
    line(f"one complete walk of {count:,} assets, {walk_solo}: median wall time", "walk_wall_s_solo", walk_solo,
         "walk_s_p50", " s", 3)
    line(f"one complete walk of {count:,} assets, {walk_loaded}: median wall time", "walk_wall_s_loaded",
         walk_loaded, "walk_s_p50", " s", 3)
    return figures


# -- one backend -----------------------------------------------------------------------------------

@dataclass
class BackendReport:
    backend: str
    failures: list[str] = field(default_factory=list)
    report: dict[str, Any] = field(default_factory=dict)


@contextlib.contextmanager
def running(servers: dict[str, common.Server]) -> Iterator[None]:
    try:
        yield
    finally:
        for server in servers.values():
            server.stop()


def run_backend(name: str, args: argparse.Namespace) -> BackendReport:
    out = BackendReport(name)
    failures = out.failures
    models_file = PROJECT_ROOT / "models.yaml"
    log(f"\n##### backend: {name} #####")
    with tempfile.TemporaryDirectory(prefix="tessera-bench-") as tmp:
        tmp_dir = Path(tmp)
        backend = _seed.create_backend(name, tmp_dir)
        log(f"database: {backend.label}")
        servers: dict[str, common.Server] = {}
        engine: Engine | None = None
        try:
            step = time.perf_counter()
            upgrade(backend.sqlalchemy_url)
            log(f"migrated in {time.perf_counter() - step:.1f} s")
            env = common.server_env(backend.url, secrets.token_urlsafe(48), tmp_dir / "var", models_file)
            env["TESSERA_RATE_LIMIT_TOKEN"] = str(RATE_LIMIT_TOKEN)
            done = setup(backend, env, args.assets)
            count = len(done.expected)
            log(f"set up in {done.seconds:.1f} s (records seeded in {done.seeded.seconds:.1f} s); "
                f"{count:,} live assets in tenant {TENANT!r}")
            if count != args.assets:
                log(f"NOTE: the tenant holds {count:,} live assets, not {args.assets:,}: walks are checked against "
                    f"{count:,}")

            with running(servers):
                for target, script in (("tessera", "_serve.py"), ("baseline", "_baseline_suite.py")):
                    servers[target] = common.start_server(target, script, env, tmp_dir)
                    log(f"{target} listening on {servers[target].base_url} (pid {servers[target].process.pid})")
                tokens = [mint(servers["tessera"], cred) for cred in done.credentials]
                auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
                log(f"issued {len(tokens)} bearer tokens through POST {TOKEN_PATH} (one per credential)")
                for note in verify_alike(servers, auth[0], done, args.limit):
                    log(f"verified: {note}")

                engine = make_engine(backend.sqlalchemy_url, pool_size=2) if name == "postgresql" \
                    else make_engine(backend.sqlalchemy_url)
                postmaster = op_token.postmaster_pid(backend.url) if name == "postgresql" else None
                pids = list(done.expected)
                random.Random(SEED).shuffle(pids)  # reads in no particular order
                walk_load_name = f"walk, {args.concurrency} clients"
                walk_solo_name = "walk, 1 client"
                scenarios = [
                    Scenario("read by pid", "read", args.concurrency, args.duration),
                    Scenario(walk_load_name, "walk", args.concurrency, args.duration),
                    Scenario(walk_solo_name, "walk", 1, None, walks=args.solo_walks, warmup=False),
                ]
                results: list[Result] = []
                for position, scenario in enumerate(scenarios):
                    # ABBA order, so a drift over the run (caches, the call audit table growing) favours neither.
                    for target in TARGETS if position % 2 == 0 else TARGETS[::-1]:
                        what = (f"{WARMUP_SECONDS:g} s warm-up + {args.duration:g} s, {scenario.concurrency} clients"
                                if scenario.seconds is not None else f"{scenario.walks} walks, one client")
                        log(f"running {scenario.name} against {target}: {what}")
                        result = measure(backend, scenario, servers[target], auth, done.expected, pids, args.limit,
                                         engine, postmaster)
                        results.append(result)
                        label = f"{name}, {scenario.name}, {target}"
                        if result.warmup_errors or result.errors:
                            failures.append(f"{label}: {result.warmup_errors} warm-up and {result.errors} measured "
                                            f"requests failed a check, e.g. {result.error_samples[:2]}")
                        failures.extend(f"{label}: {p}" for p in result.audit_problems)
                        if scenario.kind == "walk" and not result.walks:
                            if scenario.seconds is None:
                                failures.append(f"{label}: no complete walk")
                            else:  # the one-client walks check every walk; this run only had too little time
                                log(f"  NOTE: no walk completed within {args.duration:g} s; raise --duration for a "
                                    "walk time under load")
                        walked = f", {result.walks} complete walks of {count:,} pids" if result.walks else ""
                        log(f"  {result.requests:,} ok, {result.errors} failed{walked}; "
                            f"{result.audit_rows:,} open_api_calls rows")
                order = [s.name for s in scenarios]
                results.sort(key=lambda r: (order.index(r.scenario), TARGETS.index(r.target)))
                for server in servers.values():
                    if server.process.poll() is not None:
                        failures.append(f"{name}: {server.name} died during the run:\n{server.log_tail()}")
                    elif any(r.errors or r.warmup_errors for r in results if r.target == server.name):
                        log(f"\n{server.name} log (last lines):\n{server.log_tail(20)}")

            assert engine is not None
            info = versions(engine)
            log(f"\n=== Tessera Open Platform resource reads, {name} ===")
            log(f"Python {info['python']} | " + (info["postgresql"] if name == "postgresql"
                                                  else f"SQLite {info['sqlite']}"))
            log(f"{info['platform']} | {info['cpus']} CPUs | "
                + " ".join(f"{p} {info[p]}" for p in ("connexion", "starlette", "uvicorn", "sqlalchemy",
                                                        "psycopg", "httpx") if p in info))
            log(f"{count:,} live assets in {TENANT!r} (+{done.seeded.deleted:,} deleted, {done.seeded.stock_ins:,} "
                f"stock-ins, {done.seeded.other_tenant:,} assets of {OTHER_TENANT!r}) | limit {args.limit} | "
                f"{len(tokens)} tokens | concurrency {args.concurrency} | {args.duration:g} s per run "
                f"(+{WARMUP_SECONDS:g} s warm-up) | {args.solo_walks} one-client walks | ABBA order")
            ratios = print_table(results)
            headlines = headline(results, "read by pid", walk_load_name, walk_solo_name, count, args.limit)
            noisy = [f"{r.scenario}, {r.target}: the rest of the host used {r.other_cpu_pct:.0f}% of all CPUs"
                     for r in results if r.other_cpu_pct is not None and r.other_cpu_pct >= NOISY_PCT]
            noisy += [f"{r.scenario}, {r.target}: {r.other_db_xacts:,} transactions in other databases (their CPU "
                      "is in the postgres column)" for r in results if r.other_db_xacts]
            log("")
            for line in noisy:
                log(f"NOISY HOST: {line}")
            if not noisy:
                log(f"host quiet: the rest of the host used less than {NOISY_PCT:g}% of all CPUs in every run"
                    + (", and no other database had transactions" if name == "postgresql" else ""))
            out.report = {
                "versions": info,
                "database": backend.label,
                "setup": {"seconds": round(done.seconds, 1), "seed_seconds": round(done.seeded.seconds, 1),
                          "live_assets": count, **asdict(done.seeded), "application": done.app_pid,
                          "installation": done.installation_pid, "credentials": len(done.credentials)},
                "results": [asdict(r) for r in results],
                "ratios_tessera_over_baseline": ratios,
                "headline": headlines,
                "noisy_runs": noisy,
            }
        except AssertionError as exc:
            failures.append(f"{name}: check before measuring failed: {exc}")
            for server in servers.values():
                log(f"\n{server.name} log (last lines):\n{server.log_tail(20)}")
        finally:
            if engine is not None:
                engine.dispose()
            if args.keep_db and backend.path is not None:
                kept = RESULTS_FILE.parent / "open_read.sqlite3"  # the temporary directory goes away
                kept.parent.mkdir(parents=True, exist_ok=True)
                backend.path.replace(kept)
                log(f"database kept: sqlite:///{kept}")
            elif args.keep_db:
                log(f"database kept: {backend.url}")
            elif name == "postgresql":
                backend.drop()
                log(f"database {backend.label} dropped")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=(*BACKENDS, "both"), default="postgresql",
                        help="database to run against (default postgresql)")
    parser.add_argument("--assets", type=int, default=10_000, help="live assets in the tenant (default 10000)")
    parser.add_argument("--limit", type=int, default=op_resources.MAX_LIMIT,
                        help=f"page size of the walks (default {op_resources.MAX_LIMIT}, the maximum)")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds of load per scenario and target")
    parser.add_argument("--concurrency", type=int, default=8, help="concurrent clients (default 8)")
    parser.add_argument("--solo-walks", type=int, default=5, help="complete one-client walks per target (default 5)")
    parser.add_argument("--keep-db", action="store_true", help="keep the database afterwards and print its URL")
    args = parser.parse_args()
    if args.assets < 1 or args.duration <= 0 or args.concurrency < 1 or args.solo_walks < 1:
        parser.error("--assets, --duration, --concurrency and --solo-walks must be positive")
    if not 1 <= args.limit <= op_resources.MAX_LIMIT:
        parser.error(f"--limit must be between 1 and {op_resources.MAX_LIMIT}")

    started = time.perf_counter()
    backends = BACKENDS if args.backend == "both" else (args.backend,)
    if "postgresql" in backends:
        log(f"PostgreSQL admin database: {make_url(common.PG_ADMIN_URL).render_as_string(hide_password=True)}")
    reports = [run_backend(name, args) for name in backends]
    failures = [f for r in reports for f in r.failures]

    RESULTS_FILE.parent.mkdir(parents=True, exist_ok=True)
    RESULTS_FILE.write_text(json.dumps({
        "benchmark": "open_read",
        "finished_at": utcnow().isoformat(timespec="seconds"),
        "config": {
            "backends": list(backends), "assets": args.assets, "limit": args.limit, "duration_s": args.duration,
            "warmup_s": WARMUP_SECONDS, "concurrency": args.concurrency, "solo_walks": args.solo_walks,
            "credentials": CREDENTIALS, "tenant": TENANT, "environment": ENVIRONMENT, "scopes": SCOPES,
            "rate_limit_token": RATE_LIMIT_TOKEN,
        },
        "endpoints": {"read by pid": f"GET {LIST_PATH}/{{pid}}",
                      "walk": f"GET {LIST_PATH}?limit=L, then ?cursor=<nextCursor>&limit=L"},
        "backends": {r.backend: r.report for r in reports},
        "failures": failures,
    }, indent=2, ensure_ascii=False) + "\n")
    log(f"\nresults written to {RESULTS_FILE.relative_to(PROJECT_ROOT)}")
    for failure in failures:
        log(f"FAILED: {failure}")
    log(f"total time {time.perf_counter() - started:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
