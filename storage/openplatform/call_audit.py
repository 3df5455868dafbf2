"""The Open Platform's call audit, written in batches by one task per event loop.

Every business call leaves a row (who, what, outcome, request id). Writing it inline would cost
each request a transaction of its own, more than many calls themselves. Requests only append to
an in-memory queue; a flusher task on the request's event loop inserts whatever has accumulated,
in one statement, every ``FLUSH_SECONDS`` or as soon as ``BATCH`` rows wait; a pass writes the rows
queued when it began, so under load a statement carries ``FLUSH_SECONDS`` of calls, not one.

The trade: a row reaches the table up to ``FLUSH_SECONDS`` after its response, and a process
killed without a clean shutdown loses at most that window of rows (``close`` flushes the rest).
Business changes are not affected: their own audit entries commit with the change.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections import deque
from datetime import UTC
from typing import Any

from sqlalchemy import BigInteger, DateTime, Integer, String, bindparam, cast, func, insert, select
from sqlalchemy.dialects.postgresql import ARRAY

from storage.drivers.engine import Database, Executor, Statement
from storage.schema.tables import open_api_calls
from tessera.core.clock import Clock

log = logging.getLogger("tessera.call_audit")

FLUSH_SECONDS = 0.05
BATCH = 500
# A database outage must not grow memory without bound: beyond this, the oldest rows are dropped
# (and counted in the log) rather than the process.
MAX_PENDING = 100_000


_COLUMNS = ("installation_id", "tenant_id", "client_id", "method", "path", "status", "request_id", "created_at")
_INSERT_ROW = insert(open_api_calls).values({c: bindparam(c) for c in _COLUMNS})
_INSERT = Statement(_INSERT_ROW)
# PostgreSQL: a batch is one statement over one array per column, whatever its size. (executemany
# in pipeline mode polls the socket once per row: about 35 us of the writer's CPU per call audited.)
# (Set-returning functions side by side in a select list run in step: row i of each array together.)
# Other dialects compile it as the one-row insert, and never run it.
_ARRAY_TYPES = (BigInteger, BigInteger, String, String, String, Integer, String, DateTime)
BATCH_STATEMENT = Statement(_INSERT_ROW, {"postgresql": insert(open_api_calls).from_select(list(_COLUMNS), select(*(
    func.unnest(cast(bindparam(column), ARRAY(kind))) for column, kind in zip(_COLUMNS, _ARRAY_TYPES, strict=True))))})


async def record_calls(conn: Executor, rows: list[dict[str, Any]]) -> None:
    """Call-audit rows, each with its own ``created_at`` (one batch: one round trip)."""
    if conn.dialect != "postgresql":
        await conn.execute_many(_INSERT, rows)
        return
    columns: dict[str, list[Any]] = {column: [row.get(column) for row in rows] for column in _COLUMNS}
    # The column holds naive UTC (``storage.schema.types.UTCDateTime``, which this text statement bypasses).
    columns["created_at"] = [moment.astimezone(UTC).replace(tzinfo=None) for moment in columns["created_at"]]
    await conn.execute(BATCH_STATEMENT, columns)

# How long flush() waits for a write already in flight before leaving its rows to that writer.
WAIT_FOR_WRITER_SECONDS = 10.0


class _Flusher:
    """The task that writes the queue on one event loop, and what wakes it."""

    def __init__(self, audit: CallAudit, flush_seconds: float) -> None:
        self.wake = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self._run(audit, flush_seconds), name="call-audit")

    async def _run(self, audit: CallAudit, flush_seconds: float) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), flush_seconds)
            self.wake.clear()
            await audit.flush()


class CallAudit:
    """Queue of call-audit rows and the tasks that write them."""

    def __init__(self, db: Database, clock: Clock, flush_seconds: float = FLUSH_SECONDS) -> None:
        self._db = db
        self._clock = clock
        self._flush_seconds = flush_seconds
        self._pending: deque[dict[str, Any]] = deque()
        self._dropped = 0
        self._flushers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Flusher] = weakref.WeakKeyDictionary()
        self._writing = False

    @property
    def pending(self) -> int:
        return len(self._pending)

    def record(self, **values: Any) -> None:
        """Queue one row (``created_at`` is taken now); never waits for the database."""
        if len(self._pending) >= MAX_PENDING:
            self._pending.popleft()
            self._dropped += 1
        self._pending.append({"created_at": self._clock.now(), **values})
        flusher = self._flusher()
        if flusher is not None and len(self._pending) >= BATCH:
            flusher.wake.set()

    def _flusher(self) -> _Flusher | None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a script): the rows wait for flush()
            return None
        flusher = self._flushers.get(loop)
        if flusher is None or flusher.task.done():
            flusher = self._flushers[loop] = _Flusher(self, self._flush_seconds)
        return flusher

    async def flush(self) -> None:
        """Write every queued row now (the flusher, tests, shutdown): when it returns, every row
        queued before the call is committed, or kept for the next pass if the write failed."""
        deadline = time.monotonic() + WAIT_FOR_WRITER_SECONDS
        while self._writing and time.monotonic() < deadline:
            # One writer at a time. Another one (the flusher) has rows in flight: wait for it to
            # commit them rather than return before they are written.
            await asyncio.sleep(0.005)
        if self._writing:
            return
        self._writing = True
        # Only the rows queued before this pass: rows queued while it writes wait for the next tick.
        # (Draining until the queue is empty kept the writer busy under load, one statement per
        # request or two: each write took long enough for the next request's row to arrive.)
        left = len(self._pending)
        try:
            while left > 0 and self._pending:
                rows = [self._pending.popleft() for _ in range(min(BATCH, left, len(self._pending)))]
                left -= len(rows)
                try:
                    await record_calls(self._db, rows)
                except BaseException as exc:
                    # Kept for the next pass (a locked SQLite file or a database restart is
                    # usually over by then), in their original order; also when the flusher is
                    # cancelled mid-write at shutdown, so close() writes them.
                    self._pending.extendleft(reversed(rows))
                    if not isinstance(exc, Exception):
                        raise
                    log.exception("call_audit.write_failed", extra={"rows": len(rows)})
                    return
            if self._dropped:
                log.error("call_audit.rows_dropped", extra={"rows": self._dropped})
                self._dropped = 0
        finally:
            self._writing = False

    async def close(self) -> None:
        """Stop this loop's flusher and write what is queued. Not final: a later ``record``
        starts a new flusher (tests build several apps over one runtime)."""
        flusher = self._flushers.pop(asyncio.get_running_loop(), None)
        if flusher is not None:
            flusher.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await flusher.task
        await self.flush()
