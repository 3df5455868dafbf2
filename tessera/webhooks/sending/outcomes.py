"""The outcome rules of an attempt: what its result makes of the delivery.

A 2xx delivers. Anything else retries after the next delay of the retry schedule, with +-20%
jitter so failed receivers are not hit in lockstep, or after the receiver's ``Retry-After`` (on
429 and 503, capped by ``TESSERA_WEBHOOK_MAX_RETRY_AFTER_SECONDS``) when it asked for longer.
After the last retry, or at once on 410 Gone, the delivery is dead (the dead-letter queue) until
an owner replays it. What a result does to its endpoint is ``disabling``'s.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.utils import parsedate_to_datetime
from typing import Any

from storage import webhooks as store
from tessera.runtime import Runtime

GONE = 410
THROTTLED = (429, 503)  # statuses whose Retry-After is honoured


@dataclass(frozen=True)
class AttemptResult:
    http_status: int | None
    latency_ms: int
    error: str | None
    retry_after: float | None = None  # seconds the receiver asked us to wait (429/503)
    excerpt: str | None = None  # the start of the receiver's answer
    begun: bool = False  # its in-flight attempt row was written before sending: complete that row

    @property
    def ok(self) -> bool:
        return self.http_status is not None and 200 <= self.http_status < 300


def next_state(rt: Runtime, row: store.ClaimedDeliveryRow, result: AttemptResult) -> dict[str, Any]:
    """The delivery's next state: delivered; dead (410 Gone, or no retry left); or retrying after
    the schedule's next delay, or after the receiver's Retry-After when it asked for longer."""
    schedule = rt.settings.webhook_retry_schedule
    attempts = row.attempts + 1
    values: dict[str, Any] = {"attempts": attempts, "last_http_status": result.http_status}
    if result.ok:
        values.update(status="delivered", next_attempt_at=None)
    elif result.http_status != GONE and attempts <= len(schedule):
        delay = schedule[attempts - 1] * random.uniform(0.8, 1.2)  # jitter, not security
        if result.http_status in THROTTLED and result.retry_after is not None:
            delay = max(delay, min(result.retry_after, rt.settings.webhook_max_retry_after_seconds))
        values.update(status="retrying", next_attempt_at=rt.clock.now() + timedelta(seconds=delay))
    else:
        values.update(status="dead", next_attempt_at=None)
    return values


def retry_after_seconds(value: str | None, now: datetime) -> float | None:
    """``Retry-After`` as seconds from now: delta-seconds or an HTTP date (RFC 9110, 10.2.3)."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, (when - now).total_seconds())
