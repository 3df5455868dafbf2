"""The Open Platform's call audit, written in batches by one background thread.

Every business call leaves a row (who, what, outcome, request id). Writing it inline cost each
request a worker-thread hop and a transaction of its own, more CPU than many calls themselves.
Requests now only append to an in-memory queue; a single writer thread inserts whatever has
accumulated, in one transaction, every ``FLUSH_SECONDS`` or as soon as ``BATCH`` rows wait.

The trade: a row reaches the table up to ``FLUSH_SECONDS`` after its response, and a process
killed without a clean shutdown loses at most that window of rows (``close`` flushes the rest).
Business changes are not affected: their own audit entries commit with the change.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from typing import Any

from sqlalchemy import Connection, insert

from storage.tables import open_api_calls
from storage.unit import Database
from tessera.core.clock import Clock

log = logging.getLogger("tessera.call_audit")

FLUSH_SECONDS = 0.05
BATCH = 500
# A database outage must not grow memory without bound: beyond this, the oldest rows are dropped
# (and counted in the log) rather than the process.
MAX_PENDING = 100_000


def record_calls(conn: Connection, rows: list[dict[str, Any]]) -> None:
    """Call-audit rows, each with its own ``created_at`` (one executemany)."""
    conn.execute(insert(open_api_calls), rows)


class CallAudit:
    """Queue of call-audit rows and the thread that writes them."""

    def __init__(self, db: Database, clock: Clock, flush_seconds: float = FLUSH_SECONDS) -> None:
        self._db = db
        self._clock = clock
        self._flush_seconds = flush_seconds
        self._pending: deque[dict[str, Any]] = deque()
        self._wake = threading.Event()
        self._stopping = False
        self._write_lock = threading.Lock()  # one writer at a time: the thread, or flush()
        self._dropped = 0
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()

    def record(self, **values: Any) -> None:
        """Queue one row (``created_at`` is taken now); never blocks on the database."""
        if len(self._pending) >= MAX_PENDING:
            self._pending.popleft()
            self._dropped += 1
        self._pending.append({"created_at": self._clock.now(), **values})
        self._ensure_thread()
        if len(self._pending) >= BATCH:
            self._wake.set()

    def flush(self) -> None:
        """Write every queued row now (tests, shutdown)."""
        with self._write_lock:
            while self._pending:
                rows = [self._pending.popleft() for _ in range(min(BATCH, len(self._pending)))]
                try:
                    with self._db.write() as conn:
                        record_calls(conn, rows)
                except Exception:
                    # Kept for the next pass (a locked SQLite file or a database restart is
                    # usually over by then), in their original order.
                    self._pending.extendleft(reversed(rows))
                    log.exception("call_audit.write_failed", extra={"rows": len(rows)})
                    return
            if self._dropped:
                log.error("call_audit.rows_dropped", extra={"rows": self._dropped})
                self._dropped = 0

    def close(self) -> None:
        """Stop the writer thread and write what is queued.

        Like the engine's ``dispose``, this is not final: a later ``record`` starts a new thread
        (tests build several apps over one runtime, and each app's shutdown closes it).
        """
        with self._start_lock:
            self._stopping = True
            self._wake.set()
            if self._thread is not None:
                self._thread.join(timeout=10)
            self.flush()
            self._thread = None
            self._stopping = False

    def _ensure_thread(self) -> None:
        if self._thread is None:
            with self._start_lock:
                if self._thread is None and not self._stopping:
                    self._thread = threading.Thread(target=self._run, name="tessera-call-audit", daemon=True)
                    self._thread.start()

    def _run(self) -> None:
        while not self._stopping:
            self._wake.wait(self._flush_seconds)
            self._wake.clear()
            self.flush()
