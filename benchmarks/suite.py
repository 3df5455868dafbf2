"""Tessera's benchmark suite: every endpoint the performance targets name, against a bare Starlette
baseline doing the same SQL, in the same run, driven by wrk on loopback; one command.

    .venv/bin/python benchmarks/suite.py [--backend postgresql|sqlite|both] [--duration 10]
        [--connections 16] [--records 100000] [--only token,whoami,...] [--rounds 1] [--warmup 2]
        [--threads 1] [--webhook-events 2000] [--webhook-duration 20] [--keep-db]

Needs ``wrk`` on the PATH, PostgreSQL at ``TESSERA_TEST_PG_URL`` (default
``postgresql://postgres@127.0.0.1:5432/test``; the suite creates and drops its own database there)
for the PostgreSQL backend and the webhook figures, and Linux (CPU pinning, ``/proc``).

Why it is built this way: the host is noisy and its speed changes from day to day, so absolute
figures mean little; a ratio to a baseline doing the same database work, measured in the same run,
minutes apart, on the same data and CPU, is what the targets are written in. The issue's figures
came from one worker process pinned to one core; so here.

What it measures, per backend (``--backend``, default both):

==================  =============================================================================
``--only`` key      endpoint (Tessera and baseline alike)
==================  =============================================================================
token               ``POST /oauth2/token``, client credentials in the form body, rotating over 16
                    credentials of one installation
whoami              ``GET /api/open/v1/whoami``, rotating over 16 bearer tokens
read                ``GET /api/open/v1/resources/assets/{pid}``, rotating over 5,000 pids
list                ``GET /api/open/v1/resources/assets?limit=50``: the first page and 199 cursors
                    spread over the 100,000 assets (cursors issued with the server key)
session-list        ``GET /api/dynamic/assets/list``: ``filters`` (status in in_stock, assigned),
                    ``keyword`` (10 asset kinds), ``sortField``/``sortOrder`` (name asc, value desc,
                    purchasedAt desc), pages 1 and 2 of 10, over 100,000 assets of the tenant
command             ``POST /api/open/v1/commands/inventory.stock-ins.create:execute``: a create (no
                    If-Match), a unique ``Idempotency-Key`` and sku per request; writes the record, its
                    audit entry, its outbox row (``inventory.stock-in.created``) and the key
event               ``POST /api/open/v1/event-sources/robot-fleet/events``, unique Idempotency-Key
session-create      ``POST /api/meta/commands/execute/assets:create`` with a unique
                    ``X-Idempotent-Key`` and ``serialNo`` per request
webhooks            ``benchmarks/webhooks.py`` run as is (PostgreSQL only): deliveries per second with
                    1 and 2 worker processes against a bare signed-POST loop, and the p50/p95/p99 of
                    event-to-delivery latency (from the command's commit to the receiver)
==================  =============================================================================

Steps, per backend:

1. A fresh database (``benchmarks/_seed.py``: PostgreSQL, a new database next to
   ``TESSERA_TEST_PG_URL``'s; SQLite, a file in a temporary directory), migrated. In process,
   through the services: tenants ``bench`` and ``other``, a user of ``bench`` with the ``admin``
   role (reads and creates assets) and the platform role that creates applications, its session
   JWT (``services.login``); an application installed into ``bench`` (``production``) with every
   scope (assets.read assets.manage inventory.stockins.read inventory.stockins.manage
   events.robot-fleet.publish), 16 credentials and one token each (``op_tokens.issue``). Then, in
   bulk with progress, ``--records`` assets of ``bench`` and ``--records``/10 of ``other`` (noise the
   tenant scoping must skip), and ``VACUUM ANALYZE`` / ``ANALYZE``.
2. Tessera (``benchmarks/_serve.py``: the real app from ``create_app``, one uvicorn worker, request
   validation on as always, response validation off as in production, JSON logs at WARNING) and
   the baseline (``benchmarks/_baseline_suite.py``: bare Starlette, one uvicorn worker, calling the
   same service functions as Tessera's handlers, so the same SQL, without Connexion, validation,
   middleware, rate limiting or call audit). Both get the same ``TESSERA_*`` variables, with every
   rate limit (``TESSERA_RATE_LIMIT_READ/_WRITE/_LOGIN/_TOKEN``) out of reach. Both server processes
   are pinned to the first CPU of this process's affinity mask and wrk to the second (the database
   is not pinned); with fewer than two CPUs nothing is pinned and the output says so.
3. Per endpoint: one request to each target first, checking both answer 2xx alike (same body for
   reads; same shape for writes); then a ``--warmup`` wrk run per target; then ``--rounds`` rounds
   of four ``--duration`` runs in ABBA order (Tessera, baseline, baseline, Tessera) so a drift over
   the run (caches, tables growing with the writes) favours neither. wrk (``benchmarks/wrk/suite.lua``
   with a requests file generated per endpoint) runs ``--threads`` threads and ``--connections``
   connections with a 30 s timeout; every request rotates over the endpoint's variants and every
   POST carries a unique key. Requests per second count 2xx responses only.
4. After every write run (token issue included) the database is checked: the rows the run added
   (records, outbox rows, completed idempotency keys, audit entries, inbound events, access tokens:
   whichever the endpoint writes) must agree with each other and lie between the 2xx responses wrk
   counted and the requests wrk wrote (the difference is requests still in flight when wrk stopped,
   which the server finishes); the baseline is checked the same way. Any non-2xx response or socket
   error fails the row; its samples are printed.
5. The table: per endpoint the medians over the runs of Tessera's and the baseline's requests per
   second and p50/p95/p99 latency (wrk's histogram of every completed request, ms), the ratio of the
   medians of requests per second, the target (token issue and reads >= 0.5x, writes >= 0.4x) and
   whether it is met; the webhook rows (PostgreSQL); the server processes' CPU per 2xx response
   (where the ratio goes); the peak resident set size (``VmHWM``) of both server processes.
   Everything, per-run figures included (server CPU ms per request, host CPU, rows, statuses), goes
   to ``benchmarks/results/suite-<--backend>.json`` and the tables to
   ``benchmarks/results/suite-<--backend>.txt`` (``suite-both.txt`` by default; the directory is not
   committed); the webhook run's own report to ``benchmarks/results/suite-webhooks.json``.

Exit status 1 when any check failed (a target missed is reported, not a failure).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import random
import secrets
import shutil
import sqlite3
import statistics
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

import _seed
import httpx
import session_list as common
from sqlalchemy import ColumnElement, Engine, Table, and_, func, select

from storage import identity
from storage.db import make_engine
from storage.migrate import upgrade
from storage.open_idempotency import COMPLETED
from storage.tables import (
    access_tokens,
    audit_log,
    idempotency_keys,
    inbound_events,
    open_idempotency_keys,
    outbox_events,
    records,
)
from storage.types import utcnow
from tessera.core.settings import PROJECT_ROOT, load_settings
from tessera.demo import asset_payload
from tessera.openplatform.identity import applications, credentials, installations
from tessera.openplatform.resources.cursors import Position
from tessera.openplatform.tokens import grants as op_tokens
from tessera.runtime import build_runtime
from tessera.session.auth.actors import resolve_actor
from tessera.session.auth.login import login

log = _seed.log

BENCH_DIR = Path(__file__).resolve().parent
RESULTS_DIR = BENCH_DIR / "results"
LUA_SCRIPT = BENCH_DIR / "wrk" / "suite.lua"
BACKENDS = ("postgresql", "sqlite")
TARGETS = ("tessera", "baseline")
ABBA = ("tessera", "baseline", "baseline", "tessera")

TENANT, OTHER_TENANT = "bench", "other"
EMAIL = "admin@bench.example"
ENVIRONMENT = "production"
SCOPES = ["assets.read", "assets.manage", "inventory.stockins.read", "inventory.stockins.manage",
          "events.robot-fleet.publish"]
CREDENTIALS = 16
SEED = 20261122
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
UNLIMITED = str(10**9)
WRK_TIMEOUT = "30s"
SETTLE_TIMEOUT = 20.0  # seconds the rows of a write run may take to stop changing after wrk stopped


# -- endpoints -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Spec:
    """One measured endpoint."""

    key: str  # the --only key
    label: str
    kind: str  # "token", "read" or "write": which target applies and whether rows are checked
    target: float  # minimum Tessera/baseline ratio of requests per second
    request: str  # what is sent, for the report


SPECS = (
    Spec("token", "token issue", "token", 0.5, "POST /oauth2/token (form body)"),
    Spec("whoami", "whoami", "read", 0.5, "GET /api/open/v1/whoami"),
    Spec("read", "read by pid", "read", 0.5, "GET /api/open/v1/resources/assets/{pid}"),
    Spec("list", "list page of 50", "read", 0.5, f"GET /api/open/v1/resources/assets?limit={LIST_LIMIT}[&cursor=]"),
    Spec("session-list", "session list", "read", 0.5,
         "GET /api/dynamic/assets/list?pageNum&pageSize&keyword&sortField&sortOrder&filters"),
    Spec("command", "command execute", "write", 0.4, f"POST /api/open/v1/commands/{COMMAND}:execute"),
    Spec("event", "inbound event", "write", 0.4, f"POST /api/open/v1/event-sources/{EVENT_SOURCE}/events"),
    Spec("session-create", "session command create", "write", 0.4,
         f"POST /api/meta/commands/execute/{SESSION_COMMAND}"),
)
WEBHOOKS = "webhooks"
KEYS = (*(s.key for s in SPECS), WEBHOOKS)


# -- setup -----------------------------------------------------------------------------------------

@dataclass
class Fixture:
    """What the requests need, made in process before the servers start."""

    jwt: str
    credentials: list[tuple[str, str]]  # (client id, secret)
    tokens: list[str]  # one bearer token per credential
    installation_pid: str
    app_pid: str
    pids: list[str]  # assets of the tenant read by pid
    cursors: list[str]  # list cursors spread over the tenant's assets
    assets: int  # live assets of the tenant
    noise: int  # assets of the other tenant
    seed_seconds: float = 0.0
    setup_seconds: float = 0.0


def setup(env: dict[str, str], count: int) -> Fixture:
    """Tenants, user, application, installation, credentials, tokens and records, through the services."""
    started = time.perf_counter()
    rt = build_runtime(load_settings(env))
    try:
        password = secrets.token_urlsafe(16)
        with rt.db.write() as conn:
            tenant_id = identity.create_tenant(conn, TENANT, "Benchmark Tenant", rt.declarations.roles)
            other_id = identity.create_tenant(conn, OTHER_TENANT, "Other Tenant", rt.declarations.roles)
            user = identity.create_user(conn, EMAIL, "Benchmark Admin", rt.passwords.hash(password), tenant_id)
            identity.add_membership(conn, tenant_id, user.id, "admin")
            identity.grant_platform_role(conn, user.id, applications.CREATE_PERMISSION)
        session = login(rt, EMAIL, password, "bench-setup")
        actor = resolve_actor(rt, session["jwt"], None)
        app = applications.create_application(rt, actor, {"name": "Benchmark suite", "description": "suite.py"},
                                          "bench-setup")
        inst = installations.create_installation(
            rt, actor, app["appId"], {"tenantId": TENANT, "environment": ENVIRONMENT, "scopes": SCOPES}, "bench-setup")
        creds = [credentials.create_credential(rt, actor, inst["installationId"], "bench-setup")
                 for _ in range(CREDENTIALS)]
        tokens = [str(op_tokens.issue(rt, {"grant_type": "client_credentials", "client_id": c["clientId"],
                                           "client_secret": c["clientSecret"]}, None, {}, "bench-setup")
                      ["access_token"]) for c in creds]
        installation_id = op_tokens.validate(rt, tokens[0]).installation_id
        log(f"application {app['appId']}, installation {inst['installationId']} in {TENANT!r} ({ENVIRONMENT}, "
            f"scopes {' '.join(SCOPES)}), {len(creds)} credentials and tokens; user {EMAIL} (admin)")

        noise = count // 10
        rng = random.Random(SEED)
        kinds = [True] * count + [False] * noise  # True: an asset of TENANT
        rng.shuffle(kinds)
        first_created = utcnow() - timedelta(seconds=len(kinds))
        model = rt.declarations.models["asset"]
        serials = {TENANT: 0, OTHER_TENANT: 0}

        def make_row(position: int) -> dict[str, Any]:
            tenant = TENANT if kinds[position] else OTHER_TENANT
            serials[tenant] += 1
            return _seed.record_row(tenant_id if kinds[position] else other_id, model,
                                    asset_payload(rng, tenant, serials[tenant]), user.id,
                                    first_created + timedelta(seconds=position))

        log(f"seeding {len(kinds):,} assets: {count:,} of {TENANT!r}, {noise:,} of {OTHER_TENANT!r}, interleaved")
        seed_seconds = _seed.insert_batches(rt.db, len(kinds), make_row, {model.code: model}, BATCH)
        _seed.analyze(rt.db.engine)
        with rt.db.read() as conn:
            live = conn.execute(select(records.c.id, records.c.pid).where(
                records.c.tenant_id == tenant_id, records.c.model == model.code, records.c.deleted_at.is_(None)
            ).order_by(records.c.id)).all()
        pids = [row.pid for row in random.Random(SEED).sample(live, min(READ_PIDS, len(live)))]
        cursors = [rt.cursors.issue(Position("assets", installation_id, live[i * len(live) // LIST_CURSORS - 1].id))
                   for i in range(1, LIST_CURSORS)]
    finally:
        rt.close()
    return Fixture(
        jwt=session["jwt"], credentials=[(c["clientId"], c["clientSecret"]) for c in creds], tokens=tokens,
        installation_pid=inst["installationId"], app_pid=app["appId"], pids=pids, cursors=cursors,
        assets=len(live), noise=noise, seed_seconds=seed_seconds, setup_seconds=time.perf_counter() - started,
    )


# -- requests --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Call:
    """One request variant; ``@KEY@`` in a header or the body is replaced by a key unique per request."""

    method: str
    path: str
    headers: dict[str, str]
    body: str | None = None

    def with_key(self, key: str) -> Call:
        return Call(self.method, self.path, {k: v.replace("@KEY@", key) for k, v in self.headers.items()},
                    None if self.body is None else self.body.replace("@KEY@", key))


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def calls_for(spec: Spec, fx: Fixture) -> list[Call]:
    """The variants wrk rotates over for an endpoint (the same list for both targets)."""
    bearer = [{"Authorization": f"Bearer {t}"} for t in fx.tokens]
    as_json = {"Content-Type": "application/json"}
    if spec.key == "token":
        return [Call("POST", "/oauth2/token", {"Content-Type": "application/x-www-form-urlencoded"},
                     str(httpx.QueryParams({"grant_type": "client_credentials", "client_id": client_id,
                                            "client_secret": secret})))
                for client_id, secret in fx.credentials]
    if spec.key == "whoami":
        return [Call("GET", "/api/open/v1/whoami", h) for h in bearer]
    if spec.key == "read":
        return [Call("GET", f"/api/open/v1/resources/assets/{pid}", bearer[i % len(bearer)])
                for i, pid in enumerate(fx.pids)]
    if spec.key == "list":
        pages = [f"/api/open/v1/resources/assets?limit={LIST_LIMIT}"]
        pages += [f"/api/open/v1/resources/assets?{httpx.QueryParams({'limit': LIST_LIMIT, 'cursor': c})}"
                  for c in fx.cursors]
        return [Call("GET", path, bearer[i % len(bearer)]) for i, path in enumerate(pages)]
    if spec.key == "session-list":
        session = {"Authorization": f"Bearer {fx.jwt}"}
        return [Call("GET", "/api/dynamic/assets/list?" + str(httpx.QueryParams({
            "pageNum": page, "pageSize": SESSION_PAGE_SIZE, "keyword": keyword, "sortField": sort_field,
            "sortOrder": sort_order, "filters": compact(SESSION_FILTERS)})), session)
            for keyword in KEYWORDS for sort_field, sort_order in SORTS for page in (1, 2)]
    if spec.key == "command":
        body = compact({"input": {"sku": "@KEY@", "quantity": 24, "warehouse": "north",
                                  "receivedAt": "2026-11-22T07:45:00.000Z"}})
        return [Call("POST", f"/api/open/v1/commands/{COMMAND}:execute", {**h, **as_json, "Idempotency-Key": "@KEY@"},
                     body) for h in bearer]
    if spec.key == "event":
        body = compact({"type": "inventory.received", "schemaVersion": 1, "occurredAt": "2026-11-22T08:00:00Z",
                        "data": {"sku": "@KEY@", "quantity": 3, "warehouse": "north"}})
        return [Call("POST", f"/api/open/v1/event-sources/{EVENT_SOURCE}/events",
                     {**h, **as_json, "Idempotency-Key": "@KEY@"}, body) for h in bearer]
    if spec.key == "session-create":
        body = compact({"payload": {"name": "Bench asset @KEY@", "serialNo": "@KEY@", "status": "in_stock",
                                    "value": 1899.5, "purchasedAt": "2026-01-15"}})
        return [Call("POST", f"/api/meta/commands/execute/{SESSION_COMMAND}",
                     {"Authorization": f"Bearer {fx.jwt}", **as_json, "X-Idempotent-Key": "@KEY@"}, body)]
    raise ValueError(spec.key)


def lua_string(text: str) -> str:
    """A Lua string literal: printable ASCII as is, every other byte as a decimal escape."""
    return '"' + "".join(chr(b) if 0x20 <= b < 0x7F and b not in (0x22, 0x5C) else f"\\{b:03d}"
                         for b in text.encode()) + '"'


def write_requests(path: Path, calls: list[Call]) -> None:
    """The requests file ``benchmarks/wrk/suite.lua`` loads with ``dofile``."""
    lines = ["return {"]
    for call in calls:
        headers = ", ".join(f"[{lua_string(k)}] = {lua_string(v)}" for k, v in call.headers.items())
        body = "nil" if call.body is None else lua_string(call.body)
        lines.append(f"  {{method = {lua_string(call.method)}, path = {lua_string(call.path)}, "
                     f"headers = {{{headers}}}, body = {body}}},")
    lines.append("}")
    path.write_text("\n".join(lines) + "\n")


# -- wrk -------------------------------------------------------------------------------------------

@dataclass
class Pinning:
    """Which CPU the servers and wrk run on (None: not pinned)."""

    server: set[int] | None
    load: set[int] | None

    @staticmethod
    def choose() -> Pinning:
        available = sorted(os.sched_getaffinity(0))
        if len(available) < 2:
            return Pinning(None, None)
        return Pinning({available[0]}, {available[1]})

    def describe(self) -> str:
        if self.server is None or self.load is None:
            return "not pinned (fewer than two CPUs available)"
        return f"servers on CPU {min(self.server)}, wrk on CPU {min(self.load)}, the database unpinned"


@dataclass
class WrkRun:
    """What one wrk run reported."""

    requests: int  # completed responses, any status
    seconds: float
    sent: int  # requests written, including those in flight when wrk stopped
    statuses: dict[str, int]
    socket_errors: dict[str, int]
    p50_ms: float
    p95_ms: float
    p99_ms: float
    mean_ms: float
    max_ms: float
    samples: list[str]

    @property
    def ok(self) -> int:
        return sum(n for status, n in self.statuses.items() if status.startswith("2"))

    @property
    def not_ok(self) -> int:
        return self.requests - self.ok

    @property
    def rps(self) -> float:
        return self.ok / self.seconds if self.seconds else 0.0


def run_wrk(base_url: str, requests_file: Path, tag: str, seconds: float, args: argparse.Namespace,
            pinning: Pinning) -> WrkRun:
    command = ["wrk", "-t", str(args.threads), "-c", str(args.connections), "-d", f"{seconds:g}s",
               "--timeout", WRK_TIMEOUT, "-s", str(LUA_SCRIPT), base_url, "--", str(requests_file), tag]
    cpus = pinning.load

    def pin() -> None:
        if cpus:
            os.sched_setaffinity(0, cpus)

    done = subprocess.run(command, capture_output=True, text=True, errors="replace", timeout=seconds + 120,
                          preexec_fn=pin if cpus else None, check=False)
    line = next((raw for raw in done.stdout.splitlines() if raw.startswith("SUITE_RESULT ")), None)
    if done.returncode != 0 or line is None:
        raise RuntimeError(f"wrk failed (exit {done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    data = json.loads(line.removeprefix("SUITE_RESULT "))
    latency = data["latency_us"]
    return WrkRun(
        requests=data["requests"], seconds=data["duration_us"] / 1e6, sent=data["sent"],
        statuses={str(k): int(v) for k, v in data["statuses"].items()},
        socket_errors={k: int(v) for k, v in data["errors"].items() if k != "status" and v},
        p50_ms=latency["p50"] / 1000, p95_ms=latency["p95"] / 1000, p99_ms=latency["p99"] / 1000,
        mean_ms=latency["mean"] / 1000, max_ms=latency["max"] / 1000, samples=data["samples"],
    )


# -- database checks -------------------------------------------------------------------------------

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


def count_rows(engine: Engine, spec: Spec, since: Marks) -> dict[str, int]:
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
    last = count_rows(engine, spec, since)
    while time.monotonic() < deadline:
        time.sleep(0.3)
        now = count_rows(engine, spec, since)
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


# -- servers ---------------------------------------------------------------------------------------

def peak_rss_mib(pid: int) -> float | None:
    """``VmHWM`` (peak resident set size) of a live process, MiB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


@contextlib.contextmanager
def servers_running(env: dict[str, str], tmp: Path, pinning: Pinning) -> Iterator[dict[str, common.Server]]:
    servers: dict[str, common.Server] = {}
    try:
        for target, script in (("tessera", "_serve.py"), ("baseline", "_baseline_suite.py")):
            servers[target] = common.start_server(target, script, env, tmp, pinning.server)
            log(f"{target} listening on {servers[target].base_url} (pid {servers[target].process.pid})")
        yield servers
    finally:
        for server in servers.values():
            server.stop()


def alive(servers: dict[str, common.Server]) -> None:
    for server in servers.values():
        if server.process.poll() is not None:
            raise RuntimeError(f"{server.name} exited with {server.process.returncode}:\n{server.log_tail()}")


# -- checks before measuring -----------------------------------------------------------------------

def send(server: common.Server, call: Call) -> httpx.Response:
    return httpx.request(call.method, server.base_url + call.path, headers=call.headers,
                         content=None if call.body is None else call.body.encode(), timeout=60)


def comparable(spec: Spec, response: httpx.Response) -> Any:
    """What must be equal between the targets' answers to the same request."""
    body = response.json()
    if spec.key == "token":
        return {k: body.get(k) for k in ("token_type", "expires_in", "scope")}
    if spec.key == "read":
        return body, response.headers.get("etag")
    if spec.key == "list":
        return body["items"]
    if spec.key == "session-list":
        return body["code"], body["data"]
    if spec.key == "command":
        return sorted(body), sorted(body["record"]), body["record"]["source"], body["idempotentReplay"]
    if spec.key == "event":
        return sorted(body), body["duplicate"]
    if spec.key == "session-create":
        return body["code"], sorted(body["data"])
    return body


def verify_alike(spec: Spec, servers: dict[str, common.Server], calls: list[Call]) -> list[str]:
    """One request (two for list: first page and a cursor) to each target: 2xx and alike."""
    problems = []
    for index in ((0, 1) if spec.key == "list" else (0,)):
        answers = {}
        for target, server in servers.items():
            response = send(server, calls[index].with_key(f"check-{spec.key}-{target}"))
            if not 200 <= response.status_code < 300:
                problems.append(f"{target} answered HTTP {response.status_code}: {response.text[:300]}")
                continue
            try:
                answers[target] = comparable(spec, response)
            except (ValueError, KeyError, TypeError) as exc:
                problems.append(f"{target} answered an unexpected body ({exc!r}): {response.text[:300]}")
        if len(answers) == 2 and answers["tessera"] != answers["baseline"]:
            problems.append(f"the targets answer differently: tessera {str(answers['tessera'])[:400]} | "
                            f"baseline {str(answers['baseline'])[:400]}")
    return problems


# -- measuring -------------------------------------------------------------------------------------

@dataclass
class Run:
    """One measured wrk run against one target, with its checks."""

    target: str
    round: int
    seconds: float
    requests: int
    ok: int
    not_ok: int
    sent: int
    rps: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    max_ms: float
    statuses: dict[str, int]
    socket_errors: dict[str, int]
    server_cpu_ms: float | None  # server process CPU per 2xx response
    host_cpu_pct: float | None  # how busy all CPUs were (100 = all saturated)
    rows: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    samples: list[str] = field(default_factory=list)


def measure(spec: Spec, server: common.Server, requests_file: Path, tag: str, round_no: int, seconds: float,
            engine: Engine, args: argparse.Namespace, pinning: Pinning) -> Run:
    since = marks(engine) if spec.kind != "read" else {}
    cpu_before, host_before = common.process_cpu_seconds(server.process.pid), common.host_cpu_seconds()
    wrk = run_wrk(server.base_url, requests_file, tag, seconds, args, pinning)
    cpu_after, host_after = common.process_cpu_seconds(server.process.pid), common.host_cpu_seconds()
    server_cpu = host_pct = None
    if cpu_before is not None and cpu_after is not None:
        server_cpu = round((cpu_after - cpu_before) * 1000 / max(1, wrk.ok), 3)
    if host_before and host_after and host_after[1] > host_before[1]:
        host_pct = round(100 * (host_after[0] - host_before[0]) / (host_after[1] - host_before[1]), 1)
    problems = []
    if wrk.not_ok:
        problems.append(f"{wrk.not_ok:,} non-2xx responses {wrk.statuses}; samples: {wrk.samples}")
    if wrk.socket_errors:
        problems.append(f"socket errors: {wrk.socket_errors}")
    rows: dict[str, int] = {}
    if spec.kind != "read":
        rows = settled_rows(engine, spec, since, wrk.ok)
        problems += check_rows(rows, wrk.ok, wrk.sent)
    else:
        time.sleep(0.2)  # let the last requests of the run drain before the next one starts
    return Run(target=server.name, round=round_no, seconds=round(wrk.seconds, 3), requests=wrk.requests, ok=wrk.ok,
               not_ok=wrk.not_ok, sent=wrk.sent, rps=round(wrk.rps, 1), p50_ms=round(wrk.p50_ms, 2),
               p95_ms=round(wrk.p95_ms, 2), p99_ms=round(wrk.p99_ms, 2), max_ms=round(wrk.max_ms, 2),
               statuses=wrk.statuses, socket_errors=wrk.socket_errors, server_cpu_ms=server_cpu, host_cpu_pct=host_pct,
               rows=rows, problems=problems, samples=wrk.samples)


@dataclass
class Stats:
    """Medians over a target's runs of one endpoint."""

    rps: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    server_cpu_ms: float | None
    runs: int

    @staticmethod
    def of(runs: list[Run]) -> Stats:
        cpu = [r.server_cpu_ms for r in runs if r.server_cpu_ms is not None]
        return Stats(rps=round(statistics.median(r.rps for r in runs), 1),
                     p50_ms=round(statistics.median(r.p50_ms for r in runs), 2),
                     p95_ms=round(statistics.median(r.p95_ms for r in runs), 2),
                     p99_ms=round(statistics.median(r.p99_ms for r in runs), 2),
                     server_cpu_ms=round(statistics.median(cpu), 3) if cpu else None, runs=len(runs))


@dataclass
class Row:
    """One line of the final table."""

    label: str
    key: str
    tessera: Stats | None
    baseline: Stats | None
    ratio: float | None
    target: float | None
    met: bool | None
    problems: list[str] = field(default_factory=list)
    note: str = ""
    request: str = ""
    runs: list[Run] = field(default_factory=list)


def measure_endpoint(spec: Spec, fx: Fixture, servers: dict[str, common.Server], engine: Engine, tmp: Path,
                     args: argparse.Namespace, pinning: Pinning, backend: str) -> Row:
    calls = calls_for(spec, fx)
    requests_file = tmp / f"requests-{spec.key}.lua"
    write_requests(requests_file, calls)
    log(f"\n[{backend}] {spec.label}: {spec.request}; {len(calls):,} request variants")
    problems = [f"before measuring: {p}" for p in verify_alike(spec, servers, calls)]
    log("  both targets answer alike" if not problems else f"  CHECK FAILED: {problems}")
    for target in TARGETS:
        warm = run_wrk(servers[target].base_url, requests_file, f"{spec.key}-{target}-warm", args.warmup, args,
                       pinning)
        log(f"  warm-up {target:<8} {args.warmup:g} s: {wrk_line(warm.rps, warm.p50_ms, warm.p95_ms, warm.p99_ms)}"
            + (f"  {warm.not_ok} non-2xx {warm.statuses} {warm.samples[:1]}" if warm.not_ok else ""))
        if warm.not_ok:
            problems.append(f"warm-up on {target}: {warm.not_ok} non-2xx responses {warm.statuses}: {warm.samples}")
        if spec.kind != "read":
            quiesce(engine)
    runs: list[Run] = []
    total = args.rounds * len(ABBA)
    for round_no in range(1, args.rounds + 1):
        for position, target in enumerate(ABBA, start=1):
            number = (round_no - 1) * len(ABBA) + position
            run = measure(spec, servers[target], requests_file, f"{spec.key}-{target}-r{number}", round_no,
                          args.duration, engine, args, pinning)
            runs.append(run)
            rows = f"  rows {run.rows}" if run.rows else ""
            cpu = f"  server CPU {run.server_cpu_ms:.2f} ms/req" if run.server_cpu_ms is not None else ""
            log(f"  run {number}/{total} {target:<8} {run.seconds:.1f} s: "
                f"{wrk_line(run.rps, run.p50_ms, run.p95_ms, run.p99_ms)}  ({run.ok:,} 2xx, {run.sent - run.requests} "
                f"in flight at stop){cpu}{rows}" + ("" if not run.problems else f"  PROBLEM: {run.problems}"))
            problems += [f"run {number} ({target}): {p}" for p in run.problems]
            alive(servers)
    t = Stats.of([r for r in runs if r.target == "tessera"])
    b = Stats.of([r for r in runs if r.target == "baseline"])
    ratio = round(t.rps / b.rps, 3) if b.rps else None
    met = ratio is not None and ratio >= spec.target
    log(f"  => tessera {t.rps:,.1f} req/s, baseline {b.rps:,.1f} req/s, ratio "
        f"{'-' if ratio is None else f'{ratio:.2f}x'} (target >= {spec.target:g}x: {'met' if met else 'NOT met'})"
        + ("" if not problems else f"; {len(problems)} problem(s)"))
    return Row(spec.label, spec.key, t, b, ratio, spec.target, met, problems, request=spec.request, runs=runs)


def wrk_line(rps: float, p50: float, p95: float, p99: float) -> str:
    return f"{rps:>8,.1f} req/s  p50 {p50:7.2f}  p95 {p95:7.2f}  p99 {p99:7.2f} ms"


# -- webhooks --------------------------------------------------------------------------------------

def webhook_rows(args: argparse.Namespace) -> tuple[list[Row], dict[str, Any]]:
    """Run ``benchmarks/webhooks.py`` as is (its own database, worker processes and receiver) and turn
    its headline figures into table rows."""
    results_file = RESULTS_DIR / "suite-webhooks.json"
    results_file.unlink(missing_ok=True)
    command = [sys.executable, str(BENCH_DIR / "webhooks.py"), "--events", str(args.webhook_events),
               "--duration", f"{args.webhook_duration:g}", "--results-file", str(results_file)]
    log(f"\n[postgresql] webhooks: {' '.join(Path(c).name if c == command[1] else c for c in command[1:])}")
    started = time.perf_counter()
    with subprocess.Popen(command, cwd=PROJECT_ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          errors="replace") as process:
        assert process.stdout is not None
        for line in process.stdout:
            log(f"  [webhooks] {line.rstrip()}")
        status = process.wait()
    log(f"  webhooks.py exited with {status} after {time.perf_counter() - started:.0f} s")
    if not results_file.exists():
        return [Row("webhooks", WEBHOOKS, None, None, None, None, None,
                    [f"benchmarks/webhooks.py wrote no results (exit {status}); see its output above"])], {}
    report = json.loads(results_file.read_text())
    failures = [f"webhooks.py: {f}" for f in report.get("failures", [])]
    if status != 0 and not failures:
        failures.append(f"webhooks.py exited with {status}")
    rows = []
    for name, figures in report.get("headline", {}).items():
        if not name.startswith("deliveries_per_second_"):
            continue
        workers = name.removeprefix("deliveries_per_second_").split("_", 1)[0]
        t, b = figures.get("tessera"), figures.get("baseline")
        rows.append(Row(
            f"webhook deliveries/s ({workers} worker{'s' if workers != '1' else ''})", WEBHOOKS,
            Stats(t, 0, 0, 0, None, 1) if t is not None else None,
            Stats(b, 0, 0, 0, None, 1) if b is not None else None,
            figures.get("ratio"), None, None, failures,
            note="deliveries per second draining a backlog (tessera worker processes vs a bare signed-POST loop)"))
    latency = report.get("headline", {}).get("latency_from_commit_ms")
    if latency:
        config = report.get("config", {})
        rows.append(Row(
            "webhook event-to-delivery", WEBHOOKS, Stats(0, latency["p50"], latency["p95"], latency["p99"], None, 1),
            None, None, None, None, failures,
            note=f"from the command's commit to the receiver, {config.get('rate', '?')} commands/s, worker poll "
                 f"{config.get('worker_poll_seconds', '?')} s; no baseline"))
    return rows, report


# -- report ----------------------------------------------------------------------------------------

def versions(engine: Engine) -> dict[str, str]:
    with engine.connect() as conn:
        database = (str(conn.exec_driver_sql("SELECT version()").scalar_one()) if engine.dialect.name == "postgresql"
                    else f"SQLite {sqlite3.sqlite_version}")
    info = {"python": sys.version.split()[0], "database": database, "platform": platform.platform(),
            "cpus": str(os.cpu_count())}
    for package in ("connexion", "starlette", "uvicorn", "uvloop", "httptools", "sqlalchemy", "psycopg"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            info[package] = metadata.version(package)
    wrk_version = subprocess.run(["wrk", "-v"], capture_output=True, text=True, check=False)
    info["wrk"] = (wrk_version.stdout or wrk_version.stderr).splitlines()[0].strip() if (
        wrk_version.stdout or wrk_version.stderr) else "?"
    return info


def num(value: float | None, width: int, digits: int = 2) -> str:
    """Right-aligned, thousands separated; ``-`` for a figure that does not exist (None or 0)."""
    return f"{'-' if value is None or value == 0 else f'{value:,.{digits}f}':>{width}}"


def table(rows: list[Row]) -> list[str]:
    """The final table: medians per target, the ratio of requests per second, the target, met or not."""
    width = max([len("endpoint"), *(len(r.label) for r in rows)])
    header = (f"{'endpoint':<{width}} | {'Tessera req/s':>13} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} | "
              f"{'baseline req/s':>14} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} | {'ratio':>6} | {'target':>7} | met?")
    lines = [header, "-" * len(header)]
    for row in rows:
        t, b = row.tessera, row.baseline
        met = "-" if row.met is None else ("yes" if row.met else "NO")
        if row.problems:
            met += " (FAILED CHECKS)"
        lines.append(
            f"{row.label:<{width}} | {num(t.rps if t else None, 13, 1)} {num(t.p50_ms if t else None, 8)} "
            f"{num(t.p95_ms if t else None, 8)} {num(t.p99_ms if t else None, 8)} | "
            f"{num(b.rps if b else None, 14, 1)} {num(b.p50_ms if b else None, 8)} {num(b.p95_ms if b else None, 8)} "
            f"{num(b.p99_ms if b else None, 8)} | "
            f"{'-' if row.ratio is None else f'{row.ratio:.2f}x':>6} | "
            f"{'-' if row.target is None else f'>={row.target:g}x':>7} | {met}")
    return lines


def cpu_table(rows: list[Row]) -> list[str]:
    """Server CPU per 2xx response (medians): where the ratio goes, independent of the load generator."""
    measured = [r for r in rows if r.tessera and r.baseline and r.tessera.server_cpu_ms and r.baseline.server_cpu_ms]
    if not measured:
        return []
    width = max([len("endpoint"), *(len(r.label) for r in measured)])
    header = f"{'endpoint':<{width}} | {'Tessera CPU ms/req':>18} | {'baseline CPU ms/req':>19} | {'extra ms/req':>12}"
    lines = ["server process CPU per 2xx response (median of the runs; the database's CPU is not in it):",
             header, "-" * len(header)]
    for row in measured:
        assert row.tessera and row.baseline and row.tessera.server_cpu_ms and row.baseline.server_cpu_ms
        t, b = row.tessera.server_cpu_ms, row.baseline.server_cpu_ms
        lines.append(f"{row.label:<{width}} | {t:>18.3f} | {b:>19.3f} | {t - b:>12.3f}")
    return lines


@dataclass
class BackendReport:
    backend: str
    rows: list[Row] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)


def run_backend(name: str, args: argparse.Namespace, selected: list[Spec], pinning: Pinning) -> BackendReport:
    out = BackendReport(name)
    log(f"\n##### backend: {name} #####")
    with tempfile.TemporaryDirectory(prefix="tessera-suite-") as tmp_name:
        tmp = Path(tmp_name)
        backend = _seed.create_backend(name, tmp)
        engine: Engine | None = None
        try:
            log(f"database: {backend.label}")
            step = time.perf_counter()
            upgrade(backend.sqlalchemy_url)
            log(f"migrated in {time.perf_counter() - step:.1f} s")
            env = common.server_env(backend.url, secrets.token_urlsafe(48), tmp / "var", PROJECT_ROOT / "models.yaml")
            env |= {"TESSERA_RATE_LIMIT_READ": UNLIMITED, "TESSERA_RATE_LIMIT_WRITE": UNLIMITED,
                    "TESSERA_RATE_LIMIT_LOGIN": UNLIMITED, "TESSERA_RATE_LIMIT_TOKEN": UNLIMITED}
            fx = setup(env, args.records)
            log(f"set up in {fx.setup_seconds:.1f} s (records in {fx.seed_seconds:.1f} s): {fx.assets:,} assets in "
                f"{TENANT!r}, {fx.noise:,} in {OTHER_TENANT!r}")
            engine = make_engine(backend.sqlalchemy_url, **({"pool_size": 2} if name == "postgresql" else {}))
            out.info = {"versions": versions(engine), "database": backend.label, "assets": fx.assets,
                        "other_tenant_assets": fx.noise, "setup_seconds": round(fx.setup_seconds, 1),
                        "seed_seconds": round(fx.seed_seconds, 1), "application": fx.app_pid,
                        "installation": fx.installation_pid, "credentials": len(fx.credentials)}
            with servers_running(env, tmp, pinning) as servers:
                for spec in selected:
                    row = measure_endpoint(spec, fx, servers, engine, tmp, args, pinning, name)
                    out.rows.append(row)
                    out.failures += [f"{name}, {spec.label}: {p}" for p in row.problems]
                out.info["peak_rss_mib"] = {t: peak_rss_mib(s.process.pid) for t, s in servers.items()}
                for server in servers.values():
                    if any(r.problems for r in out.rows):
                        log(f"\n{server.name} log (last lines):\n{server.log_tail(15)}")
        except (AssertionError, RuntimeError, httpx.HTTPError) as exc:
            out.failures.append(f"{name}: run aborted: {exc}")
            log(f"ABORTED: {exc}")
        finally:
            if engine is not None:
                engine.dispose()
            if args.keep_db and backend.path is not None:
                kept = RESULTS_DIR / "suite.sqlite3"  # the temporary directory goes away
                kept.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(backend.path, kept)
                log(f"database kept: sqlite:///{kept}")
            elif args.keep_db:
                log(f"database kept: {backend.url}")
            else:
                backend.drop()
    if name == "postgresql" and args.webhooks:
        rows, report = webhook_rows(args)
        out.rows += rows
        out.info["webhooks"] = report
        out.failures += list(dict.fromkeys(p for r in rows for p in r.problems))
    return out


def report_lines(out: BackendReport, args: argparse.Namespace, pinning: Pinning) -> list[str]:
    info = out.info
    versions_ = info.get("versions", {})
    lines = [f"=== Tessera benchmark suite: {out.backend} ==="]
    if versions_:
        lines.append(f"Python {versions_['python']} | {versions_['database']}")
        lines.append(f"{versions_['platform']} | {versions_['cpus']} CPUs | {versions_.get('wrk', '')} | "
                     + " ".join(f"{p} {versions_[p]}" for p in ("connexion", "starlette", "uvicorn", "uvloop",
                                                                  "sqlalchemy", "psycopg") if p in versions_))
    if "assets" in info:
        lines.append(f"{info['assets']:,} assets in {TENANT!r} (+{info['other_tenant_assets']:,} in "
                     f"{OTHER_TENANT!r}) | "
                     f"wrk {args.threads} thread(s), {args.connections} connections | {args.duration:g} s per run, "
                     f"{args.rounds} round(s) of ABBA (median of {2 * args.rounds} runs per target) after "
                     f"{args.warmup:g} s warm-up | {pinning.describe()} | one uvicorn worker per server")
    lines += table(out.rows)
    lines += cpu_table(out.rows)
    rss = info.get("peak_rss_mib")
    if rss:
        lines.append("peak resident set size (VmHWM) at the end: "
                     + ", ".join(f"{t} {'-' if v is None else f'{v:,.1f} MiB'}" for t, v in rss.items()))
    for row in out.rows:
        if row.note:
            lines.append(f"note, {row.label}: {row.note}")
    for failure in out.failures:
        lines.append(f"FAILED: {failure}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=(*BACKENDS, "both"), default="both")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per measured run (default 10)")
    parser.add_argument("--connections", type=int, default=16, help="wrk connections (default 16)")
    parser.add_argument("--threads", type=int, default=1, help="wrk threads (default 1: wrk has one CPU)")
    parser.add_argument("--records", type=int, default=100_000, help="assets of the tenant (default 100000)")
    parser.add_argument("--only", default=",".join(KEYS), help=f"comma-separated, of: {','.join(KEYS)} (default all)")
    parser.add_argument("--rounds", type=int, default=1, help="ABBA rounds per endpoint (default 1: 2 runs per target)")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds of warm-up per endpoint and target")
    parser.add_argument("--webhook-events", type=int, default=2000, help="webhooks.py --events (default 2000)")
    parser.add_argument("--webhook-duration", type=float, default=20.0, help="webhooks.py --duration (default 20)")
    parser.add_argument("--keep-db", action="store_true", help="keep the databases afterwards")
    args = parser.parse_args()
    only = [k.strip() for k in args.only.split(",") if k.strip()]
    unknown = sorted(set(only) - set(KEYS))
    if unknown:
        parser.error(f"--only: unknown {', '.join(unknown)}; choose from {', '.join(KEYS)}")
    if args.duration <= 0 or args.warmup <= 0 or args.connections < 1 or args.threads < 1 or args.rounds < 1:
        parser.error("--duration, --warmup, --connections, --threads and --rounds must be positive")
    if args.connections < args.threads:
        parser.error("--connections must be at least --threads")
    if args.records < LIST_CURSORS:
        parser.error(f"--records must be at least {LIST_CURSORS}")
    if shutil.which("wrk") is None:
        parser.error("wrk is not on the PATH")
    args.webhooks = WEBHOOKS in only
    selected = [s for s in SPECS if s.key in only]

    started = time.perf_counter()
    backends = BACKENDS if args.backend == "both" else (args.backend,)
    pinning = Pinning.choose()
    log(f"Tessera benchmark suite: {', '.join(backends)}; endpoints {', '.join(s.key for s in selected) or '-'}"
        f"{' + webhooks' if args.webhooks else ''}; {pinning.describe()}")
    if args.webhooks and "postgresql" not in backends:
        log("note: webhooks are measured on PostgreSQL only (benchmarks/webhooks.py); not run")
    reports = [run_backend(name, args, selected, pinning) for name in backends]

    lines: list[str] = []
    for out in reports:
        out.lines = report_lines(out, args, pinning)
        lines += ["", *out.lines]
    if args.webhooks and "postgresql" not in backends:
        lines.append("webhooks: not run (benchmarks/webhooks.py runs on PostgreSQL only)")
    for line in lines:
        log(line)
    failures = [f for out in reports for f in out.failures]
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    text_file, json_file = RESULTS_DIR / f"suite-{args.backend}.txt", RESULTS_DIR / f"suite-{args.backend}.json"
    text_file.write_text("\n".join(lines).lstrip("\n") + "\n")
    json_file.write_text(json.dumps({
        "benchmark": "suite",
        "finished_at": utcnow().isoformat(timespec="seconds"),
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "config": {"backends": list(backends), "duration_s": args.duration, "warmup_s": args.warmup,
                   "connections": args.connections, "threads": args.threads, "records": args.records,
                   "rounds": args.rounds, "order": "ABBA", "pinning": pinning.describe(),
                   "endpoints": {s.label: s.request for s in selected}, "scopes": SCOPES,
                   "webhooks": {"events": args.webhook_events, "duration_s": args.webhook_duration}
                   if args.webhooks else None},
        "backends": {out.backend: {**{k: v for k, v in out.info.items() if k != "webhooks"},
                                   "rows": [asdict(r) for r in out.rows], "table": out.lines,
                                   "webhooks_report": out.info.get("webhooks")} for out in reports},
        "failures": failures,
    }, indent=2, ensure_ascii=False, default=str) + "\n")
    log(f"\nresults written to {json_file.relative_to(PROJECT_ROOT)} and {text_file.relative_to(PROJECT_ROOT)}")
    log(f"total time {time.perf_counter() - started:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

