"""The baseline's PostgreSQL driver by default: psycopg 3 async, Tessera's driver (``BASELINE_DRIVER``
unset or ``psycopg``), with the same statements as on asyncpg (``pg_asyncpg``, the limit).

Its fastest modes for one statement per request: a fixed ``AsyncConnectionPool`` opened full and kept
full, autocommit connections, raw cursors (``$n`` placeholders, as asyncpg takes them: the same SQL
text), every statement prepared on its first execution on a connection (``prepare_threshold=0``, as
asyncpg prepares), rows asked for in binary. A pipeline only for the session list's count and page.
JSON and jsonb come back as Python values (psycopg's default loaders); JSON parameters go as the text
asyncpg's encoder writes (``json.dumps``), sent untyped so that the statement's ``::jsonb`` (or the
column) types them.
"""

from __future__ import annotations

import json
from typing import Any

from psycopg import AsyncConnection, AsyncRawCursor
from psycopg.errors import UniqueViolation
from psycopg_pool import AsyncConnectionPool

from baseline.pg import Driver, Queries, Sent

Row = tuple[Any, ...]


class Pool:
    """asyncpg's pool methods on a psycopg pool: each call takes a connection, runs one statement, gives
    the connection back."""

    def __init__(self, dsn: str, size: int) -> None:
        self.pool: AsyncConnectionPool[AsyncConnection[Row]] = AsyncConnectionPool(
            dsn, min_size=size, max_size=size, max_lifetime=float(2**31), open=False,
            kwargs={"autocommit": True, "prepare_threshold": 0, "cursor_factory": AsyncRawCursor})

    async def fetchrow(self, query: str, *args: Any) -> Row | None:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(query, args, binary=True)
            return await cursor.fetchone()

    async def fetch(self, query: str, *args: Any) -> list[Row]:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(query, args, binary=True)
            return await cursor.fetchall()

    async def fetchval(self, query: str, *args: Any) -> Any:
        row = await self.fetchrow(query, *args)
        return None if row is None else row[0]

    async def execute(self, query: str, *args: Any) -> None:
        async with self.pool.connection() as conn:
            await conn.execute(query, args)

    async def close(self) -> None:
        await self.pool.close()


async def connect(dsn: str, size: int) -> Queries:
    pool = Pool(dsn, size)
    await pool.pool.open(wait=True, timeout=60)
    return pool


def constraint(exc: Exception) -> str | None:
    return exc.diag.constraint_name if isinstance(exc, UniqueViolation) else None


async def pair(pool: Queries, first: Sent, second: Sent) -> tuple[list[Row], list[Row]]:
    """Two statements in one pipeline: one round trip."""
    assert isinstance(pool, Pool)
    async with pool.pool.connection() as conn:
        async with conn.pipeline():
            one = await conn.execute(first[0], first[1], binary=True)
            two = await conn.execute(second[0], second[1], binary=True)
        return await one.fetchall(), await two.fetchall()


DRIVER = Driver("psycopg", connect, UniqueViolation, constraint, json.dumps, pair)
