"""How fast the retention purge deletes, and how long one of its batches holds the database.

    .venv/bin/python benchmarks/retention.py [--backend postgresql|sqlite] [--rows 200000] [--live 0.1]
        [--batch 1000] [--keep-db] [--results-file benchmarks/results/retention.json]

Per backend (both unless ``--backend``), on a fresh migrated database (``harness.databases.fresh``):

1. By SQL: one tenant, user, application, installation, credential and webhook endpoint, then
   ``--rows`` rows past every retention period (100 days old), in bulk (executemany, 10,000 rows a
   transaction), spread the way a busy service accumulates them: call audit 40%, delivery attempts
   20% (two per delivery), deliveries 10%, their outbox events 10%, access tokens 10%, session and
   Open Platform idempotency keys 5% each. Then ``--live`` times as many rows of every kind that are
   still in use (a minute old, tokens unexpired), which the purge must leave, and ``harness.seeding.
   analyze`` (the steady state autovacuum reaches).
2. The service's own purge (``tessera.background.retention.purge``, default settings but ``--batch``)
   is run pass after pass until no rule is left unfinished, as a worker does while a backlog
   lasts (on a worker these passes are interleaved with deliveries). Each DELETE is timed.
3. One more purge with nothing left to delete: what the worker pays every interval once the
   backlog is gone (it must use the indexes, not scan the tables).

Printed per backend: rows purged, seconds, rows per second, passes, the longest single batch
(one DELETE of at most ``--batch`` rows: on SQLite, the longest the writer lock is held), the idle
purge, rows purged per table, and whether exactly the live rows are left (exit status 1 if not).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from harness import cli, log, results, seeding
from harness.databases import BACKENDS, Workspace, fresh
from sqlalchemy import Engine, Table, func, insert, select, text

from storage.schema.tables import (
    access_tokens,
    applications,
    credentials,
    deliveries,
    delivery_attempts,
    idempotency_keys,
    installations,
    open_api_calls,
    open_idempotency_keys,
    outbox_events,
    tenants,
    users,
    webhook_endpoints,
)
from tessera.background import retention

CHUNK = 10_000
AGE = timedelta(days=100)  # past every default period (the longest, call audit, is 90 days)
SHARES = {  # of --rows; deliveries, events and attempts are made together (1 : 1 : 2)
    "open_api_calls": 0.40, "delivery_attempts": 0.20, "deliveries": 0.10, "outbox_events": 0.10,
    "access_tokens": 0.10, "idempotency_keys": 0.05, "open_idempotency_keys": 0.05,
}
TABLES = {t.name: t for t in (open_api_calls, delivery_attempts, deliveries, outbox_events, access_tokens,
                              idempotency_keys, open_idempotency_keys)}


@dataclass
class Figures:
    backend: str
    expired: dict[str, int]
    live: dict[str, int]
    purged: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    passes: int = 0
    longest_batch_ms: float = 0.0
    idle_purge_ms: float = 0.0
    left: dict[str, int] = field(default_factory=dict)
    info: dict[str, str] = field(default_factory=dict)  # versions of what ran

    @property
    def rows(self) -> int:
        return sum(self.purged.values())

    @property
    def rate(self) -> float:
        return self.rows / self.seconds if self.seconds else 0.0


def _chunks(engine: Engine, table: Table, rows: list[dict[str, Any]]) -> None:
    for start in range(0, len(rows), CHUNK):
        with engine.begin() as conn:
            conn.execute(insert(table), rows[start:start + CHUNK])


def _owners(engine: Engine, now: datetime) -> None:
    """The rows every seeded row hangs from (id 1 each)."""
    with engine.begin() as conn:
        conn.execute(insert(tenants), [{"id": 1, "code": "bench", "name": "Bench", "status": "active",
                                        "created_at": now}])
        conn.execute(insert(users), [{"id": 1, "pid": "usr_bench", "email": "bench@example.test", "username": "b",
                                      "password_hash": "-", "status": "active", "created_at": now}])
        conn.execute(insert(applications), [{"id": 1, "pid": "app_bench", "name": "Bench", "status": "active",
                                             "created_by": 1, "created_at": now, "updated_at": now}])
        conn.execute(insert(installations), [{"id": 1, "pid": "ins_bench", "application_id": 1, "tenant_id": 1,
                                              "environment": "production", "scopes": [], "status": "enabled",
                                              "created_at": now, "updated_at": now}])
        conn.execute(insert(credentials), [{"id": 1, "client_id": "bench", "installation_id": 1,
                                            "secret_digest": "-", "status": "active", "created_at": now}])
        conn.execute(insert(webhook_endpoints), [{"id": 1, "pid": "whe_bench", "installation_id": 1,
                                                  "url": "https://example.com/", "event_types": [], "enabled": 1,
                                                  "created_at": now, "updated_at": now}])


def _kinds(counts: dict[str, int], first: int, at: datetime, live: bool) -> dict[str, list[dict[str, Any]]]:
    """Rows of every kind, ids from ``first`` on, stamped ``at`` (tokens expire an hour after it if
    ``live``, else at it)."""
    tag = "l" if live else "x"
    events = counts["outbox_events"]
    made: dict[str, list[dict[str, Any]]] = {
        "outbox_events": [{"id": first + i, "event_id": f"evt_{tag}{first + i}", "tenant_id": 1,
                           "event_type": "assets.assignment.changed", "payload": {"n": i}, "occurred_at": at,
                           "dispatched_at": at} for i in range(events)],
        "deliveries": [{"id": first + i, "pid": f"dlv_{tag}{first + i}", "endpoint_id": 1, "event_id": first + i,
                        "status": "delivered", "attempts": 2, "created_at": at, "updated_at": at}
                       for i in range(events)],
        "delivery_attempts": [{"id": first + i, "delivery_id": first + i // 2, "attempted_at": at,
                               "http_status": 500 if i % 2 == 0 else 200, "latency_ms": 12}
                              for i in range(2 * events)],
        "open_api_calls": [{"id": first + i, "installation_id": 1, "tenant_id": 1, "client_id": "bench",
                            "method": "GET", "path": "/api/open/v1/whoami", "status": 200,
                            "request_id": f"req-{tag}{i}", "created_at": at} for i in range(counts["open_api_calls"])],
        "access_tokens": [{"id": first + i, "token_digest": f"{tag}{first + i:063x}", "credential_id": 1,
                           "installation_id": 1, "scopes": [], "issued_at": at,
                           "expires_at": at + timedelta(hours=1) if live else at}
                          for i in range(counts["access_tokens"])],
        "idempotency_keys": [{"id": first + i, "tenant_id": 1, "user_id": 1, "key": f"{tag}{i}", "request_hash": "-",
                              "status_code": 200, "response": {}, "created_at": at}
                             for i in range(counts["idempotency_keys"])],
        "open_idempotency_keys": [{"id": first + i, "installation_id": 1, "key": f"{tag}{i}", "request_hash": "-",
                                   "state": "completed", "response": {}, "locked_until": at + timedelta(minutes=1),
                                   "created_at": at} for i in range(counts["open_idempotency_keys"])],
    }
    return made


def seed(ws: Workspace, engine: Engine, rows: int, live: float) -> tuple[dict[str, int], dict[str, int]]:
    """The expired rows and the live ones, by SQL; their counts per table."""
    now = datetime.now(UTC)
    expired = {name: round(rows * share) for name, share in SHARES.items()}
    expired["delivery_attempts"] = 2 * expired["deliveries"]
    alive = {name: max(1, round(count * live)) for name, count in expired.items()}
    alive["deliveries"] = alive["outbox_events"]
    alive["delivery_attempts"] = 2 * alive["deliveries"]
    _owners(engine, now)
    started = time.perf_counter()
    old = _kinds(expired, 1, now - AGE, live=False)
    new = _kinds(alive, 1 + 2 * max(expired.values()), now - timedelta(minutes=1), live=True)
    for name in ("outbox_events", "deliveries", "delivery_attempts", "open_api_calls", "access_tokens",
                 "idempotency_keys", "open_idempotency_keys"):
        _chunks(engine, TABLES[name], old[name] + new[name])
        log(f"  seeded {len(old[name]):,} expired and {len(new[name]):,} live {name}")
    if ws.backend.name == "postgresql":  # explicit ids: the sequences catch up
        with engine.begin() as conn:
            for name in TABLES:
                conn.execute(text(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                                  f"(SELECT max(id) FROM {name}))"))
    log(f"seeded {sum(expired.values()):,} expired rows and {sum(alive.values()):,} live ones "
        f"in {time.perf_counter() - started:.1f} s")
    seeding.analyze(engine)
    return expired, alive


async def drain(found: Figures, rt: Any, batch: int | None) -> None:
    """Purges back to back until nothing is left unfinished, then one idle purge."""
    started = time.perf_counter()
    while True:
        purged = await retention.purge(rt, rt.clock.now(), batch_size=batch)
        found.passes += 1
        found.longest_batch_ms = max(found.longest_batch_ms, purged.longest_batch_ms)
        for name, count in purged.counts.items():
            found.purged[name] = found.purged.get(name, 0) + count
        log(f"  pass {found.passes}: {purged.total:,} rows, longest batch {purged.longest_batch_ms:.1f} ms"
            + (f", unfinished {', '.join(purged.unfinished)}" if purged.unfinished else ""))
        if not purged.unfinished:
            break
    found.seconds = time.perf_counter() - started
    idle = time.perf_counter()
    await retention.purge(rt, rt.clock.now(), batch_size=batch)
    found.idle_purge_ms = (time.perf_counter() - idle) * 1000


def measure(backend: str, args: argparse.Namespace) -> Figures:
    log(f"== {backend}")
    with fresh(backend, f"retention-{backend}", args.keep_db) as ws, seeding.runtime(ws.env) as rt, \
            seeding.direct(rt) as engine:
        expired, alive = seed(ws, engine, args.rows, args.live)
        found = Figures(backend, expired, alive)
        seeding.run(rt, drain(found, rt, args.batch))
        with engine.connect() as conn:
            found.left = {name: int(conn.execute(select(func.count()).select_from(TABLES[name])).scalar_one())
                          for name in TABLES}
        found.info = results.versions(engine)
    return found


def problems_of(found: Figures) -> list[str]:
    problems = []
    for name, expected in found.expired.items():
        if found.purged.get(name) != expected:
            problems.append(f"{found.backend}: {found.purged.get(name)} {name} purged, expected {expected}")
        if found.left[name] != found.live[name]:
            problems.append(f"{found.backend}: {found.left[name]} {name} left, expected the {found.live[name]} live")
    return problems


def report_lines(all_found: list[Figures], args: argparse.Namespace) -> list[str]:
    lines = [*results.describe(all_found[0].info),
             f"retention purge of {args.rows:,} expired rows (+{args.live:.0%} live ones kept), "
             f"batch {args.batch or 'default (1000)'}",
             f"{'backend':<11} {'rows':>9} {'seconds':>8} {'rows/s':>9} {'passes':>6} {'longest batch':>14} "
             f"{'idle purge':>11}"]
    for f in all_found:
        lines.append(f"{f.backend:<11} {f.rows:>9,} {f.seconds:>8.2f} {f.rate:>9,.0f} {f.passes:>6} "
                     f"{f.longest_batch_ms:>11.1f} ms {f.idle_purge_ms:>8.1f} ms")
    for f in all_found:
        lines.append(f"{f.backend}: " + ", ".join(f"{n} {c:,}" for n, c in f.purged.items() if c)
                     + f"; left: {sum(f.left.values()):,} live rows")
    return lines


def main() -> int:
    args = (cli.Arguments(__doc__, "retention").backend(default=None)
            .records(200_000, 100, "--rows", "expired rows to seed")
            .add("--live", type=float, default=0.1, help="live rows per expired row, kept (default 0.1)")
            .add("--batch", type=int, default=None, help="rows per DELETE (default the setting, 1000)")
            .check(lambda a: 0 <= a.live <= 1, "--live must be in [0, 1]")
            .check(lambda a: a.batch is None or a.batch >= 1, "--batch must be positive").keep_db()).parse()
    started = time.perf_counter()
    all_found = [measure(backend, args) for backend in ([args.backend] if args.backend else BACKENDS)]
    failures = [p for f in all_found for p in problems_of(f)]
    return cli.conclude(args, {"figures": [asdict(f) for f in all_found]}, report_lines(all_found, args), failures,
                        started)


if __name__ == "__main__":
    sys.exit(main())
