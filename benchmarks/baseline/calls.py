"""The Open Platform's call audit: one ``open_api_calls`` row per business call, written in batches.

Why batches: Tessera queues each row in memory and one writer inserts whatever accumulated, in
one transaction, every 50 ms or as soon as 500 rows wait (``storage/openplatform/call_audit.py``); a
transaction per request would cost more than many calls themselves. The baseline keeps the same
rule with an asyncio task instead of a thread: it sleeps while nothing is queued, and a batch is
one statement (``unnest`` of arrays on PostgreSQL). A database outage keeps the rows for the next
pass, up to ``MAX_PENDING``, beyond which the oldest are dropped rather than the process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from typing import Any, Protocol

from baseline.rules import Caller, now

FLUSH_SECONDS = 0.05
BATCH = 500
MAX_PENDING = 100_000

log = logging.getLogger("baseline.calls")


class Sink(Protocol):
    """Where batches go: any store that writes call-audit rows."""

    async def record_calls(self, rows: list[tuple[Any, ...]]) -> None: ...


class CallAudit:
    """Queue of call-audit rows and the task that writes them."""

    def __init__(self, store: Sink) -> None:
        self.store = store
        self.pending: deque[tuple[Any, ...]] = deque()
        self.queued = asyncio.Event()  # rows are waiting
        self.full = asyncio.Event()  # a whole batch is waiting
        self.task: asyncio.Task[None] | None = None

    def record(self, caller: Caller | None, method: str, path: str, status: int, request_id: str) -> None:
        """Queue one row (``created_at`` now); never waits on the database."""
        if len(self.pending) >= MAX_PENDING:
            self.pending.popleft()
        row = caller.row if caller is not None else None
        self.pending.append((row.installation_id if row else None, row.tenant_id if row else None,
                             row.client_id if row else None, method[:10], path[:300], status, request_id, now()))
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run())
        self.queued.set()
        if len(self.pending) >= BATCH:
            self.full.set()

    async def _run(self) -> None:
        while True:
            await self.queued.wait()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.full.wait(), FLUSH_SECONDS)
            self.queued.clear()
            self.full.clear()
            await self.flush()

    async def flush(self) -> None:
        """Write every queued row now (at most ``BATCH`` per statement)."""
        while self.pending:
            rows = [self.pending.popleft() for _ in range(min(BATCH, len(self.pending)))]
            try:
                await self.store.record_calls(rows)
            except asyncio.CancelledError:  # stopping: the rows stay for close() to write
                self.pending.extendleft(reversed(rows))
                raise
            except Exception:
                self.pending.extendleft(reversed(rows))
                log.exception("call audit: %d rows not written, kept for the next pass", len(rows))
                return

    async def close(self) -> None:
        """Stop the task and write what is queued."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None
        await self.flush()
