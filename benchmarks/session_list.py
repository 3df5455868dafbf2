"""Benchmark of the session API list endpoint on PostgreSQL, against the independent baseline.

    .venv/bin/python benchmarks/session_list.py [--records 100000] [--duration 10] [--warmup 2] [--concurrency 8]
        [--keep-db] [--seed sql|python] [--no-declared-indexes] [--scenarios main|all] [--backend postgresql|sqlite]
        [--writes 0,1,10,50] [--targets tessera,baseline] [--execute SECONDS]

1. A fresh PostgreSQL database, migrated; one tenant with an admin user (through the services) and
   ``--records`` assets in bulk: by default in one ``INSERT ... SELECT`` over ``generate_series``
   (``seed_sql``: the demo's asset documents, same distributions, a million in about a minute), or with
   ``--seed python`` row by row from ``tessera.demo.asset_payload`` (``harness.seeding``); then
   ``VACUUM ANALYZE`` and ``CHECKPOINT`` (the change log's triggers stamp the bulk insert as a new epoch
   of the tenant's assets, ``storage.record_cache``). Then the indexes that follow ``models.yaml`` are synced as
   ``tessera migrate`` does (``storage.schema.record_indexes``), timed: the migration's run time on this table
   (``--no-declared-indexes`` skips it, for the figures before).
2. Tessera (``benchmarks/_serve.py``) and the baseline (``benchmarks/baseline``: a bare ASGI callable
   and psycopg 3 async or aiosqlite, the JWT verified, the user's membership and permissions in one
   query, the list's count and page in one pipeline, written by hand; nothing of Tessera's code), one
   uvicorn worker each in its own process.
3. Log in through ``POST /api/auth/login``; check both targets answer every scenario with 200 and the
   same records; then per scenario and target (ABBA order), ``--warmup`` seconds of warm-up (2 s) and
   ``--duration`` seconds from ``--concurrency`` httpx clients (``harness.clients``); with ``--writes``,
   every scenario once per rate, while a writer (``harness.writers``) creates, renames, moves in and
   out of the status filter and deletes assets through Tessera at that rate; with ``--execute``, the
   command execute figures (creates from ``--concurrency`` clients) after the lists.
4. The table (with CPU ms per request: server, client, PostgreSQL, the rest of the host) and the
   ratios; ``EXPLAIN ANALYZE`` of the count and page queries, planned for their values and as generic
   plans; ``benchmarks/results/session_list.json`` and ``.txt``; the database dropped (unless
   ``--keep-db``). Exit status 1 when a check failed.

The scenario: ``status eq in_stock`` + a keyword + ``sortField=name asc``, ``pageSize=10``, page 1 and
page 500. Page 500 must be full, so the keyword is the most selective candidate that still leaves
at least 5,000 matches in the seeded data (see ``KEYWORD_CANDIDATES``), unless ``--keyword`` is given.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import secrets
import sqlite3
import sys
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import asdict
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar, overload

import httpx
import psycopg
from harness import cli, clients, cpu, log, results, seeding
from harness.clients import Load
from harness.databases import fresh
from harness.servers import BASELINE, TESSERA, Server, running
from harness.writers import Writer
from psycopg import sql
from sqlalchemy.sql import ClauseElement

from storage import record_cache
from storage.drivers.db import make_engine
from storage.drivers.engine import Executor, Query, Result, Row, Statement, compiled_for
from storage.drivers.postgres import conninfo
from storage.records import RecordRepository
from tessera.demo import ASSET_KINDS, ASSIGNEES, asset_payload
from tessera.lists.contract import parse_list_request
from tessera.runtime import Runtime

TARGETS = (TESSERA, BASELINE)
TENANT = "bench"
EMAIL = "admin@bench.example"
MODEL = "asset"
PAGE_KEY = "assets"
BATCH = 10_000
PAGE_SIZE = 10
DEEP_PAGE = 500
STATUS_FILTER = [{"fieldName": "status", "operator": "eq", "value": "in_stock"}]
# Most selective first. "thinkpad" is one asset kind in ten (about 5% of records with the filter),
# "ati" two (Dell Latitude, Docking Station), "-sn-" is in every serial number (the fallback for
# small data sets, where nothing selective leaves page 500 full).
KEYWORD_CANDIDATES = ("thinkpad", "ati", "-sn-")


def _condition(field: str, operator: str, value: Any = None) -> dict[str, Any]:
    return {"fieldName": field, "operator": operator, **({} if value is None else {"value": value})}


# ``--scenarios all``: beside the main one (keyword + status + name, the issue's), the list without a
# keyword, a sort on each sortable field of the page, and each operator on an indexed field. Each
# is (filters, keyword or None for the chosen one, sortField, sortOrder); every one leaves page 500
# full at 100,000 records and more (statuses are drawn 2:1:1, values uniform in 50-5000).
EXTRA_SCENARIOS: dict[str, tuple[list[dict[str, Any]], str, str, str]] = {
    "no keyword": (STATUS_FILTER, "", "name", "asc"),
    "sort serialNo asc": (STATUS_FILTER, "", "serialNo", "asc"),
    "sort status desc": ([_condition("value", "gt", 2500)], "", "status", "desc"),
    "sort assignee asc": ([_condition("status", "eq", "assigned")], "", "assignee", "asc"),
    "sort value desc": (STATUS_FILTER, "", "value", "desc"),
    "sort purchasedAt asc": (STATUS_FILTER, "", "purchasedAt", "asc"),
    "sort created_at desc": (STATUS_FILTER, "", "created_at", "desc"),
    "status ne": ([_condition("status", "ne", "assigned")], "", "name", "asc"),
    "status in": ([_condition("status", "in", ["assigned", "retired"])], "", "name", "asc"),
    "status not_in": ([_condition("status", "not_in", ["in_stock"])], "", "name", "asc"),
    "value gt": ([_condition("value", "gt", 4000)], "", "name", "asc"),
    "value gte + lte": ([_condition("value", "gte", 1000), _condition("value", "lte", 1500)], "", "name", "asc"),
    "value lt": ([_condition("value", "lt", 500)], "", "name", "asc"),
    "name like": ([_condition("name", "like", "Monitor")], "", "name", "asc"),
    "assignee is_null": ([_condition("assignee", "is_null")], "", "name", "asc"),
    "assignee is_not_null": ([_condition("assignee", "is_not_null")], "", "name", "asc"),
}


ASSET_KINDS_SQL = "ARRAY[" + ", ".join(f"'{k}'" for k in ASSET_KINDS) + "]"
ASSIGNEES_SQL = "ARRAY[" + ", ".join(f"'{a}'" for a in ASSIGNEES) + "]"


def seed_sql(url: str, tenant_id: int, tenant: str, user_id: int, count: int, first: datetime) -> float:
    """``count`` asset records in one statement, as ``tessera.demo.asset_payload`` makes them (a kind in
    ten for the name, status in_stock half the time, an assignee when assigned, value and purchase date
    uniform), created one second apart from ``first``; returns the seconds it took."""
    started = time.perf_counter()
    statement = f"""
        INSERT INTO records (tenant_id, model, pid, version, data, search_text, created_by, created_at, updated_at)
        SELECT %(tenant_id)s, 'asset', 'rec_' || md5(%(salt)s || g), 1, doc,
               lower(doc ->> 'name') || E'\\n' || lower(doc ->> 'serialNo'), %(user_id)s,
               %(first)s::timestamp + make_interval(secs => g), %(first)s::timestamp + make_interval(secs => g)
        FROM (
            SELECT g, jsonb_build_object(
                'name', kind || ' #' || lpad(g::text, greatest(5, length(g::text)), '0'),
                'serialNo', %(prefix)s || '-SN-' || lpad(g::text, greatest(6, length(g::text)), '0'),
                'status', status,
                'assignee', CASE WHEN status = 'assigned' THEN ({ASSIGNEES_SQL})[1 + floor(random() * 6)::int] END,
                'value', round((50 + random() * 4950)::numeric, 2),
                'purchasedAt', to_char(date '2022-01-01' + floor(random() * 1400)::int, 'YYYY-MM-DD')) AS doc
            FROM (SELECT g, ({ASSET_KINDS_SQL})[1 + floor(random() * 10)::int] AS kind,
                         (ARRAY['in_stock', 'in_stock', 'assigned', 'retired'])[1 + floor(random() * 4)::int] AS status
                  FROM generate_series(1, %(count)s) AS g) AS drawn
        ) AS made"""
    engine = make_engine(url)
    with engine.begin() as conn:  # one transaction, not logged row by row
        record_cache.epoch_writes(conn, "asset", tenant_id)
        conn.exec_driver_sql("SELECT setseed(0.42)")
        conn.exec_driver_sql(statement, {"tenant_id": tenant_id, "salt": secrets.token_hex(8), "user_id": user_id,
                                         "first": first.replace(tzinfo=None), "prefix": tenant.upper(),
                                         "count": count})
    engine.dispose()
    seconds = time.perf_counter() - started
    log(f"  seeded {count:,} records in one INSERT ... SELECT: {seconds:.1f} s")
    return seconds


def seed_sqlite(path: Path | None, tenant_id: int, tenant: str, user_id: int, count: int, first: datetime) -> float:
    """``seed_sql`` for SQLite: one ``INSERT ... SELECT`` over a recursive counter."""
    assert path is not None
    started = time.perf_counter()
    kinds = "json_array(" + ", ".join(f"'{k}'" for k in ASSET_KINDS) + ")"
    assignees = "json_array(" + ", ".join(f"'{a}'" for a in ASSIGNEES) + ")"
    statement = f"""
        WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM g WHERE i < :count),
        drawn AS MATERIALIZED (SELECT i, json_extract({kinds}, '$[' || (abs(random()) % 10) || ']') AS kind,
                         json_extract(json_array('in_stock', 'in_stock', 'assigned', 'retired'),
                                      '$[' || (abs(random()) % 4) || ']') AS status FROM g),
        made AS MATERIALIZED (SELECT i, json_object(
                    'name', kind || ' #' || substr('0000' || i, -max(5, length(i))),
                    'serialNo', :prefix || '-SN-' || substr('00000' || i, -max(6, length(i))),
                    'status', status,
                    'assignee', CASE WHEN status = 'assigned'
                                THEN json_extract({assignees}, '$[' || (abs(random()) % 6) || ']') END,
                    'value', round(50 + (abs(random()) % 495000) / 100.0, 2),
                    'purchasedAt', date('2022-01-01', '+' || (abs(random()) % 1400) || ' days')) AS doc FROM drawn)
        INSERT INTO records (tenant_id, model, pid, version, data, search_text, created_by, created_at, updated_at)
        SELECT :tenant_id, 'asset', 'rec_' || lower(hex(randomblob(16))), 1, doc,
               lower(json_extract(doc, '$.name')) || char(10) || lower(json_extract(doc, '$.serialNo')), :user_id,
               strftime('%Y-%m-%d %H:%M:%S.000000', :first, '+' || i || ' seconds'),
               strftime('%Y-%m-%d %H:%M:%S.000000', :first, '+' || i || ' seconds')
        FROM made"""
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(statement, {"count": count, "prefix": tenant.upper(), "tenant_id": tenant_id, "user_id": user_id,
                                 "first": first.replace(tzinfo=None).strftime("%Y-%m-%d %H:%M:%S")})
        conn.execute("COMMIT")
    seconds = time.perf_counter() - started
    log(f"  seeded {count:,} records in one INSERT ... SELECT: {seconds:.1f} s")
    return seconds


def sqlite_plans(rt: Runtime, tenant_id: int, keyword: str) -> dict[str, Any]:
    """SQLite's ``EXPLAIN QUERY PLAN`` of the statements the list code sends, pages 1 and ``DEEP_PAGE``."""
    plans: dict[str, Any] = {}
    path = rt.settings.database_url.removeprefix("sqlite:///")
    for page in (1, DEEP_PAGE):
        statements: list[tuple[str, Any]] = []
        forget_counts()
        seeding.run(rt, run_list(rt, tenant_id, list_params(keyword, page), statements))  # the list read once
        seeding.run(rt, run_list(rt, tenant_id, list_params(keyword, page), statements))  # then followed
        with contextlib.closing(sqlite3.connect(path)) as conn:
            for statement, parameters in statements:
                if "FROM records" not in statement and "record_changes" not in statement:
                    continue
                plan = [str(row[-1]) for row in conn.execute("EXPLAIN QUERY PLAN " + statement, parameters)]
                plans[f"page {page}: {statement[:60]}"] = {"sql": statement, "plan": plan}
                log(f"\n--- EXPLAIN QUERY PLAN, page {page} ---\n{statement}\n" + "\n".join("    " + p for p in plan))
    return plans


def sync_indexes(rt: Runtime) -> float | None:
    """``tessera migrate``'s index sync (``storage.schema.record_indexes``) on the seeded table: its seconds, or
    None where this tree has no such step."""
    try:
        from storage.schema import record_indexes
    except ImportError:
        return None
    report = record_indexes.sync(rt.settings.database_url, rt.declarations.models.values())
    log(f"declared indexes synced in {report.seconds:.1f} s: built {', '.join(report.created) or 'none'}; "
        f"kept {len(report.kept)}; dropped {len(report.dropped)}")
    return float(report.seconds)


def forget_counts() -> None:
    """The in-process list cache emptied, so the statements that fill it run (and are explained) again."""
    record_cache.LISTS.clear()


def list_params(keyword: str, page_num: int, filters: list[dict[str, Any]] | None = None, sort_field: str = "name",
                sort_order: str = "asc") -> dict[str, str]:
    """The query of one list request: the main scenario's unless told otherwise."""
    params = {"pageNum": str(page_num), "pageSize": str(PAGE_SIZE), "sortField": sort_field, "sortOrder": sort_order,
              "filters": json.dumps(STATUS_FILTER if filters is None else filters, separators=(",", ":"))}
    return {**params, "keyword": keyword} if keyword else params


async def run_list(rt: Runtime, tenant_id: int, params: dict[str, str],
                   sent: list[tuple[str, Any]] | None = None) -> tuple[int, list[Any]]:
    """The service's own list code, run in process as a request runs it (on the database, with its
    cache): (total, rows); with ``sent``, the SQL and parameters it sends are appended to it."""
    executor: Executor = rt.db if sent is None else Recording(rt.db, sent)
    repo = RecordRepository(executor, tenant_id, rt.declarations.models[MODEL])
    rows, total = await repo.page(parse_list_request(params, repo.list_fields()))
    return total, rows


def creates(base_url: str, headers: dict[str, str], concurrency: int) -> Any:
    """``run(seconds, offset)`` for ``measure``: ``concurrency`` clients executing ``assets:create``
    back to back (a fresh serial number each), each answer checked to be 200 with code "0"."""
    url = f"{base_url}/api/meta/commands/execute/{PAGE_KEY}:create"

    def check(response: httpx.Response) -> str | None:
        ok = response.status_code == 200 and clients.json_body(response).get("code") == "0"
        return None if ok else f"HTTP {response.status_code}: {response.text[:200]}"

    async def turn(client: httpx.AsyncClient, load: Load, n: int) -> None:
        serial = f"{n:07d}-{secrets.token_hex(3)}"
        await load.send(client, "POST", url, check, headers=headers, json={
            "payload": {"name": f"Bench create #{serial}", "serialNo": f"BC-SN-{serial}", "status": "in_stock"}})

    return lambda seconds, offset: clients.drive(concurrency, seconds, turn, offset)


def choose_keyword(rt: Runtime, tenant_id: int, forced: str | None) -> tuple[str, int]:
    needed = PAGE_SIZE * DEEP_PAGE
    for keyword in [forced] if forced else KEYWORD_CANDIDATES:
        total, _ = seeding.run(rt, run_list(rt, tenant_id, list_params(keyword, 1)))
        log(f"  keyword {keyword!r} with status eq in_stock: {total:,} matches")
        if total >= needed:
            return keyword, total
    raise SystemExit(f"no keyword leaves {needed:,} matches (page {DEEP_PAGE} of size {PAGE_SIZE} would not be "
                     "full); seed more records or pass --keyword")


def verify(servers: dict[str, Server], paths: dict[str, str], headers: dict[str, str]) -> None:
    """Every target answers every scenario with 200, ``PAGE_SIZE`` records and the same ones."""
    for scenario, path in paths.items():
        answers = {}
        for name, server in servers.items():
            response = httpx.get(server.base_url + path, headers=headers, timeout=30)
            assert response.status_code == 200, f"{name} {scenario}: HTTP {response.status_code} {response.text[:500]}"
            body = response.json()
            assert body["code"] == "0", f"{name} {scenario}: {body}"
            data = answers[name] = body["data"]
            assert len(data["records"]) == PAGE_SIZE, f"{name} {scenario}: {len(data['records'])} records"
            assert data["total"] >= PAGE_SIZE * DEEP_PAGE, f"{name} {scenario}: total {data['total']}"
        first, *others = answers.values()
        assert all(o == first for o in others), f"{scenario}: the targets disagree:\n{json.dumps(answers)[:3000]}"
        log(f"verified {scenario}: every target answers 200 with the same {PAGE_SIZE} records (total "
            f"{first['total']:,}, first {first['records'][0]['name']!r})")


def first_after_write(servers: dict[str, Server], paths: dict[str, str], headers: dict[str, str],
                      rounds: int = 3) -> dict[str, dict[str, float]]:
    """Milliseconds of the first list request after a write to the model (median of ``rounds``): the
    list follows the write (``storage.record_cache``) instead of being read again. The write is a
    create through Tessera's session API; the baseline caches nothing, so its figure is its steady
    cost."""
    figures: dict[str, dict[str, float]] = {}
    tessera = servers[TESSERA.name].base_url
    for scenario, path in paths.items():
        for name, server in servers.items():
            times = []
            for _ in range(rounds):
                serial = secrets.token_hex(6)
                created = httpx.post(f"{tessera}/api/meta/commands/execute/{PAGE_KEY}:create", headers=headers,
                                     json={"payload": {"name": f"Bench write {serial}", "serialNo": f"BW-{serial}",
                                                       "status": "in_stock"}}, timeout=30)
                assert created.status_code == 200, f"create: HTTP {created.status_code} {created.text[:300]}"
                started = time.perf_counter()
                response = httpx.get(server.base_url + path, headers=headers, timeout=120)
                times.append((time.perf_counter() - started) * 1000)
                assert response.status_code == 200, f"{name} {scenario}: HTTP {response.status_code}"
            figures.setdefault(scenario, {})[name] = sorted(times)[len(times) // 2]
            log(f"  first list after a write, {scenario}, {name}: {figures[scenario][name]:,.1f} ms "
                f"(median of {rounds})")
    return figures


# -- EXPLAIN ----------------------------------------------------------------------------------------

R = TypeVar("R", bound=tuple[Any, ...])
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
NODE_ROWS = re.compile(r"->\s+(.+?)\s+\(cost=\S+ rows=(\d+) width=\d+\) \(actual time=\S+ rows=(\d+) loops=(\d+)\)")


class Recording:
    """An executor that runs every statement on ``inner`` and keeps the SQL text and parameters the driver
    gets for it (compiled and bound as ``storage.drivers.postgres`` does) in ``sent``; over a database, its
    transactions (``read``) are recorded too."""

    def __init__(self, inner: Executor, sent: list[tuple[str, Any]]) -> None:
        self.inner = inner
        self.sent = sent

    @contextlib.asynccontextmanager
    async def read(self) -> AsyncIterator[Recording]:
        async with self.inner.read() as tx:  # type: ignore[attr-defined]
            yield Recording(tx, self.sent)

    @property
    def dialect(self) -> str:
        return str(self.inner.dialect)

    def _keep(self, statement: Statement[Any] | Query[Any] | ClauseElement, params: Mapping[str, Any] | None) -> None:
        compiled, extracted = compiled_for(statement, self.inner.dialect)
        self.sent.append(compiled.bind(params, extracted))

    @overload
    async def execute(self, statement: Statement[R] | Query[R], params: Mapping[str, Any] | None = None) -> Result[R]:
        ...

    @overload
    async def execute(self, statement: ClauseElement, params: Mapping[str, Any] | None = None) -> Result[Row]: ...

    async def execute(self, statement: Statement[Any] | Query[Any] | ClauseElement,
                      params: Mapping[str, Any] | None = None) -> Result[Any]:
        self._keep(statement, params)
        return await self.inner.execute(statement, params)

    async def enqueue(self, statement: Statement[Any] | Query[Any] | ClauseElement,
                      params: Mapping[str, Any] | None = None) -> None:
        self._keep(statement, params)
        await self.inner.enqueue(statement, params)

    async def execute_many(self, statement: Statement[Any], rows: Sequence[Mapping[str, Any]]) -> None:
        for row in rows:
            self._keep(statement, row)
        await self.inner.execute_many(statement, rows)


def explain_plans(rt: Runtime, tenant_id: int, keyword: str) -> dict[str, Any]:
    """EXPLAIN ANALYZE of the statements the list code sends, for page 1 and page ``DEEP_PAGE``.

    Each statement is explained twice: planned for its actual values (what the first executions on a
    connection get) and as a generic plan (what PostgreSQL may switch to once psycopg has prepared
    the statement, after 5 executions per connection; then it is one plan for every page).
    """
    captured: list[tuple[str, str, dict[str, Any]]] = []
    for label, page in (("page 1", 1), (f"page {DEEP_PAGE}", DEEP_PAGE)):
        statements: list[tuple[str, Any]] = []
        forget_counts()
        seeding.run(rt, run_list(rt, tenant_id, list_params(keyword, page), statements))  # the list read once
        seeding.run(rt, run_list(rt, tenant_id, list_params(keyword, page), statements))  # then followed
        for statement, parameters in statements:
            if "FROM records" not in statement and "record_changes" not in statement:
                continue  # the stamp's and the collation's lookups
            head = statement.lstrip().upper()
            kind = ("changes since" if "RECORD_CHANGES" in head
                    else "count" if head.startswith("SELECT COUNT")
                    else "ordered ids" if head.startswith("SELECT RECORDS.ID,")
                    else "rows by id" if "RECORDS.ID IN" in head else "page")
            if kind in {"count", "changes since"} and any(c[0].startswith(kind) for c in captured):
                continue  # the same for every page
            captured.append((f"{kind} query" + ("" if kind in {"count", "changes since"} else f", {label}"),
                             statement, parameters))
    plans: dict[str, Any] = {}
    with psycopg.connect(conninfo(rt.settings.database_url), autocommit=True) as conn:
        for label, statement, parameters in captured:
            custom = [r[0] for r in conn.execute("EXPLAIN (ANALYZE, BUFFERS) " + statement, parameters)]
            names: list[str] = []

            def positional(match: re.Match[str], names: list[str] = names) -> str:
                if match.group(1) not in names:
                    names.append(match.group(1))
                return f"${names.index(match.group(1)) + 1}"

            prepared = PLACEHOLDER.sub(positional, statement).replace("%%", "%")
            execute = sql.SQL("EXECUTE bench_stmt ({})").format(sql.SQL(", ").join(sql.Literal(parameters[n])
                                                                                   for n in names))
            conn.execute(sql.SQL("PREPARE bench_stmt AS {}").format(sql.SQL(prepared)))
            try:
                # What the planner settles on with the default plan_cache_mode (auto) once the
                # statement is prepared: 5 custom plans, then the generic one if it looks no dearer.
                for _ in range(10):
                    conn.execute(execute).fetchall()
                chosen = conn.execute("SELECT generic_plans, custom_plans FROM pg_prepared_statements "
                                      "WHERE name = 'bench_stmt'").fetchone()
                conn.execute("SET plan_cache_mode = force_generic_plan")
                generic = [r[0] for r in conn.execute(sql.SQL("EXPLAIN (ANALYZE, BUFFERS) {}").format(execute))]
            finally:
                conn.execute("RESET plan_cache_mode")
                conn.execute("DEALLOCATE bench_stmt")
            plans[label] = {"sql": statement, "parameters": {k: str(v) for k, v in parameters.items()},
                            "custom_plan": custom, "generic_plan": generic,
                            "steady_state": {"generic_plans": chosen[0], "custom_plans": chosen[1]} if chosen else None}
    return plans


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
        factor = max(max(estimated, 1) / max(actual, 1), max(actual, 1) / max(estimated, 1))
        if factor >= 10 and (worst is None or factor > worst[0]):
            direction = "under" if actual > estimated else "over"
            worst = (factor, f"rows {direction}estimated {factor:.0f}x on {match.group(1)} "
                             f"(estimated {estimated:,}, actual {actual:,})")
    return worst[1] if worst else None


def scan_findings(plan: list[str]) -> list[str]:
    text = "\n".join(plan)
    used = re.findall(r"(?:Bitmap Index Scan on|Index (?:Only )?Scan(?: Backward)? using) (\w+)", text)
    findings = [f"uses index {index}" for index in dict.fromkeys(used)]
    if re.search(r"Seq Scan on records", text):
        findings.append("SEQUENTIAL SCAN over records")
    if sort := re.search(r"Sort Method: ([^\n]+)", text):
        findings.append(f"sort: {sort.group(1).strip()}")
    if worst := worst_estimate(plan):
        findings.append(worst)
    if timing := re.search(r"Execution Time: ([\d.]+) ms", text):
        findings.append(f"execution {timing.group(1)} ms")
    return findings


def print_plans(plans: dict[str, Any]) -> list[str]:
    warnings = []
    for label, plan in plans.items():
        log(f"\n--- EXPLAIN ANALYZE, {label} ---\n{plan['sql']}\nparameters: "
            + json.dumps(plan["parameters"], ensure_ascii=False))
        log("\n  planned for its values (custom plan):\n" + "\n".join("    " + line for line in plan["custom_plan"]))
        log("  generic plan (prepared statement, plan_cache_mode=force_generic_plan):\n"
            + "\n".join("    " + line for line in plan["generic_plan"]))
        if steady := plan["steady_state"]:
            log(f"  prepared, plan_cache_mode=auto, 10 executions: {steady['generic_plans']} generic, "
                f"{steady['custom_plans']} custom plans -> the {'generic' if steady['generic_plans'] else 'custom'} "
                "plan is used in steady state")
        for kind in ("custom_plan", "generic_plan"):
            findings = scan_findings(plan[kind])
            log(f"  {kind.replace('_', ' ')}: " + "; ".join(findings))
            if any("SEQUENTIAL" in f for f in findings):
                warnings.append(f"{label}: the {kind.replace('_', ' ')} reads records sequentially")
    return warnings


# -- the run ----------------------------------------------------------------------------------------

def main() -> int:
    args = (cli.Arguments(__doc__, "session_list").backend().records(100_000, 1, what="asset records to seed")
            .duration(10.0).warmup(2.0).concurrency(8)
            .add("--keyword", help="keyword to search (default: chosen from the data, see the docstring)")
            .add("--seed", choices=("sql", "python"), default="sql",
                 help="seed in one INSERT ... SELECT (default) or row by row through Python")
            .add("--scenarios", choices=("main", "all"), default="main",
                 help="the main scenario only (default), or also EXTRA_SCENARIOS: no keyword, each sort, each operator")
            .writes("a writer of creates, renames, status changes and deletes through Tessera's session API "
                    "(harness.writers)")
            .add("--targets", default="tessera,baseline", help="targets to measure, comma-separated (default "
                                                                "tessera,baseline)")
            .check(lambda a: set(a.targets.split(",")) <= {t.name for t in TARGETS},
                   f"--targets: choose of {','.join(t.name for t in TARGETS)}")
            .add("--execute", type=float, default=0.0, help="seconds of command execute (creates from --concurrency "
                                                            "clients) to measure after the lists (default 0: none)")
            .add("--no-declared-indexes", action="store_true",
                 help="skip the index sync of tessera migrate (the figures before it existed)").keep_db()).parse()

    started = time.perf_counter()
    failures: list[str] = []
    postgres = args.backend == "postgresql"
    with fresh(args.backend, "session_list", args.keep_db) as ws, seeding.runtime(ws.env) as rt:
        admin = seeding.run(rt, seeding.tenant_admin(rt, TENANT, EMAIL, platform_role=False))
        tenant_id, model, rng = admin.tenant_ids[TENANT], rt.declarations.models[MODEL], random.Random(seeding.SEED)
        serials = [0]

        def make(_kind: str, created: datetime) -> dict[str, Any]:
            serials[0] += 1
            return seeding.record_row(tenant_id, model, asset_payload(rng, TENANT, serials[0]), admin.actor.user_id,
                                      created)

        if args.seed == "sql":
            first = rt.clock.now() - timedelta(seconds=args.records + 1)
            seed_seconds = (seed_sql(ws.backend.sqlalchemy_url, tenant_id, TENANT, admin.actor.user_id, args.records,
                                     first)
                            if postgres else seed_sqlite(ws.backend.path, tenant_id, TENANT, admin.actor.user_id,
                                                         args.records, first))
            with seeding.direct(rt) as engine:
                seeding.analyze(engine)
        else:
            seed_seconds = seeding.seed_mix(rt, rng, {"assets": args.records}, make, BATCH)
        index_seconds = None if args.no_declared_indexes else sync_indexes(rt)
        keyword, matches = choose_keyword(rt, tenant_id, args.keyword)
        log(f"keyword: {keyword!r} ({matches:,} matches with status eq in_stock)")
        paths = {f"page {page}": f"/api/dynamic/{PAGE_KEY}/list?{httpx.QueryParams(list_params(keyword, page))}"
                 for page in (1, DEEP_PAGE)}
        if args.scenarios == "all":
            paths |= {f"{name}, page {page}": f"/api/dynamic/{PAGE_KEY}/list?"
                      f"{httpx.QueryParams(list_params(word, page, filters, field, order))}"
                      for name, (filters, word, field, order) in EXTRA_SCENARIOS.items() for page in (1, DEEP_PAGE)}
        postmaster = cpu.postmaster_pid(ws.backend.url) if postgres else None
        targets = [t for t in TARGETS if t.name in args.targets.split(",")]
        rates = [float(r) for r in args.writes.split(",")]
        with seeding.direct(rt) as engine, engine.connect() as conn:
            pids = [row[0] for row in conn.exec_driver_sql(
                f"SELECT pid FROM records WHERE tenant_id = {int(tenant_id)} AND model = '{MODEL}' "
                "AND deleted_at IS NULL ORDER BY random() LIMIT 20000")]
        with running(targets, ws.env, ws.tmp) as servers, \
                (psycopg.connect(ws.backend.url, autocommit=True) if postgres else contextlib.nullcontext()) as pg:
            login = httpx.post(f"{servers['tessera'].base_url}/api/auth/login",
                               json={"email": EMAIL, "password": admin.password}, timeout=30)
            assert login.status_code == 200, f"login failed: HTTP {login.status_code} {login.text}"
            headers = {"Authorization": f"Bearer {login.json()['data']['jwt']}"}
            verify(servers, paths, headers)
            after_write = first_after_write(servers, {k: v for k, v in paths.items() if k.startswith("page ")},
                                            headers)
            found, writes = [], {}
            for rate in rates:
                label = f" @ {rate:g} w/s" if rates != [0.0] else ""
                scenarios = [(name + label, path) for name, path in paths.items()]
                def one(i: int, server: Server, scenarios: list[tuple[str, str]] = scenarios) -> clients.Result:
                    return clients.measure(scenarios[i][0], server,
                                           clients.gets(server.base_url + scenarios[i][1], headers, args.concurrency),
                                           args.duration, args.warmup, postmaster, pg)[0]

                with Writer(servers["tessera"].base_url, headers, PAGE_KEY, pids, ASSET_KINDS, rate) as writer:
                    found += clients.compare(
                        [(name, f"{args.warmup:g} s warm-up + {args.duration:g} s, {args.concurrency} clients"
                          f"{label}") for name, _ in scenarios], servers, one)
                pids = writer.pids
                writes[f"{rate:g}"] = writer.writes.figures()
                log(f"writer at {rate:g}/s: {json.dumps(writes[f'{rate:g}'])}")
                failures += [f"writer at {rate:g}/s: {writer.writes.failed} writes failed, e.g. "
                             f"{writer.writes.samples[:2]}"] if writer.writes.failed else []
            if args.execute:
                found += [clients.measure("command execute (create)", server, creates(server.base_url, headers,
                                                                                    args.concurrency),
                                          args.execute, args.warmup, postmaster, pg)[0]
                          for server in servers.values()]
            failures += clients.failures(found, servers)
        with seeding.direct(rt) as engine:
            info = results.versions(engine)
        lines, ratios = clients.summary(
            "Tessera session list benchmark", info,
            f"records: {args.records:,} | keyword {keyword!r} + status eq in_stock ({matches:,} matches) | sort name "
            f"asc | pageSize {PAGE_SIZE} | concurrency {args.concurrency} | {args.duration:g} s per run "
            f"(+{args.warmup:g} s warm-up) | ABBA order", found)
        log("\n" + "\n".join(lines))
        plans = explain_plans(rt, tenant_id, keyword) if postgres else sqlite_plans(rt, tenant_id, keyword)
        warnings = print_plans(plans) if postgres else []
        log("")
        log("\n".join(f"WARNING: {w}" for w in warnings) or "No sequential scan over records in any plan.")
    return cli.conclude(args, {
        "versions": info,
        "config": {"warmup_s": args.warmup, "keyword": keyword, "matches": matches, "filters": STATUS_FILTER,
                   "sortField": "name", "sortOrder": "asc", "pageSize": PAGE_SIZE,
                   "seed_seconds": round(seed_seconds, 1), "seed": args.seed,
                   "index_sync_seconds": None if index_seconds is None else round(index_seconds, 1)},
        "paths": paths, "first_after_write_ms": after_write, "writes": writes,
        "results": [asdict(r) for r in found], "ratios": ratios, "explain": plans,
        "plan_warnings": warnings,
    }, lines, failures, started, printed=True)


if __name__ == "__main__":
    sys.exit(main())
