"""Handlers of the generated operations: one function per published resource and command.

The generated document has concrete paths (``/api/open/v1/resources/assets``) and operationIds
(``listAssets``), so there is no ``{resource}`` parameter to dispatch on; ``operations`` builds a
small closure per operationId from the registry, and the app's resolver binds them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from werkzeug.http import parse_etags

from handlers.open import events
from handlers.open.base import caller, header, request_id, runtime
from tessera.inbound import events as inbound_events
from tessera.openplatform.commands import execute as op_commands
from tessera.openplatform.resources import reads as op_resources
from tessera.registry.capabilities import Capabilities, CommandCap, EventSourceCap, ResourceCap
from tessera.registry.names import execute_capability_id, list_resource_id, post_event_id
from tessera.web.context import current

Handler = Callable[..., Any]


# Every handler is ``async`` and awaits the async database (``storage``): PostgreSQL through
# psycopg's async pool, SQLite on the storage layer's own threads (``storage/drivers/sqlite.py``), so
# neither a read nor a write waiting on a lock ever blocks the event loop.


def _list(resource: ResourceCap) -> Handler:
    async def handler(limit: int | None = None, cursor: str | None = None) -> dict[str, Any]:
        return await op_resources.list_page(runtime(), caller(), resource.name, limit, cursor)

    return handler


def _read(resource: ResourceCap) -> Handler:
    async def handler(pid: str) -> tuple[dict[str, Any], int, dict[str, str]]:
        ahead = current().read_ahead
        record, tag = await op_resources.read(runtime(), caller(), resource.name, pid,
                                              ahead if isinstance(ahead, op_resources.ReadAhead) else None)
        return record, 200, {"ETag": tag}

    return handler


def _execute(command: CommandCap) -> Handler:
    async def handler(body: Any) -> tuple[dict[str, Any], int, dict[str, str]]:
        outcome = await op_commands.execute(
            runtime(), caller(), command.code, body, strong_etags(header("if-match")), header("idempotency-key"),
            request_id(),
        )
        extra = {"ETag": outcome.etag}
        if outcome.replay:
            extra["Idempotent-Replayed"] = "true"
        return outcome.body, 200, extra

    return handler


def strong_etags(if_match: str | None) -> frozenset[str] | None:
    """The strong entity tags an ``If-Match`` header names, quoted; ``None`` without the header.

    Weak tags and ``*`` are left out, so they never match (RFC 9110 section 13.1.1's strong
    comparison: there is no last-write-wins).
    """
    if not if_match:
        return None
    parsed = parse_etags(if_match)
    return frozenset() if parsed.star_tag else frozenset(f'"{tag}"' for tag in parsed.as_set())


def _post_event(source: EventSourceCap) -> Handler:
    async def handler(body: Any) -> tuple[dict[str, Any], int]:
        received = await inbound_events.receive(runtime(), caller(), source.code, body, header("idempotency-key"),
                                                request_id())
        return {"eventId": received.event_id, "duplicate": received.duplicate}, 202

    return handler


def operations(registry: Capabilities) -> dict[str, Handler]:
    """operationId -> handler, for every operation the generator derives from the registry."""
    found: dict[str, Handler] = {}
    for resource in registry.resources.values():
        found[list_resource_id(resource.plural_name)] = _list(resource)
    for operation_id, resource in registry.reads_by_operation.items():
        found[operation_id] = _read(resource)
    for command in registry.commands.values():
        found[execute_capability_id(command.code)] = _execute(command)
    for source in registry.event_sources.values():
        found[post_event_id(source.code)] = _post_event(source)
    found["listEvents"] = events.list_events
    found["getEvent"] = events.get_event
    return found
