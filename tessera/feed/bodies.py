"""The one body of an event: what a webhook delivery sends and what the events API returns.

Both read it from here, so a consumer that catches up through the events API gets the same
document, field for field, as the delivery it missed, and can deduplicate on ``id``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from tessera.core.clock import iso

SCHEMA_VERSION = 1


def event_body(event_id: str, event_type: str, occurred_at: datetime, data: dict[str, Any]) -> dict[str, Any]:
    """``{id, type, schemaVersion, occurredAt, data}`` of one outbox event."""
    return {"id": event_id, "type": event_type, "schemaVersion": SCHEMA_VERSION, "occurredAt": iso(occurred_at),
            "data": data}
