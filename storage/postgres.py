"""PostgreSQL through psycopg 3's async driver: one pool per event loop, no thread, no pre-ping.

- A single statement runs on an autocommit connection: one round trip, no BEGIN/COMMIT.
- A transaction runs in pipeline mode: BEGIN travels with the first statement, statements whose
  result nobody reads (``enqueue``: audit rows, outbox rows, completions) travel with the next one
  or with the COMMIT, so a write costs one round trip per result it waits for, plus one.
- Connections are not pinged before use; a read that fails because its connection died (a
  restarted server) is retried once on a fresh one. Writes are never retried here.
- The pool keeps ``min_size`` connections open and grows to ``max_size`` under load; connections
  live for an hour, so a burst does not open and close sessions per request.
- psycopg prepares a statement server-side after its fifth execution on a connection, so the hot
  statements skip parsing and planning.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any

import psycopg
import psycopg.sql
from psycopg_pool import AsyncConnectionPool
from sqlalchemy.engine import make_url
from sqlalchemy.sql import ClauseElement

from storage.engine import Compiled, IntegrityError, Params, Result, Statement, compiled_for


def conninfo(url: str) -> str:
    """The libpq form of a SQLAlchemy URL (``postgresql+psycopg://`` becomes ``postgresql://``)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def _result(cursor: psycopg.AsyncCursor[Any], compiled: Compiled) -> Result:
    raw = await cursor.fetchall() if compiled.returns_rows else []
    return Result(compiled.rows(raw), cursor.rowcount)


def _integrity(sql: str, values: Any, exc: psycopg.IntegrityError) -> IntegrityError:
    return IntegrityError(sql, values, exc)


async def _rollback(conn: psycopg.AsyncConnection[Any]) -> None:
    """End a transaction the block left open or failed (the pool gets the connection back idle)."""
    if not conn.closed and conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
        with contextlib.suppress(psycopg.Error):
            await conn.execute(b"ROLLBACK")


class PostgresTransaction:
    """A transaction on one pipelined connection."""

    dialect = "postgresql"

    def __init__(self, conn: psycopg.AsyncConnection[Any], pipeline: psycopg.AsyncPipeline) -> None:
        self._conn = conn
        self._pipeline = pipeline

    async def execute(self, statement: Statement | ClauseElement, params: Params = None) -> Result:
        compiled, extracted = compiled_for(statement, "postgresql")
        sql, values = compiled.bind(params, extracted)
        try:
            cursor = await self._conn.execute(sql, values)
            if not compiled.returns_rows:
                await self._pipeline.sync()  # the row count is known once the result is back
            return await _result(cursor, compiled)
        except psycopg.IntegrityError as exc:
            raise _integrity(sql, values, exc) from exc

    async def enqueue(self, statement: Statement | ClauseElement, params: Params = None) -> None:
        compiled, extracted = compiled_for(statement, "postgresql")
        sql, values = compiled.bind(params, extracted)
        await self._conn.execute(sql, values)

    async def execute_many(self, statement: Statement, rows: Sequence[Mapping[str, Any]]) -> None:
        compiled = statement.compiled("postgresql")
        bound = [compiled.bind(row)[1] for row in rows]
        async with self._conn.cursor() as cursor:
            await cursor.executemany(compiled.sql, bound)


class PostgresDatabase:
    """The pools of one database URL, one per event loop that uses it."""

    dialect = "postgresql"

    def __init__(self, url: str, *, min_size: int = 2, max_size: int = 20, timeout: float = 30.0) -> None:
        self._conninfo = conninfo(url)
        self._min_size = min_size
        self._max_size = max_size
        self._timeout = timeout
        self._pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, AsyncConnectionPool] = (
            weakref.WeakKeyDictionary()
        )

    async def _pool(self) -> AsyncConnectionPool:
        loop = asyncio.get_running_loop()
        pool = self._pools.get(loop)
        if pool is None:
            pool = AsyncConnectionPool(
                self._conninfo, min_size=self._min_size, max_size=self._max_size, timeout=self._timeout,
                max_lifetime=3600.0, kwargs={"autocommit": True}, open=False, name="tessera",
            )
            self._pools[loop] = pool
            await pool.open()
        return pool

    async def execute(self, statement: Statement | ClauseElement, params: Params = None) -> Result:
        compiled, extracted = compiled_for(statement, "postgresql")
        sql, values = compiled.bind(params, extracted)
        pool = await self._pool()
        retry = compiled.reads_only
        while True:
            try:
                async with pool.connection() as conn:
                    return await _result(await conn.execute(sql, values), compiled)
            except psycopg.IntegrityError as exc:
                raise _integrity(sql, values, exc) from exc
            except psycopg.OperationalError:
                if not retry:
                    raise
                retry = False  # once: the pool has dropped the dead connection

    async def enqueue(self, statement: Statement | ClauseElement, params: Params = None) -> None:
        await self.execute(statement, params)

    async def execute_many(self, statement: Statement, rows: Sequence[Mapping[str, Any]]) -> None:
        async with self._transaction() as tx:
            await tx.execute_many(statement, rows)

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[PostgresTransaction]:
        """BEGIN and COMMIT are statements of the pipeline, not psycopg's ``transaction()`` (which
        waits for BEGIN's answer, and sends COMMIT in a batch of its own): a transaction whose
        rows nobody waits for is one round trip, BEGIN to COMMIT."""
        pool = await self._pool()
        async with pool.connection() as conn:
            try:
                async with conn.pipeline() as pipeline:
                    await conn.execute(b"BEGIN")
                    yield PostgresTransaction(conn, pipeline)
                    await conn.execute(b"COMMIT")
            except psycopg.IntegrityError as exc:  # raised when the pipeline synced at COMMIT
                await _rollback(conn)
                raise IntegrityError("COMMIT", None, exc) from exc
            except BaseException:
                await _rollback(conn)
                raise

    def read(self) -> Any:
        return self._transaction()

    def write(self) -> Any:
        return self._transaction()

    async def notifications(self, channel: str) -> AsyncIterator[str]:
        """The payloads NOTIFYed on ``channel``, on a dedicated connection (not the pool's: it
        stays in LISTEN for as long as the caller iterates)."""
        conn = await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True)
        try:
            await conn.execute(psycopg.sql.SQL("LISTEN {}").format(psycopg.sql.Identifier(channel)))
            async for notification in conn.notifies():
                yield notification.payload
        finally:
            await conn.close()

    async def ping(self) -> bool:
        try:
            pool = await self._pool()
            async with pool.connection(timeout=2.0) as conn:
                await conn.execute("SELECT 1")
            return True
        except Exception:
            return False

    def pool_stats(self) -> dict[str, int]:
        """The pool of the running loop: connections open (``pool_size``), idle (``pool_available``),
        the maximum (``pool_max``) and requests waiting (``requests_waiting``); empty before it opens."""
        pool = self._pools.get(asyncio.get_running_loop())
        return pool.get_stats() if pool is not None else {}

    async def close(self) -> None:
        pool = self._pools.pop(asyncio.get_running_loop(), None)
        if pool is not None:
            await pool.close()

    def dispose(self) -> None:
        self._pools.clear()
