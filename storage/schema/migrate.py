"""Schema migrations through Alembic, callable from the CLI, the app start and the tests.

Every process that starts (``serve``, each ``worker``, ``migrate``) migrates first, so on a
deployment several do it at once. On PostgreSQL one at a time does: ``upgrade`` holds a
session-level advisory lock for the whole of it, and the next process finds the work done. Without
it two processes building the declared indexes concurrently each saw the other's index in the
making (invalid), dropped it and deadlocked (``benchmarks/scaleout.py`` starting two workers).
SQLite's own write lock serialises its migrations.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text

from storage.drivers.db import make_engine
from storage.identity import RoleTemplate
from storage.records import RecordModel
from storage.schema import field_moves, record_indexes, role_sync

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"

log = logging.getLogger("tessera.migrate")

# The advisory lock key of migrations (any constant: the only advisory lock Tessera takes).
MIGRATION_LOCK = 0x7E55E8A0
# How often a process waiting for another's migration tries the lock again.
LOCK_POLL_SECONDS = 0.25


def alembic_config(database_url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return cfg


def upgrade(database_url: str, revision: str = "head", models: Iterable[RecordModel] | None = None,
            role_templates: Mapping[str, RoleTemplate] | None = None,
            progress: Callable[[str], None] | None = None) -> list[str]:
    """Bring the database to ``revision``; each applied step is logged (progress on long runs).

    With ``models`` (the declarations of ``models.yaml``), declared renames move their values and
    fields no longer declared are named (``storage.schema.field_moves``), then the indexes that follow the
    fields are built or dropped (``storage.schema.record_indexes``), outside any transaction; with
    ``role_templates``, every existing tenant's roles get what their templates gained
    (``storage.schema.role_sync``). Returns the lines saying what changed in fields and roles; ``progress``
    gets a line every few seconds of a long move.
    """
    log.info("migrate.start", extra={"revision": revision})
    changes: list[str] = []
    with _one_at_a_time(database_url):
        command.upgrade(alembic_config(database_url), revision)
        if models is not None:
            models = list(models)
            changes += field_moves.sync(database_url, models, now=lambda: datetime.now(UTC), progress=progress).lines()
            record_indexes.sync(database_url, models)
        if role_templates is not None:
            changes += role_sync.sync(database_url, role_templates).lines()
    log.info("migrate.done", extra={"revision": revision})
    return changes


def plan(database_url: str, models: Iterable[RecordModel], role_templates: Mapping[str, RoleTemplate]) -> list[str]:
    """What ``upgrade`` to head would do, one line each, with nothing changed: the schema revisions to
    apply, the renames to move (records counted), the fields no longer declared, the indexes to build
    and drop, the role changes (worked out in a transaction rolled back). Against a database that
    lacks a table a pending revision makes, the lines after it say what is known before it runs."""
    models = list(models)
    pending = _pending_revisions(database_url)
    lines = [f"schema: apply revision {rev}: {doc}" for rev, doc in pending]
    lines += field_moves.plan(database_url, models).lines()
    indexes = record_indexes.plan(database_url, models)
    lines += [f"indexes: build {name}" for name in indexes.created]
    lines += [f"indexes: drop {name}" for name in indexes.dropped]
    if not pending:  # the role tables as they will be are known only once the revisions ran
        lines += role_sync.sync(database_url, role_templates, apply=False).lines()
    return lines


def _pending_revisions(database_url: str) -> list[tuple[str, str]]:
    """The revisions between the database's and head, oldest first, with their first doc line."""
    scripts = ScriptDirectory.from_config(alembic_config(database_url))
    engine = make_engine(database_url)
    try:
        with engine.connect() as conn:
            current = MigrationContext.configure(conn).get_current_revision()
    finally:
        engine.dispose()
    pending = list(scripts.iterate_revisions("head", current))
    return [(rev.revision, (rev.doc or "").splitlines()[0] if rev.doc else "") for rev in reversed(pending)]


@contextlib.contextmanager
def _one_at_a_time(database_url: str) -> Iterator[None]:
    """On PostgreSQL, hold ``MIGRATION_LOCK``, waiting for another process's migration to end.

    The wait polls ``pg_try_advisory_lock`` between sleeps rather than blocking in
    ``pg_advisory_lock``: a statement blocked there holds a snapshot, and the holder's
    ``CREATE INDEX CONCURRENTLY`` waits for every older snapshot to go, so the two would wait for
    each other for ever.
    """
    if not database_url.startswith("postgresql"):
        yield
        return
    engine = make_engine(database_url)
    try:
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            waited = False
            while not conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": MIGRATION_LOCK}).scalar_one():
                if not waited:
                    log.info("migrate.waiting", extra={"reason": "another process is migrating"})
                    waited = True
                time.sleep(LOCK_POLL_SECONDS)
            try:
                yield
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": MIGRATION_LOCK})
    finally:
        engine.dispose()
