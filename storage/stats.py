"""Hourly statistics for the console's plots: an endpoint's deliveries, an installation's calls.

Every query is grouped by the hour in SQL, so what comes back is at most one row per hour (and
per status or series) of the window, however many deliveries or calls it covers. Timestamps are
truncated to the hour by ``hour_of``, which compiles to ``date_trunc`` on PostgreSQL and to
``strftime`` on SQLite; both give back the naive UTC hour the columns store, read as aware UTC.

Percentiles are the one dialect difference that is not a spelling: PostgreSQL computes them in
SQL (``percentile_cont``); SQLite has no percentile aggregate, so its rows (one per first attempt
in the window) are read and interpolated here the same way ``percentile_cont`` does.
"""

from __future__ import annotations

import math
from collections import defaultdict
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.functions import FunctionElement

from storage.drivers.engine import Executor, Query
from storage.schema.tables import deliveries, delivery_attempts, open_api_calls
from storage.schema.types import UTCDateTime

PERCENTILES = (0.5, 0.95)


class _Attempts(NamedTuple):
    hour: datetime
    delivered: int
    failed: int


class _Dead(NamedTuple):
    hour: datetime
    dead: int


class _Percentiles(NamedTuple):
    """PostgreSQL's percentiles of an hour: ``p<i>`` is ``PERCENTILES[i]``."""

    hour: datetime
    p0: float
    p1: float


class _Latency(NamedTuple):
    hour: datetime
    latency_ms: int  # the query keeps only attempts that have one


class _Calls(NamedTuple):
    hour: datetime
    status: int
    calls: int


class hour_of(FunctionElement[datetime]):
    """The timestamp truncated to its hour (UTC), on either database."""

    type = UTCDateTime()
    name = "hour_of"
    inherit_cache = True


@compiles(hour_of, "postgresql")
def _hour_of_postgresql(element: hour_of, compiler: SQLCompiler, **kw: Any) -> str:
    return f"date_trunc('hour', {compiler.process(element.clauses, **kw)})"


@compiles(hour_of, "sqlite")
def _hour_of_sqlite(element: hour_of, compiler: SQLCompiler, **kw: Any) -> str:
    # The column holds "YYYY-MM-DD HH:MM:SS.ffffff"; the same text with the minutes and seconds
    # zeroed reads back as a datetime through the column type's own result processor.
    return f"strftime('%Y-%m-%d %H:00:00', {compiler.process(element.clauses, **kw)})"


# -- deliveries of one endpoint ---------------------------------------------------------------------

async def attempt_counts(conn: Executor, endpoint_id: int, start: datetime, end: datetime,
                         now: datetime) -> dict[datetime, tuple[int, int]]:
    """Per hour of [start, end): attempts answered 2xx (delivered) and the others (failed). An
    attempt in flight (``sending``, its delivery still leased at ``now``) counts once it ends; one
    whose worker stopped (no lease any more) counts as failed, as the delivery log lists it.

    A delivery with an attempt in the window was updated at or after that attempt, so filtering
    the endpoint's deliveries on ``updated_at`` first keeps the join to the window's deliveries.
    """
    a, d = delivery_attempts, deliveries
    hour = hour_of(a.c.attempted_at).label("hour")
    ok = and_(a.c.http_status >= 200, a.c.http_status < 300)
    rows = await conn.execute(Query(
        select(hour, func.sum(case((ok, 1), else_=0)).label("delivered"),
               func.sum(case((ok, 0), else_=1)).label("failed"))
        .select_from(a.join(d, d.c.id == a.c.delivery_id))
        .where(and_(d.c.endpoint_id == endpoint_id, d.c.updated_at >= start,
                    a.c.attempted_at >= start, a.c.attempted_at < end,
                    or_(a.c.outcome != "sending", d.c.locked_until.is_(None), d.c.locked_until <= now)))
        .group_by(hour_of(a.c.attempted_at)),
        _Attempts,
    ))
    return {r.hour: (int(r.delivered), int(r.failed)) for r in rows}


async def dead_counts(conn: Executor, endpoint_id: int, start: datetime, end: datetime) -> dict[datetime, int]:
    """Per hour of [start, end): deliveries that are dead, counted in the hour they died.

    A dead delivery is not changed again until it is replayed or recovered (then it is no longer
    dead), so its ``updated_at`` is when it died.
    """
    d = deliveries
    hour = hour_of(d.c.updated_at).label("hour")
    rows = await conn.execute(Query(
        select(hour, func.count().label("dead"))
        .where(and_(d.c.endpoint_id == endpoint_id, d.c.status == "dead",
                    d.c.updated_at >= start, d.c.updated_at < end))
        .group_by(hour_of(d.c.updated_at)),
        _Dead,
    ))
    return {r.hour: int(r.dead) for r in rows}


async def first_attempt_latencies(conn: Executor, endpoint_id: int, start: datetime,
                                  end: datetime) -> dict[datetime, tuple[float, float]]:
    """Per hour of [start, end): p50 and p95 of the latency (ms) of each delivery's first attempt
    made in that hour (attempts after a replay are not first attempts). Hours without one are absent."""
    a, d = delivery_attempts, deliveries
    first = (
        select(a.c.delivery_id, func.min(a.c.id).label("first_id"))
        .select_from(a.join(d, d.c.id == a.c.delivery_id))
        .where(and_(d.c.endpoint_id == endpoint_id, d.c.updated_at >= start))
        .group_by(a.c.delivery_id)
        .subquery()
    )
    hour = hour_of(a.c.attempted_at).label("hour")
    chosen = (a.join(first, first.c.first_id == a.c.id), and_(a.c.attempted_at >= start, a.c.attempted_at < end,
                                                            a.c.latency_ms.is_not(None)))
    if conn.dialect == "postgresql":
        rows = await conn.execute(Query(
            select(hour, *[func.percentile_cont(p).within_group(a.c.latency_ms).label(f"p{i}")
                           for i, p in enumerate(PERCENTILES)])
            .select_from(chosen[0]).where(chosen[1]).group_by(hour_of(a.c.attempted_at)),
            _Percentiles,
        ))
        return {r.hour: (float(r.p0), float(r.p1)) for r in rows}
    values: dict[datetime, list[int]] = defaultdict(list)
    for row in await conn.execute(Query(select(hour, a.c.latency_ms).select_from(chosen[0]).where(chosen[1]),
                                        _Latency)):
        values[row.hour].append(int(row.latency_ms))
    return {h: (percentile(v, PERCENTILES[0]), percentile(v, PERCENTILES[1])) for h, v in values.items()}


def percentile(values: list[int], p: float) -> float:
    """The continuous percentile as PostgreSQL's ``percentile_cont`` computes it (linear
    interpolation between the two nearest ranks)."""
    ordered = sorted(values)
    position = p * (len(ordered) - 1)
    low, high = math.floor(position), math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


# -- Open Platform calls of one installation ------------------------------------------------------

async def call_counts(conn: Executor, installation_id: int, start: datetime,
                      end: datetime) -> dict[datetime, dict[int, int]]:
    """Per hour of [start, end): the installation's audited calls per HTTP status (index
    ``ix_open_api_calls_installation_created``)."""
    c = open_api_calls
    hour = hour_of(c.c.created_at).label("hour")
    rows = await conn.execute(Query(
        select(hour, c.c.status, func.count().label("calls"))
        .where(and_(c.c.installation_id == installation_id, c.c.created_at >= start, c.c.created_at < end))
        .group_by(hour_of(c.c.created_at), c.c.status),
        _Calls,
    ))
    found: dict[datetime, dict[int, int]] = defaultdict(dict)
    for row in rows:
        found[row.hour][int(row.status)] = int(row.calls)
    return dict(found)
