"""Idle connections kept at hand in front of psycopg's pool, one hand per event loop.

Why: taking a connection from ``psycopg_pool`` and giving it back (its lock, counters, checks and
two log calls) cost about 30 µs of CPU per statement, measured in process on the Open Platform's
whoami (one statement): more than any layer of the request path, and a third of what the statement
itself costs in psycopg. A statement that finds a connection at hand takes it from a list.

The pool stays the owner of every connection, so its rules still hold:

- only connections the pool gave out are held, so the pool's ``max_size`` bounds the hand;
- a connection goes back to the pool, not to the hand, when it is not idle (a transaction left open,
  a pipeline, a broken or closed connection: the pool discards or resets it), when a request of
  the loop is waiting in the pool (it is served at once, never starved by the hand), when it
  belongs to a pool that was replaced (recovery after an outage), or when it has been out of the
  pool for ``HAND_SECONDS`` (the pool's ``max_lifetime`` and its closing of idle connections then
  apply as before);
- every release also gives back the oldest held connection once it is past that time, so a hand
  that grew in a burst shrinks when the load falls.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import pq
from psycopg_pool import AsyncConnectionPool

# How long a connection may stay out of its pool before the pool sees it again.
HAND_SECONDS = 30.0


@dataclass(eq=False, slots=True)
class Held:
    """A connection the pool gave out: the pool it goes back to, and until when it may stay out."""

    conn: psycopg.AsyncConnection[Any]
    pool: AsyncConnectionPool
    until: float  # time.monotonic()
    # The cursor the one-statement path reuses: a new cursor is a new psycopg Transformer, whose
    # dumper and loader lookups are then made again (a reused one cost 17 µs less CPU per statement,
    # 70 against 87, measured in a loop of one 18-column SELECT under uvloop).
    cursor: psycopg.AsyncCursor[Any] | None = None


def _idle(conn: psycopg.AsyncConnection[Any]) -> bool:
    pgconn = conn.pgconn
    return (pgconn.status == pq.ConnStatus.OK and pgconn.transaction_status == pq.TransactionStatus.IDLE
            and pgconn.pipeline_status == pq.PipelineStatus.OFF)


class Hand:
    """The held connections of one loop (last in, first out: the warmest one is used next)."""

    __slots__ = ("_held", "waiting")

    def __init__(self) -> None:
        self._held: list[Held] = []
        self.waiting = 0  # requests of this loop inside the pool's ``getconn``

    def __len__(self) -> int:
        return len(self._held)

    def take(self) -> Held | None:
        return self._held.pop() if self._held else None

    def keep(self, held: Held, pool: AsyncConnectionPool | None, now: float) -> list[Held]:
        """Keep ``held`` at hand if it may stay; what must go back to its pool instead."""
        back: list[Held] = []
        if self.waiting or held.pool is not pool or now >= held.until or not _idle(held.conn):
            back.append(held)
        else:
            self._held.append(held)
        if self._held and self._held[0].until <= now:
            back.append(self._held.pop(0))
        return back

    def drain(self) -> list[Held]:
        """Every held connection, the hand left empty (a replaced or closed pool)."""
        held, self._held = self._held, []
        return held
