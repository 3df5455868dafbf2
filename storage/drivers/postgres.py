"""PostgreSQL through psycopg 3's async driver: one pool per event loop, no thread, no pre-ping.

- A single statement runs on an autocommit connection: one round trip, no BEGIN/COMMIT.
- A transaction runs in pipeline mode: BEGIN travels with the first statement, statements whose
  result nobody reads (``enqueue``: audit rows, outbox rows, completions) travel with the next one
  or with the COMMIT, so a write costs one round trip per result it waits for, plus one. Queued
  writes on different tables go as one statement (``storage.drivers.pg_batches``): psycopg's CPU cost is
  per statement, pipelined or not. A transaction of queued writes alone never enters pipeline
  mode: it is that one statement, on the autocommit connection.
- Connections are not pinged before use; a read that fails because its connection died (a
  restarted server) is retried once on a fresh one. Writes are never retried here.
- A statement takes an idle connection kept at hand in front of the pool (``storage.drivers.idle_connections``),
  not the pool's checkout; the hand gives connections back by the pool's rules.
- The pool keeps ``min_size`` connections open and grows to ``max_size`` under load; connections
  live for an hour, so a burst does not open and close sessions per request.
- psycopg prepares a statement server-side after its fifth execution on a connection, so the hot
  statements skip parsing and planning.

Outages fail fast and recover at once. A connection lost mid-statement, a refused connect (the
pool's own attempts included) or no connection within ``unavailable_seconds`` raises
``DatabaseUnavailable`` (the web layer's 503) and marks the database down. While it is down no
request waits on the pool: each one is answered by a probe, one direct connect shared by every
request of the loop and tried at most every ``PROBE_INTERVAL`` seconds. The probe that succeeds
replaces the pool with a fresh one (psycopg_pool's reconnect back-off doubles up to minutes, so the
old pool could lag a returned database by that long), pays the writes owed to the database
(``owe``), and the requests go on at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
import weakref
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, NoReturn, overload

import psycopg
import psycopg.sql
from psycopg_pool import AsyncConnectionPool, PoolClosed, PoolTimeout
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.sql import ClauseElement

from storage.drivers import pg_batches
from storage.drivers.engine import (
    WRITE_PROBE,
    Compiled,
    DatabaseUnavailable,
    IntegrityError,
    Params,
    Query,
    R,
    Result,
    Row,
    Statement,
    bounded_owe,
    compiled_for,
)
from storage.drivers.idle_connections import HAND_SECONDS, Hand, Held
from storage.drivers.psycopg_internals import forget_prepared

log = logging.getLogger("tessera.database")

# While the database is down, a failed probe answers the requests of this many seconds after it.
PROBE_INTERVAL = 0.2
# SQLSTATE classes that say the server cannot serve now: connection exceptions, operator
# intervention (admin or crash shutdown, cannot connect now), insufficient resources.
_UNAVAILABLE_STATES = ("08", "57P", "53")


def conninfo(url: str) -> str:
    """The libpq form of a SQLAlchemy URL (``postgresql+psycopg://`` becomes ``postgresql://``)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def _result(cursor: psycopg.AsyncCursor[Any], compiled: Compiled[R]) -> Result[R]:
    raw = await cursor.fetchall() if compiled.returns_rows else []
    return Result(compiled.rows(raw), cursor.rowcount)


def _integrity(sql: str, values: Any, exc: psycopg.IntegrityError) -> IntegrityError:
    return IntegrityError(sql, values, exc)


async def _rollback(conn: psycopg.AsyncConnection[Any], tx: PostgresTransaction | None = None,
                    exc: BaseException | None = None) -> None:
    """End a transaction the block left open or failed (the pool gets the connection back idle);
    after a server error in a pipelined one, psycopg forgets its prepared statements (``forget_prepared``)."""
    if tx is not None and tx.pipelined and (exc is None or _server_failed(exc)):
        forget_prepared(conn)
    if not conn.closed and conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
        with contextlib.suppress(psycopg.Error):
            await conn.execute(b"ROLLBACK")


def _server_failed(exc: BaseException) -> bool:
    """Whether ``exc`` is, or was raised from, an error the server sent."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, psycopg.Error):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


# The BEGIN of ``PostgresDatabase.read``: sent in the pipeline like any BEGIN, so it costs no round trip.
READ_SNAPSHOT = b"BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"


class PostgresTransaction:
    """A transaction on one connection, begun at its first statement that is not a queued write.

    A transaction made only of queued writes (a create: the record, its stamp, audit and outbox
    rows, the idempotency completion) is sent at commit as the one statement ``pg_batches`` makes
    of them, on the autocommit connection: atomic as every statement, with no pipeline, BEGIN or
    COMMIT. Any other statement enters pipeline mode and sends BEGIN first.
    """

    dialect = "postgresql"

    def __init__(self, conn: psycopg.AsyncConnection[Any], scope: contextlib.AsyncExitStack,
                 begin: bytes = b"BEGIN") -> None:
        self._conn = conn
        self._begin = begin
        self._scope = scope  # the pipeline is entered here, and left (synced) when the block ends
        self._pipeline: psycopg.AsyncPipeline | None = None
        self._batch: list[pg_batches.Pending] = []  # enqueued, not sent yet (``pg_batches``)

    @property
    def pipelined(self) -> bool:
        """Whether the transaction entered pipeline mode (any statement besides queued writes)."""
        return self._pipeline is not None

    async def _begun(self) -> psycopg.AsyncPipeline:
        """The pipeline, entered with BEGIN the first time; the queued writes are sent after it."""
        if self._pipeline is None:
            self._pipeline = await self._scope.enter_async_context(self._conn.pipeline())
            await self._conn.execute(self._begin)
        await self._send_batch()
        return self._pipeline

    @overload
    async def execute(self, statement: Statement[R] | Query[R], params: Params = None) -> Result[R]: ...

    @overload
    async def execute(self, statement: ClauseElement, params: Params = None) -> Result[Row]: ...

    async def execute(self, statement: Statement[Any] | Query[Any] | ClauseElement,
                      params: Params = None) -> Result[Any]:
        compiled, extracted = compiled_for(statement, "postgresql")
        sql, values = compiled.bind(params, extracted)
        pipeline = await self._begun()
        try:
            cursor = await self._conn.execute(sql, values)
            if not compiled.returns_rows:
                await pipeline.sync()  # the row count is known once the result is back
            return await _result(cursor, compiled)
        except psycopg.IntegrityError as exc:
            raise _integrity(sql, values, exc) from exc

    async def enqueue(self, statement: Statement[Any] | Query[Any] | ClauseElement, params: Params = None) -> None:
        """Queue a write whose result nobody reads: it joins the batch of such writes when
        ``pg_batches`` allows, else the transaction begins, the batch goes, and then the write."""
        compiled, extracted = compiled_for(statement, "postgresql")
        sql, values = compiled.bind(params, extracted)
        table = pg_batches.target(sql)
        if table is None or not pg_batches.joins(self._batch, table):
            await self._begun()
        if table is None:
            await self._conn.execute(sql, values)
        else:
            self._batch.append((table, sql, values))

    async def _send_batch(self) -> None:
        """Send the queued writes as one statement (in the pipeline: without waiting for it)."""
        batch = self._batch
        if not batch:
            return
        self._batch = []
        if len(batch) == 1:
            await self._conn.execute(batch[0][1], batch[0][2])
        else:
            await self._conn.execute(*pg_batches.merged(batch))

    async def execute_many(self, statement: Statement[Any], rows: Sequence[Mapping[str, Any]]) -> None:
        compiled = statement.compiled("postgresql")
        bound = [compiled.bind(row)[1] for row in rows]
        await self._begun()
        async with self._conn.cursor() as cursor:
            await cursor.executemany(compiled.sql, bound)

    async def commit(self) -> None:
        """Send what is queued and COMMIT; a transaction never begun sends its one statement, if any."""
        await self._send_batch()
        if self._pipeline is not None:
            await self._conn.execute(b"COMMIT")


def _unavailable(exc: psycopg.Error, conn: psycopg.AsyncConnection[Any]) -> bool:
    """Whether ``exc`` says the database cannot serve now, rather than that a statement is wrong."""
    state = exc.sqlstate
    if conn.closed or (state is None and isinstance(exc, psycopg.OperationalError)):
        return True
    return state is not None and state.startswith(_UNAVAILABLE_STATES)


def _lost(exc: psycopg.Error, conn: psycopg.AsyncConnection[Any]) -> bool:
    """Whether the connection, and so perhaps the server, is gone (not a full disk or the like)."""
    state = exc.sqlstate
    return conn.closed or state is None or state.startswith(("08", "57P"))


@dataclass(eq=False)
class _LoopState:
    """The pool of one event loop and what this loop knows of the database."""

    pool: AsyncConnectionPool | None = None
    generation: int = 0  # of the pool: a failure of a replaced pool says nothing about the new one
    down: bool = False
    probed_at: float = -math.inf
    probe: asyncio.Task[bool] | None = None
    tasks: set[asyncio.Task[None]] = field(default_factory=set)  # closing old pools, paying owed writes
    # Idle connections taken from ``pool`` (``storage.drivers.idle_connections``).
    hand: Hand = field(default_factory=Hand)

    def spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


def _connection_class(state: _LoopState, generation: int) -> type[psycopg.AsyncConnection[Any]]:
    """The pool's connections, whose failed connects mark the database down: the pool's own
    attempts (growing, replacing a lost connection) see an outage before any request does."""

    class Connection(psycopg.AsyncConnection[Any]):
        @classmethod
        async def connect(cls, *args: Any, **kwargs: Any) -> Any:
            try:
                return await super().connect(*args, **kwargs)
            except psycopg.OperationalError:
                if state.generation == generation:
                    state.down = True
                raise

    return Connection


class PostgresDatabase:
    """The pools of one database URL, one per event loop that uses it.

    ``unavailable_seconds`` bounds how long a request waits for a connection while the pool cannot
    make one (the database refuses or does not answer); a pool that is merely busy is waited for
    up to ``timeout`` seconds, as long as its connections still come.
    """

    dialect = "postgresql"

    def __init__(self, url: str, *, min_size: int = 2, max_size: int = 20, timeout: float = 30.0,
                 unavailable_seconds: float = 1.5) -> None:
        self._conninfo = conninfo(url)
        self._min_size = min_size
        self._max_size = max_size
        self._timeout = timeout
        self._unavailable = unavailable_seconds
        # libpq takes whole seconds and treats anything under 2 as 2.
        self._connect_timeout = max(2, math.ceil(unavailable_seconds))
        self._states: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopState] = (
            weakref.WeakKeyDictionary()
        )
        self._owed: list[tuple[str, Any]] = []

    def _state(self) -> _LoopState:
        loop = asyncio.get_running_loop()
        state = self._states.get(loop)
        if state is None:
            state = self._states[loop] = _LoopState()
        return state

    async def _open(self, state: _LoopState) -> AsyncConnectionPool:
        state.generation += 1
        for held in state.hand.drain():  # the replaced pool's: returned to it, it closes them
            state.spawn(held.pool.putconn(held.conn))
        pool = AsyncConnectionPool(
            self._conninfo, min_size=self._min_size, max_size=self._max_size, timeout=self._timeout,
            max_lifetime=3600.0, kwargs={"autocommit": True, "connect_timeout": self._connect_timeout},
            open=False, name="tessera", connection_class=_connection_class(state, state.generation),
        )
        state.pool = pool
        await pool.open()
        return pool

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        """A pooled connection; the driver's "cannot serve now" errors become ``DatabaseUnavailable``."""
        state = self._state()
        held = await self._acquire(state)
        try:
            yield held.conn
        except psycopg.Error as exc:
            self._reraise(state, held, exc)
        finally:
            await self._release(state, held)

    async def _acquire(self, state: _LoopState) -> Held:
        """A connection at hand, else one from the pool (``storage.drivers.idle_connections``)."""
        if state.down:
            await self._recover(state)
        held = state.hand.take()
        if held is not None:
            return held
        pool = state.pool if state.pool is not None else await self._open(state)
        state.hand.waiting += 1
        try:
            conn = await self._getconn(state, pool)
        finally:
            state.hand.waiting -= 1
        return Held(conn, pool, time.monotonic() + HAND_SECONDS)

    async def _release(self, state: _LoopState, held: Held) -> None:
        for back in state.hand.keep(held, state.pool, time.monotonic()):
            await back.pool.putconn(back.conn)  # a broken one is discarded; to a replaced pool, closed

    @staticmethod
    def _reraise(state: _LoopState, held: Held, exc: psycopg.Error) -> NoReturn:
        """``exc`` again, as ``DatabaseUnavailable`` if it says the database cannot serve now (a
        lost connection of the current pool marks it down); as it is when the statement is at fault."""
        if not _unavailable(exc, held.conn):
            raise exc
        if _lost(exc, held.conn) and held.pool is state.pool:
            state.down = True
        raise DatabaseUnavailable(f"the database connection failed: {exc}") from exc

    async def _getconn(self, state: _LoopState, pool: AsyncConnectionPool) -> psycopg.AsyncConnection[Any]:
        """Wait for a connection in slices of ``unavailable_seconds``: give up as soon as the pool
        fails to connect (or was replaced), else after ``timeout`` of a pool busy to the brim."""
        deadline = time.monotonic() + self._timeout
        while True:
            try:
                conn: psycopg.AsyncConnection[Any] = await pool.getconn(
                    timeout=max(0.01, min(self._unavailable, deadline - time.monotonic())))
                return conn
            except PoolTimeout:
                if state.pool is pool and not state.down and time.monotonic() < deadline:
                    continue  # busy, not failing: its connections still come back
                raise DatabaseUnavailable("no database connection within the bound") from None
            except PoolClosed:
                raise DatabaseUnavailable("the connection pool was replaced") from None

    async def _recover(self, state: _LoopState) -> None:
        """While the database is down: one probe for every request of the loop, at most every
        ``PROBE_INTERVAL`` seconds; ``DatabaseUnavailable`` unless it connected."""
        if state.probe is None:
            if time.monotonic() - state.probed_at < PROBE_INTERVAL:
                raise DatabaseUnavailable("the database is down")
            state.probe = asyncio.get_running_loop().create_task(self._probe(state))
        if not await asyncio.shield(state.probe):
            raise DatabaseUnavailable("the database is down")

    async def _probe(self, state: _LoopState) -> bool:
        """Connect once, directly; on success a fresh pool, the owed writes paid, the database up."""
        try:
            try:
                conn = await asyncio.wait_for(psycopg.AsyncConnection.connect(
                    self._conninfo, autocommit=True, connect_timeout=self._connect_timeout), self._unavailable)
            except (psycopg.Error, OSError, TimeoutError):
                return False
            await conn.close()
            old = state.pool
            pool = await self._open(state)
            if old is not None:
                state.spawn(old.close(timeout=1.0))
            await self._pay(pool)
            state.down = False
            log.warning("database.recovered", extra={"owed": len(self._owed)})
            return True
        finally:
            state.probe = None
            state.probed_at = time.monotonic()

    def owe(self, statement: Statement[Any] | Query[Any] | ClauseElement, params: Params = None) -> None:
        compiled, extracted = compiled_for(statement, "postgresql")
        if not bounded_owe(self._owed, compiled.bind(params, extracted)):
            log.warning("database.owed_write_dropped", extra={"owed": len(self._owed)})
        state = self._states.get(asyncio.get_running_loop())
        if state is not None and not state.down and state.pool is not None:
            state.spawn(self._pay(state.pool))  # the database answers: try at once

    async def _pay(self, pool: AsyncConnectionPool) -> None:
        """Run the owed writes on ``pool``; those that fail stay owed."""
        while self._owed:
            sql, values = self._owed.pop(0)
            try:
                async with pool.connection(timeout=self._unavailable) as conn:
                    await conn.execute(sql, values)
            except (psycopg.Error, PoolTimeout, PoolClosed):
                self._owed.append((sql, values))
                log.warning("database.owed_write_failed", extra={"owed": len(self._owed)})
                return

    @overload
    async def execute(self, statement: Statement[R] | Query[R], params: Params = None) -> Result[R]: ...

    @overload
    async def execute(self, statement: ClauseElement, params: Params = None) -> Result[Row]: ...

    async def execute(self, statement: Statement[Any] | Query[Any] | ClauseElement,
                      params: Params = None) -> Result[Any]:
        compiled, extracted = compiled_for(statement, "postgresql")
        sql, values = compiled.bind(params, extracted)
        retry = compiled.reads_only
        while True:
            try:
                return await self._statement(sql, values, compiled)
            except DatabaseUnavailable:
                if not retry:
                    raise
                retry = False  # once, on a fresh connection (a lost one had the database probed)

    async def _statement(self, sql: str, values: Any, compiled: Compiled[R]) -> Result[R]:
        """``_connection`` written out: the one-statement path is the hottest of the service."""
        state = self._state()
        held = await self._acquire(state)
        try:
            cursor = held.cursor
            if cursor is None:
                cursor = held.cursor = held.conn.cursor()
            await cursor.execute(sql, values)
            return await _result(cursor, compiled)
        except psycopg.IntegrityError as exc:
            raise _integrity(sql, values, exc) from exc
        except psycopg.Error as exc:
            self._reraise(state, held, exc)
        finally:
            await self._release(state, held)

    async def enqueue(self, statement: Statement[Any] | Query[Any] | ClauseElement, params: Params = None) -> None:
        await self.execute(statement, params)

    async def execute_many(self, statement: Statement[Any], rows: Sequence[Mapping[str, Any]]) -> None:
        async with self._transaction() as tx:
            await tx.execute_many(statement, rows)

    @asynccontextmanager
    async def _transaction(self, begin: bytes = b"BEGIN") -> AsyncIterator[PostgresTransaction]:
        """BEGIN and COMMIT are statements of the pipeline, not psycopg's ``transaction()`` (which
        waits for BEGIN's answer, and sends COMMIT in a batch of its own); a transaction of queued
        writes alone is their one statement (``PostgresTransaction``)."""
        async with self._connection() as conn:
            tx: PostgresTransaction | None = None
            try:
                async with contextlib.AsyncExitStack() as scope:
                    tx = PostgresTransaction(conn, scope, begin)
                    yield tx
                    await tx.commit()
            except psycopg.IntegrityError as exc:  # raised at COMMIT's sync, or by the one statement
                await _rollback(conn, tx)
                raise IntegrityError("COMMIT", None, exc) from exc
            except BaseException as exc:
                await _rollback(conn, tx, exc)
                raise

    def read(self) -> Any:
        """One snapshot for every statement (READ COMMITTED would take one per statement): a page
        and its total, or a list cache's ids and its stamp, agree. Read only, so it never fails to
        serialize."""
        return self._transaction(READ_SNAPSHOT)

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
            async with self._connection() as conn:
                await conn.execute("SELECT 1")
            return True
        except (DatabaseUnavailable, psycopg.Error):
            return False

    async def can_write(self) -> bool:
        """A write that commits: the one row of ``alembic_version`` updated to itself, under a
        short lock timeout (a read-only server, a full disk or a lock held for good say no)."""
        try:
            async with self._transaction() as tx:
                await tx.enqueue(text("SET LOCAL lock_timeout = '2s'"))
                await tx.execute(WRITE_PROBE)
            return True
        except (DatabaseUnavailable, psycopg.Error):
            return False

    def pool_stats(self) -> dict[str, int]:
        """The pool of the running loop: connections open (``pool_size``), idle (``pool_available``),
        the maximum (``pool_max``) and requests waiting (``requests_waiting``); empty before it opens."""
        state = self._states.get(asyncio.get_running_loop())
        if state is None or state.pool is None:
            return {}
        stats = state.pool.get_stats()
        # Connections at hand are out of the pool, but idle.
        stats["pool_available"] = stats.get("pool_available", 0) + len(state.hand)
        return stats

    async def close(self) -> None:
        state = self._states.pop(asyncio.get_running_loop(), None)
        if state is None:
            return
        if state.probe is not None:
            state.probe.cancel()
        for task in list(state.tasks):
            task.cancel()
        for held in state.hand.drain():
            await held.pool.putconn(held.conn)
        if state.pool is not None:
            await state.pool.close()

    def dispose(self) -> None:
        self._states.clear()
