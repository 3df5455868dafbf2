"""A transaction whose pipeline a server error aborted leaves psycopg's prepared statements right.

psycopg prepares a statement at its sixth execution on a connection: it sends the PREPARE with
that execution and records the name as it sends it. When an earlier statement of the same
pipeline fails, the server skips the rest, the PREPARE included, but psycopg 3.3 keeps the name
(the ROLLBACK after clears its cache only the first time a connection runs one), so every later
execution of that statement on the connection failed with "prepared statement ... does not
exist" (seen in CI: idempotency conflicts, then 500s). ``storage.drivers.postgres`` has psycopg forget its
prepared statements after such a failure.
"""

from __future__ import annotations

import asyncio
import uuid

import pytest
from sqlalchemy import Integer, text

from storage.drivers.engine import IntegrityError
from storage.drivers.postgres import PostgresDatabase
from tests.conftest import PG_ADMIN_URL, pg_reachable


def test_a_statement_whose_prepare_an_aborted_pipeline_skipped_still_runs_afterwards() -> None:
    pg_reachable()
    table = f"prep_{uuid.uuid4().hex[:12]}"
    count = text(f"SELECT count(*) AS n FROM {table} WHERE k <> :k").columns(n=Integer)

    async def failing(db: PostgresDatabase) -> None:
        """A duplicate key, and behind it in the same pipeline the count."""
        with pytest.raises(IntegrityError):
            async with db.write() as tx:
                await tx.enqueue(text(f"INSERT INTO {table} VALUES (1)"))
                await tx.execute(count, {"k": 0})

    async def test() -> int:
        db = PostgresDatabase(PG_ADMIN_URL, min_size=1, max_size=1)  # one connection: every step on it
        try:
            await db.execute(text(f"CREATE TABLE {table} (k int PRIMARY KEY)"))
            await db.execute(text(f"INSERT INTO {table} VALUES (1)"))
            await failing(db)  # the connection's first ROLLBACK: psycopg clears its cache on that one only
            for _ in range(5):  # five executions: psycopg prepares the sixth
                async with db.read() as tx:
                    await tx.execute(count, {"k": 0})
            await failing(db)  # the sixth: its PREPARE is skipped by the server
            async with db.read() as tx:
                result = await tx.execute(count, {"k": 0})
                return int(result.scalar())
        finally:
            await db.execute(text(f"DROP TABLE IF EXISTS {table}"))
            await db.close()

    assert asyncio.run(test()) == 1
