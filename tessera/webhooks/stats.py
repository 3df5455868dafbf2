"""Hourly statistics behind the console's plots: an endpoint's deliveries and an installation's
Open Platform calls, over the last 24 hours or 7 days.

Any member of the application reads them; non-members get 404, as for the endpoint or the
installation itself. A window is whole hours of UTC ending with the current one: 24 or 168
buckets, oldest first, every hour present (zero when nothing happened).

An endpoint's hour counts

* ``delivered``: attempts made in that hour that the receiver answered 2xx;
* ``failed``: the other attempts made in that hour (any other status, or no answer);
* ``dead``: deliveries that died in that hour and are still dead (a replay or a recovery takes
  them out again);
* ``p50LatencyMs`` and ``p95LatencyMs``: percentiles of the receiver's latency on the **first
  attempt** of each delivery first attempted in that hour (a retry's or a replay's latency is not
  a first attempt's), rounded to whole milliseconds; null when there was none.

An installation's hour counts its audited calls (``open_api_calls``) per HTTP status and per
status class.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from storage import stats as store
from tessera.access.actors import Actor
from tessera.core.clock import iso
from tessera.core.errors import FieldError, ValidationFailed
from tessera.core.i18n import N_
from tessera.openplatform.identity.installations import installation_for_member
from tessera.runtime import Runtime
from tessera.webhooks.endpoints import endpoint_for_member

WINDOWS = {"24h": 24, "7d": 7 * 24}
HOUR = timedelta(hours=1)
STATUS_CLASSES = (2, 3, 4, 5)


def window_hours(now: datetime, window: Any) -> list[datetime]:
    """The window's hours, oldest first, ending with the hour of ``now``; 400 for an unknown window."""
    if window not in WINDOWS:
        raise ValidationFailed({"window": FieldError(N_("Must be one of: {values}."), values=", ".join(WINDOWS))})
    current = now.replace(minute=0, second=0, microsecond=0)
    count = WINDOWS[window]
    return [current - HOUR * (count - 1 - i) for i in range(count)]


def _ms(value: float | None) -> int | None:
    """Whole milliseconds, halves rounded up (the same on both databases)."""
    return None if value is None else math.floor(value + 0.5)


async def endpoint_stats(rt: Runtime, actor: Actor, endpoint_pid: str, window: Any) -> dict[str, Any]:
    hours = window_hours(rt.clock.now(), window)
    start, end = hours[0], hours[-1] + HOUR
    async with rt.db.read() as conn:
        endpoint, _, _ = await endpoint_for_member(conn, actor, endpoint_pid)
        attempts = await store.attempt_counts(conn, endpoint.id, start, end, rt.clock.now())
        dead = await store.dead_counts(conn, endpoint.id, start, end)
        latencies = await store.first_attempt_latencies(conn, endpoint.id, start, end)
    buckets = []
    for hour in hours:
        delivered, failed = attempts.get(hour, (0, 0))
        p50, p95 = latencies.get(hour, (None, None))
        buckets.append({"hour": iso(hour), "delivered": delivered, "failed": failed, "dead": dead.get(hour, 0),
                        "p50LatencyMs": _ms(p50), "p95LatencyMs": _ms(p95)})
    return {"endpointId": endpoint_pid, "window": window, "from": iso(start), "to": iso(end), "buckets": buckets}


async def call_stats(rt: Runtime, actor: Actor, installation_pid: str, window: Any) -> dict[str, Any]:
    hours = window_hours(rt.clock.now(), window)
    start, end = hours[0], hours[-1] + HOUR
    async with rt.db.read() as conn:
        inst, _, _ = await installation_for_member(conn, actor, installation_pid)
        counts = await store.call_counts(conn, inst.id, start, end)
    buckets = []
    for hour in hours:
        statuses = counts.get(hour, {})
        bucket: dict[str, Any] = {"hour": iso(hour), "total": sum(statuses.values())}
        for cls in STATUS_CLASSES:
            bucket[f"status{cls}xx"] = sum(n for status, n in statuses.items() if status // 100 == cls)
        bucket["statuses"] = {str(status): n for status, n in sorted(statuses.items())}
        buckets.append(bucket)
    return {"installationId": installation_pid, "window": window, "from": iso(start), "to": iso(end),
            "buckets": buckets}
