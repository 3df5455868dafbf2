"""The eight endpoints the performance targets name, as ``suite.py``, ``scaleout.py`` and ``soak.py``
drive them: the fixture they need, the request variants wrk rotates over, the rows a write adds,
and what must be equal between two targets' answers.

Why here: three benchmarks load the same endpoints with the same requests, and a change to one
request (a new required header, another scope) must reach all three at once.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import httpx
from sqlalchemy import ColumnElement, Engine, Table, and_, func, select

from harness import cpu, log, seeding, wrk
from harness.seeding import Credential
from harness.wrk import KEY, Call
from storage.openplatform.idempotency import COMPLETED
from storage.schema.tables import (
    access_tokens,
    audit_log,
    idempotency_keys,
    inbound_events,
    open_idempotency_keys,
    outbox_events,
    records,
)
from tessera.demo import asset_payload
from tessera.openplatform.resources import cursors
from tessera.openplatform.tokens import bearer
from tessera.runtime import Runtime

TENANT, OTHER_TENANT = "bench", "other"
EMAIL = "admin@bench.example"
SCOPES = ["assets.read", "assets.manage", "inventory.stockins.read", "inventory.stockins.manage",
          "events.robot-fleet.publish"]
CREDENTIALS = 16
BATCH = 5_000
READ_PIDS = 5_000
LIST_LIMIT = 50
LIST_CURSORS = 200
SESSION_PAGE_SIZE = 10
KEYWORDS = ("thinkpad", "macbook", "latitude", "iphone", "pixel", "forklift", "scanner", "printer", "monitor",
            "docking")
SORTS = (("name", "asc"), ("value", "desc"), ("purchasedAt", "desc"))
SESSION_FILTERS = [{"fieldName": "status", "operator": "in", "value": ["in_stock", "assigned"]}]
COMMAND = "inventory.stock-ins.create"
EVENT_SOURCE = "robot-fleet"
SESSION_COMMAND = "assets:create"
SETTLE_TIMEOUT = 20.0  # seconds the rows of a write run may take to stop changing after wrk stopped


@dataclass(frozen=True)
class Spec:
    """One measured endpoint."""

    key: str  # the --only key
    label: str
    kind: str  # "token", "read" or "write": which target ratio applies and whether rows are checked
    target: float  # minimum Tessera/baseline ratio of requests per second
    request: str  # what is sent, for the report
    peers: bool = False  # the peers (Authlib on Flask, FastAPI) answer it too
    limit: bool = False  # measured on the limit (the baseline on asyncpg) too, against LIMIT_TARGET


# The minimum Tessera/limit and Tessera/peer ratios of requests per second, and the most Tessera's p99
# may be of its p50 (the issue's figures: at 16 connections).
LIMIT_TARGET = 0.5
PEER_TARGET = 2.0
TAIL_TARGET, TAIL_CONNECTIONS = 3.0, 16

SPECS = (
    Spec("token", "token issue", "token", 0.5, "POST /oauth2/token (form body)", peers=True, limit=True),
    Spec("whoami", "whoami", "read", 0.5, "GET /api/open/v1/whoami", peers=True, limit=True),
    Spec("read", "read by pid", "read", 0.5, "GET /api/open/v1/resources/assets/{pid}", peers=True, limit=True),
    Spec("list", "list page of 50", "read", 0.5, f"GET /api/open/v1/resources/assets?limit={LIST_LIMIT}[&cursor=]",
         limit=True),
    Spec("session-list", "session list", "read", 0.5,
         "GET /api/dynamic/assets/list?pageNum&pageSize&keyword&sortField&sortOrder&filters"),
    Spec("command", "command execute", "write", 0.4, f"POST /api/open/v1/commands/{COMMAND}:execute", limit=True),
    Spec("event", "inbound event", "write", 0.5, f"POST /api/open/v1/event-sources/{EVENT_SOURCE}/events",
         limit=True),
    Spec("session-create", "session command create", "write", 0.4,
         f"POST /api/meta/commands/execute/{SESSION_COMMAND}", limit=True),
)
BY_KEY = {spec.key: spec for spec in SPECS}


# -- fixture ---------------------------------------------------------------------------------------

@dataclass
class Fixture:
    """What the requests need, made in process before the servers start."""

    jwt: str
    credentials: list[Credential]
    tokens: list[str]  # one bearer token per credential
    installation_pid: str
    app_pid: str
    pids: list[str]  # assets of the tenant read by pid
    cursors: list[str]  # list cursors spread over the tenant's assets
    assets: int  # live assets of the tenant
    noise: int  # assets of the other tenant
    seed_seconds: float
    setup_seconds: float


def setup(env: dict[str, str], count: int) -> Fixture:
    """Tenants ``bench`` and ``other``, an administrator of ``bench`` and its JWT, an application installed
    into ``bench`` with every scope, ``CREDENTIALS`` credentials and a token each, all through the
    services; then ``count`` assets of ``bench`` interleaved with ``count``/10 of ``other`` (noise the
    tenant scoping must skip), in bulk."""
    started = time.perf_counter()
    with seeding.runtime(env) as rt:
        admin, inst, tokens, installation_id = seeding.run(rt, _through_services(rt))
        rng = random.Random(seeding.SEED)
        model = rt.declarations.models["asset"]
        serials = {TENANT: 0, OTHER_TENANT: 0}

        def make(tenant: str, created: datetime) -> dict[str, Any]:
            serials[tenant] += 1
            return seeding.record_row(admin.tenant_ids[tenant], model, asset_payload(rng, tenant, serials[tenant]),
                                      admin.actor.user_id, created)

        seconds = seeding.seed_mix(rt, rng, {TENANT: count, OTHER_TENANT: count // 10}, make, BATCH)
        with seeding.direct(rt) as engine, engine.connect() as conn:
            live = conn.execute(select(records.c.id, records.c.pid).where(
                records.c.tenant_id == admin.tenant_ids[TENANT], records.c.model == model.code,
                records.c.deleted_at.is_(None)).order_by(records.c.id)).all()
        pids = [row.pid for row in random.Random(seeding.SEED).sample(live, min(READ_PIDS, len(live)))]
        spread = [cursors.issue(rt.cursor_box, cursors.Position("assets", installation_id,
                                                                live[i * len(live) // LIST_CURSORS - 1].id))
                  for i in range(1, LIST_CURSORS)]
    fixture = Fixture(admin.jwt, inst.credentials, tokens, inst.installation_pid, inst.app_pid, pids, spread,
                      len(live), count // 10, seconds, time.perf_counter() - started)
    log(f"set up in {fixture.setup_seconds:.1f} s (records in {seconds:.1f} s): {fixture.assets:,} assets in "
        f"{TENANT!r}, {fixture.noise:,} in {OTHER_TENANT!r}")
    return fixture


async def _through_services(rt: Runtime) -> tuple[seeding.Admin, seeding.Installation, list[str], int]:
    """The administrator, the installation, a token per credential and the installation's id."""
    admin = await seeding.tenant_admin(rt, TENANT, EMAIL, others=[OTHER_TENANT])
    inst = await seeding.install(rt, admin, "Benchmark suite", TENANT, SCOPES, CREDENTIALS)
    tokens = [await seeding.issue_token(rt, c) for c in inst.credentials]
    return admin, inst, tokens, (await bearer.validate(rt, tokens[0])).installation_id


# -- requests --------------------------------------------------------------------------------------

def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def calls_for(spec: Spec, fx: Fixture) -> list[Call]:
    """The variants wrk rotates over for an endpoint (the same list for every target)."""
    bearer_headers = [{"Authorization": f"Bearer {t}"} for t in fx.tokens]
    as_json = {"Content-Type": "application/json"}
    session = {"Authorization": f"Bearer {fx.jwt}"}
    if spec.key == "token":
        return [Call("POST", "/oauth2/token", {"Content-Type": "application/x-www-form-urlencoded"},
                     c.form().decode()) for c in fx.credentials]
    if spec.key == "whoami":
        return [Call("GET", "/api/open/v1/whoami", h) for h in bearer_headers]
    if spec.key == "read":
        return [Call("GET", f"/api/open/v1/resources/assets/{pid}", bearer_headers[i % len(bearer_headers)])
                for i, pid in enumerate(fx.pids)]
    if spec.key == "list":
        pages = [f"/api/open/v1/resources/assets?limit={LIST_LIMIT}"]
        pages += [f"/api/open/v1/resources/assets?{httpx.QueryParams({'limit': LIST_LIMIT, 'cursor': c})}"
                  for c in fx.cursors]
        return [Call("GET", path, bearer_headers[i % len(bearer_headers)]) for i, path in enumerate(pages)]
    if spec.key == "session-list":
        return [Call("GET", "/api/dynamic/assets/list?" + str(httpx.QueryParams({
            "pageNum": page, "pageSize": SESSION_PAGE_SIZE, "keyword": keyword, "sortField": sort_field,
            "sortOrder": sort_order, "filters": compact(SESSION_FILTERS)})), session)
            for keyword in KEYWORDS for sort_field, sort_order in SORTS for page in (1, 2)]
    if spec.key == "command":
        body = compact({"input": {"sku": KEY, "quantity": 24, "warehouse": "north",
                                  "receivedAt": "2026-11-22T07:45:00.000Z"}})
        return [Call("POST", f"/api/open/v1/commands/{COMMAND}:execute", {**h, **as_json, "Idempotency-Key": KEY},
                     body) for h in bearer_headers]
    if spec.key == "event":
        body = compact({"type": "inventory.received", "schemaVersion": 1, "occurredAt": "2026-11-22T08:00:00Z",
                        "data": {"sku": KEY, "quantity": 3, "warehouse": "north"}})
        return [Call("POST", f"/api/open/v1/event-sources/{EVENT_SOURCE}/events",
                     {**h, **as_json, "Idempotency-Key": KEY}, body) for h in bearer_headers]
    if spec.key == "session-create":
        body = compact({"payload": {"name": f"Bench asset {KEY}", "serialNo": KEY, "status": "in_stock",
                                    "value": 1899.5, "purchasedAt": "2026-01-15"}})
        return [Call("POST", f"/api/meta/commands/execute/{SESSION_COMMAND}",
                     {**session, **as_json, "X-Idempotent-Key": KEY}, body)]
    raise ValueError(spec.key)


def unkeyed(value: Any, key: str | None) -> Any:
    """``value`` with the request's own unique key (``@KEY@`` of the variant) put back as ``@KEY@``."""
    if key is None:
        return value
    if isinstance(value, str):
        return value.replace(key, KEY)
    if isinstance(value, dict):
        return {k: unkeyed(v, key) for k, v in value.items()}
    if isinstance(value, list):
        return [unkeyed(v, key) for v in value]
    return value


def without(record: dict[str, Any], *names: str) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in names}


def comparable(spec: Spec, response: httpx.Response, key: str | None = None) -> Any:
    """What must be equal between two targets' answers to the same request: every field that does not
    differ by design (a token or an id minted per request, a write's timestamps, a sealed cursor), the
    request's own unique ``key`` put back as ``@KEY@``, and the headers the endpoint promises."""
    body = unkeyed(response.json(), key)
    if spec.key == "token":
        return (without(body, "access_token"), str(body["access_token"]).startswith("tat_"),
                response.headers.get("cache-control"))
    if spec.key == "read":
        return body, response.headers.get("etag")
    if spec.key == "list":
        return body["items"], body["nextCursor"] is not None
    if spec.key == "command":
        tag = response.headers.get("etag", "")
        return {**body, "record": without(body["record"], "pid", "createdAt", "updatedAt")}, tag.startswith('"')
    if spec.key == "event":
        return without(body, "eventId"), str(body["eventId"]).startswith("evt_")
    if spec.key == "session-create":
        return {**body, "data": without(body["data"], "id", "created_at", "updated_at")}
    return body  # whoami and session list: the whole body


# -- the rows a write run adds ---------------------------------------------------------------------

Marks = dict[str, int]
MARKED = (records, outbox_events, open_idempotency_keys, idempotency_keys, inbound_events, access_tokens, audit_log)


def marks(engine: Engine) -> Marks:
    """The highest id of every table a write endpoint adds to."""
    with engine.connect() as conn:
        return {t.name: int(conn.execute(select(func.coalesce(func.max(t.c.id), 0))).scalar_one()) for t in MARKED}


def written_rows(spec: Spec) -> dict[str, tuple[Table, ColumnElement[bool] | None]]:
    """What one successful request of a write endpoint adds: label -> (table, condition)."""
    if spec.key == "token":
        return {"access_tokens": (access_tokens, None),
                "audit oauth.token.issue": (audit_log, audit_log.c.action == "oauth.token.issue")}
    if spec.key == "command":
        return {
            "stockIn records": (records, records.c.model == "stockIn"),
            "outbox inventory.stock-in.created": (outbox_events,
                                                  outbox_events.c.event_type == "inventory.stock-in.created"),
            "idempotency keys completed": (open_idempotency_keys, open_idempotency_keys.c.state == COMPLETED),
            f"audit open.command.{COMMAND}": (audit_log, audit_log.c.action == f"open.command.{COMMAND}"),
        }
    if spec.key == "event":
        return {"inbound_events": (inbound_events, inbound_events.c.source == EVENT_SOURCE)}
    if spec.key == "session-create":
        return {"asset records": (records, records.c.model == "asset"),
                "idempotency keys": (idempotency_keys, None),
                f"audit {SESSION_COMMAND}": (audit_log, audit_log.c.action == SESSION_COMMAND)}
    return {}


def _count_rows(engine: Engine, spec: Spec, since: Marks) -> dict[str, int]:
    counts = {}
    with engine.connect() as conn:
        for label, (table, condition) in written_rows(spec).items():
            where = table.c.id > since[table.name]
            if condition is not None:
                where = and_(where, condition)
            counts[label] = int(conn.execute(select(func.count()).select_from(table).where(where)).scalar_one())
    return counts


def settled_rows(engine: Engine, spec: Spec, since: Marks, at_least: int) -> dict[str, int]:
    """The run's rows once they stop changing: requests in flight when wrk stopped still commit."""
    deadline = time.monotonic() + SETTLE_TIMEOUT
    last = _count_rows(engine, spec, since)
    while time.monotonic() < deadline:
        time.sleep(0.3)
        now = _count_rows(engine, spec, since)
        if now == last and min(now.values(), default=at_least) >= at_least:
            return now
        last = now
    return last


def quiesce(engine: Engine) -> None:
    """Until no table grows any more: a warm-up's last requests must not land in the next run's count."""
    deadline = time.monotonic() + SETTLE_TIMEOUT
    last = marks(engine)
    while time.monotonic() < deadline:
        time.sleep(0.3)
        now = marks(engine)
        if now == last:
            return
        last = now


def check_rows(rows: dict[str, int], ok: int, sent: int) -> list[str]:
    """Every kind of row once per request the server finished: at least the 2xx wrk counted, at most
    the requests wrk wrote, and the same number of each kind."""
    problems = []
    if len(set(rows.values())) > 1:
        problems.append(f"rows disagree: {rows}")
    for label, n in rows.items():
        if not ok <= n <= sent:
            problems.append(f"{label}: {n:,} rows for {ok:,} 2xx responses and {sent:,} requests written")
    return problems


def checked(spec: Spec, engine: Engine, meter: cpu.Meter,
            run: Callable[[], list[wrk.WrkRun]]) -> tuple[list[wrk.WrkRun], cpu.Usage, dict[str, int], list[str]]:
    """One measured run of ``spec`` (``run``: one wrk, or several at once), with CPU read around it and its
    checks: every answer 2xx, no socket error and, after a write, the rows it added against what wrk
    counted. Returns (wrk runs, CPU usage, rows, problems)."""
    since = marks(engine) if spec.kind != "read" else {}
    before = meter.read()
    found = run()
    usage = cpu.Usage.between(before, meter.read())
    # A server that answers nothing within the run has no non-2xx answer and, under wrk's 30 s
    # timeout, no socket error either: it must not pass for one that answered.
    problems = [f"no response in {r.seconds:.1f} s ({r.sent:,} requests written)" for r in found if not r.requests]
    problems += [f"{r.not_ok:,} non-2xx responses {r.statuses}; samples: {r.samples}" for r in found if r.not_ok]
    problems += [f"socket errors: {r.socket_errors}" for r in found if r.socket_errors]
    rows: dict[str, int] = {}
    if spec.kind != "read":
        rows = settled_rows(engine, spec, since, sum(r.ok for r in found))
        problems += check_rows(rows, sum(r.ok for r in found), sum(r.sent for r in found))
    else:
        time.sleep(0.2)  # let the last requests of the run drain before the next one starts
    return found, usage, rows, problems
