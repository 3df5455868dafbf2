"""The limit: the baseline on asyncpg (``BASELINE_DRIVER=asyncpg``), the least client work per statement.

Its pool is the query interface itself (``fetchrow``, ``fetch``, ``fetchval``, ``execute`` with ``$n``
placeholders), so the store calls asyncpg's own methods with nothing in between.
"""

from __future__ import annotations

import json
from typing import Any

import asyncpg

from baseline.pg import Driver, Queries, Sent


async def _kept(_conn: asyncpg.Connection) -> None:
    """Nothing to undo when a connection goes back to the pool: no statement here leaves session state (no
    SET, LISTEN, advisory lock or cursor), so asyncpg's default reset (``RESET ALL`` and more, one more
    round trip on every release) is skipped."""


async def _codecs(conn: asyncpg.Connection) -> None:
    """JSON in and out as Python values, as psycopg and SQLAlchemy give them."""
    for name in ("json", "jsonb"):
        await conn.set_type_codec(name, encoder=json.dumps, decoder=json.loads, schema="pg_catalog")


async def connect(dsn: str, size: int) -> Queries:
    """One pool, opened full at start and kept full (no connection retired after a number of queries or
    a time idle)."""
    pool: Queries = await asyncpg.create_pool(dsn, min_size=size, max_size=size, init=_codecs, reset=_kept,
                                              max_queries=2**31, max_inactive_connection_lifetime=0)
    return pool


def constraint(exc: Exception) -> str | None:
    name: Any = getattr(exc, "constraint_name", None)
    return name if isinstance(name, str) else None


async def pair(pool: Queries, first: Sent, second: Sent) -> tuple[list[Any], list[Any]]:
    """Two statements on one connection, one after the other (asyncpg has no pipeline)."""
    assert isinstance(pool, asyncpg.Pool)
    async with pool.acquire() as conn:
        return await conn.fetch(first[0], *first[1]), await conn.fetch(second[0], *second[1])


# JSON parameters go as Python values: the codecs above encode them.
DRIVER = Driver("asyncpg", connect, asyncpg.UniqueViolationError, constraint, None, pair)
