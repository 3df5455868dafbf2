"""What the Open Platform publishes, for administrators: scopes, webhook event types, event sources.

The registry (``capabilities.yaml``) is the source; a client such as the admin console offers
exactly these choices instead of a hard-coded copy that would drift from the registry.
"""

from __future__ import annotations

from typing import Any

from tessera.registry.capabilities import Capabilities
from tessera.registry.document import scope_description
from tessera.registry.operational import OPERATIONAL_EVENTS

ENVIRONMENTS = ("development", "staging", "production")


def catalog(registry: Capabilities) -> dict[str, Any]:
    return {
        "scopes": [{"scope": s, "description": scope_description(s, registry)} for s in sorted(registry.scopes)],
        "webhookEventTypes": [
            {"eventType": e.type, "description": e.description, "scope": e.resource.read_scope}
            for e in sorted(registry.webhook_events.values(), key=lambda e: e.type)
        ] + [{"eventType": t, "description": d, "scope": None} for t, d in sorted(OPERATIONAL_EVENTS.items())],
        "eventSources": [
            {"source": s.code, "description": s.description, "scope": s.scope, "eventTypes": sorted(s.types)}
            for s in sorted(registry.event_sources.values(), key=lambda s: s.code)
        ],
        "environments": list(ENVIRONMENTS),
    }
