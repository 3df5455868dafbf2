"""Time, read in one place: the clock every rule that depends on time is given.

Token lifetimes, cursor ages, idempotency windows, rate-limit windows, retry schedules, leases and
JWT expiry all read the runtime's clock instead of the system's, so a test moves time (``advance``)
instead of sleeping or waiting for a fresh window, and what is "now" in one request is one value.
"""

from __future__ import annotations

import threading
import time as _time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    """Aware UTC datetimes and Unix seconds from one source."""

    def now(self) -> datetime: ...

    def time(self) -> float: ...


class SystemClock:
    """The system's clock: what production runs on."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    def time(self) -> float:
        return _time.time()


class ShiftedClock:
    """The system's clock moved by an offset that a test advances (time keeps flowing meanwhile).

    What the service signs or stamps stays close to real time (webhook timestamps verified by real
    receivers, rows ordered by creation), while a test jumps a token past its expiry or a rate
    limit into its next window with ``advance``.
    """

    def __init__(self) -> None:
        self._offset = 0.0
        self._held: float | None = None
        self._lock = threading.Lock()

    def now(self) -> datetime:
        held = self._held
        if held is not None:
            return datetime.fromtimestamp(held, UTC)
        return datetime.now(UTC) + timedelta(seconds=self._offset)

    def time(self) -> float:
        held = self._held
        return held if held is not None else _time.time() + self._offset

    @contextmanager
    def held(self) -> Iterator[None]:
        """Time stands still inside the block (a test counting requests up to a rate limit, which
        real time would otherwise refill); afterwards it flows on from where it was."""
        with self._lock:
            self._held = _time.time() + self._offset
        try:
            yield
        finally:
            with self._lock:
                self._held = None

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._offset += seconds

    def reset(self) -> None:
        with self._lock:
            self._offset = 0.0


class FrozenClock:
    """A clock that stands still until advanced: exact arithmetic for unit tests."""

    def __init__(self, start: datetime) -> None:
        if start.tzinfo is None:
            raise ValueError("FrozenClock needs an aware datetime")
        self._now = start.astimezone(UTC)

    def now(self) -> datetime:
        return self._now

    def time(self) -> float:
        return self._now.timestamp()

    def advance(self, seconds: float) -> None:
        self._now += timedelta(seconds=seconds)


def iso(value: datetime) -> str:
    """An aware datetime as clients see it: ISO 8601 UTC with milliseconds and ``Z``."""
    return value.isoformat(timespec="milliseconds").replace("+00:00", "Z")
