"""SQLite, the embedded default, through sqlite3 on a few threads of its own.

sqlite3 blocks, so every statement runs on this module's thread pool, never on the event loop.
A single statement runs in autocommit (no BEGIN); a write transaction starts with
``BEGIN IMMEDIATE`` so it takes the write lock up front instead of failing when a read upgrades.
Every writer of one process (a write transaction, or a single INSERT/UPDATE/DELETE in autocommit)
queues on an asyncio lock before it takes a thread: a writer waiting for SQLite's lock inside a
thread would hold that thread while the writer it waits for needs one to finish its next
statement or its COMMIT (all threads could end up waiting on the busy timeout). Writers of other
processes (a worker) wait on SQLite's busy timeout: they need none of this process's threads.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import sqlite3
import weakref
from collections.abc import AsyncIterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, overload

from sqlalchemy.engine import make_url
from sqlalchemy.sql import ClauseElement

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

log = logging.getLogger("tessera.database")

_IDLE_CONNECTIONS = 16
# How long readiness's write waits for SQLite's lock (writers of other processes), in milliseconds.
_PROBE_BUSY_MS = 2000


# The primary result codes of a file that cannot take the write now: SQLITE_FULL (the disk or the
# file system is full) and SQLITE_IOERR (the write failed, as it does on a full disk in WAL mode).
# A fault of the moment, as a PostgreSQL outage is: 503 with Retry-After, never a 500, and the
# transaction rolled back whole (``_end``, ``_checkin``).
_OUT_OF_SPACE = {13, 10}


def _unavailable(exc: sqlite3.OperationalError) -> DatabaseUnavailable | None:
    """``DatabaseUnavailable`` for an error of a file that cannot be written now, else None."""
    code = getattr(exc, "sqlite_errorcode", None)
    if (code is not None and code & 0xFF in _OUT_OF_SPACE) or "disk is full" in str(exc):
        log.warning("database.unwritable", extra={"error": str(exc)})
        return DatabaseUnavailable(f"SQLite cannot write: {exc}")
    return None


def _run(conn: sqlite3.Connection, compiled: Compiled[R], sql: str, values: Any) -> Result[R]:
    try:
        cursor = conn.execute(sql, values)
    except sqlite3.IntegrityError as exc:
        raise IntegrityError(sql, values, exc) from exc
    raw = cursor.fetchall() if cursor.description is not None else []
    return Result(compiled.rows(raw), cursor.rowcount)


class SqliteTransaction:
    """A transaction on one connection; each statement is one hop to the pool's threads."""

    dialect = "sqlite"

    def __init__(self, db: SqliteDatabase, conn: sqlite3.Connection) -> None:
        self._db = db
        self._conn = conn

    @overload
    async def execute(self, statement: Statement[R] | Query[R], params: Params = None) -> Result[R]: ...

    @overload
    async def execute(self, statement: ClauseElement, params: Params = None) -> Result[Row]: ...

    async def execute(self, statement: Statement[Any] | Query[Any] | ClauseElement,
                      params: Params = None) -> Result[Any]:
        compiled, extracted = compiled_for(statement, "sqlite")
        sql, values = compiled.bind(params, extracted)
        result: Result[Any] = await self._db.in_thread(_run, self._conn, compiled, sql, values)
        return result

    async def enqueue(self, statement: Statement[Any] | Query[Any] | ClauseElement, params: Params = None) -> None:
        await self.execute(statement, params)

    async def execute_many(self, statement: Statement[Any], rows: Sequence[Mapping[str, Any]]) -> None:
        compiled = statement.compiled("sqlite")
        bound = [compiled.bind(row)[1] for row in rows]
        await self._db.in_thread(self._conn.executemany, compiled.sql, bound)


class SqliteDatabase:
    """One SQLite file: a thread pool, and the connections its threads share."""

    dialect = "sqlite"

    def __init__(self, url: str, *, threads: int = 4) -> None:
        database = make_url(url).database or ":memory:"
        if database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        self._path = database
        self._threads = ThreadPoolExecutor(threads, thread_name_prefix="tessera-sqlite")
        self._idle: queue.SimpleQueue[sqlite3.Connection] = queue.SimpleQueue()
        self._owed: list[tuple[str, Any]] = []
        self._write_locks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
            weakref.WeakKeyDictionary()
        )

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self._path, timeout=30, isolation_level=None, check_same_thread=False)
        # WAL lets readers run beside the single writer; foreign keys are off by default.
        for pragma in ("journal_mode=WAL", "foreign_keys=ON", "busy_timeout=30000", "synchronous=NORMAL"):
            conn.execute(f"PRAGMA {pragma}")
        return conn

    def _checkout(self) -> sqlite3.Connection:
        try:
            return self._idle.get_nowait()
        except queue.Empty:
            return self._connect()

    def _checkin(self, conn: sqlite3.Connection) -> None:
        if conn.in_transaction:
            conn.rollback()
        if self._idle.qsize() < _IDLE_CONNECTIONS:
            self._idle.put(conn)
        else:
            conn.close()

    async def in_thread(self, fn: Any, *args: Any) -> Any:
        try:
            return await asyncio.get_running_loop().run_in_executor(self._threads, fn, *args)
        except sqlite3.OperationalError as exc:
            unavailable = _unavailable(exc)
            if unavailable is None:
                raise
            raise unavailable from exc

    def _single(self, compiled: Compiled[R], sql: str, values: Any) -> Result[R]:
        conn = self._checkout()
        try:
            return _run(conn, compiled, sql, values)
        finally:
            self._checkin(conn)

    @overload
    async def execute(self, statement: Statement[R] | Query[R], params: Params = None) -> Result[R]: ...

    @overload
    async def execute(self, statement: ClauseElement, params: Params = None) -> Result[Row]: ...

    async def execute(self, statement: Statement[Any] | Query[Any] | ClauseElement,
                      params: Params = None) -> Result[Any]:
        compiled, extracted = compiled_for(statement, "sqlite")
        sql, values = compiled.bind(params, extracted)
        if compiled.reads_only:
            result: Result[Any] = await self.in_thread(self._single, compiled, sql, values)
            return result
        async with self._write_lock():
            written: Result[Any] = await self.in_thread(self._single, compiled, sql, values)
            return written

    async def enqueue(self, statement: Statement[Any] | Query[Any] | ClauseElement, params: Params = None) -> None:
        await self.execute(statement, params)

    async def execute_many(self, statement: Statement[Any], rows: Sequence[Mapping[str, Any]]) -> None:
        async with self.write() as tx:
            await tx.execute_many(statement, rows)

    def _begin(self, begin: str) -> sqlite3.Connection:
        conn = self._checkout()
        try:
            conn.execute(begin)
        except BaseException:
            self._checkin(conn)
            raise
        return conn

    def _end(self, conn: sqlite3.Connection, commit: bool) -> None:
        try:
            if commit:
                try:
                    conn.execute("COMMIT")
                except sqlite3.IntegrityError as exc:
                    raise IntegrityError("COMMIT", None, exc) from exc
            else:
                conn.execute("ROLLBACK")
        finally:
            self._checkin(conn)

    def _end_when_begun(self, begun: asyncio.Future[sqlite3.Connection]) -> None:
        """Roll back a transaction whose BEGIN finished after its task was cancelled."""
        if not begun.cancelled() and begun.exception() is None:
            with contextlib.suppress(RuntimeError):  # the pool is shut down: the process is ending
                self._threads.submit(self._end, begun.result(), False)

    async def _begin_in_thread(self, begin: str) -> sqlite3.Connection:
        """The connection, in a transaction begun on a thread of the pool.

        BEGIN IMMEDIATE may wait in its thread for another connection's lock (the busy timeout),
        and cancelling the awaiting task cannot stop that thread: its BEGIN then succeeds on a
        connection no one will end, which keeps SQLite's write lock until it is collected while
        every other writer waits out its busy timeout. So a cancelled caller hands the connection
        to a rollback as soon as BEGIN returns."""
        begun = asyncio.get_running_loop().run_in_executor(self._threads, self._begin, begin)
        try:
            return await asyncio.shield(begun)
        except asyncio.CancelledError:
            begun.add_done_callback(self._end_when_begun)
            raise
        except sqlite3.OperationalError as exc:
            unavailable = _unavailable(exc)
            if unavailable is None:
                raise
            raise unavailable from exc

    @asynccontextmanager
    async def _transaction(self, begin: str) -> AsyncIterator[SqliteTransaction]:
        conn = await self._begin_in_thread(begin)
        try:
            yield SqliteTransaction(self, conn)
        except BaseException:
            await asyncio.shield(self.in_thread(self._end, conn, False))
            raise
        await asyncio.shield(self.in_thread(self._end, conn, True))

    @asynccontextmanager
    async def read(self) -> AsyncIterator[SqliteTransaction]:
        async with self._transaction("BEGIN") as tx:
            yield tx

    def _write_lock(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        lock = self._write_locks.get(loop)
        if lock is None:
            lock = self._write_locks[loop] = asyncio.Lock()
        return lock

    @asynccontextmanager
    async def write(self) -> AsyncIterator[SqliteTransaction]:
        async with self._write_lock(), self._transaction("BEGIN IMMEDIATE") as tx:
            yield tx
        if self._owed:  # the store takes writes again: pay what is owed to it
            await self._pay()

    async def ping(self) -> bool:
        try:
            await self.execute_sql("SELECT 1")
            return True
        except Exception:
            return False

    def _write_probe(self, sql: str) -> bool:
        conn = self._checkout()
        try:
            conn.execute(f"PRAGMA busy_timeout={_PROBE_BUSY_MS}")
            conn.execute("BEGIN IMMEDIATE")
            conn.execute(sql)
            conn.execute("COMMIT")
            return True
        except sqlite3.Error:
            return False
        finally:
            conn.execute("PRAGMA busy_timeout=30000")
            self._checkin(conn)  # rolls back what the probe left open

    async def can_write(self) -> bool:
        """``WRITE_PROBE`` in a transaction of its own, committed: a read-only file, a full disk or a
        lock held by another process (past a short wait) say no. The thread finishes on its own
        and gives its connection back even when the caller stops waiting."""
        sql = WRITE_PROBE.compiled("sqlite").sql
        async with self._write_lock():
            ok: bool = await self.in_thread(self._write_probe, sql)
        if ok and self._owed:
            await self._pay()
        return ok

    def owe(self, statement: Statement[Any] | Query[Any] | ClauseElement, params: Params = None) -> None:
        compiled, extracted = compiled_for(statement, "sqlite")
        if not bounded_owe(self._owed, compiled.bind(params, extracted)):
            log.warning("database.owed_write_dropped", extra={"owed": len(self._owed)})

    async def _pay(self) -> None:
        """Run the owed writes (after a write committed, or readiness's); those that fail stay owed."""
        while self._owed:
            sql, values = self._owed.pop(0)
            try:
                async with self._write_lock():
                    await self.in_thread(self._run_sql, sql, values)
            except (sqlite3.Error, DatabaseUnavailable):
                self._owed.append((sql, values))
                return

    def _run_sql(self, sql: str, values: Any) -> None:
        conn = self._checkout()
        try:
            conn.execute(sql, values)
        finally:
            self._checkin(conn)

    async def execute_sql(self, sql: str) -> None:
        def run() -> None:
            conn = self._checkout()
            try:
                conn.execute(sql)
            finally:
                self._checkin(conn)

        await self.in_thread(run)

    async def close(self) -> None:
        return None

    def dispose(self) -> None:
        while True:
            try:
                self._idle.get_nowait().close()
            except queue.Empty:
                break
