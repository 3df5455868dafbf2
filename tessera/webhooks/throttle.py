"""Owners' throttles on an endpoint: a rate limit (deliveries per second) and an in-flight cap.

Both hold across every worker, because they are applied in the claim's transaction, with the
throttled endpoints' rows locked (PostgreSQL; SQLite has one writer anyway):

- **In flight**: a claim may take only as many of an endpoint's deliveries as its cap leaves after
  the live leases of other claims. The rest go back to the queue due ``now``, which puts them
  behind every delivery that was due before: a backlog behind a capped endpoint never starves the
  other endpoints of the batch.
- **Rate**: a GCRA-style schedule. ``paced_until`` is the endpoint's next free send slot; each
  delivery taken gets the next slot (one every ``1/rate`` s) and is sent at it, and only slots
  within ``HORIZON`` of now are taken, so a batch waits at most that long for a throttled
  endpoint and the other endpoints' next batch is not held up. The rest are due again at the
  next free slot, and the worker wakes for it (``Plan.wake_at``) instead of polling.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from storage import webhooks as store
from storage.drivers.engine import Executor

HORIZON = timedelta(milliseconds=100)


@dataclass
class Plan:
    """What a claim sends now (each delivery with the seconds to wait for its slot), and when the
    first delivery a rate limit held back is due."""

    send: list[tuple[store.ClaimedDeliveryRow, float]] = field(default_factory=list)
    wake_at: datetime | None = None


@dataclass
class _Budget:
    room: float  # deliveries the in-flight cap still allows in this claim
    rate: int | None
    slot: datetime  # the next free send slot
    held: list[int] = field(default_factory=list)  # deliveries the rate limit held back
    full: list[int] = field(default_factory=list)  # deliveries the in-flight cap held back

    def take(self, delivery_id: int, now: datetime) -> float | None:
        """The seconds a delivery waits for its send slot, taking the slot and a place under the
        cap; None when the cap is full or the next slot lies beyond ``HORIZON`` (the delivery is
        noted as held back, to be deferred by ``_settle``)."""
        if self.room < 1:
            self.full.append(delivery_id)
            return None
        if self.rate and self.slot > now + HORIZON:
            self.held.append(delivery_id)
            return None
        wait = max(0.0, (self.slot - now).total_seconds())
        self.room -= 1
        if self.rate:
            self.slot += timedelta(seconds=1 / self.rate)
        return wait


async def plan(conn: Executor, rows: list[store.ClaimedDeliveryRow], now: datetime, lease_until: datetime) -> Plan:
    """Apply the throttles of the claimed ``rows`` (in claim order) in the claim's transaction."""
    throttled = sorted({row.endpoint_id for row in rows if row.rate_limit or row.max_in_flight})
    if not throttled:
        return Plan(send=[(row, 0.0) for row in rows])
    budgets = await _budgets(conn, throttled, now, [row.id for row in rows])
    result = _allot(rows, budgets, now)
    for endpoint_id, budget in budgets.items():
        await _settle(conn, endpoint_id, budget, now, lease_until)
    return result


def _allot(rows: list[store.ClaimedDeliveryRow], budgets: dict[int, _Budget], now: datetime) -> Plan:
    """Each delivery in claim order takes its endpoint's next slot and place under the cap (an
    unthrottled endpoint's go at once); the worker wakes for the earliest slot that a delivery
    held back waits for."""
    result = Plan()
    for row in rows:
        budget = budgets.get(row.endpoint_id)
        wait = 0.0 if budget is None else budget.take(row.id, now)
        if wait is not None:
            result.send.append((row, wait))
    result.wake_at = min((budget.slot for budget in budgets.values() if budget.held), default=None)
    return result


async def _budgets(conn: Executor, endpoint_ids: list[int], now: datetime, claimed: list[int]) -> dict[int, _Budget]:
    current = await store.lock_throttles(conn, endpoint_ids)
    flying = await store.in_flight(conn, [i for i, row in current.items() if row.max_in_flight], now, claimed)
    budgets = {}
    for endpoint_id, row in current.items():
        room = float("inf") if not row.max_in_flight else row.max_in_flight - flying.get(endpoint_id, 0)
        slot = max(row.paced_until, now) if row.paced_until is not None else now
        budgets[endpoint_id] = _Budget(room=room, rate=row.rate_limit, slot=slot)
    return budgets


async def _settle(conn: Executor, endpoint_id: int, budget: _Budget, now: datetime, lease_until: datetime) -> None:
    """Record the endpoint's next free slot and hand back what its throttles held."""
    if budget.rate:
        await store.set_paced(conn, endpoint_id, budget.slot)
    await store.defer(conn, budget.held, budget.slot, lease_until)
    await store.defer(conn, budget.full, now, lease_until)
