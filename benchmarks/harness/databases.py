"""Fresh databases for a run, and the environment the servers get to use them.

Why one way: every figure must come from a database nobody else wrote to, created for the run and
dropped after it (PostgreSQL: a database with a unique name next to the tests' admin database
``TESSERA_TEST_PG_URL``; SQLite: a file in the run's temporary directory), migrated by the service's
own migrations, and every server of a comparison must get the same ``TESSERA_*`` variables.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql
from sqlalchemy import Engine

from harness import RESULTS_DIR, ROOT, log
from storage.drivers.db import make_engine
from storage.schema.migrate import upgrade

PG_ADMIN_URL = os.environ.get("TESSERA_TEST_PG_URL", "postgresql://postgres@127.0.0.1:5432/test")
BACKENDS = ("postgresql", "sqlite")
UNLIMITED = str(10**9)
RATE_LIMITS = ("TESSERA_RATE_LIMIT_READ", "TESSERA_RATE_LIMIT_WRITE", "TESSERA_RATE_LIMIT_LOGIN",
               "TESSERA_RATE_LIMIT_TOKEN", "TESSERA_RATE_LIMIT_OPEN")


def _admin() -> psycopg.Connection[Any]:
    return psycopg.connect(PG_ADMIN_URL, autocommit=True, connect_timeout=5)


def create_database() -> str:
    """A new, empty PostgreSQL database next to the admin one; its ``postgresql://`` URL."""
    name = f"tessera_bench_{uuid.uuid4().hex[:12]}"
    with _admin() as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return PG_ADMIN_URL.rsplit("/", 1)[0] + "/" + name


def drop_database(url: str) -> None:
    with _admin() as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(url.rsplit("/", 1)[1])))


@dataclass(frozen=True)
class Backend:
    """One benchmark database."""

    name: str  # "postgresql" or "sqlite"
    url: str  # as TESSERA_DATABASE_URL takes it: postgresql://... or sqlite:///...
    path: Path | None = None  # the SQLite file

    @property
    def sqlalchemy_url(self) -> str:
        """``postgresql://`` to SQLAlchemy's psycopg 3 dialect; SQLite as is."""
        return "postgresql+psycopg://" + self.url.split("://", 1)[1] if self.name == "postgresql" else self.url

    @property
    def label(self) -> str:
        return self.url.rsplit("/", 1)[1] if self.name == "postgresql" else str(self.path)

    def engine(self) -> Engine:
        """An engine for the benchmark's own queries (a small pool: it must not crowd the servers')."""
        engine: Engine = make_engine(self.sqlalchemy_url, **({"pool_size": 2} if self.name == "postgresql" else {}))
        return engine


def server_env(database_url: str, var_dir: Path, **extra: str) -> dict[str, str]:
    """The ``TESSERA_*`` variables every process of a run shares: production mode (plain HTTP), one fresh secret key,
    JSON logs at WARNING, response validation off (as in production), every rate limit out of reach
    (a benchmark that wants one sets it in ``extra``), and this checkout first on ``PYTHONPATH``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TESSERA_")}
    env |= {
        "TESSERA_ENV": "production", "TESSERA_DATABASE_URL": database_url,
        "TESSERA_SECRET_KEY": secrets.token_urlsafe(48), "TESSERA_VAR_DIR": str(var_dir),
        "TESSERA_MODELS_FILE": str(ROOT / "models.yaml"), "TESSERA_CAPABILITIES_FILE": str(ROOT / "capabilities.yaml"),
        "TESSERA_RESPONSE_VALIDATION": "false", "TESSERA_LOG_JSON": "true", "TESSERA_LOG_LEVEL": "WARNING",
        # Plain HTTP on loopback, as behind a proxy that terminates TLS: the figures are the
        # service's, not a TLS library's (every peer is measured the same way).
        "TESSERA_REQUIRE_TLS": "false",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    return env | dict.fromkeys(RATE_LIMITS, UNLIMITED) | extra


@dataclass(frozen=True)
class Workspace:
    """A run's database, temporary directory (logs, requests files, the SQLite file) and environment."""

    backend: Backend
    tmp: Path
    env: dict[str, str]


def _terminated(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)


@contextlib.contextmanager
def fresh(backend: str, name: str, keep: bool = False, **env: str) -> Iterator[Workspace]:
    """A new database, migrated, with its workspace; dropped at the end unless ``keep`` (a kept SQLite
    file is copied to ``benchmarks/results/<name>.sqlite3``, since the temporary directory goes).
    Meanwhile SIGTERM exits through the ``finally`` blocks, so a stopped run still stops its servers
    and drops its database."""
    previous = signal.signal(signal.SIGTERM, _terminated)
    with contextlib.ExitStack() as restore, tempfile.TemporaryDirectory(prefix=f"tessera-{name}-") as tmp_name:
        restore.callback(signal.signal, signal.SIGTERM, previous)
        tmp = Path(tmp_name)
        made = (Backend(backend, create_database()) if backend == "postgresql"
                else Backend(backend, f"sqlite:///{tmp / 'bench.sqlite3'}", tmp / "bench.sqlite3"))
        try:
            log(f"database: {made.label}")
            step = time.perf_counter()
            upgrade(made.sqlalchemy_url)
            log(f"migrated in {time.perf_counter() - step:.1f} s")
            yield Workspace(made, tmp, server_env(made.url, tmp / "var", **env))
        finally:
            if keep and made.path is not None:
                kept = RESULTS_DIR / f"{name}.sqlite3"
                kept.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(made.path, kept)
                log(f"database kept: sqlite:///{kept}")
            elif keep:
                log(f"database kept: {made.url}")
            elif made.name == "postgresql":
                drop_database(made.url)
                log(f"database {made.label} dropped")


def pg_activity(conn: psycopg.Connection[Any]) -> tuple[int, int]:
    """(connections opened to this database so far, transactions in other databases so far): pool
    overflow shows in the first; the second is activity whose CPU lands in the PostgreSQL column."""
    row = conn.execute(
        "SELECT coalesce(sum(sessions) FILTER (WHERE datname = current_database()), 0), "
        "coalesce(sum(xact_commit + xact_rollback) FILTER (WHERE datname IS DISTINCT FROM current_database()), 0) "
        "FROM pg_stat_database").fetchone()
    assert row is not None
    return int(row[0]), int(row[1])
