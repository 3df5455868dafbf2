"""Endpoint disabling: what a batch's results do to their endpoints.

A success ends an endpoint's failing streak and a failure starts one. A 410 Gone (Standard
Webhooks: the endpoint is gone), or a streak longer than ``TESSERA_WEBHOOK_DISABLE_AFTER_SECONDS``
(5 days by default), disables the endpoint until an owner re-enables it: audited like an owner's
change and announced to the application's endpoints (``webhook.endpoint.disabled``), in the batch's
closing transaction.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from storage import audit, outbox
from storage import webhooks as store
from storage.drivers.engine import Executor
from tessera.core.clock import iso
from tessera.registry.operational import ENDPOINT_DISABLED
from tessera.runtime import Runtime
from tessera.webhooks.sending.outcomes import GONE, AttemptResult

log = logging.getLogger("tessera.webhooks")


async def judge_endpoints(rt: Runtime, conn: Executor, rows: list[store.ClaimedDeliveryRow],
                          results: list[AttemptResult], now: datetime) -> None:
    """Per endpoint of the batch: a success ends its failing streak, a failure starts one; a 410
    Gone (Standard Webhooks: the endpoint is gone) or a streak longer than the setting (5 days by
    default) disables it, audited like an owner's change, until an owner re-enables it."""
    by_endpoint: dict[int, list[tuple[store.ClaimedDeliveryRow, AttemptResult]]] = {}
    for row, result in zip(rows, results, strict=True):
        by_endpoint.setdefault(row.endpoint_id, []).append((row, result))
    limit = timedelta(seconds=rt.settings.webhook_disable_after_seconds)
    for endpoint_id, pairs in by_endpoint.items():
        row = pairs[0][0]
        ok = any(result.ok for _, result in pairs)
        gone = any(result.http_status == GONE for _, result in pairs)
        await store.note_health(conn, endpoint_id, ok, now)
        if gone:
            await _disable(conn, row, "410 Gone", now)
        elif not ok and row.failing_since is not None and now - row.failing_since >= limit:
            await _disable(conn, row, f"failing since {iso(row.failing_since)}", now)


async def _disable(conn: Executor, row: store.ClaimedDeliveryRow, reason: str, now: datetime) -> None:
    """Disable the endpoint, audit it, and announce it to the application's other endpoints (the
    ``webhook.endpoint.disabled`` operational event) in the same transaction."""
    if await store.disable_endpoint(conn, row.endpoint_id, reason, now=now):
        await audit.append(conn, tenant_id=row.tenant_id, actor_user_id=None, actor="system:webhooks",
                           action="webhook_endpoint.disabled", target_type="webhook_endpoint",
                           target_id=row.endpoint_pid, after={"enabled": False, "reason": reason},
                           request_id=row.request_id, application_id=row.application_id, now=now)
        await outbox.append(conn, tenant_id=row.tenant_id, event_type=ENDPOINT_DISABLED, request_id=row.request_id,
                            payload={"endpointId": row.endpoint_pid, "installationId": row.installation_pid,
                                     "applicationId": row.application_pid, "url": row.url, "reason": reason,
                                     "disabledAt": iso(now)}, now=now, application_id=row.application_id)
        log.warning("webhook.endpoint_disabled", extra={"endpointId": row.endpoint_pid, "reason": reason})
