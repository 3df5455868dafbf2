"""The events API's reads of the outbox: one installation's events, in feed order.

Feed order is ``(feed_seq, id)``. ``feed_seq`` numbers the fan-out batch that dispatched the event
(``storage.webhooks.mark_dispatched`` takes it from ``outbox_feed`` under that row's lock, held
until the batch commits), so batches become visible in number order. Ids alone would not do: two
transactions take ids in one order and may commit in the other, and a reader that had passed the
larger id would never see the smaller one. An event is in the feed once it is fanned out, the
moment its webhooks are made.

Which events an installation sees is ``Visibility``: its tenant's, of the published types its
grant may read, and the operational events of its own application. Every read here is one
statement over ``ix_outbox_events_tenant_feed`` ``(tenant_id, feed_seq, id, event_type)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import ColumnElement, and_, false, or_, select, true, tuple_

from storage.engine import Executor, Query
from storage.tables import outbox_events, outbox_feed

# A position's id past every event of its batch: "after the whole batch".
BATCH_END = 2**62


class FeedPosition(NamedTuple):
    """A place in the feed: after the event ``(feed_seq, id)``; ``(0, 0)`` is the start."""

    feed_seq: int
    id: int


START = FeedPosition(0, 0)


@dataclass(frozen=True)
class Visibility:
    """The events one request may see: the installation's, narrowed by the request's filters."""

    tenant_id: int
    application_id: int
    published_types: tuple[str, ...]  # published types its grant reads (and the request asks for)
    operational_types: tuple[str, ...]  # operational types (of its own application) asked for
    kept_since: datetime  # the retention period's start: older events are gone
    since: datetime | None = None
    until: datetime | None = None


class FeedEventRow(NamedTuple):
    id: int
    event_id: str
    event_type: str
    payload: dict[str, Any]
    occurred_at: datetime
    feed_seq: int

    @property
    def position(self) -> FeedPosition:
        return FeedPosition(self.feed_seq, self.id)


class _PageRow(NamedTuple):
    """The page joined to the feed's head: one row with no event when the page is empty."""

    head: int
    id: int | None
    event_id: str | None
    event_type: str | None
    payload: dict[str, Any] | None
    occurred_at: datetime | None
    feed_seq: int | None


_EVENT = outbox_events.c
_COLUMNS = (_EVENT.id, _EVENT.event_id, _EVENT.event_type, _EVENT.payload, _EVENT.occurred_at, _EVENT.feed_seq)


def _kinds(v: Visibility) -> ColumnElement[bool]:
    kinds: list[ColumnElement[bool]] = []
    if v.published_types:
        kinds.append(_EVENT.event_type.in_(v.published_types))
    if v.operational_types:
        kinds.append(and_(_EVENT.event_type.in_(v.operational_types), _EVENT.application_id == v.application_id))
    return or_(*kinds) if kinds else false()


def _visible(v: Visibility, *, timed: bool = True) -> ColumnElement[bool]:
    """The installation's fanned-out events; with ``timed``, only those kept and in the window."""
    clauses = [_EVENT.tenant_id == v.tenant_id, _EVENT.feed_seq.is_not(None), _kinds(v)]
    if timed:
        clauses.append(_EVENT.occurred_at >= v.kept_since)
        if v.since is not None:
            clauses.append(_EVENT.occurred_at >= v.since)
        if v.until is not None:
            clauses.append(_EVENT.occurred_at < v.until)
    return and_(*clauses)


@dataclass(frozen=True)
class FeedPage:
    events: list[FeedEventRow]  # in feed order, at most ``limit + 1`` (one more says there is more)
    head: int  # the last batch committed when the page was read: every batch up to it was seen


async def page(conn: Executor, v: Visibility, after: FeedPosition, limit: int) -> FeedPage:
    """Up to ``limit`` visible events after ``after``, and the feed's head, in one statement.

    The head comes from the same snapshot as the events, so when fewer than ``limit`` events were
    found a reader may move past the head: no batch up to it has an event it was not shown. That
    keeps a poll cheap when the tenant has many events the installation may not see.
    """
    events = (select(*_COLUMNS)
              .where(_visible(v), tuple_(_EVENT.feed_seq, _EVENT.id) > tuple_(after.feed_seq, after.id))
              .order_by(_EVENT.feed_seq, _EVENT.id).limit(limit).subquery("page"))
    query = (select(outbox_feed.c.last.label("head"), *events.c)
             .select_from(outbox_feed.outerjoin(events, true())).where(outbox_feed.c.id == 1))
    rows = list(await conn.execute(Query(query, _PageRow)))
    found = sorted((FeedEventRow(r.id, r.event_id, r.event_type, r.payload, r.occurred_at, r.feed_seq)  # type: ignore[arg-type]
                    for r in rows if r.id is not None), key=lambda r: r.position)
    return FeedPage(found, rows[0].head if rows else 0)


async def event(conn: Executor, v: Visibility, event_id: str) -> FeedEventRow | None:
    """The visible, kept event ``event_id``, or None (unknown, another tenant's or application's,
    a type the grant does not read, not fanned out yet, or past retention)."""
    query = select(*_COLUMNS).where(_visible(v), _EVENT.event_id == event_id)
    return (await conn.execute(Query(query, FeedEventRow))).first()


async def position_of(conn: Executor, v: Visibility, event_id: str) -> FeedPosition | None:
    """Where the visible event ``event_id`` sits in the feed, whatever its age or the request's time
    window (a consumer resumes after the last event it processed); None when it is not visible."""
    query = select(*_COLUMNS).where(_visible(v, timed=False), _EVENT.event_id == event_id)
    row = (await conn.execute(Query(query, FeedEventRow))).first()
    return None if row is None else row.position


