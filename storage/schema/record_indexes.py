"""Indexes that follow the model declarations: built and dropped by ``tessera migrate``.

Records are rows of one ``records`` table with the declared fields in a JSON document, so a list's
filter or sort on a field is an expression over that document (``storage.listing.json_field``).
For every declared field of every model, this module keeps one partial B-tree index::

    ON records (tenant_id, <the field's expression>, id) WHERE model = '<model>' AND deleted_at IS NULL

whose expression is, character for character, the one the list SQL compares and sorts by
(PostgreSQL: ``data ->> 'f'``, cast to ``numeric`` for numbers and ``boolean`` for booleans;
SQLite: ``json_extract(data, '$.f')``), and whose predicate is the list's scope with the model as a
literal (``RecordRepository._scope``). A sort on the field walks the index in order (page N reads
the first N pages' rows, however large the tenant), an ``eq``/range filter is an index range, and
``tenant_id`` first keeps one tenant's entries together. ``updated_at`` gets one per model too
(``created_at`` is served by ``ix_records_scope_created``). On PostgreSQL each distinct expression also
gets extended statistics, without which the planner guesses 0.5% for any condition on it.

Why expression indexes and not generated columns or a table per model: both of those are DDL on
the shared table per declared field (a generated column rewrites a 1,000,000-row table, a column
per field of every model) or a data migration per model, where an index is built beside the table
while it is being written (``CREATE INDEX CONCURRENTLY``) and dropped as easily; and the planner
uses an expression index exactly as it would a column's, as long as the expressions match, which
the shared ``json_field`` guarantees.

Indexes are named ``ix_rdx_<model>_<field>_<hash>``; the hash covers what the index is built from
(model, field, the expression's type), so a changed declaration is a new name: the sync builds what
is declared and missing, and drops every ``ix_rdx_`` index no longer declared. On PostgreSQL it
builds concurrently (writes go on) and logs the build's progress from
``pg_stat_progress_create_index``; a build that failed half-way leaves an invalid index, which the
next sync drops and builds again. The first migration's hand-written indexes for the ``asset``
model serve instead of a copy while their expression is still the declared one.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine, text

from storage.drivers.db import make_engine
from storage.listing import model_literal
from storage.records import RecordModel

log = logging.getLogger("tessera.migrate")

PREFIX = "ix_rdx_"
STATS_PREFIX = "st_rdx_"
# Seconds between two progress lines of a PostgreSQL index build.
PROGRESS_EVERY = 5.0
# The first migration's indexes for the asset model: (model, field) -> (name, PostgreSQL's own
# rendering of the expression it indexes). One serves instead of a declared index while it matches.
LEGACY = {
    ("asset", "status"): ("ix_records_asset_status", "((data ->> 'status'::text))"),
    ("asset", "name"): ("ix_records_asset_name", "((data ->> 'name'::text))"),
    ("asset", "serialNo"): ("ix_records_asset_serialNo", "((data ->> 'serialNo'::text))"),
    ("asset", "assignee"): ("ix_records_asset_assignee", "((data ->> 'assignee'::text))"),
    ("asset", "value"): ("ix_records_asset_value", "(((data ->> 'value'::text))::numeric)"),
}


def _kind(ftype: str) -> str:
    """The SQL type the list compares a field as (``storage.listing.json_field``)."""
    if ftype in {"integer", "number"}:
        return "numeric"
    if ftype == "boolean":
        return "boolean"
    return "text"


def field_expression(code: str, ftype: str, dialect: str) -> str:
    """The indexed expression: the same SQL ``storage.listing.json_field`` generates."""
    model_literal(code)  # a declared code: safe as a literal, like the list's
    if dialect != "postgresql":
        return f"json_extract(data, '$.{code}')"
    kind = _kind(ftype)
    return f"(data ->> '{code}')" if kind == "text" else f"((data ->> '{code}')::{kind})"


@dataclass(frozen=True)
class DeclaredIndex:
    name: str
    model: str
    field: str
    columns: str  # what goes between the parentheses of ON records (...)

    def create_sql(self, dialect: str) -> str:
        how = "CONCURRENTLY IF NOT EXISTS" if dialect == "postgresql" else "IF NOT EXISTS"
        return (f'CREATE INDEX {how} "{self.name}" ON records ({self.columns}) '
                f"WHERE model = '{self.model}' AND deleted_at IS NULL")


def _name(prefix: str, readable: str, identity: str) -> str:
    digest = hashlib.sha256(identity.encode()).hexdigest()[:8]
    return f"{prefix}{readable[:63 - len(prefix) - 9]}_{digest}"


def declared_indexes(models: Iterable[RecordModel], dialect: str) -> dict[str, DeclaredIndex]:
    """name -> index, for every declared field of every model (and ``updated_at``)."""
    found: dict[str, DeclaredIndex] = {}
    for model in models:
        model_literal(model.code)
        wanted = [(code, decl.type, field_expression(code, decl.type, dialect)) for code, decl in model.fields.items()]
        wanted.append(("updated_at", "timestamp", "updated_at"))
        for code, ftype, expr in wanted:
            index = DeclaredIndex(_name(PREFIX, f"{model.code}_{code}", f"{model.code}|{code}|{_kind(ftype)}"),
                                  model.code, code, f"tenant_id, {expr}, id")
            found[index.name] = index
    return found


def declared_statistics(models: Iterable[RecordModel]) -> dict[str, str]:
    """PostgreSQL: name -> expression, one per distinct declared field expression."""
    found: dict[str, str] = {}
    for model in models:
        for code, decl in model.fields.items():
            expr = field_expression(code, decl.type, "postgresql")
            found[_name(STATS_PREFIX, code, expr)] = expr
    return found


@dataclass
class SyncReport:
    created: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    seconds: float = 0.0


def sync(database_url: str, models: Iterable[RecordModel]) -> SyncReport:
    """Build the declared indexes that are missing and drop the ``ix_rdx_`` ones no longer declared."""
    models = list(models)
    engine = make_engine(database_url)
    started = time.perf_counter()
    try:
        postgres = engine.dialect.name == "postgresql"
        report = _sync_postgresql(engine, models) if postgres else _sync_sqlite(engine, models)
    finally:
        engine.dispose()
    report.seconds = time.perf_counter() - started
    log.info("migrate.indexes", extra={"built": len(report.created), "dropped": len(report.dropped),
                                       "kept": len(report.kept), "seconds": round(report.seconds, 1)})
    return report


def plan(database_url: str, models: Iterable[RecordModel]) -> SyncReport:
    """The indexes ``sync`` would build (``created``) and drop, worked out from the catalogue alone."""
    engine = make_engine(database_url)
    report = SyncReport()
    try:
        postgres = engine.dialect.name == "postgresql"
        wanted = declared_indexes(models, engine.dialect.name)
        with engine.connect() as conn:
            rows = _catalogue(conn, postgres)
    finally:
        engine.dispose()
    _decide(rows, wanted, report, legacy=postgres)
    return report


def _decide(rows: list[tuple[str, bool, str]], wanted: dict[str, DeclaredIndex], report: SyncReport,
            *, legacy: bool) -> None:
    """What ``sync`` would drop, keep and build, given the catalogue's ``rows``."""
    valid = {name for name, ok, _ in rows if ok}
    definitions = {name: definition for name, _, definition in rows}
    report.dropped = _stale(rows, wanted)
    for name, index in wanted.items():
        serving = _serving_legacy(index, valid, definitions) if legacy else None
        (report.kept if serving is not None or name in valid else report.created).append(serving or name)


def _stale(rows: list[tuple[str, bool, str]], wanted: dict[str, DeclaredIndex]) -> list[str]:
    """The ``ix_rdx_`` indexes no longer declared, or left invalid by a failed build."""
    return sorted(name for name, ok, _ in rows if name.startswith(PREFIX) and (name not in wanted or not ok))


def _catalogue(conn: Connection, postgres: bool) -> list[tuple[str, bool, str]]:
    """(name, valid, definition) of every index of ``records`` (SQLite's are all valid; no definition)."""
    if not postgres:
        return [(name, True, "") for name in conn.execute(text(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'records'")).scalars()]
    return [(name, bool(ok), definition) for name, ok, definition in conn.execute(text(
        "SELECT c.relname, i.indisvalid, pg_get_indexdef(i.indexrelid) FROM pg_index i "
        "JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'records'::regclass"))]


def _sync_sqlite(engine: Engine, models: list[RecordModel]) -> SyncReport:
    report = SyncReport()
    wanted = declared_indexes(models, "sqlite")
    with engine.begin() as conn:
        existing = set(conn.execute(text(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'records' AND name LIKE :p"
        ), {"p": PREFIX + "%"}).scalars())
        for name in sorted(existing - set(wanted)):
            conn.exec_driver_sql(f'DROP INDEX IF EXISTS "{name}"')
            report.dropped.append(name)
        for name, index in wanted.items():
            if name in existing:
                report.kept.append(name)
                continue
            step = time.perf_counter()
            conn.exec_driver_sql(index.create_sql("sqlite"))
            report.created.append(name)
            log.info("migrate.index.built", extra={"index": name, "seconds": round(time.perf_counter() - step, 1)})
        if report.created:
            conn.exec_driver_sql("ANALYZE records")
    return report


def _sync_postgresql(engine: Engine, models: list[RecordModel]) -> SyncReport:
    """Drop what is stale, then build each declared index that no valid index (its own, or a legacy one that
    matches) serves, concurrently (out of a transaction: writes go on meanwhile); then the extended
    statistics (PostgreSQL 14 and later)."""
    report = SyncReport()
    wanted = declared_indexes(models, "postgresql")
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        rows = conn.execute(text(
            "SELECT c.relname, i.indisvalid, pg_get_indexdef(i.indexrelid) FROM pg_index i "
            "JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'records'::regclass"
        )).all()
        valid = {name for name, ok, _ in rows if ok}
        definitions = {name: definition for name, _, definition in rows}
        _drop_postgresql(conn, rows, wanted, report)
        for name, index in wanted.items():
            legacy = _serving_legacy(index, valid, definitions)
            if legacy is not None:
                report.kept.append(legacy)
            elif name in valid:
                report.kept.append(name)
            else:
                _build(engine, conn, index)
                report.created.append(name)
        if (engine.dialect.server_version_info or (0,)) >= (14,):
            _sync_statistics(conn, models, report)
        if report.created:
            conn.exec_driver_sql("ANALYZE records")
    return report


def _drop_postgresql(conn: Connection, rows: Sequence[Any], wanted: dict[str, DeclaredIndex],
                     report: SyncReport) -> None:
    """Drop each ``ix_rdx_`` index that is no longer declared, or that a failed concurrent build left invalid
    (it is built again: an invalid index is not used, and it slows writes down)."""
    for name, ok, _ in rows:
        if name.startswith(PREFIX) and (name not in wanted or not ok):
            conn.exec_driver_sql(f'DROP INDEX CONCURRENTLY IF EXISTS "{name}"')
            report.dropped.append(name)


def _serving_legacy(index: DeclaredIndex, valid: set[str], definitions: dict[str, str]) -> str | None:
    """The name of the first migration's index (``LEGACY``) that serves instead of ``index``: it is valid and
    still indexes the same expression of the same model; else None."""
    legacy = LEGACY.get((index.model, index.field))
    if legacy is None or legacy[0] not in valid:
        return None
    definition = definitions[legacy[0]]
    if f"(tenant_id, {legacy[1]}, id)" in definition and f"'{index.model}'" in definition:
        return legacy[0]
    return None


def _sync_statistics(conn: Connection, models: list[RecordModel], report: SyncReport) -> None:
    wanted = declared_statistics(models)
    existing = set(conn.execute(text("SELECT stxname FROM pg_statistic_ext WHERE stxrelid = 'records'::regclass "
                                     "AND stxname LIKE :p"), {"p": STATS_PREFIX + "%"}).scalars())
    for name in sorted(existing - set(wanted)):
        conn.exec_driver_sql(f'DROP STATISTICS IF EXISTS "{name}"')
    for name in sorted(set(wanted) - existing):
        conn.exec_driver_sql(f'CREATE STATISTICS IF NOT EXISTS "{name}" ON {wanted[name]} FROM records')
        report.created.append(name)


def _build(engine: Engine, conn: Connection, index: DeclaredIndex) -> None:
    """``CREATE INDEX CONCURRENTLY`` on ``conn``, with a progress line every ``PROGRESS_EVERY`` seconds
    read from ``pg_stat_progress_create_index`` on a second connection."""
    pid = conn.execute(text("SELECT pg_backend_pid()")).scalar_one()
    failure: list[BaseException] = []

    def build() -> None:
        try:
            conn.exec_driver_sql(index.create_sql("postgresql"))
        except BaseException as exc:  # re-raised in the caller's thread
            failure.append(exc)

    step = time.perf_counter()
    log.info("migrate.index.build", extra={"index": index.name})
    worker = threading.Thread(target=build, name=f"build {index.name}", daemon=True)
    worker.start()
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as watch:
        while worker.is_alive():
            worker.join(PROGRESS_EVERY)
            if not worker.is_alive():
                break
            progress = watch.execute(text(
                "SELECT phase, blocks_done, blocks_total, tuples_done, tuples_total "
                "FROM pg_stat_progress_create_index WHERE pid = :pid"), {"pid": pid}).first()
            if progress is not None:
                log.info("migrate.index.progress", extra={
                    "index": index.name, "phase": progress.phase,
                    "blocks": f"{progress.blocks_done}/{progress.blocks_total}",
                    "tuples": f"{progress.tuples_done}/{progress.tuples_total}",
                    "seconds": round(time.perf_counter() - step, 1)})
    if failure:
        raise failure[0]
    log.info("migrate.index.built", extra={"index": index.name, "seconds": round(time.perf_counter() - step, 1)})
