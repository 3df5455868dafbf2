"""Benchmark of the Open Platform's published-resource reads, against the independent baseline.

    .venv/bin/python benchmarks/open_read.py [--backend postgresql|sqlite|both] [--assets 10000] [--limit 200]
        [--duration 10] [--warmup 2] [--concurrency 8] [--solo-walks 5] [--keep-db]

What is measured, per backend, for Tessera and for the baseline in the same run:

* ``read by pid``: ``GET /api/open/v1/resources/assets/{pid}`` with a bearer token, rotating over
  every live pid of the tenant and over ``CREDENTIALS`` tokens; every response must be 200 with the
  record's strong ``ETag`` (the value ``op_resources.etag_of`` gives for the seeded version) and a body
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

1. A fresh PostgreSQL or SQLite database, migrated. Through the services: tenants ``bench`` and
   ``other``, an administrator of ``bench``, an application installed into ``bench`` (``production``,
   scope ``assets.read``) and ``CREDENTIALS`` credentials. In bulk (``harness.seeding``): ``--assets``
   live assets of ``bench``, interleaved in id order with noise the walk's conditions must skip:
   deleted assets of ``bench`` (``--assets``/20), stock-ins of ``bench`` (``--assets``/20) and assets
   of ``other`` (``--assets``/10). The live pids and their ETags are read back: the walks are checked
   against that set.
2. Tessera (``benchmarks/_serve.py``) and the baseline (``benchmarks/baseline``, the suite's: a bare
   ASGI callable, psycopg 3 async or aiosqlite, hand-written SQL on the same tables, the token read
   with the record or the page in one statement, the same batched call audit; nothing of Tessera's code),
   one uvicorn worker each in its own process on 127.0.0.1.
3. One bearer token per credential from Tessera's ``POST /oauth2/token``. Both targets must answer
   alike: the same record and ETag for a pid, 404 for a deleted asset and for another tenant's, 401
   for an unknown token, the same first page, and each target's cursor followed by the next target
   to the same second page.
4. Per scenario, both targets in ABBA order: ``--warmup`` seconds of warm-up (2 s; not for the one-client
   walks), then ``--duration`` seconds from httpx clients (``harness.clients``). After each run
   ``open_api_calls`` is checked: both targets write one row per business call, queued and written in
   batches after the response.
5. The table (CPU ms per request, or page, of the server, this client, PostgreSQL and the rest of the
   host; connections opened to the database, where pool overflow shows), the ratios, the headline
   figures and any noisy run (the rest of the host at ``NOISY_PCT`` of all CPUs or more, or other
   databases busy: not a failure) go to ``benchmarks/results/open_read.json`` and ``.txt``; the
   database is dropped (unless ``--keep-db``). Exit status 1 when any check failed (a status other
   than 200, a wrong ETag, a pid repeated in a walk, a walk that does not visit exactly the live pids,
   a call-audit count off, a server that died). The load generator shares the host with both servers
   and the database, so read the ratios rather than the absolute figures.
"""

from __future__ import annotations

import argparse
import random
import secrets
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any

import httpx
import psycopg
from harness import cli, clients, cpu, log, results, seeding, tables
from harness.clients import Load, Result, json_body
from harness.databases import BACKENDS, Workspace, fresh
from harness.seeding import Credential
from harness.servers import BASELINE, TESSERA, Server, running
from sqlalchemy import Engine, and_, case, func, select

from storage.schema.tables import open_api_calls, records
from tessera.demo import asset_payload, stock_in_payload
from tessera.openplatform.resources import reads as op_resources
from tessera.runtime import Runtime

TARGETS = (TESSERA, BASELINE)
CREDENTIALS = 8
TENANT, OTHER_TENANT = "bench", "other"
ADMIN_EMAIL = "admin@bench.example"
SCOPES = ["assets.read"]
MODEL, NOISE_MODEL = "asset", "stockIn"
LIST_PATH = "/api/open/v1/resources/assets"
TOKEN_PATH = "/oauth2/token"
FORM = {"content-type": "application/x-www-form-urlencoded"}
BATCH = 1_000
NOISY_PCT = 20.0  # the rest of the host's share of all CPUs from which a run is flagged
DB_SETTLE_SECONDS = 15.0  # how long the call audit rows, written after the response, may take to appear


# -- setup -----------------------------------------------------------------------------------------

@dataclass
class Setup:
    credentials: list[Credential]
    expected: dict[str, str]  # live pid -> ETag, in id order
    deleted_pid: str
    other_tenant_pid: str
    counts: dict[str, int]
    seed_seconds: float
    app_pid: str
    installation_pid: str
    seconds: float


async def through_services(rt: Runtime) -> tuple[seeding.Admin, seeding.Installation]:
    """The tenants, their administrator, and the application installed into ``TENANT`` with its credentials."""
    admin = await seeding.tenant_admin(rt, TENANT, ADMIN_EMAIL, others=[OTHER_TENANT])
    return admin, await seeding.install(rt, admin, "Benchmark reader", TENANT, SCOPES, CREDENTIALS)


def setup(env: dict[str, str], assets: int) -> Setup:
    """Tenants, administrator, application, installation, credentials (through the services) and the
    records: ``assets`` live assets of ``TENANT``, interleaved with deleted assets and stock-ins of it and
    assets of ``OTHER_TENANT`` (in bulk)."""
    started = time.perf_counter()
    with seeding.runtime(env) as rt:
        admin, inst = seeding.run(rt, through_services(rt))
        asset_model, stock_model = rt.declarations.models[MODEL], rt.declarations.models[NOISE_MODEL]
        tenant_id, other_id, user_id = admin.tenant_ids[TENANT], admin.tenant_ids[OTHER_TENANT], admin.actor.user_id
        rng = random.Random(seeding.SEED)
        serial = {"bench": 0, "other": 0, "stock": 0}

        def make(kind: str, created: datetime) -> dict[str, Any]:
            if kind == "stock-ins":
                serial["stock"] += 1
                return seeding.record_row(tenant_id, stock_model, stock_in_payload(rng, serial["stock"]), user_id,
                                          created)
            if kind == "other-tenant":
                serial["other"] += 1
                return seeding.record_row(other_id, asset_model, asset_payload(rng, OTHER_TENANT, serial["other"]),
                                          user_id, created)
            serial["bench"] += 1  # live and deleted assets of TENANT share the serial numbers' sequence
            deleted = created + timedelta(milliseconds=500) if kind == "deleted" else None
            return seeding.record_row(tenant_id, asset_model, asset_payload(rng, TENANT, serial["bench"]), user_id,
                                      created, deleted)

        counts = {"live": assets, "deleted": assets // 20, "stock-ins": assets // 20, "other-tenant": assets // 10}
        seed_seconds = seeding.seed_mix(rt, rng, counts, make, BATCH)
        scope = and_(records.c.tenant_id == tenant_id, records.c.model == MODEL)
        with seeding.direct(rt) as engine, engine.connect() as conn:
            live = conn.execute(select(records.c.pid, records.c.version)
                                .where(scope, records.c.deleted_at.is_(None)).order_by(records.c.id)).all()
            deleted_pid = conn.execute(select(records.c.pid).where(scope, records.c.deleted_at.is_not(None))
                                       .limit(1)).scalar_one()
            other_pid = conn.execute(select(records.c.pid).where(records.c.tenant_id == other_id).limit(1)).scalar_one()
    etags = {row.pid: op_resources.etag_of(row.pid, row.version) for row in live}
    return Setup(inst.credentials, etags, deleted_pid, other_pid, counts, seed_seconds, inst.app_pid,
                 inst.installation_pid, time.perf_counter() - started)


# -- checks ----------------------------------------------------------------------------------------

def check_read(response: httpx.Response, pid: str, expected_tag: str) -> str | None:
    if response.status_code != 200:
        return f"read {pid}: HTTP {response.status_code}: {response.text[:200]}"
    tag = response.headers.get("etag")
    if not tag or tag.startswith("W/") or tag != expected_tag:
        return f"read {pid}: ETag {tag!r}, expected the strong {expected_tag}"
    got = response.json().get("pid")
    return None if got == pid else f"read {pid}: body pid {got!r}"


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
    return (f"walk: {len(seen):,} pids, {len(distinct):,} distinct, expected {len(expected):,} ({missing:,} missing, "
            f"{extra:,} not live in the tenant)")


def mint(server: Server, cred: Credential) -> str:
    response = httpx.post(server.base_url + TOKEN_PATH, content=cred.form(), headers=FORM, timeout=30)
    assert response.status_code == 200, f"{server.name}: token for {cred.client_id}: HTTP {response.status_code} " \
                                        f"{response.text[:300]}"
    assert response.json().get("scope") == " ".join(SCOPES), f"{server.name}: token scope {response.text[:300]}"
    return str(response.json()["access_token"])


def verify_alike(servers: dict[str, Server], auth: dict[str, str], done: Setup, limit: int) -> None:
    """Every target answers the same reads and pages, refuses alike, and accepts the others' cursors."""
    pid = next(iter(done.expected))
    bodies = []
    for server in servers.values():
        response = httpx.get(f"{server.base_url}{LIST_PATH}/{pid}", headers=auth, timeout=30)
        problem = check_read(response, pid, done.expected[pid])
        assert problem is None, f"{server.name}: {problem}"
        bodies.append(response.json())
    assert all(b == bodies[0] for b in bodies), f"the targets read {pid} differently: {bodies}"
    log(f"verified: every target reads {pid} alike with ETag {done.expected[pid]} (fields {', '.join(bodies[0])})")
    unknown = {"Authorization": "Bearer tat_" + secrets.token_urlsafe(32)}
    for label, path, headers, status, code in (
            ("a deleted asset", f"{LIST_PATH}/{done.deleted_pid}", auth, 404, "resource_not_found"),
            (f"an asset of {OTHER_TENANT!r}", f"{LIST_PATH}/{done.other_tenant_pid}", auth, 404, "resource_not_found"),
            ("an unknown token", f"{LIST_PATH}/{pid}", unknown, 401, "invalid_token")):
        for server in servers.values():
            response = httpx.get(server.base_url + path, headers=headers, timeout=30)
            assert response.status_code == status and json_body(response).get("code") == code, (
                f"{server.name}: {label} answered HTTP {response.status_code} {response.text[:300]}")
    log(f"verified: every target answers 404 resource_not_found for a deleted asset and for an asset of "
        f"{OTHER_TENANT!r}, and 401 invalid_token for an unknown token")
    pages = []
    for server in servers.values():
        response = httpx.get(server.base_url + LIST_PATH, params={"limit": limit}, headers=auth, timeout=30)
        problem, _, cursor = check_page(response, limit)
        assert problem is None, f"{server.name}: first page: {problem}"
        pages.append((response.json()["items"], cursor))
    assert all(items == pages[0][0] for items, _ in pages), "the targets' first pages differ"
    if any(cursor is None for _, cursor in pages):
        log(f"verified: every target answers the same first page ({len(pages[0][0])} items, no next page)")
        return
    readers = list(servers.values())
    seconds = []
    for index, (_, cursor) in enumerate(pages):  # each target's cursor, followed by the next target
        reader = readers[(index + 1) % len(readers)]
        response = httpx.get(reader.base_url + LIST_PATH, params={"cursor": cursor, "limit": limit}, headers=auth,
                             timeout=30)
        problem, _, _ = check_page(response, limit)
        assert problem is None, f"{reader.name}, following another target's cursor: {problem}"
        seconds.append(response.json()["items"])
    assert all(s == seconds[0] for s in seconds), "the second pages differ when each target follows another's cursor"
    log(f"verified: every target answers the same first page ({len(pages[0][0])} items) and follows another "
        "target's cursor to the same second page")


def audit_mark(engine: Engine) -> int:
    """The last ``open_api_calls`` id once the table has stopped growing: Tessera queues its call-audit
    rows and writes them in batches (``storage/openplatform/call_audit.py``), so the rows of the calls just made
    (the checks, the previous run) may land after a mark taken at once."""
    def last() -> int:
        with engine.connect() as conn:
            return int(conn.execute(select(func.coalesce(func.max(open_api_calls.c.id), 0))).scalar_one())

    mark, deadline = last(), time.monotonic() + DB_SETTLE_SECONDS
    while time.monotonic() < deadline:
        time.sleep(0.3)
        if (now := last()) == mark:
            break
        mark = now
    return mark


def check_audit(engine: Engine, since: int, responses: int, ok: int) -> tuple[list[str], int]:
    """One row per response, status 200 for each success, whichever target answered. (problems, rows)"""
    def count() -> tuple[int, int]:
        with engine.connect() as conn:
            ok_rows = func.coalesce(func.sum(case((open_api_calls.c.status == 200, 1), else_=0)), 0)
            row = conn.execute(select(func.count(), ok_rows).where(open_api_calls.c.id > since)).one()
        return int(row[0]), int(row[1])

    want = responses
    deadline = time.monotonic() + DB_SETTLE_SECONDS
    while count()[0] < want and time.monotonic() < deadline:
        time.sleep(0.1)  # the rows are written after the responses are sent
    time.sleep(0.3)  # and a little more, so an extra row would show too
    rows, ok_rows = count()
    problems = []
    if rows != want:
        problems.append(f"open_api_calls: {rows:,} rows for {responses:,} responses, expected {want:,}")
    if want and ok_rows != ok:
        problems.append(f"open_api_calls: {ok_rows:,} rows with status 200 for {ok:,} successful responses")
    return problems, rows


# -- load ------------------------------------------------------------------------------------------

@dataclass
class Scenario:
    name: str
    kind: str  # "read" or "walk"
    concurrency: int
    seconds: float | None  # None: a number of walks instead
    walks: int | None = None
    warmup: bool = True


@dataclass
class Walks:
    seconds: list[float] = field(default_factory=list)  # complete, verified walks
    pages: list[int] = field(default_factory=list)
    partial: int = 0


def read_turn(base_url: str, auth: list[dict[str, str]], expected: dict[str, str], pids: list[str]) -> clients.Turn:
    """Each request the next pid and token in rotation; the ETag and pid of every answer checked."""
    async def turn(client: httpx.AsyncClient, load: Load, n: int) -> None:
        pid = pids[n % len(pids)]
        await load.send(client, "GET", f"{base_url}{LIST_PATH}/{pid}", lambda r: check_read(r, pid, expected[pid]),
                        headers=auth[n % len(auth)])

    return turn


def walk_turn(base_url: str, auth: list[dict[str, str]], expected: dict[str, str], limit: int, walks: Walks,
              most: int | None) -> clients.Turn:
    """One whole walk by ``nextCursor`` per turn (at most ``most`` walks in all), every page checked,
    every complete walk checked against the live pids; a walk cut by the end of the run is partial."""
    started_walks = iter(range(most)) if most is not None else None

    async def turn(client: httpx.AsyncClient, load: Load, n: int) -> bool:
        if started_walks is not None and next(started_walks, None) is None:
            return False
        headers, params = auth[n % len(auth)], {"limit": str(limit)}
        seen: list[str] = []
        seen_set: set[str] = set()
        walk_started, pages = time.perf_counter(), 0
        while load.running:
            sent = await load.request(client, "GET", base_url + LIST_PATH, params=params, headers=headers)
            if sent is None:
                return True
            response, took = sent
            try:
                problem, pids, cursor = check_page(response, limit)
            except ValueError as exc:
                problem, pids, cursor = f"page: unreadable body ({exc}): {response.text[:200]}", [], None
            repeated = [pid for pid in pids if pid in seen_set]
            if problem is None and repeated:
                problem = f"{len(repeated)} pids seen earlier in the walk, e.g. {repeated[0]}"
            if problem is not None:
                load.errors.append(f"page {pages + 1}: {problem}")
                return True
            load.latencies.append(took)
            pages += 1
            seen += pids
            seen_set.update(pids)
            if cursor is None:
                if (problem := check_walk(seen, expected)) is None:
                    walks.seconds.append(time.perf_counter() - walk_started)
                    walks.pages.append(pages)
                else:
                    load.errors.append(problem)
                return True
            params = {"cursor": cursor, "limit": str(limit)}
        walks.partial += 1
        return True

    return turn


# -- one backend -----------------------------------------------------------------------------------

@dataclass
class BackendReport:
    backend: str
    failures: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    report: dict[str, Any] = field(default_factory=dict)


def measure_all(ws: Workspace, done: Setup, servers: dict[str, Server], engine: Engine,
                args: argparse.Namespace) -> list[Result]:
    tokens = [mint(servers[TESSERA.name], cred) for cred in done.credentials]
    auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
    log(f"issued {len(tokens)} bearer tokens through POST {TOKEN_PATH} (one per credential)")
    verify_alike(servers, auth[0], done, args.limit)
    postmaster = cpu.postmaster_pid(ws.backend.url) if ws.backend.name == "postgresql" else None
    pg = psycopg.connect(ws.backend.url, autocommit=True) if ws.backend.name == "postgresql" else None
    pids = list(done.expected)
    random.Random(seeding.SEED).shuffle(pids)  # reads in no particular order
    scenarios = [Scenario("read by pid", "read", args.concurrency, args.duration),
                 Scenario(f"walk, {args.concurrency} clients", "walk", args.concurrency, args.duration),
                 Scenario("walk, 1 client", "walk", 1, None, walks=args.solo_walks, warmup=False)]

    def measure_one(position: int, server: Server) -> Result:
        scenario = scenarios[position]
        walks: list[Walks] = []

        def run(seconds: float | None, offset: int) -> Load:
            if scenario.kind == "read":
                turn = read_turn(server.base_url, auth, done.expected, pids)
            else:
                walks.append(Walks())
                turn = walk_turn(server.base_url, auth, done.expected, args.limit, walks[-1],
                                 None if seconds is not None else scenario.walks)
            return clients.drive(scenario.concurrency, seconds, turn, offset)

        since = audit_mark(engine)
        result, warm, load = clients.measure(scenario.name, server, run, scenario.seconds,
                                             args.warmup if scenario.warmup else None, postmaster, pg)
        result.problems, audit_rows = check_audit(engine, since, warm.responses + load.responses,
                                                  len(warm.latencies) + len(load.latencies))
        result.details["audit_rows"] = audit_rows
        if scenario.kind == "walk":
            times = walks[-1].seconds
            result.details |= {"walks": len(times), "partial_walks": walks[-1].partial,
                               "walk_pages": sorted(set(walks[-1].pages)),
                               "walk_s_p50": round(statistics.median(times), 3) if times else None,
                               "walk_s_min": round(min(times), 3) if times else None,
                               "walk_s_max": round(max(times), 3) if times else None}
            if not times and scenario.seconds is None:
                result.problems.append("no complete walk")
            elif not times:  # the one-client walks check every walk; this run only had too little time
                log(f"  NOTE: no walk completed within {args.duration:g} s; raise --duration for a walk time under "
                    "load")
        log(f"  {result.requests:,} ok, {result.errors} failed"
            + (f", {result.details['walks']} complete walks of {len(done.expected):,} pids"
               if result.details.get("walks") else "") + f"; {audit_rows:,} open_api_calls rows")
        return result

    try:
        return clients.compare([(s.name, f"{args.warmup:g} s warm-up + {args.duration:g} s, {s.concurrency} clients"
                                 if s.seconds is not None else f"{s.walks} walks, one client") for s in scenarios],
                               servers, measure_one)
    finally:
        if pg is not None:
            pg.close()


def headline(found: list[Result], count: int, limit: int, concurrency: int) -> tuple[list[str], dict[str, Any]]:
    loaded, solo = f"walk, {concurrency} clients", "walk, 1 client"
    return clients.headline(found, [
        ("read by pid, requests per second", "read_rps", "read by pid", "rps", "", 1),
        ("read by pid, p95", "read_p95_ms", "read by pid", "p95_ms", " ms", 2),
        (f"walk by cursor (limit {limit}), {loaded}: pages per second", "walk_pages_per_s", loaded, "rps", "", 1),
        (f"walk by cursor (limit {limit}), {loaded}: p95 per page", "walk_page_p95_ms", loaded, "p95_ms", " ms", 2),
        (f"one complete walk of {count:,} assets, {solo}: median wall time", "walk_wall_s_solo", solo, "walk_s_p50",
         " s", 3),
        (f"one complete walk of {count:,} assets, {loaded}: median wall time", "walk_wall_s_loaded", loaded,
         "walk_s_p50", " s", 3)], [t.name for t in TARGETS])


def run_backend(name: str, args: argparse.Namespace) -> BackendReport:
    out = BackendReport(name)
    log(f"\n##### backend: {name} #####")
    try:
        with fresh(name, f"open_read-{name}", args.keep_db) as ws:
            done = setup(ws.env, args.assets)
            count = len(done.expected)
            log(f"set up in {done.seconds:.1f} s (records seeded in {done.seed_seconds:.1f} s); {count:,} live assets "
                f"in tenant {TENANT!r}")
            engine = ws.backend.engine()
            try:
                with running(TARGETS, ws.env, ws.tmp) as servers:
                    found = measure_all(ws, done, servers, engine, args)
                    out.failures += clients.failures(found, servers, f"{name}, ")
                info = results.versions(engine)
            finally:
                engine.dispose()
    except AssertionError as exc:
        out.failures.append(f"{name}: check before measuring failed: {exc}")
        return out
    walk_columns: list[tables.Column | str] = [tables.SEP, tables.Column("walks", lambda r: r.details.get("walks")),
                    tables.Column("walk s", lambda r: r.details.get("walk_s_p50"),
                                  lambda v: "-" if v is None else f"{v:.3f}")]
    out.lines, ratios = clients.summary(
        f"Tessera Open Platform resource reads, {name}", info,
        f"{count:,} live assets in {TENANT!r} (+{done.counts['deleted']:,} deleted, {done.counts['stock-ins']:,} "
        f"stock-ins, {done.counts['other-tenant']:,} assets of {OTHER_TENANT!r}) | limit {args.limit} | "
        f"{CREDENTIALS} tokens | concurrency {args.concurrency} | {args.duration:g} s per run (+{args.warmup:g} s "
        f"warm-up) | {args.solo_walks} one-client walks | ABBA order; walks: req/s is pages per second, latencies "
        "are per page, walk s is the median wall time of one complete walk", found, walk_columns,
        [*clients.RATIOS, ("walk_s_p50", "walk time", "walk_s_p50")])
    headlines, figures = headline(found, count, args.limit, args.concurrency)
    noise_lines, noisy = clients.noise(found, NOISY_PCT,
                                       ", and no other database had transactions" if name == "postgresql" else "")
    out.lines += ["", *headlines, *noise_lines]
    out.report = {"versions": info, "setup": {"seconds": round(done.seconds, 1),
                                              "seed_seconds": round(done.seed_seconds, 1), "live_assets": count,
                                              **done.counts, "application": done.app_pid,
                                              "installation": done.installation_pid,
                                              "credentials": len(done.credentials)},
                  "results": [asdict(r) for r in found], "ratios": ratios, "headline": figures, "noisy_runs": noisy}
    return out


def main() -> int:
    args = (cli.Arguments(__doc__, "open_read").backend(both=True)
            .records(10_000, 1, "--assets", "live assets in the tenant")
            .add("--limit", type=int, default=op_resources.MAX_LIMIT,
                 help=f"page size of the walks (default {op_resources.MAX_LIMIT}, the maximum)")
            .check(lambda a: 1 <= a.limit <= op_resources.MAX_LIMIT, f"--limit must be 1 to {op_resources.MAX_LIMIT}")
            .duration(10.0).warmup(2.0).concurrency(8)
            .add("--solo-walks", type=int, default=5, help="complete one-client walks per target (default 5)")
            .at_least("--solo-walks", 1).keep_db()).parse()
    started = time.perf_counter()
    backends = BACKENDS if args.backend == "both" else (args.backend,)
    reports = [run_backend(name, args) for name in backends]
    failures = [f for r in reports for f in r.failures]
    lines = [line for r in reports for line in ["", *r.lines]][1:]
    return cli.conclude(args, {
        "config": {"warmup_s": args.warmup, "credentials": CREDENTIALS, "tenant": TENANT, "scopes": SCOPES},
        "endpoints": {"read by pid": f"GET {LIST_PATH}/{{pid}}",
                      "walk": f"GET {LIST_PATH}?limit=L, then ?cursor=<nextCursor>&limit=L"},
        "backends": {r.backend: r.report for r in reports}}, lines, failures, started)


if __name__ == "__main__":
    sys.exit(main())
