"""Benchmark of the audit-log search (``GET /api/audit/list``) over a large audit log, on PostgreSQL.

    .venv/bin/python benchmarks/audit_search.py [--rows 1000000] [--duration 5] [--warmup 2] [--concurrency 8]
        [--keep-db] [--writes 0,1,10,50]

The audit search shares the session list contract (exact ``total``, numbered pages, filters, a
keyword, a sort); this is the issue's question of how it behaves when a tenant's audit log is large.

1. A fresh PostgreSQL database, migrated; one tenant with an administrator (through the services);
   ``--rows`` audit entries of that tenant in one ``INSERT ... SELECT`` over ``generate_series``
   (actions, actors and target types drawn from small sets as commands and token issues write them,
   one second apart), and a tenth as many of another tenant, which no answer may include; then
   ``VACUUM ANALYZE``.
2. Tessera (``benchmarks/_serve.py``), one uvicorn worker in its own process. There is no baseline:
   the independent one (``benchmarks/baseline``) has no audit search, and this benchmark asks how the
   figures grow with the log, which the same run at another ``--rows`` answers.
3. Each scenario at page 1 and page 500 (``pageSize`` 10): checked once (200, ten entries, the exact
   total against a ``count(*)`` of its own), then ``--warmup`` seconds of warm-up (2 s) and ``--duration``
   seconds from ``--concurrency`` httpx clients (``harness.clients``), with CPU ms per request of the
   server and of PostgreSQL; with ``--writes``, every scenario once per rate while a writer creates
   assets through the session API at that rate (each create appends an audit entry).
4. The table and ``EXPLAIN (ANALYZE, BUFFERS)`` of each scenario's count and page 500; ``benchmarks/results/
   audit_search.json`` and ``.txt``; the database dropped (unless ``--keep-db``). Exit status 1 when a
   check failed.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import sys
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import psycopg
from harness import cli, clients, cpu, log, results, seeding
from harness.databases import fresh
from harness.servers import TESSERA, Server, running
from harness.writers import Writer

TENANT, OTHER = "bench", "other"
EMAIL = "admin@bench.example"
PAGE_SIZE = 10
DEEP_PAGE = 500
ACTIONS = ("assets:update", "assets:create", "assets.assign", "oauth.token.issue", "stock-ins:create",
           "credential.rotate", "webhook.endpoint.update", "automation.run")
ACTORS = ("alice@bench.example", "bob@bench.example", "carol@bench.example", "dana@bench.example",
          "tcli_erp_sync", "tcli_robot_fleet")
TARGET_TYPES = ("asset", "stockIn", "installation", "credential")


def _sql_array(values: tuple[str, ...]) -> str:
    return "ARRAY[" + ", ".join(f"'{v}'" for v in values) + "]"


def seed_audit(url: str, tenant_id: int, count: int, first: datetime) -> float:
    """``count`` audit rows of ``tenant_id`` in one statement; returns the seconds it took."""
    started = time.perf_counter()
    statement = f"""
        INSERT INTO audit_log (pid, tenant_id, actor_user_id, actor, action, target_type, target_id, before,
                               after, request_id, application_id, created_at)
        SELECT 'aud_' || md5(%(salt)s || g), %(tenant_id)s, NULL,
               ({_sql_array(ACTORS)})[1 + floor(random() * {len(ACTORS)})::int],
               ({_sql_array(ACTIONS)})[1 + floor(random() * {len(ACTIONS)})::int],
               ({_sql_array(TARGET_TYPES)})[1 + floor(random() * {len(TARGET_TYPES)})::int],
               'rec_' || substr(md5('t' || (g %% 50000)), 1, 26),
               CASE WHEN g %% 3 = 0 THEN jsonb_build_object('status', 'in_stock') END,
               jsonb_build_object('status', 'assigned', 'n', g),
               md5('r' || g), NULL, %(first)s::timestamp + make_interval(secs => g)
        FROM generate_series(1, %(count)s) AS g"""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT setseed(0.42)")
        conn.execute(statement, {"tenant_id": tenant_id, "salt": secrets.token_hex(8), "count": count,
                                 "first": first.replace(tzinfo=None)})
    seconds = time.perf_counter() - started
    log(f"  seeded {count:,} audit rows of tenant {tenant_id} in one INSERT ... SELECT: {seconds:.1f} s")
    return seconds


# A record's id as the seed writes target ids (``g % 50000``: 20 entries per record at a million
# rows), and one entry's request id.
HISTORY_TARGET = "rec_" + hashlib.md5(b"t4242", usedforsecurity=False).hexdigest()[:26]
ONE_REQUEST = hashlib.md5(b"r424242", usedforsecurity=False).hexdigest()


@dataclass(frozen=True)
class Scenario:
    """A search as the client sends it (page 1; page 500 adds ``pageNum``), and the same condition
    and order written here in SQL, for the expected total and the plans."""

    query: dict[str, str]
    where: str = "true"
    values: tuple[Any, ...] = ()
    order: str = "created_at DESC, id DESC"


def _keyword_sql(word: str) -> str:
    return " OR ".join([*(f"lower({c}) LIKE '%%{word}%%'" for c in ("action", "actor")),
                        *(f"{c} = '{word}'" for c in ("target_id", "request_id"))])


def scenarios(middle: datetime) -> dict[str, Scenario]:
    """Each scenario of the run."""
    def filters(*conditions: dict[str, Any]) -> str:
        return json.dumps(list(conditions), separators=(",", ":"))

    since = middle.isoformat().replace("+00:00", "Z")
    return {
        "newest first": Scenario({"sortField": "created_at", "sortOrder": "desc"}),
        "action eq": Scenario({"filters": filters({"fieldName": "action", "operator": "eq", "value": "assets:update"})},
                              "action = %s", ("assets:update",)),
        "actor eq": Scenario({"filters": filters({"fieldName": "actor", "operator": "eq", "value": ACTORS[3]})},
                             "actor = %s", (ACTORS[3],)),
        "a record's history": Scenario(
            {"filters": filters({"fieldName": "targetId", "operator": "eq", "value": HISTORY_TARGET})},
            "target_id = %s", (HISTORY_TARGET,)),
        "created_at gte (half)": Scenario({"filters": filters({"fieldName": "created_at", "operator": "gte",
                                                               "value": since})},
                                          "created_at >= %s", (middle.replace(tzinfo=None),)),
        "keyword (an actor)": Scenario({"keyword": "dana"}, _keyword_sql("dana")),
        "keyword (no match)": Scenario({"keyword": "nobody"}, _keyword_sql("nobody")),
        "keyword (a request id)": Scenario({"keyword": ONE_REQUEST}, _keyword_sql(ONE_REQUEST)),
        "one request's entries": Scenario(
            {"filters": filters({"fieldName": "requestId", "operator": "eq", "value": ONE_REQUEST})},
            "request_id = %s", (ONE_REQUEST,)),
        "sort actor asc": Scenario({"sortField": "actor", "sortOrder": "asc"}, order="actor ASC NULLS LAST, id ASC"),
    }


def expected_total(url: str, tenant_id: int, scenario: Scenario) -> int:
    """The scenario's total by a ``count(*)`` written here, not the service's."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(f"SELECT count(*) FROM audit_log WHERE tenant_id = %s AND ({scenario.where})",
                           (tenant_id, *scenario.values)).fetchone()
    assert row is not None
    return int(row[0])


def explain(url: str, tenant_id: int, scenario: Scenario) -> list[str]:
    """The plans of the scenario's count and of its page 500, as PostgreSQL runs statements of the
    same shape as the service's."""
    where = f"tenant_id = %s AND ({scenario.where})"
    statements = {
        "count": f"SELECT count(*) FROM audit_log WHERE {where}",
        f"page {DEEP_PAGE}": f"SELECT * FROM audit_log WHERE {where} ORDER BY {scenario.order} "
                             f"LIMIT {PAGE_SIZE} OFFSET {(DEEP_PAGE - 1) * PAGE_SIZE}",
    }
    lines: list[str] = []
    with psycopg.connect(url, autocommit=True) as conn:
        for label, statement in statements.items():
            lines.append(f"{label}:")
            lines += [f"  {r[0]}" for r in conn.execute(f"EXPLAIN (ANALYZE, BUFFERS) {statement}",
                                                        (tenant_id, *scenario.values))]
    return lines


def main() -> int:
    args = (cli.Arguments(__doc__, "audit_search")
            .records(1_000_000, PAGE_SIZE * DEEP_PAGE, "--rows", "audit rows of the tenant").duration(5.0)
            .warmup(2.0).concurrency(8).keep_db()
            .writes("a writer of asset creates through the session API, each appending an audit entry")).parse()

    started = time.perf_counter()
    failures: list[str] = []
    with fresh("postgresql", "audit_search", args.keep_db) as ws, seeding.runtime(ws.env) as rt:
        admin = seeding.run(rt, seeding.tenant_admin(rt, TENANT, EMAIL, others=(OTHER,), platform_role=False))
        tenant_id = admin.tenant_ids[TENANT]
        first = datetime.now(UTC) - timedelta(seconds=args.rows + 10)
        middle = first + timedelta(seconds=args.rows // 2)
        seed_seconds = seed_audit(ws.backend.url, tenant_id, args.rows, first)
        seed_audit(ws.backend.url, admin.tenant_ids[OTHER], args.rows // 10, first)
        with seeding.direct(rt) as engine:
            seeding.analyze(engine)
        queries = scenarios(middle)
        paths = {f"{name}, page {page}": "/api/audit/list?" + str(httpx.QueryParams(
            {**scenario.query, "pageNum": str(page), "pageSize": str(PAGE_SIZE)})) for name, scenario in queries.items()
            for page in (1, DEEP_PAGE)}
        postmaster = cpu.postmaster_pid(ws.backend.url)
        with running((TESSERA,), ws.env, ws.tmp) as servers, psycopg.connect(ws.backend.url, autocommit=True) as pg:
            base = servers[TESSERA.name].base_url
            login = httpx.post(f"{base}/api/auth/login", json={"email": EMAIL, "password": admin.password}, timeout=30)
            assert login.status_code == 200, f"login failed: HTTP {login.status_code} {login.text}"
            headers = {"Authorization": f"Bearer {login.json()['data']['jwt']}"}
            for label, path in paths.items():
                answer = httpx.get(base + path, headers=headers, timeout=120)
                name = label.rsplit(", page", 1)[0]
                if answer.status_code != 200:
                    failures.append(f"{label}: HTTP {answer.status_code} {answer.text[:200]}")
                    continue
                data = answer.json()["data"]
                want = expected_total(ws.backend.url, tenant_id, queries[name])
                if data["total"] != want or len(data["records"]) != min(PAGE_SIZE, max(0, want - (
                        int(dict(httpx.QueryParams(path.split("?", 1)[1]))["pageNum"]) - 1) * PAGE_SIZE)):
                    failures.append(f"{label}: total {data['total']} (want {want}), {len(data['records'])} entries")
            log(f"checked: {len(paths)} paths, {len(failures)} failed")
            rates = [float(r) for r in args.writes.split(",")]
            found, writes = [], {}
            for rate in rates:
                label = f" @ {rate:g} w/s" if rates != [0.0] else ""
                labels, targets = [name + label for name in paths], list(paths.values())

                def one(i: int, server: Server, labels: list[str] = labels, targets: list[str] = targets
                        ) -> clients.Result:
                    return clients.measure(labels[i], server,
                                           clients.gets(server.base_url + targets[i], headers, args.concurrency),
                                           args.duration, args.warmup, postmaster, pg)[0]

                with Writer(base, headers, "assets", [], ("Bench",), rate) as writer:
                    found += clients.compare(
                        [(name, f"{args.warmup:g} s warm-up + {args.duration:g} s, {args.concurrency} clients")
                         for name in labels], servers, one)
                writes[f"{rate:g}"] = writer.writes.figures()
                log(f"writer at {rate:g}/s: {json.dumps(writes[f'{rate:g}'])}")
                if writer.writes.failed:
                    failures.append(f"writer at {rate:g}/s: {writer.writes.failed} writes failed, e.g. "
                                    f"{writer.writes.samples[:2]}")
            failures += clients.failures(found, servers)
        with seeding.direct(rt) as engine:
            info = results.versions(engine)
        lines, _ = clients.summary(
            "Tessera audit search benchmark", info,
            f"audit rows of the tenant: {args.rows:,} (+{args.rows // 10:,} of another) | pageSize {PAGE_SIZE} | "
            f"concurrency {args.concurrency} | {args.duration:g} s per run (+{args.warmup:g} s warm-up)", found)
        plans = {name: explain(ws.backend.url, tenant_id, scenario) for name, scenario in queries.items()}
        for name, plan in plans.items():
            lines += ["", f"plans, {name}:", *(f"  {line}" for line in plan)]
        log("\n" + "\n".join(lines))
    return cli.conclude(args, {
        "versions": info, "config": {"warmup_s": args.warmup, "pageSize": PAGE_SIZE,
                                     "seed_seconds": round(seed_seconds, 1)},
        "paths": paths, "writes": writes, "results": [asdict(r) for r in found], "explain": plans,
    }, lines, failures, started, printed=True)

if __name__ == "__main__":
    sys.exit(main())
