"""The few statistics the reports use, defined once so every table computes a percentile the same way."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable


def percentile(sorted_values: list[float], pct: float) -> float:
    """Nearest-rank percentile of an ascending list (0.0 when empty)."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(pct / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def percentile_ms(sorted_seconds: list[float], pct: float) -> float:
    """A nearest-rank percentile of durations in seconds, in milliseconds to two places."""
    return round(percentile(sorted_seconds, pct) * 1000, 2)


def median(values: Iterable[float | None], digits: int = 1) -> float | None:
    """The median of the values that exist (None when none does)."""
    present = [v for v in values if v is not None]
    return round(statistics.median(present), digits) if present else None


def ratio(a: float | None, b: float | None) -> float | None:
    """``a / b`` to three places; None when either is missing or ``b`` is zero."""
    return round(a / b, 3) if a is not None and b else None


def summary_ms(seconds: Iterable[float]) -> dict[str, float]:
    """p50/p95/p99/max/min of durations given in seconds, in milliseconds."""
    ordered = sorted(seconds)
    return {"p50": percentile_ms(ordered, 50), "p95": percentile_ms(ordered, 95), "p99": percentile_ms(ordered, 99),
            "max": round(ordered[-1] * 1000, 2) if ordered else 0.0,
            "min": round(ordered[0] * 1000, 2) if ordered else 0.0}
