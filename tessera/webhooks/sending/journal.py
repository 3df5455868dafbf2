"""The attempt journal: every request a worker sends has its attempt row committed first.

The row is written with outcome ``sending`` and its start time before the request goes out, and
completed with status, latency and outcome (``succeeded`` or ``failed``) in the batch's closing
transaction (``batch``). A worker killed between the two leaves the row: when the delivery's lease
lapses it reads ``unknown`` ("worker stopped..."), and claiming the delivery again stores that, so
the delivery log lists every request a receiver may have got; the delivery is sent again under the
same delivery id.

The cost: the rows of the requests that start together go in one write (group commit: one write at
a time per batch, the requests that start while it runs join the next), so a batch makes one more
transaction per group, at least one and at most one per request; on PostgreSQL each is one round
trip (BEGIN to COMMIT pipelined). A 32-wide batch to a fast receiver makes a few. Each request waits
for its row's commit. Completing the row is an UPDATE in the closing transaction instead of the
INSERT it replaced, and marking a lapsed worker's rows ``unknown`` rides the claim's transaction:
neither adds a round trip.
"""

from __future__ import annotations

import asyncio

from storage import webhooks as store
from tessera.runtime import Runtime


class Journal:
    """Writes in-flight attempt rows before their requests go out, grouped: one write at a time, and
    the requests that begin while it runs go together in the next (group commit)."""

    def __init__(self, rt: Runtime, worker: str) -> None:
        self.rt = rt
        self.worker = worker
        self._waiting: list[tuple[int, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def begin(self, delivery_id: int) -> None:
        """Return once the delivery's ``sending`` attempt is committed; raise if it cannot be."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        future.add_done_callback(lambda f: f.cancelled() or f.exception())  # retrieved even if nobody waits
        self._waiting.append((delivery_id, future))
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write())
        await asyncio.shield(future)  # an attempt cut by its deadline does not cut the others' write

    async def _write(self) -> None:
        while self._waiting:
            group, self._waiting = self._waiting, []
            try:
                async with self.rt.db.write() as conn:
                    await store.begin_attempts(conn, [delivery_id for delivery_id, _ in group], self.rt.clock.now(),
                                               self.worker)
            except Exception as exc:  # each request of the group gives up: nothing is sent unrecorded
                for _, future in group:
                    future.set_exception(exc)
            else:
                for _, future in group:
                    future.set_result(None)
