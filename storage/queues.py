"""The two queue mechanics the workers share, for any table shaped like a work queue.

- ``undispatched``: rows not yet fanned out (``dispatched_at`` is null), oldest first; on
  PostgreSQL rows another worker is fanning out are skipped (``FOR UPDATE SKIP LOCKED``).
- ``lease_due``: rows whose ``status`` is pending or retrying and whose ``next_attempt_at`` has
  come, not leased or with a lapsed lease; they are leased to the caller until ``lease_until``,
  skipping rows another worker is claiming. A worker that dies leaves a lapsed lease, and the
  row is claimed again: nothing is lost, and two workers never hold the same row at once.

Webhook deliveries and automation runs both use them, so the concurrency rules live here once.
Both take an optional ``where``, a condition the caller's rows must also meet (one tenant's rows,
for a worker that serves a single tenant); without it they take every row, as before.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple, TypeVar

from sqlalchemy import ColumnElement, Table, and_, or_, select, update

from storage.drivers.engine import Executor, Query

DUE = ("pending", "retrying")

# The row class of the caller's table (``undispatched`` selects every column of it).
R = TypeVar("R", bound=tuple[Any, ...])


class _Id(NamedTuple):
    id: int


async def undispatched(conn: Executor, table: Table, row: type[R], limit: int,
                       where: ColumnElement[bool] | None = None) -> list[R]:
    """``row``: the table's row class, listing every column of ``table`` in order."""
    query = select(table).where(table.c.dispatched_at.is_(None)).order_by(table.c.id).limit(limit)
    if where is not None:
        query = query.where(where)
    if conn.dialect == "postgresql":
        query = query.with_for_update(skip_locked=True)
    return list(await conn.execute(Query(query, row)))


async def mark_dispatched(conn: Executor, table: Table, ids: list[int], now: datetime) -> None:
    if ids:
        await conn.execute(update(table).where(table.c.id.in_(ids)).values(dispatched_at=now))


async def lease_due(conn: Executor, table: Table, now: datetime, lease_until: datetime, limit: int,
                    where: ColumnElement[bool] | None = None) -> list[int]:
    """Ids of up to ``limit`` due rows (meeting ``where`` too, when given), now leased to the
    caller until ``lease_until``."""
    due = (
        select(table.c.id)
        .where(and_(table.c.status.in_(DUE), table.c.next_attempt_at <= now,
                    or_(table.c.locked_until.is_(None), table.c.locked_until < now)))
        .order_by(table.c.next_attempt_at, table.c.id)
        .limit(limit)
    )
    if where is not None:
        due = due.where(where)
    if conn.dialect == "postgresql":
        due = due.with_for_update(skip_locked=True)
    ids = [r.id for r in await conn.execute(Query(due, _Id))]
    if ids:
        await conn.execute(update(table).where(table.c.id.in_(ids)).values(locked_until=lease_until))
    return ids


async def release(conn: Executor, table: Table, ids: list[int], lease_until: datetime) -> None:
    """Hand leased rows back untried (only those the caller still holds)."""
    if ids:
        await conn.execute(update(table).where(and_(table.c.id.in_(ids), table.c.locked_until == lease_until))
                           .values(locked_until=None))
