"""Fixtures through the services, and records in bulk.

Why two ways: what a request needs to be authorised (tenants, a signed-in administrator, an
application, its installation, credentials, tokens) is made through the services, exactly as a
client would make it, so the rows are the service's own. Tens of thousands of records are not:
``RecordRepository.insert`` one at a time would take minutes, so ``insert_batches`` writes the same
rows (the JSON of ``tessera.demo``'s payloads, ``search_text``, the unique-value claims, pids from
``tessera.core.ids``) with SQLAlchemy Core ``executemany``, ids drawn up front, one transaction per
batch, a progress line per batch. ``analyze`` then brings the database to the steady state a service
reaches on its own, so the first measured run does not pay for it.

The services are async; the benchmarks that drive them are not. ``run(rt, work)`` runs a coroutine
(``tenant_admin``, ``install``, ... or a script's own) on an event loop of its own and, at its end,
closes what that loop opened (``Runtime.aclose``: the PostgreSQL pool, the call-audit flusher, the
Redis client), so the next ``run`` starts clean. The bulk inserts and the benchmarks' own queries
use a synchronous engine (``direct``) outside any loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import sqlite3
import time
from collections.abc import Callable, Coroutine, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar
from urllib.parse import urlencode

from sqlalchemy import Connection, Engine, func, insert, select

from harness import log
from storage import identity, record_cache
from storage.drivers.db import make_engine
from storage.records import PID_PREFIX, search_text
from storage.schema.tables import record_unique_values, records
from tessera.access.actors import Actor, resolve_actor
from tessera.core.ids import new_pid
from tessera.core.settings import load_settings
from tessera.demo import seed_demo
from tessera.openplatform.identity import applications, credentials, installations
from tessera.openplatform.tokens import grants
from tessera.registry.models import ModelDecl
from tessera.runtime import Runtime, build_runtime
from tessera.session.auth.login import login

SEED = 20261122
REQUEST_ID = "bench-setup"
DEMO_ADMIN = "admin@demo.example"

T = TypeVar("T")


@contextlib.contextmanager
def runtime(env: dict[str, str]) -> Iterator[Runtime]:
    """The service's runtime in this process, configured as the servers are (async work on it goes
    through ``run``)."""
    rt = build_runtime(load_settings(env))
    try:
        yield rt
    finally:
        rt.close()


def run(rt: Runtime, work: Coroutine[Any, Any, T]) -> T:
    """``work`` to its end on an event loop of its own (``asyncio.run``), then what that loop opened on
    the runtime closed (``Runtime.aclose``), whether ``work`` succeeded or not."""
    async def closing() -> T:
        try:
            return await work
        finally:
            await rt.aclose()

    return asyncio.run(closing())


@contextlib.contextmanager
def direct(rt: Runtime) -> Iterator[Engine]:
    """A synchronous engine on the runtime's database, for the benchmark's own SQL outside any event loop
    (bulk inserts, reading rows back); a small pool, disposed of at the end."""
    engine = make_engine(rt.settings.database_url, **({"pool_size": 2} if rt.db.dialect == "postgresql" else {}))
    try:
        yield engine
    finally:
        engine.dispose()


# -- fixtures through the services -----------------------------------------------------------------

@dataclass(frozen=True)
class Admin:
    """A signed-in administrator: the session JWT and the actor it resolves to."""

    jwt: str
    actor: Actor
    password: str
    tenant_ids: dict[str, int]  # the tenants made with it, by code


async def actor_of(rt: Runtime, jwt: str) -> Actor:
    """The actor behind a session JWT: verified, then resolved, as the bearer check and handlers do."""
    claims = rt.session_tokens.verify(jwt)
    assert claims is not None, "a session JWT the service's own check refuses"
    return await resolve_actor(rt, claims, None)


async def sign_in(rt: Runtime, email: str, password: str, tenant_ids: dict[str, int]) -> Admin:
    """Log in through the login service."""
    jwt = str((await login(rt, email, password, REQUEST_ID))["jwt"])
    return Admin(jwt, await actor_of(rt, jwt), password, tenant_ids)


async def tenant_admin(rt: Runtime, tenant: str, email: str, others: Sequence[str] = (),
                       platform_role: bool = True) -> Admin:
    """Tenant ``tenant`` (and ``others``), a user of it with the ``admin`` role and, with ``platform_role``,
    the platform role that creates applications; signed in."""
    password = secrets.token_urlsafe(16)
    now = rt.clock.now()
    async with rt.db.write() as conn:
        ids = {code: await identity.create_tenant(conn, code, f"Benchmark {code}", rt.declarations.roles, now=now)
               for code in (tenant, *others)}
        user = await identity.create_user(conn, email, "Benchmark Admin", rt.passwords.hash(password), ids[tenant],
                                          now=now)
        await identity.add_membership(conn, ids[tenant], user.id, "admin", now=now)
        if platform_role:
            await identity.grant_platform_role(conn, user.id, applications.CREATE_PERMISSION)
    return await sign_in(rt, email, password, ids)


async def demo_admin(rt: Runtime) -> Admin:
    """The demo data (``tessera.demo.seed_demo``) and its administrator, signed in."""
    return await sign_in(rt, DEMO_ADMIN, await seed_demo(rt, secrets.token_urlsafe(16)), {})


@dataclass(frozen=True)
class Credential:
    client_id: str
    secret: str

    def form(self, secret: str | None = None) -> bytes:
        """A client-credentials token request, credentials in the form body (``secret`` to send a wrong one)."""
        return urlencode({"grant_type": "client_credentials", "client_id": self.client_id,
                          "client_secret": self.secret if secret is None else secret}).encode()


@dataclass(frozen=True)
class Installation:
    app_pid: str
    installation_pid: str
    credentials: list[Credential]


async def install(rt: Runtime, admin: Admin, name: str, tenant: str, scopes: list[str], count: int,
                  environment: str = "production") -> Installation:
    """An application, installed into ``tenant`` with ``scopes``, and ``count`` credentials of it."""
    actor = admin.actor
    app = await applications.create_application(rt, actor, {"name": name, "description": "benchmark"}, REQUEST_ID)
    inst = await installations.create_installation(
        rt, actor, app["appId"], {"tenantId": tenant, "environment": environment, "scopes": scopes}, REQUEST_ID)
    made = [await credentials.create_credential(rt, actor, inst["installationId"], REQUEST_ID) for _ in range(count)]
    log(f"application {app['appId']}, installation {inst['installationId']} in {tenant!r} ({environment}, scopes "
        f"{' '.join(scopes)}), {count} credentials")
    return Installation(app["appId"], inst["installationId"], [Credential(c["clientId"], c["clientSecret"])
                                                                for c in made])


async def issue_token(rt: Runtime, credential: Credential) -> str:
    """A bearer token through the grant service."""
    wanted = grants.TokenRequest("client_credentials", credential.client_id, credential.secret, None)
    return str((await grants.issue(rt, wanted, REQUEST_ID))["access_token"])


# -- records in bulk -------------------------------------------------------------------------------

def record_row(tenant_id: int, model: ModelDecl, data: dict[str, Any], created_by: int | None,
               created_at: datetime, deleted_at: datetime | None = None) -> dict[str, Any]:
    """One ``records`` row as ``RecordRepository.insert`` writes it (and ``soft_delete`` leaves it)."""
    return {
        "tenant_id": tenant_id, "model": model.code, "pid": new_pid(PID_PREFIX),
        "version": 1 if deleted_at is None else 2, "data": data, "search_text": search_text(model, data),
        "created_by": created_by, "created_at": created_at,
        "updated_at": created_at if deleted_at is None else deleted_at, "deleted_at": deleted_at,
    }


def _next_ids(conn: Connection, count: int, sequence: str | None) -> list[int]:
    """``count`` record ids drawn up front, so the inserts are plain executemany calls (pipelined by
    psycopg) instead of ``INSERT ... RETURNING`` one row at a time."""
    if sequence is not None:  # PostgreSQL: the table's own sequence
        return list(conn.execute(select(func.nextval(sequence)).select_from(func.generate_series(1, count))).scalars())
    # SQLite: the write lock, taken before reading max(id) (sqlite3 itself would begin only at the
    # first INSERT), so the ids are ours.
    conn.exec_driver_sql("BEGIN IMMEDIATE")
    last = conn.execute(select(func.coalesce(func.max(records.c.id), 0))).scalar_one()
    return list(range(last + 1, last + 1 + count))


def insert_batches(engine: Engine, total: int, make_row: Callable[[int], dict[str, Any]],
                   models: Mapping[str, ModelDecl], batch: int) -> float:
    """``make_row(position)`` for positions 0 .. total-1, ``batch`` rows per transaction, with the
    unique-value claims of the live ones; returns the seconds it took."""
    started = time.perf_counter()
    sequence = None
    if engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            sequence = str(conn.execute(select(func.pg_get_serial_sequence("records", "id"))).scalar_one())
    for start in range(0, total, batch):
        rows = [make_row(position) for position in range(start, min(start + batch, total))]
        with engine.begin() as conn:
            for tenant_id, model in sorted({(r["tenant_id"], r["model"]) for r in rows}):
                record_cache.epoch_writes(conn, model, tenant_id)  # a bulk load: not logged row by row
            for row, record_id in zip(rows, _next_ids(conn, len(rows), sequence), strict=True):
                row["id"] = record_id
            conn.execute(insert(records), rows)
            claims = [{"tenant_id": r["tenant_id"], "model": r["model"], "field": code, "value": str(r["data"][code]),
                       "record_id": r["id"]}
                      for r in rows if r["deleted_at"] is None  # a deleted record's claims are released
                      for code in models[r["model"]].unique if r["data"].get(code) is not None]
            if claims:
                conn.execute(insert(record_unique_values), claims)
        done, elapsed = start + len(rows), time.perf_counter() - started
        log(f"  seeded {done:>9,} / {total:,} records  ({done / elapsed:,.0f} records/s, {elapsed:.1f} s)")
    return time.perf_counter() - started


def seed_mix(rt: Runtime, rng: random.Random, counts: Mapping[str, int],
             make: Callable[[str, datetime], dict[str, Any]], batch: int) -> float:
    """Records of several kinds (``counts``: kind -> how many), shuffled so they interleave in id order,
    created one second apart up to now: ``make(kind, created_at)`` returns each row (``record_row``).
    Then ``analyze``. Returns the seconds the inserts took."""
    kinds = [kind for kind, count in counts.items() for _ in range(count)]
    rng.shuffle(kinds)
    first = rt.clock.now() - timedelta(seconds=len(kinds))
    models = {m.code: m for m in rt.declarations.models.values()}
    log(f"seeding {len(kinds):,} records: " + ", ".join(f"{n:,} {kind}" for kind, n in counts.items()))
    with direct(rt) as engine:
        seconds = insert_batches(engine, len(kinds), lambda i: make(kinds[i], first + timedelta(seconds=i)), models,
                                 batch)
        analyze(engine)
    return seconds


def analyze(engine: Engine) -> None:
    """Planner statistics, PostgreSQL's visibility map and trigram GIN pending list flushed, the seeded
    pages written out: the steady state autovacuum would reach."""
    step = time.perf_counter()
    if engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql("VACUUM ANALYZE")
            conn.exec_driver_sql("CHECKPOINT")
        log(f"  VACUUM ANALYZE + CHECKPOINT: {time.perf_counter() - step:.1f} s")
    else:
        assert engine.url.database is not None
        with contextlib.closing(sqlite3.connect(engine.url.database, isolation_level=None)) as conn:
            conn.execute("ANALYZE")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        log(f"  ANALYZE + wal_checkpoint(TRUNCATE): {time.perf_counter() - step:.1f} s")
