"""Catch up from the Open Platform's events API: every event of the installation, oldest first.

``iter_events`` walks ``GET /api/open/v1/events`` page by page and yields each event, typed by its
``type`` (the same classes a webhook body parses into), until the feed has nothing more for now.
``poll_events`` does the same and then keeps asking, every ``interval`` seconds, with the cursor of
the last page: a poll that finds nothing costs the service one indexed read. The catch-up recipe
(store the id of each event once it is processed; after an outage, start again ``after`` it; an
event may also have reached you by webhook, so deduplicate on its id)::

    from tessera_open_platform.auth import TokenSource
    from tessera_open_platform.events import iter_events

    tokens = TokenSource(BASE, client_id=CLIENT_ID, client_secret=CLIENT_SECRET)
    with tokens.client() as op:
        for event in iter_events(op, after=last_processed):   # None: from the oldest event kept
            if event.id not in seen:
                handle(event)
            last_processed = event.id                         # persist it with what handle() wrote

Events are kept for the service's events retention period (30 days by default): ``after`` an event
older than that answers 404 ``event_not_found``, raised as ``EventsError``; start again with
``since``. The TypeScript SDK's ``iterEvents`` follows the same rules.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

from tessera_open_platform.api.events import list_events
from tessera_open_platform.client import AuthenticatedClient
from tessera_open_platform.models.error import Error
from tessera_open_platform.models.event_page import EventPage
from tessera_open_platform.models.list_events_type_item import ListEventsTypeItem
from tessera_open_platform.types import UNSET, Unset

__all__ = ["EventsError", "iter_events", "poll_events"]

PAGE_SIZE = 200  # the most the service gives per page


class EventsError(Exception):
    """The events API refused a page: ``status``, the service's stable ``code`` (``event_not_found``,
    ``invalid_cursor``, ``insufficient_scope``...; branch on it) and the ``request_id`` to quote."""

    def __init__(self, status: int, parsed: Any) -> None:
        self.status = status
        self.code: str = parsed.code if isinstance(parsed, Error) else f"http_{status}"
        self.request_id: str | None = parsed.request_id if isinstance(parsed, Error) else None
        message = parsed.message if isinstance(parsed, Error) else f"HTTP {status}"
        super().__init__(f"{self.code}: {message}")


def _utc(value: datetime | None) -> datetime | Unset:
    """The service takes UTC instants: an aware time is converted, a naive one is taken as UTC."""
    if value is None:
        return UNSET
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _pages(client: AuthenticatedClient, *, after: str | None, types: Sequence[str] | None,
           since: datetime | None, until: datetime | None,
           cursor: str | None = None) -> Iterator[EventPage]:
    """Pages until one says ``hasMore: false`` (that one included)."""
    wanted = UNSET if not types else [ListEventsTypeItem(t) for t in types]
    start: str | Unset = UNSET if after is None else after
    while True:
        response = list_events.sync_detailed(
            client=client, type_=wanted, since=_utc(since), until=_utc(until), after=start,
            cursor=UNSET if cursor is None else cursor, limit=PAGE_SIZE)
        page = response.parsed
        if response.status_code != 200 or not isinstance(page, EventPage):
            raise EventsError(int(response.status_code), page)
        yield page
        cursor, start = page.next_cursor, UNSET
        if not page.has_more:
            return


def iter_events(client: AuthenticatedClient, *, after: str | None = None, types: Sequence[str] | None = None,
                since: datetime | None = None, until: datetime | None = None) -> Iterator[Any]:
    """Every event of the installation after the event ``after`` (from the oldest kept without it),
    of ``types`` (every readable type without them), oldest first, until there are no more for now."""
    for page in _pages(client, after=after, types=types, since=since, until=until):
        yield from page.items


def poll_events(client: AuthenticatedClient, *, after: str | None = None, types: Sequence[str] | None = None,
                interval: float = 1.0, sleep: Callable[[float], None] = time.sleep) -> Iterator[Any]:
    """``iter_events``, then forever: each time the feed is exhausted, wait ``interval`` seconds and
    ask again with the last cursor (after the first page, ``after`` is not sent again)."""
    cursor: str | None = None
    while True:
        for page in _pages(client, after=after if cursor is None else None, types=types, since=None, until=None,
                           cursor=cursor):
            yield from page.items
            cursor = page.next_cursor
        sleep(interval)
