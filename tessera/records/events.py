"""Webhook events of record changes, written to the outbox in the change's own transaction.

Events belong to the data, not to the surface: an asset reassigned through the session API emits
the same ``assets.assignment.changed`` as one reassigned through the Open Platform, because both
write paths call ``emit`` with the before and after state of the record.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection

from storage import outbox
from tessera.registry.capabilities import Capabilities


def emit(conn: Connection, registry: Capabilities, *, tenant_id: int, model: str, action: str, pid: str,
         before: dict[str, Any] | None, after: dict[str, Any], request_id: str | None) -> list[str]:
    """Append every event the registry publishes for this change; returns their event ids."""
    emitted = []
    for event in registry.events_for(model, action):
        if event.triggered_by(action, before, after):
            emitted.append(outbox.append(conn, tenant_id=tenant_id, event_type=event.type,
                                         payload=event.payload(pid, before, after), request_id=request_id))
    return emitted
