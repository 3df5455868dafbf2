"""The events API's reads of the outbox: one installation's events, in feed order.

Feed order is ``(feed_seq, id)``. ``feed_seq`` numbers the fan-out batch that dispatched the event
(``storage.webhooks.mark_dispatched`` takes it from ``outbox_feed`` under that row's lock, held
until the batch commits), so batches become visible in number order. Ids alone would not do: two
transactions take ids in one order and may commit in the other, and a reader that had passed the
larger id would never see the smaller one. An event is in the feed once it is fanned out, the
moment its webhooks are made.

Which events an installation sees is ``Visibility``: its tenant's, of the published types its
grant may read, and the operational events of its own application. Every read here is one
statement over ``ix_outbox_events_tenant_feed`` ``(tenant_id, feed_seq, id, event_type)``, built
and compiled once (the per-call construct of a first version cost more than the rest of a poll).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

from sqlalchemy import BigInteger, Integer, Select, and_, bindparam, or_, select, true, tuple_

from storage.drivers.engine import Executor, Statement
from storage.schema.tables import outbox_events, outbox_feed
from storage.schema.types import UTCDateTime

# A position's id past every event of its batch: "after the whole batch".
BATCH_END = 2**62
# ``until`` when the request sets none: no event occurs this late.
NO_END = datetime(9999, 12, 31, tzinfo=UTC)


class FeedPosition(NamedTuple):
    """A place in the feed: after the event ``(feed_seq, id)``; ``(0, 0)`` is the start."""

    feed_seq: int
    id: int


START = FeedPosition(0, 0)


@dataclass(frozen=True)
class Visibility:
    """The events one request may see: the installation's, narrowed by the request's filters.

    ``types`` are the published types its grant reads and the operational types, as asked for; an
    operational event is visible to its own application only (``application_id``; a published
    event has none). ``since`` is the later of the retention period's start and the request's.
    """

    tenant_id: int
    application_id: int
    types: tuple[str, ...]
    since: datetime
    until: datetime = NO_END

    def params(self) -> dict[str, Any]:
        return {"tenant_id": self.tenant_id, "application_id": self.application_id, "types": list(self.types),
                "since": self.since, "until": self.until}


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
# The installation's fanned-out events: its tenant's, of the types it reads, operational ones only
# of its own application. Every value is a parameter, so each statement is built and compiled once.
_VISIBLE = and_(_EVENT.tenant_id == bindparam("tenant_id", type_=BigInteger()), _EVENT.feed_seq.is_not(None),
                _EVENT.event_type.in_(bindparam("types", expanding=True)),
                or_(_EVENT.application_id.is_(None),
                    _EVENT.application_id == bindparam("application_id", type_=BigInteger())))
_IN_WINDOW = and_(_EVENT.occurred_at >= bindparam("since", type_=UTCDateTime()),
                  _EVENT.occurred_at < bindparam("until", type_=UTCDateTime()))
_AFTER = tuple_(_EVENT.feed_seq, _EVENT.id) > tuple_(bindparam("after_seq", type_=BigInteger()),
                                                    bindparam("after_id", type_=BigInteger()))


def page_query() -> Select[Any]:
    """The statement of ``page`` (the benchmarks explain it): the page as a subquery, left-joined to the
    one row of ``outbox_feed``, so an empty page still returns the head."""
    events = (select(*_COLUMNS).where(_VISIBLE, _IN_WINDOW, _AFTER)
              .order_by(_EVENT.feed_seq, _EVENT.id).limit(bindparam("limit", type_=Integer())).subquery("page"))
    return (select(outbox_feed.c.last.label("head"), *events.c)
            .select_from(outbox_feed.outerjoin(events, true())).where(outbox_feed.c.id == 1))


_PAGE = Statement(page_query(), row=_PageRow)
_EVENT_BY_ID = Statement(select(*_COLUMNS).where(_VISIBLE, _IN_WINDOW, _EVENT.event_id == bindparam("event_id")),
                         row=FeedEventRow)
_POSITION_OF = Statement(select(*_COLUMNS).where(_VISIBLE, _EVENT.event_id == bindparam("event_id")),
                         row=FeedEventRow)


# Newest first, for people (the console): the same events, walked down the index.
_NEWEST = Statement(select(*_COLUMNS).where(
    _VISIBLE, _IN_WINDOW, tuple_(_EVENT.feed_seq, _EVENT.id) < tuple_(bindparam("before_seq", type_=BigInteger()),
                                                                    bindparam("before_id", type_=BigInteger())))
    .order_by(_EVENT.feed_seq.desc(), _EVENT.id.desc()).limit(bindparam("limit", type_=Integer())), row=FeedEventRow)


@dataclass(frozen=True)
class FeedPage:
    events: list[FeedEventRow]  # in feed order, at most ``limit`` (one more than asked says there is more)
    head: int  # the last batch committed when the page was read: every batch up to it was seen


async def page(conn: Executor, v: Visibility, after: FeedPosition, limit: int) -> FeedPage:
    """Up to ``limit`` visible events after ``after``, and the feed's head, in one statement.

    The head comes from the same snapshot as the events, so when fewer than ``limit`` events were
    found a reader may move past the head: no batch up to it has an event it was not shown. That
    keeps a poll cheap when the tenant has many events the installation may not see.
    """
    params = {**v.params(), "after_seq": after.feed_seq, "after_id": after.id, "limit": limit}
    rows = list(await conn.execute(_PAGE, params))
    found = sorted((FeedEventRow(r.id, r.event_id, r.event_type, r.payload, r.occurred_at, r.feed_seq)  # type: ignore[arg-type]
                    for r in rows if r.id is not None), key=lambda r: r.position)
    return FeedPage(found, rows[0].head if rows else 0)


async def event(conn: Executor, v: Visibility, event_id: str) -> FeedEventRow | None:
    """The visible, kept event ``event_id``, or None (unknown, another tenant's or application's,
    a type the grant does not read, not fanned out yet, or past retention)."""
    return (await conn.execute(_EVENT_BY_ID, {**v.params(), "event_id": event_id})).first()


async def position_of(conn: Executor, v: Visibility, event_id: str) -> FeedPosition | None:
    """Where the visible event ``event_id`` sits in the feed, whatever its age or the request's time
    window (a consumer resumes after the last event it processed); None when it is not visible."""
    row = (await conn.execute(_POSITION_OF, {**v.params(), "event_id": event_id})).first()
    return None if row is None else row.position


async def newest(conn: Executor, v: Visibility, before: FeedPosition | None, limit: int) -> list[FeedEventRow]:
    """Up to ``limit`` visible events before ``before`` (from the newest without it), newest first."""
    end = before or FeedPosition(BATCH_END, BATCH_END)
    params = {**v.params(), "before_seq": end.feed_seq, "before_id": end.id, "limit": limit}
    return list(await conn.execute(_NEWEST, params))
