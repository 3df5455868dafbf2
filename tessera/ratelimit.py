"""Per-tenant, per-user rate limits: fixed one-minute windows, in process or in Redis.

The in-process store serves a single process; with ``TESSERA_REDIS_URL`` every process counts in
Redis, so a user's 101st read in a window is refused whichever process answers. Responses carry
``RateLimit-Policy`` and ``RateLimit`` (draft-ietf-httpapi-ratelimit-headers) and, when refused,
``Retry-After``.
"""

from __future__ import annotations

import logging
import math
import threading
from dataclasses import dataclass
from typing import Protocol

import redis

from tessera.core.clock import Clock

log = logging.getLogger("tessera.ratelimit")


@dataclass(frozen=True)
class Decision:
    allowed: bool
    policy: str
    limit: int
    remaining: int
    reset_seconds: int

    def headers(self) -> dict[str, str]:
        headers = {
            "RateLimit-Policy": f'"{self.policy}";q={self.limit};w={self.window}',
            "RateLimit": f'"{self.policy}";r={self.remaining};t={self.reset_seconds}',
        }
        if not self.allowed:
            headers["Retry-After"] = str(max(1, self.reset_seconds))
        return headers

    window: int = 60


class Store(Protocol):
    def hit(self, key: str, window_index: int, window_seconds: int) -> int: ...

    def reset(self) -> None: ...


class InProcessStore:
    """Counters in this process's memory; old windows are dropped as they pass."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[tuple[str, int], int] = {}
        self._current_window = -1

    def hit(
        self,
        key: str,
        window_index: int,
        window_seconds: int,  # noqa: ARG002 - Store protocol; only Redis needs it (key expiry)
    ) -> int:
        """Count one hit in ``key``'s window and return the window's count so far."""
        with self._lock:
            if window_index != self._current_window:
                self._counts = {k: v for k, v in self._counts.items() if k[1] >= window_index}
                self._current_window = window_index
            count = self._counts.get((key, window_index), 0) + 1
            self._counts[(key, window_index)] = count
            return count

    def reset(self) -> None:
        with self._lock:
            self._counts.clear()


class RedisStore:
    """Counters in Redis: INCR and EXPIRE in one round trip (MULTI/EXEC pipeline)."""

    def __init__(self, url: str, prefix: str) -> None:
        self._client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        self._prefix = prefix

    def hit(self, key: str, window_index: int, window_seconds: int) -> int:
        full_key = f"{self._prefix}:rl:{key}:{window_index}"
        pipe = self._client.pipeline(transaction=True)
        pipe.incr(full_key)
        pipe.expire(full_key, window_seconds + 5)
        count, _ = pipe.execute()
        return int(count)

    def reset(self) -> None:
        for key in self._client.scan_iter(match=f"{self._prefix}:rl:*", count=500):
            self._client.delete(key)

    def ping(self) -> bool:
        return bool(self._client.ping())


class RateLimiter:
    def __init__(self, store: Store, limits: dict[str, int], clock: Clock, window_seconds: int = 60) -> None:
        self.store = store
        self.clock = clock
        self.limits = limits
        self.window_seconds = window_seconds

    def check(self, policy: str, subject: str) -> Decision:
        """Count one request of ``subject`` against ``policy`` (read, write or login)."""
        limit = self.limits[policy]
        now = self.clock.time()
        window_index = int(now // self.window_seconds)
        reset = max(1, math.ceil((window_index + 1) * self.window_seconds - now))
        try:
            count = self.store.hit(f"{policy}:{subject}", window_index, self.window_seconds)
        except redis.RedisError as exc:
            # Fail open: an unreachable Redis must not take the whole API down. It is logged so
            # the operator sees the limits are not enforced.
            log.error("ratelimit.store_unavailable", extra={"error": type(exc).__name__})
            return Decision(True, policy, limit, limit, reset, self.window_seconds)
        remaining = max(0, limit - count)
        return Decision(count <= limit, policy, limit, remaining, reset, self.window_seconds)
