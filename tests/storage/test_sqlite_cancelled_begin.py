"""A write cancelled while SQLite's BEGIN waits for the lock leaves no transaction behind.

BEGIN IMMEDIATE runs on one of the database's threads and may wait there (the busy timeout) for
another connection's write lock. Cancelling the task that awaits it (a shutdown cancelling the
call-audit flusher) cannot stop that thread: when the lock frees, BEGIN succeeds on a connection
nobody will COMMIT or ROLLBACK. Before the fix that connection held the write lock until it was
collected, and every later writer waited out its busy timeout (a 60 s test teardown in CI).
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

from storage.drivers.sqlite import SqliteDatabase


class _Observed(SqliteDatabase):
    """Says when a BEGIN has reached its thread, so the test cancels it there and not before."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.begun = threading.Event()

    def _begin(self, begin: str) -> sqlite3.Connection:
        self.begun.set()
        return super()._begin(begin)


def _locked_for(path: Path, seconds: float) -> bool:
    """Whether another writer is refused SQLite's write lock for ``seconds``."""
    other = sqlite3.connect(path, timeout=seconds, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
        return False
    except sqlite3.OperationalError:
        return True
    finally:
        other.close()


def test_a_write_cancelled_while_begin_waits_for_the_lock_leaves_the_lock_free(tmp_path: Path) -> None:
    path = tmp_path / "cancel.db"
    sqlite3.connect(path).executescript("PRAGMA journal_mode=WAL; CREATE TABLE t (x INTEGER)")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer holds the lock: the service's BEGIN waits

    async def scenario() -> None:
        db = _Observed(f"sqlite:///{path}")

        async def write() -> None:
            async with db.write():
                pass

        task = asyncio.get_running_loop().create_task(write())
        while not db.begun.is_set():
            await asyncio.sleep(0.005)
        await asyncio.sleep(0.05)  # the thread is inside BEGIN IMMEDIATE, waiting for the lock
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        holder.execute("ROLLBACK")  # the lock frees: the waiting BEGIN now succeeds in its thread
        await asyncio.sleep(0.3)
        try:
            assert not _locked_for(path, 2.0), "a cancelled write kept SQLite's write lock"
        finally:
            await db.close()

    try:
        asyncio.run(scenario())
    finally:
        holder.close()
