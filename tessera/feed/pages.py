"""The events API: an installation's own events, exactly as its webhooks carry them, to catch up from.

An installation sees the events of its tenant that its webhook endpoints could receive: the
published webhook events whose resource its grant may read, and the operational events of its own
application (``tessera/registry/operational.py``). Each is served with the body a delivery sends
(``tessera.feed.bodies``: same id, type, time and data) for as long as events are kept
(``TESSERA_RETENTION_EVENTS_SECONDS``, 30 days by default).

The list is oldest first, in the order the events were fanned out (``storage/openplatform/event_feed.py``), so a
consumer walks it forward: ``nextCursor`` is always given, and a page with ``hasMore: false`` is the
end for now; the same cursor asks again later. A consumer that was down longer than a cursor lives
resumes with ``after=<the last event id it processed>``. Filters (``type``, ``since``, ``until``)
narrow what is listed; a cursor continues the walk of the filters it was issued for.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from storage.openplatform import event_feed
from storage.openplatform.event_feed import BATCH_END, NO_END, START, FeedEventRow, FeedPosition, Visibility
from tessera.access.actors import Actor
from tessera.core.errors import EventNotFound, FieldError, InvalidRequest, NotFound, ValidationFailed
from tessera.core.i18n import N_
from tessera.core.timestamps import parse_utc_timestamp
from tessera.feed.bodies import event_body
from tessera.openplatform.identity.installations import installation_for_member
from tessera.openplatform.resources import cursors
from tessera.openplatform.tokens.bearer import Caller
from tessera.registry.operational import OPERATIONAL_EVENTS
from tessera.runtime import Runtime

DEFAULT_LIMIT = 50
MAX_LIMIT = 200
RANGE = N_("Must be between {low} and {high}.")
BAD_TIME = N_("Must be an ISO 8601 UTC timestamp, e.g. 2026-11-22T08:00:00Z.")
LIST_OPERATION = "listEvents"
READ_OPERATION = "getEvent"


def readable_types(rt: Runtime, scopes: Sequence[str]) -> tuple[str, ...]:
    """The published types a grant of ``scopes`` reads, then the operational types (always readable:
    storage shows each one only to the application it concerns)."""
    published = tuple(t for t, e in rt.capabilities.webhook_events.items() if e.resource.read_scope in scopes)
    return published + tuple(OPERATIONAL_EVENTS)


def _kept_since(rt: Runtime) -> datetime:
    seconds = rt.settings.retention_events_seconds
    return datetime.min.replace(tzinfo=UTC) if seconds <= 0 else rt.clock.now() - timedelta(seconds=seconds)


def visibility(rt: Runtime, caller: Caller, types: list[str] | None = None, since: datetime | None = None,
               until: datetime | None = None) -> Visibility:
    """What the caller may see, narrowed to ``types`` and to the window when given. A published type
    its grant does not read is 403 ``insufficient_scope`` naming the scope, as reading the resource
    would be."""
    readable = readable_types(rt, caller.scopes)
    if types:
        for wanted in types:
            event = rt.capabilities.webhook_events.get(wanted)
            if event is not None:
                caller.require(event.resource.read_scope)
        readable = tuple(t for t in readable if t in types)
    kept = _kept_since(rt)
    return Visibility(caller.tenant_id, caller.application_id, readable,
                      kept if since is None else max(kept, since), NO_END if until is None else until)


def _time(name: str, value: str | None, errors: dict[str, FieldError]) -> datetime | None:
    if value is None:
        return None
    parsed = parse_utc_timestamp(value)
    if parsed is None:
        errors[name] = FieldError(BAD_TIME)
    return parsed


def _present(row: FeedEventRow) -> dict[str, Any]:
    return event_body(row.event_id, row.event_type, row.occurred_at, row.payload)


async def list_events(rt: Runtime, caller: Caller, *, limit: int | None = None, cursor: str | None = None,
                      after: str | None = None, types: list[str] | None = None, since: str | None = None,
                      until: str | None = None) -> dict[str, Any]:
    """One page of the caller's events after the position of ``cursor`` and of ``after`` (the later
    of the two), oldest first: ``{items, nextCursor, hasMore}``.

    One statement without ``after`` (the events and the feed's head together), two with it."""
    size = DEFAULT_LIMIT if limit is None else limit
    errors: dict[str, FieldError] = {}
    if not 1 <= size <= MAX_LIMIT:
        errors["limit"] = FieldError(RANGE, low=1, high=MAX_LIMIT)
    window = (_time("since", since, errors), _time("until", until, errors))
    if errors:
        raise InvalidRequest(data={"fieldErrors": errors})
    v = visibility(rt, caller, types, *window)
    position = START if cursor is None else FeedPosition(*cursors.open_feed(rt.cursor_box, cursor,
                                                                            caller.installation_id))
    if after is not None:
        found = await event_feed.position_of(rt.db, visibility(rt, caller), after)
        if found is None:
            raise EventNotFound()
        position = max(position, found)
    page = await event_feed.page(rt.db, v, position, size + 1)
    more = len(page.events) > size
    events = page.events[:size]
    # Past the head when the page is the end: every batch up to it was read in the same snapshot.
    following = events[-1].position if more else max(position, FeedPosition(page.head, BATCH_END))
    rt.metrics.event_served(LIST_OPERATION, len(events))
    return {"items": [_present(row) for row in events],
            "nextCursor": cursors.issue_feed(rt.cursor_box, caller.installation_id, *following),
            "hasMore": more}


async def read_event(rt: Runtime, caller: Caller, event_id: str) -> dict[str, Any]:
    """The caller's event ``event_id``, as its webhooks carry it; 404 ``event_not_found`` otherwise."""
    row = await event_feed.event(rt.db, visibility(rt, caller), event_id)
    if row is None:
        raise EventNotFound()
    rt.metrics.event_served(READ_OPERATION)
    return _present(row)


CONSOLE_DEFAULT = 25
CONSOLE_MAX = 100


async def recent_events(rt: Runtime, actor: Actor, installation_pid: str, *, before: str | None = None,
                        limit: int | None = None) -> dict[str, Any]:
    """For the administration surface (the console): the installation's events as its events API
    serves them, newest first, ``limit`` at a time, older ones ``before`` an event id. Any member of
    the installation's application may read them (404 for the others, as for its endpoints)."""
    size = CONSOLE_DEFAULT if limit is None else limit
    if not 1 <= size <= CONSOLE_MAX:
        raise ValidationFailed({"limit": FieldError(RANGE, low=1, high=CONSOLE_MAX)})
    async with rt.db.read() as conn:
        inst, _, _ = await installation_for_member(conn, actor, installation_pid)
        v = Visibility(inst.tenant_id, inst.application_id, readable_types(rt, inst.scopes), _kept_since(rt))
        position = None
        if before is not None:
            position = await event_feed.position_of(conn, v, before)
            if position is None:
                raise NotFound()
        rows = await event_feed.newest(conn, v, position, size + 1)
    more = len(rows) > size
    rows = rows[:size]
    return {"installationId": inst.pid, "records": [_present(row) for row in rows],
            "nextBefore": rows[-1].event_id if more else None}
