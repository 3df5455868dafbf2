"""The declarative mapping from an inbound event to an action's inputs.

A string value ``"$.data.sku"`` (or ``$.occurredAt``, ``$.eventId``, ``$.source``, ``$.type``,
``$.schemaVersion``) is looked up in the event document; any other value is taken as it is. A path
the event does not have leaves the key out. No code is ever evaluated.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# The event document's own fields an action may name; the session document states the same paths.
from tessera.registry.session_document import EVENT_FIELDS

_MISSING = object()


def resolve(template: Any, event: Mapping[str, Any]) -> Any:
    """Replace ``$.path`` strings by values of the event document; other values stay as they are."""
    if isinstance(template, dict):
        return {k: v for k, v in ((k, resolve(v, event)) for k, v in template.items()) if v is not _MISSING}
    if isinstance(template, list):
        return [resolve(v, event) for v in template]
    if isinstance(template, str) and template.startswith("$."):
        return _lookup(template[2:], event)
    return template


def _lookup(path: str, event: Mapping[str, Any]) -> Any:
    """The value at a dotted ``path`` of the event document, or ``_MISSING`` where it has none (a
    step into something that is not an object counts as none)."""
    node: Any = event
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return _MISSING
        node = node[part]
    return node


def path_ok(path: str) -> bool:
    """A top-level event field, or a path into ``data``."""
    parts = path[2:].split(".")
    return (parts[0] in EVENT_FIELDS and len(parts) == 1) or (parts[0] == "data" and len(parts) >= 2)


def paths_in(template: Any) -> list[str]:
    """Every ``$.`` path a template uses."""
    if isinstance(template, dict):
        return [p for v in template.values() for p in paths_in(v)]
    if isinstance(template, list):
        return [p for v in template for p in paths_in(v)]
    return [template] if isinstance(template, str) and template.startswith("$.") else []
