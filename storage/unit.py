"""Transactions: one per business operation, read or write.

On SQLite a write transaction starts with ``BEGIN IMMEDIATE`` (see ``storage.db``) so concurrent
writers queue on the lock instead of failing mid-way; on PostgreSQL both are plain transactions.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Connection, Engine, text


class Database:
    """The engine plus the two ways services open a transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.dialect = engine.dialect.name

    @contextmanager
    def read(self) -> Iterator[Connection]:
        with self.engine.connect() as conn, conn.begin():
            yield conn

    @contextmanager
    def write(self) -> Iterator[Connection]:
        with self.engine.connect() as conn:
            conn.info["write"] = True
            try:
                with conn.begin():
                    yield conn
            finally:
                conn.info.pop("write", None)

    def ping(self) -> bool:
        """True when the database answers a trivial query."""
        try:
            with self.engine.connect() as conn:
                conn.execute(text("SELECT 1"))
            return True
        except Exception:
            return False

    def dispose(self) -> None:
        self.engine.dispose()
