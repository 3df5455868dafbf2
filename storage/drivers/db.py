"""One URL picks the database: SQLite (the embedded default) or PostgreSQL.

``open_database`` gives the async data path every request and worker uses (``storage.drivers.postgres``,
``storage.drivers.sqlite``). ``make_engine`` gives a synchronous SQLAlchemy engine for what runs outside
the event loop: migrations, and tests that look at rows directly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url

from storage.drivers.engine import Database


def open_database(url: str, *, pool_size: int = 20, unavailable_seconds: float = 1.5) -> Database:
    """The async database of ``url``; nothing connects until the first statement.

    ``unavailable_seconds``: how long PostgreSQL's requests wait for a connection the pool cannot
    make before ``DatabaseUnavailable`` (see ``storage.drivers.postgres``)."""
    if make_url(url).get_backend_name() == "sqlite":
        from storage.drivers.sqlite import SqliteDatabase

        return SqliteDatabase(url)
    from storage.drivers.postgres import PostgresDatabase

    return PostgresDatabase(url, max_size=pool_size, unavailable_seconds=unavailable_seconds)


def make_engine(url: str, **kwargs: Any) -> Engine:
    """A synchronous engine with the per-dialect settings that matter for correctness."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False}, **kwargs)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        return engine
    return create_engine(url, **kwargs)
