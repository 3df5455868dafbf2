"""What the benchmarks share to get a database: create it, migrate it, fill it with records in bulk.

Used by ``benchmarks/suite.py``, ``benchmarks/session_list.py`` and ``benchmarks/open_read.py`` (and,
through ``session_list``, by ``op_token.py`` and ``webhooks.py``), so there is one way to

* make a fresh database: PostgreSQL, a new database with a unique name next to the tests' admin
  database ``TESSERA_TEST_PG_URL`` (dropped afterwards), or SQLite, a file in a temporary
  directory (``Backend``, ``create_backend``);
* insert many records fast (``insert_batches``): the service's own row shape (``tessera.demo``
  payloads, ``storage.records.search_text``, the unique-value claims of ``unique`` fields, pids from
  ``tessera.core.ids``) written with SQLAlchemy Core ``executemany`` inserts, ids drawn up front, one
  transaction per batch, with a progress line per batch. Inserting one record at a time through
  ``RecordRepository.insert`` would take minutes for 100,000 records; the rows are the same;
* bring the database to the steady state a service reaches on its own (``analyze``): planner
  statistics, PostgreSQL's visibility map and trigram GIN pending list flushed, the seeded pages
  written out, so the first measured run does not pay for them.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql
from sqlalchemy import Connection, Engine, func, insert, select

from storage.records import PID_PREFIX, search_text
from storage.tables import record_unique_values, records
from storage.unit import Database
from tessera.core.ids import new_pid
from tessera.registry.models import ModelDecl

PG_ADMIN_URL = os.environ.get("TESSERA_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")


def log(message: str) -> None:
    """Progress goes to stdout at once: the benchmarks run for minutes."""
    print(message, flush=True)


# -- databases -------------------------------------------------------------------------------------

def admin_connect() -> psycopg.Connection[Any]:
    return psycopg.connect(PG_ADMIN_URL, autocommit=True, connect_timeout=5)


def create_database() -> str:
    """A new, empty PostgreSQL database next to the admin one; its URL (``postgresql://...``)."""
    name = f"tessera_bench_{uuid.uuid4().hex[:12]}"
    with admin_connect() as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return PG_ADMIN_URL.rsplit("/", 1)[0] + "/" + name


def drop_database(url: str) -> None:
    name = url.rsplit("/", 1)[1]
    with admin_connect() as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def sqlalchemy_url(url: str) -> str:
    """``postgresql://`` (as ``TESSERA_DATABASE_URL`` takes it) to SQLAlchemy's psycopg 3 dialect."""
    return "postgresql+psycopg://" + url.split("://", 1)[1]


@dataclass
class Backend:
    """One benchmark database."""

    name: str  # "postgresql" or "sqlite"
    url: str  # as TESSERA_DATABASE_URL takes it: postgresql://... or sqlite:///...
    path: Path | None = None  # the SQLite file

    @property
    def sqlalchemy_url(self) -> str:
        return sqlalchemy_url(self.url) if self.name == "postgresql" else self.url

    @property
    def label(self) -> str:
        return self.url.rsplit("/", 1)[1] if self.name == "postgresql" else str(self.path)

    def drop(self) -> None:
        """Drop a PostgreSQL database; a SQLite file goes with its temporary directory."""
        if self.name == "postgresql":
            drop_database(self.url)


def create_backend(name: str, tmp_dir: Path) -> Backend:
    if name == "postgresql":
        return Backend(name, create_database())
    path = tmp_dir / "bench.sqlite3"
    return Backend(name, f"sqlite:///{path}", path)


def analyze(engine: Engine) -> None:
    """Planner statistics and the seeded pages written out, before anything is measured."""
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


def id_sequence(db: Database) -> str | None:
    """The sequence behind ``records.id`` on PostgreSQL (None on SQLite)."""
    if db.dialect != "postgresql":
        return None
    with db.read() as conn:
        return str(conn.execute(select(func.pg_get_serial_sequence("records", "id"))).scalar_one())


def next_ids(conn: Connection, count: int, sequence: str | None) -> list[int]:
    """``count`` record ids, drawn up front so the inserts are plain executemany calls (pipelined by
    psycopg) instead of ``INSERT ... RETURNING`` one row at a time."""
    if sequence is not None:  # PostgreSQL: the table's own sequence
        return list(conn.execute(
            select(func.nextval(sequence)).select_from(func.generate_series(1, count))
        ).scalars())
    # SQLite: the write transaction holds the database lock (BEGIN IMMEDIATE), so max(id) is ours.
    last = conn.execute(select(func.coalesce(func.max(records.c.id), 0))).scalar_one()
    return list(range(last + 1, last + 1 + count))


def insert_records(conn: Connection, rows: list[dict[str, Any]], models: dict[str, ModelDecl],
                   sequence: str | None) -> None:
    """Insert ``rows`` (from ``record_row``) and the unique-value claims of the live ones."""
    ids = next_ids(conn, len(rows), sequence)
    for row, record_id in zip(rows, ids, strict=True):
        row["id"] = record_id
    conn.execute(insert(records), rows)
    claims = [
        {"tenant_id": row["tenant_id"], "model": row["model"], "field": code, "value": str(row["data"][code]),
         "record_id": row["id"]}
        for row in rows if row["deleted_at"] is None  # a deleted record's claims are released
        for code in models[row["model"]].unique if row["data"].get(code) is not None
    ]
    if claims:
        conn.execute(insert(record_unique_values), claims)


def insert_batches(db: Database, total: int, make_row: Callable[[int], dict[str, Any]],
                   models: dict[str, ModelDecl], batch: int) -> float:
    """``total`` rows, ``make_row(position)`` for positions 0 .. total-1, ``batch`` rows per transaction,
    a progress line per batch; returns the seconds it took."""
    started = time.perf_counter()
    sequence = id_sequence(db)
    done = 0
    for batch_start in range(0, total, batch):
        rows = [make_row(position) for position in range(batch_start, min(batch_start + batch, total))]
        with db.write() as conn:
            insert_records(conn, rows, models, sequence)
        done += len(rows)
        elapsed = time.perf_counter() - started
        log(f"  seeded {done:>9,} / {total:,} records  ({done / elapsed:,.0f} records/s, {elapsed:.1f} s)")
    return time.perf_counter() - started
