"""GET /api/open/v1/events and GET /api/open/v1/events/{eventId}: the installation's own events."""

from __future__ import annotations

from typing import Any

from handlers.open.base import caller, runtime
from tessera.feed import pages as feed


async def list_events(limit: int | None = None, cursor: str | None = None, after: str | None = None,
                      since: str | None = None, until: str | None = None, **query: Any) -> dict[str, Any]:
    """``type`` (repeatable) arrives in ``query``: a parameter named for a builtin."""
    return await feed.list_events(runtime(), caller(), limit=limit, cursor=cursor, after=after,
                                  types=query.get("type"), since=since, until=until)


async def get_event(eventId: str) -> dict[str, Any]:
    return await feed.read_event(runtime(), caller(), eventId)
