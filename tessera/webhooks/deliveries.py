"""Deliveries of an endpoint as administrators see them, and replay of dead (or delivered) ones.

Members list deliveries with every attempt (time, HTTP status, latency, error); only owners replay.
A replay delivers again with the same delivery id and event id and a fresh retry budget.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from storage import webhooks as store
from tessera.access.actors import Actor
from tessera.core.clock import iso
from tessera.core.errors import Conflict, FieldError, NotFound, ValidationFailed
from tessera.core.i18n import N_
from tessera.core.timestamps import parse_timestamp
from tessera.lists.contract import page_of, parse_list_request
from tessera.openplatform.identity.access import OWNER, application_for, audit_change, require_role
from tessera.runtime import Runtime
from tessera.webhooks.endpoints import endpoint_for_member


def _attempt_dict(attempt: store.AttemptRow, delivery: store.ListedDeliveryRow, now: datetime) -> dict[str, Any]:
    """An attempt as listed. One still ``sending`` whose delivery is no longer leased lost its worker
    before the outcome was recorded (claiming the delivery again stores that): ``unknown``."""
    outcome, error = attempt.outcome, attempt.error
    if outcome == store.SENDING and (delivery.locked_until is None or delivery.locked_until <= now):
        outcome, error = store.UNKNOWN, store.WORKER_STOPPED
    return {"attemptedAt": iso(attempt.attempted_at), "outcome": outcome, "httpStatus": attempt.http_status,
            "latencyMs": attempt.latency_ms, "error": error, "worker": attempt.worker,
            "responseExcerpt": attempt.response_excerpt, "requestId": delivery.request_id}


def _delivery_dict(row: store.ListedDeliveryRow, endpoint_pid: str, attempts: list[store.AttemptRow],
                   now: datetime) -> dict[str, Any]:
    return {
        "deliveryId": row.pid, "endpointId": endpoint_pid, "eventId": row.event_pid, "eventType": row.event_type,
        "requestId": row.request_id, "status": row.status, "attemptCount": row.attempts,
        "nextAttemptAt": iso(row.next_attempt_at) if row.next_attempt_at else None,
        "attempts": [_attempt_dict(a, row, now) for a in attempts],
        "created_at": iso(row.created_at), "updated_at": iso(row.updated_at),
    }


async def list_deliveries(rt: Runtime, actor: Actor, endpoint_pid: str, params: Mapping[str, Any]) -> dict[str, Any]:
    request = parse_list_request(params, store.DELIVERY_FIELDS)
    request_id = params.get("requestId")  # the deliveries (and their attempts) of one call
    async with rt.db.read() as conn:
        endpoint, _, _ = await endpoint_for_member(conn, actor, endpoint_pid)
        rows, total = await store.deliveries_page(conn, endpoint.id, request,
                                                  request_id if isinstance(request_id, str) else None)
        attempts = await store.attempts_of(conn, [r.id for r in rows])
    now = rt.clock.now()
    return page_of([_delivery_dict(r, endpoint_pid, attempts[r.id], now) for r in rows], total, request)


async def replay(rt: Runtime, actor: Actor, delivery_pid: str, request_id: str | None) -> dict[str, Any]:
    """Deliver a dead (or delivered) delivery again with the same delivery and event ids."""
    now = rt.clock.now()
    async with rt.db.write() as conn:
        row = await store.delivery_by_pid(conn, delivery_pid)
        if row is None:
            raise NotFound()
        app, role = await application_for(conn, actor, row.application_pid)
        require_role(role, (OWNER,))
        if row.status not in ("dead", "delivered"):
            raise Conflict(N_("Only a dead or delivered delivery can be replayed."))
        if row.installation_status != "enabled":
            raise Conflict(N_("The installation is disabled."))
        await store.requeue(conn, row.id, now)
        await audit_change(conn, actor, request_id, "delivery.replay", application_id=app.id, target_type="delivery",
                           target_id=row.pid, tenant_id=row.tenant_id, before={"status": row.status},
                           after={"status": "pending"}, now=now)
    rt.work.notify()
    return {"deliveryId": delivery_pid, "status": "pending"}


RECOVER_LIMIT = 1000
BAD_SINCE = N_("Must be a date-time with a time zone, e.g. 2026-11-22T08:00:00Z.")


async def recover(rt: Runtime, actor: Actor, endpoint_pid: str, since: Any, request_id: str | None) -> dict[str, Any]:
    """Queue again the endpoint's dead and retrying deliveries created since ``since`` (at most
    ``RECOVER_LIMIT`` per call, oldest first), each as a replay would."""
    when = parse_timestamp(since) if isinstance(since, str) else None
    if when is None:
        raise ValidationFailed({"since": FieldError(BAD_SINCE)})
    now = rt.clock.now()
    async with rt.db.write() as conn:
        endpoint, app, role = await endpoint_for_member(conn, actor, endpoint_pid)
        require_role(role, (OWNER,))
        recovered, more = await store.recover_since(conn, endpoint.id, when, RECOVER_LIMIT, now)
        await audit_change(conn, actor, request_id, "delivery.recover", application_id=app.id,
                           target_type="webhook_endpoint", target_id=endpoint.pid, tenant_id=endpoint.tenant_id,
                           after={"since": iso(when), "recovered": recovered}, now=now)
    if recovered:
        rt.work.notify()
    return {"recovered": recovered, "more": more}
