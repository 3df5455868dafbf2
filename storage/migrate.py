"""Schema migrations through Alembic, callable from the CLI, the app start and the tests."""

from __future__ import annotations

import logging
from pathlib import Path

from alembic import command
from alembic.config import Config

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"

log = logging.getLogger("tessera.migrate")


def alembic_config(database_url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return cfg


def upgrade(database_url: str, revision: str = "head") -> None:
    """Bring the database to ``revision``; each applied step is logged (progress on long runs)."""
    log.info("migrate.start", extra={"revision": revision})
    command.upgrade(alembic_config(database_url), revision)
    log.info("migrate.done", extra={"revision": revision})
