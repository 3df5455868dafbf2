"""Declared models change: renamed fields move their stored values, removed fields are named.

A record's fields live in its ``data`` document under their codes, so a field renamed in
``models.yaml`` alone would leave every value under the old key (the Open Platform would show the
new field empty, the session read nothing). A field declared with ``renamedFrom: <old>`` is moved
here: in batches of ``BATCH`` records in id order, each batch one transaction that rewrites the
documents holding the old key (the new key keeps a value it already has), renames the field in
``record_unique_values`` and records the last id done in ``field_moves``. A migrate interrupted
anywhere resumes after the last batch it committed; a finished move runs again on each migrate from
where it ended (cheap: only records made since), so records written by a process that still ran
the old declaration are moved by the next migrate. Each moved record's ``version`` goes up: its
published representation changed, so its strong ETag must too.

A field that leaves the declaration keeps its stored values (a later declaration may bring it back);
neither surface serves it (``storage.records.present`` and the Open Platform show declared fields
only) and every migrate names it until it is declared again. ``model_fields`` holds what the last
migrate saw, which is also how a rename knows its old field's type: a rename may not change it.

``plan`` says what a migrate would do, and writes nothing.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import ColumnElement, Connection, Engine, insert, inspect, select, text, update

from storage import record_cache
from storage.drivers.db import make_engine
from storage.records import RecordModel
from storage.schema.tables import field_moves as moves

log = logging.getLogger("tessera.migrate")

BATCH = 5_000  # records per transaction: short enough for writers beside it, few enough round trips
PROGRESS_SECONDS = 2.0  # how often a long move says how far it is

# Types a renamed field may take from its old one (the stored values stay as they are).
_COMPATIBLE = {("integer", "number")}


class FieldEvolutionError(Exception):
    """A declaration the stored data cannot follow (a rename that changes the field's type)."""


@dataclass(frozen=True)
class Rename:
    model: str
    old: str
    new: str


@dataclass
class FieldReport:
    """What a migrate did (or, from ``plan``, would do) to declared fields."""

    moved: list[tuple[Rename, int, float]] = field(default_factory=list)  # rename, records, seconds
    pending: list[tuple[Rename, int]] = field(default_factory=list)  # plan: rename, records to move
    removed: list[tuple[str, str]] = field(default_factory=list)  # model, field
    dropped_models: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        # A rename with nothing (left) to move says nothing: it stays declared until every process runs
        # the new file, and each migrate would otherwise repeat it.
        return ([f"fields: {r.model}.{r.old} -> {r.new}: {n:,} record(s) moved in {s:.1f} s"
                 for r, n, s in self.moved if n]
                + [f"fields: {r.model}.{r.old} -> {r.new}: {n:,} record(s) to move, in {-(-n // BATCH)} batch(es) "
                   f"of {BATCH:,}" for r, n in self.pending if n]
                + [f"fields: {m}.{f} is no longer declared: its stored values are kept and served by neither "
                   "surface (declare it again to serve them, or rename another field from it)" for m, f in self.removed]
                + [f"fields: model {m} is no longer declared: its records are kept and served by neither surface"
                   for m in self.dropped_models])


def renames(models: Iterable[RecordModel]) -> list[Rename]:
    """Every rename the declarations ask for."""
    return [Rename(m.code, decl.renamed_from, code)
            for m in models for code, decl in m.fields.items() if decl.renamed_from is not None]


def sync(database_url: str, models: Iterable[RecordModel], *, now: Callable[[], Any],
         progress: Callable[[str], None] | None = None, batch: int = BATCH) -> FieldReport:
    """Move every declared rename's values, then name the fields no longer declared and remember the
    declared ones. Raises ``FieldEvolutionError`` (before moving anything) for a rename the stored
    data cannot follow."""
    models = list(models)
    engine = make_engine(database_url)
    report = FieldReport()
    try:
        with engine.begin() as conn:
            known = _known_fields(conn)
        _check_types(models, known)
        for rename in renames(models):
            started = time.perf_counter()
            moved = _move(engine, rename, now=now, progress=progress, batch=batch)
            report.moved.append((rename, moved, time.perf_counter() - started))
        with engine.begin() as conn:
            _name_removed(models, known, report)
            _remember(conn, models)
    finally:
        engine.dispose()
    return report


def plan(database_url: str, models: Iterable[RecordModel]) -> FieldReport:
    """What ``sync`` would do, counted, with nothing written."""
    models = list(models)
    engine = make_engine(database_url)
    report = FieldReport()
    try:
        with engine.connect() as conn:
            evolved = inspect(conn).has_table("field_moves")
            known = _known_fields(conn) if evolved else {}
            _check_types(models, known)
            for rename in renames(models):
                last = _last_id(conn, rename) if evolved else 0
                report.pending.append((rename, _count_to_move(conn, rename, last)))
            _name_removed(models, known, report)
    finally:
        engine.dispose()
    return report


def _known_fields(conn: Connection) -> dict[str, dict[str, str]]:
    known: dict[str, dict[str, str]] = {}
    for model, code, ftype in conn.execute(text("SELECT model, field, type FROM model_fields")):
        known.setdefault(model, {})[code] = ftype
    return known


def _check_types(models: list[RecordModel], known: dict[str, dict[str, str]]) -> None:
    by_code = {m.code: m for m in models}
    for rename in renames(models):
        old_type = known.get(rename.model, {}).get(rename.old)
        new_type = by_code[rename.model].fields[rename.new].type
        if old_type is not None and old_type != new_type and (old_type, new_type) not in _COMPATIBLE:
            raise FieldEvolutionError(
                f"models.yaml: models.{rename.model}.fields.{rename.new}.renamedFrom: {rename.old!r} was a "
                f"{old_type} field and {rename.new!r} is a {new_type} one: its stored values would not fit "
                "(rename first; change the type in a later release, with a command that converts them)")


def _name_removed(models: list[RecordModel], known: dict[str, dict[str, str]], report: FieldReport) -> None:
    declared = {m.code: set(m.fields) for m in models}
    moved_away = {(r.model, r.old) for r in renames(models)}
    for model, fields in sorted(known.items()):
        if model not in declared:
            report.dropped_models.append(model)
            continue
        report.removed += [(model, code) for code in sorted(fields)
                           if code not in declared[model] and (model, code) not in moved_away]


def _remember(conn: Connection, models: list[RecordModel]) -> None:
    """``model_fields`` becomes the declared fields, plus the ones still only stored (named again next time)."""
    declared = {(m.code, code): decl.type for m in models for code, decl in m.fields.items()}
    moved_away = {(r.model, r.old) for r in renames(models)}
    kept = {(model, code): ftype for model, fields in _known_fields(conn).items() for code, ftype in fields.items()
            if (model, code) not in declared and (model, code) not in moved_away}
    conn.execute(text("DELETE FROM model_fields"))
    rows = [{"model": m, "field": f, "type": t} for (m, f), t in sorted({**kept, **declared}.items())]
    if rows:
        conn.execute(text("INSERT INTO model_fields (model, field, type) VALUES (:model, :field, :type)"), rows)


def _row_of(rename: Rename) -> tuple[ColumnElement[bool], ...]:
    return moves.c.model == rename.model, moves.c.old_field == rename.old, moves.c.new_field == rename.new


def _last_id(conn: Connection, rename: Rename) -> int:
    return int(conn.execute(select(moves.c.last_id).where(*_row_of(rename))).scalar() or 0)


def _count_to_move(conn: Connection, rename: Rename, last: int) -> int:
    has_old = _has_key(conn.dialect.name)
    # Only the dialect's fixed fragment is formatted in; every value is a bound parameter.
    return int(conn.execute(text(f"SELECT count(*) FROM records WHERE model = :m AND id > :last AND {has_old}"),  # noqa: S608
                            {"m": rename.model, "last": last, "old": rename.old}).scalar_one())


def _has_key(dialect: str) -> str:
    if dialect == "postgresql":
        return "jsonb_exists(data, :old)"
    return "json_type(data, '$.' || :old) IS NOT NULL"


def _moved_data(dialect: str) -> str:
    """The document with the old key's value under the new key (unless the new one holds a value) and no old key."""
    if dialect == "postgresql":
        return ("(data - CAST(:old AS text)) || jsonb_build_object(CAST(:new AS text), "
                "COALESCE(NULLIF(data -> CAST(:new AS text), 'null'::jsonb), data -> CAST(:old AS text)))")
    return ("json_set(json_remove(data, '$.' || :old), '$.' || :new, "
            "CASE WHEN coalesce(json_type(data, '$.' || :new), 'null') = 'null' "
            "THEN json(data -> ('$.' || :old)) ELSE json(data -> ('$.' || :new)) END)")


def _move(engine: Engine, rename: Rename, *, now: Callable[[], Any], progress: Callable[[str], None] | None,
          batch: int) -> int:
    """Move one rename's values from where it last stopped; the records moved."""
    with engine.begin() as conn:  # one migrate at a time (``storage.schema.migrate``): no other inserts this row
        if conn.execute(select(moves.c.id).where(*_row_of(rename))).first() is None:
            conn.execute(insert(moves).values(model=rename.model, old_field=rename.old, new_field=rename.new,
                                              last_id=0, moved=0, started_at=now()))
        last = _last_id(conn, rename)
    dialect = engine.dialect.name
    # Only the dialect's fixed fragments are formatted in; every value is a bound parameter.
    move_sql = (f"UPDATE records SET data = {_moved_data(dialect)}, version = version + 1 "  # noqa: S608
                f"WHERE model = :m AND id > :last AND id <= :high AND {_has_key(dialect)}")
    moved, said = 0, time.monotonic()
    while True:
        with engine.begin() as conn:
            high = conn.execute(text("SELECT max(id) FROM (SELECT id FROM records WHERE model = :m AND id > :last "
                                     "ORDER BY id LIMIT :batch) AS b"),
                                {"m": rename.model, "last": last, "batch": batch}).scalar()
            if high is None:
                conn.execute(update(moves).where(*_row_of(rename)).values(finished_at=now()))
                break
            window = {"m": rename.model, "last": last, "high": high, "old": rename.old, "new": rename.new}
            record_cache.epoch_writes(conn, rename.model)  # a batch is not logged record by record
            done = conn.execute(text(move_sql), window).rowcount
            conn.execute(text("UPDATE record_unique_values SET field = :new WHERE model = :m AND field = :old "
                              "AND record_id > :last AND record_id <= :high"), window)
            conn.execute(update(moves).where(*_row_of(rename)).values(last_id=high, moved=moves.c.moved + done))
        moved, last = moved + done, int(high)
        if progress is not None and time.monotonic() - said >= PROGRESS_SECONDS:
            progress(f"fields: {rename.model}.{rename.old} -> {rename.new}: {moved:,} moved, at record id {last}")
            said = time.monotonic()
    log.info("migrate.field.moved", extra={"model": rename.model, "old": rename.old, "new": rename.new,
                                          "records": moved})
    return moved
