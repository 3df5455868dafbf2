"""Schema migrations through Alembic, callable from the CLI, the app start and the tests."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path

from alembic import command
from alembic.config import Config

from storage import record_indexes
from storage.records import RecordModel

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"

log = logging.getLogger("tessera.migrate")


def alembic_config(database_url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return cfg


def upgrade(database_url: str, revision: str = "head", models: Iterable[RecordModel] | None = None) -> None:
    """Bring the database to ``revision``; each applied step is logged (progress on long runs).

    With ``models`` (the declarations of ``models.yaml``), the indexes that follow them are built or
    dropped afterwards (``storage.record_indexes``), outside any transaction.
    """
    log.info("migrate.start", extra={"revision": revision})
    command.upgrade(alembic_config(database_url), revision)
    if models is not None:
        record_indexes.sync(database_url, models)
    log.info("migrate.done", extra={"revision": revision})
