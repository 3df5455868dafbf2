"""The events API at scale: a consumer catching up after an outage, and what one poll costs.

    cd benchmarks && ../.venv/bin/python events_feed.py [--backend postgresql|sqlite] [--events 1000000]
        [--outage-events 300] [--polls 2000] [--keep-db]

Steps, on one fresh database:

1. Through the services: tenants ``bench`` and ``other``, an administrator, a ``writer`` installation
   of ``bench`` holding every scope and a ``reader`` installation holding only
   ``inventory.stockins.read``. In bulk, ``--events`` outbox events of ``bench``, fanned out in batches
   of 200 (``feed_seq``), one in four an ``inventory.stock-in.created`` the reader sees and three in
   four an ``assets.assignment.changed`` it may not; and ``--events``/10 of ``other``.
2. Tessera (``benchmarks/_serve.py``, one uvicorn worker) on 127.0.0.1, and a token of each
   installation from its ``POST /oauth2/token``.
3. Catch-up: the reader's consumer walks the whole feed from the start (``limit=200``), then is "down"
   while the writer runs ``--outage-events`` stock-in commands over HTTP (each a real command, its
   event fanned out by a worker pass in this process); it comes back and resumes with ``after=<the
   last event id it processed>``. Printed: events per phase, duplicates (must be 0), events missing
   against the database (must be 0), pages and seconds.
4. Poll cost: ``--polls`` polls one after the other at the head with the last ``nextCursor`` (nothing
   new: the steady state of a consumer polling every second), and as many ``whoami`` calls for
   reference: server CPU per request (``/proc``), p50/p99 latency, and on PostgreSQL the statements
   per poll from the server's statement log (``log_statement = 'all'`` on this database only).
5. ``EXPLAIN (ANALYZE, BUFFERS)`` of the poll's page statement at the head and of a full page in the
   middle of the feed (PostgreSQL): the index it uses, rows and buffers read.

Exit status 1 when a check fails (a duplicate or missing event, a status other than 200, a poll at the
head that returned events, more than one statement per poll besides the token's, a plan without the
feed index). Results go to ``benchmarks/results/events_feed.json`` and ``.txt``.
"""

from __future__ import annotations

import statistics
import sys
import time
from datetime import timedelta
from typing import Any

import httpx
import psycopg
from harness import cli, cpu, log, seeding
from harness.databases import PG_ADMIN_URL, fresh
from harness.servers import TESSERA, running
from psycopg import sql
from roundtrips import newest_log, statements
from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Engine

from storage.openplatform import event_feed
from storage.schema.tables import outbox_events, outbox_feed
from tessera.core.ids import new_pid
from tessera.webhooks import sending

READER_SCOPES = ["inventory.stockins.read"]
WRITER_SCOPES = ["assets.read", "assets.manage", "inventory.stockins.read", "inventory.stockins.manage"]
SEEN, UNSEEN = "inventory.stock-in.created", "assets.assignment.changed"
BATCH = 200  # events per fan-out batch in the seed, as the worker's dispatch takes them
PAGE = 200
FEED = "/api/open/v1/events"


def seed(rt: Any, tenants: dict[str, int], count: int) -> dict[str, int]:
    """``count`` fanned-out events of ``bench`` (one in four readable) and ``count``/10 of ``other``."""
    now = rt.clock.now()
    made = {"bench": 0, "other": 0, "readable": 0}
    seq = 0
    with seeding.direct(rt) as engine:
        started = time.perf_counter()
        for tenant, total in (("bench", count), ("other", count // 10)):
            for start in range(0, total, 10_000):
                rows = []
                for i in range(start, min(start + 10_000, total)):
                    if i % BATCH == 0:
                        seq += 1
                    readable = i % 4 == 0
                    data = ({"pid": new_pid("rec"), "sku": f"SKU-{i}", "quantity": 1, "warehouse": "north",
                             "receivedAt": None, "source": "erp"} if readable else
                            {"pid": new_pid("rec"), "assignee": f"person {i}", "status": "assigned",
                             "previousAssignee": None})
                    at = now - timedelta(milliseconds=total - i)
                    rows.append({"event_id": new_pid("evt"), "tenant_id": tenants[tenant],
                                 "event_type": SEEN if readable else UNSEEN, "payload": data, "request_id": None,
                                 "occurred_at": at, "dispatched_at": at, "feed_seq": seq})
                    made["readable"] += readable and tenant == "bench"
                with engine.begin() as conn:
                    conn.execute(insert(outbox_events), rows)
                made[tenant] += len(rows)
                log(f"  seeded {made[tenant]:>9,} / {total:,} events of {tenant} "
                    f"({time.perf_counter() - started:.0f} s)")
        with engine.begin() as conn:
            conn.execute(update(outbox_feed).where(outbox_feed.c.id == 1).values(last=seq))
        seeding.analyze(engine)
    return made


def walk(client: httpx.Client, auth: dict[str, str], **params: Any) -> tuple[list[str], str, int]:
    """Every page until ``hasMore`` is false: the event ids, the last cursor, the pages read."""
    ids: list[str] = []
    pages = 0
    query: dict[str, Any] = {"limit": PAGE, **params}
    while True:
        response = client.get(FEED, params=query, headers=auth)
        if response.status_code != 200:
            raise RuntimeError(f"GET {FEED} answered {response.status_code}: {response.text[:300]}")
        body = response.json()
        pages += 1
        ids += [item["id"] for item in body["items"]]
        if not body["hasMore"]:
            return ids, body["nextCursor"], pages
        query = {"limit": PAGE, "cursor": body["nextCursor"]}


def pending(rt: Any) -> int:
    """Outbox events not fanned out yet."""
    with seeding.direct(rt) as engine, engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(outbox_events)
                                .where(outbox_events.c.dispatched_at.is_(None))).scalar_one())


def readable_ids(rt: Any, tenant_id: int) -> set[str]:
    with seeding.direct(rt) as engine, engine.connect() as conn:
        return set(conn.execute(select(outbox_events.c.event_id).where(
            outbox_events.c.tenant_id == tenant_id, outbox_events.c.event_type == SEEN)).scalars())


WARMUP = 50


def timed(client: httpx.Client, server_pid: int, count: int, path: str, auth: dict[str, str],
          params: dict[str, Any] | None = None) -> dict[str, Any]:
    """``count`` requests one after the other: server CPU per request and latency."""
    for _ in range(WARMUP):
        client.get(path, params=params, headers=auth)
    before = cpu.process_cpu_seconds(server_pid) or 0.0
    latencies, bad, items = [], 0, 0
    started = time.perf_counter()
    for _ in range(count):
        sent = time.perf_counter()
        response = client.get(path, params=params, headers=auth)
        latencies.append(time.perf_counter() - sent)
        bad += response.status_code != 200
        if path == FEED and response.status_code == 200:
            items += len(response.json()["items"])
    wall = time.perf_counter() - started
    spent = (cpu.process_cpu_seconds(server_pid) or 0.0) - before
    latencies.sort()
    return {"requests": count, "non_200": bad, "items": items, "req_per_s": count / wall,
            "server_cpu_ms_per_request": spent / count * 1000, "p50_ms": statistics.median(latencies) * 1000,
            "p99_ms": latencies[int(len(latencies) * 0.99) - 1] * 1000}


def explain(engine: Engine, query: Any) -> list[str]:
    """The plan of ``query`` as PostgreSQL runs it (its values written in, as a log would show them)."""
    text = str(query.compile(dialect=engine.dialect, compile_kwargs={"literal_binds": True}))
    with engine.connect() as conn:
        return [str(row[0]) for row in conn.exec_driver_sql(f"EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) {text}")]


def catch_up(rt: Any, client: httpx.Client, auths: dict[str, dict[str, str]], tenant_id: int, made: dict[str, int],
             outage_events: int, failures: list[str]) -> tuple[dict[str, Any], str]:
    """The whole feed, an outage with ``outage_events`` commands, a resume after the last id; the counts
    and the cursor at the head."""
    t0 = time.perf_counter()
    first, _, first_pages = walk(client, auths["reader"])
    first_seconds = time.perf_counter() - t0
    for i in range(outage_events):
        response = client.post("/api/open/v1/commands/inventory.stock-ins.create:execute",
                               json={"input": {"sku": f"SKU-OUTAGE-{i}", "quantity": 1}},
                               headers={**auths["writer"], "Idempotency-Key": f"outage-{i}"})
        if response.status_code != 200:
            failures.append(f"command {i} answered {response.status_code}")
    while pending(rt):  # the worker's fan-out, a batch of up to 200 events at a time
        seeding.run(rt, sending.dispatch(rt))
    t1 = time.perf_counter()
    resumed, cursor, resumed_pages = walk(client, auths["reader"], after=first[-1])
    resumed_seconds = time.perf_counter() - t1
    expected = readable_ids(rt, tenant_id)
    everything = first + resumed
    counts = {"seeded_events_bench": made["bench"], "seeded_events_other": made["other"],
              "readable_before_outage": made["readable"], "walked_before_outage": len(first),
              "pages_before_outage": first_pages, "seconds_before_outage": round(first_seconds, 2),
              "created_during_outage": outage_events, "resumed_events": len(resumed),
              "resumed_pages": resumed_pages, "seconds_resumed": round(resumed_seconds, 3),
              "duplicates": len(everything) - len(set(everything)), "missing": len(expected - set(everything)),
              "not_readable_but_listed": len(set(everything) - expected)}
    if counts["duplicates"] or counts["missing"] or counts["not_readable_but_listed"] \
            or len(resumed) != outage_events:
        failures.append(f"catch-up: {counts}")
    return counts, cursor


def poll_cost(client: httpx.Client, server_pid: int, auth: dict[str, str], cursor: str, polls: int,
              database: str | None, failures: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Polls at the head (and the statements they ran, on PostgreSQL), then as many whoami calls."""
    log_file = newest_log() if database is not None else None
    offset = log_file.stat().st_size if log_file else 0
    at_head = timed(client, server_pid, polls, FEED, auth, {"cursor": cursor})
    logged: list[str] = []
    if log_file is not None and database is not None:
        time.sleep(0.5)
        with log_file.open("rb") as handle:
            handle.seek(offset)
            logged = statements(handle.read().decode(errors="replace"), database)
        # The call audit's batched INSERTs (one per 50 ms, many calls each) are counted apart.
        audit = [s for s in logged if s.startswith("INSERT INTO open_api_calls")]
        at_head["statements_per_poll"] = round((len(logged) - len(audit)) / (polls + WARMUP), 3)
        at_head["call_audit_inserts_per_poll"] = round(len(audit) / (polls + WARMUP), 3)
        at_head["statement_shapes"] = sorted({" ".join(s.split()[:8]) for s in logged})
        if not 1.9 <= at_head["statements_per_poll"] <= 2.1:
            failures.append(f"statements per poll: {at_head['statements_per_poll']} (the token's and the page's: 2)")
    if at_head["non_200"] or at_head["items"]:
        failures.append(f"polls at the head: {at_head['non_200']} non-200, {at_head['items']} events")
    return at_head, timed(client, server_pid, polls, "/api/open/v1/whoami", auth)


def plans(rt: Any, tenant_id: int, failures: list[str]) -> dict[str, list[str]]:
    """EXPLAIN ANALYZE of the page statement at the head and of a full page in the middle of the feed,
    with the values a poll of the reader binds."""
    v = event_feed.Visibility(tenant_id, 0, (SEEN,), rt.clock.now() - timedelta(days=30))
    with seeding.direct(rt) as engine:
        with engine.connect() as conn:
            head = int(conn.execute(select(outbox_feed.c.last)).scalar_one())

        def at(seq: int, row_id: int) -> Any:
            return event_feed.page_query().params(**v.params(), after_seq=seq, after_id=row_id, limit=PAGE + 1)

        found = {"poll at the head": explain(engine, at(head, event_feed.BATCH_END)),
                 "full page mid-feed": explain(engine, at(head // 3, 0))}
    for name, plan in found.items():
        if not any("ix_outbox_events_tenant_feed" in line for line in plan):
            failures.append(f"{name}: the plan does not use ix_outbox_events_tenant_feed")
    return found


def table(backend: str, report: dict[str, Any]) -> list[str]:
    c = report["catch_up"]
    lines = [f"events API, {backend}: {c['seeded_events_bench']:,} events of the tenant "
             f"({c['readable_before_outage']:,} readable by the reader), {c['seeded_events_other']:,} of another",
             f"catch-up: walked {c['walked_before_outage']:,} events in {c['pages_before_outage']} pages, "
             f"{c['seconds_before_outage']} s; outage: {c['created_during_outage']} created; resumed after the "
             f"last processed id: {c['resumed_events']} events in {c['resumed_pages']} pages, "
             f"{c['seconds_resumed']} s; duplicates {c['duplicates']}, missing {c['missing']}, listed but not "
             f"readable {c['not_readable_but_listed']}"]
    for name in ("poll_at_head", "whoami"):
        r = report[name]
        lines.append(f"{name}: {r['requests']} requests, {r['req_per_s']:.0f} req/s, server CPU "
                     f"{r['server_cpu_ms_per_request']:.3f} ms/request, p50 {r['p50_ms']:.2f} ms, "
                     f"p99 {r['p99_ms']:.2f} ms"
                     + (f", statements per poll {r['statements_per_poll']}" if "statements_per_poll" in r else ""))
    lines += ["  statement: " + shape for shape in report["poll_at_head"].get("statement_shapes", [])]
    for name, plan in report.get("plans", {}).items():
        lines += [f"plan, {name}:", *("  " + line for line in plan)]
    return lines


def main() -> int:
    args = (cli.Arguments(__doc__, "events_feed").backend()
            .records(1_000_000, 1, "--events", "outbox events of the tenant")
            .add("--outage-events", type=int, default=300, help="commands run while the consumer is down (default 300)")
            .add("--polls", type=int, default=2000, help="polls at the head, and as many whoami (default 2000)")
            .at_least("--outage-events", 1).at_least("--polls", 1).keep_db()).parse()
    started, failures = time.perf_counter(), list[str]()
    report: dict[str, Any] = {}
    postgres = args.backend == "postgresql"
    with fresh(args.backend, "events_feed", keep=args.keep_db) as ws, seeding.runtime(ws.env) as rt:
        admin = seeding.run(rt, seeding.tenant_admin(rt, "bench", "bench-admin@example.test", ["other"]))
        installed = {name: seeding.run(rt, seeding.install(rt, admin, name, "bench", scopes, 1))
                     for name, scopes in (("writer", WRITER_SCOPES), ("reader", READER_SCOPES))}
        made = seed(rt, admin.tenant_ids, args.events)
        tenant_id = admin.tenant_ids["bench"]
        if postgres:
            with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
                conn.execute(sql.SQL("ALTER DATABASE {} SET log_statement = 'all'")
                             .format(sql.Identifier(ws.backend.label)))
        with running([TESSERA], ws.env, ws.tmp) as servers, \
                httpx.Client(base_url=servers["tessera"].base_url, timeout=60) as client:
            auths = {name: {"Authorization": f"Bearer {seeding.run(rt, seeding.issue_token(rt, i.credentials[0]))}"}
                     for name, i in installed.items()}
            report["catch_up"], cursor = catch_up(rt, client, auths, tenant_id, made, args.outage_events, failures)
            report["poll_at_head"], report["whoami"] = poll_cost(
                client, servers["tessera"].pid, auths["reader"], cursor, args.polls,
                ws.backend.label if postgres else None, failures)
        if postgres:
            report["plans"] = plans(rt, tenant_id, failures)
    return cli.conclude(args, report, table(args.backend, report), failures, started)

if __name__ == "__main__":
    sys.exit(main())
