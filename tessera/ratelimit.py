"""Rate limits: GCRA per subject, in process or in Redis, with a per-process fallback.

Each policy allows ``limit`` requests per ``window`` seconds (read 100/min per tenant and user, an
Open Platform installation 600/min, ...). The generic cell rate algorithm keeps one number per
subject, its *theoretical arrival time* (TAT): a quiet subject may send its whole quota at once,
then one request every ``window / limit`` seconds. Unlike fixed windows there is no boundary
where twice the limit gets through, and unlike a sliding log it stores one float per subject.

With ``TESSERA_REDIS_URL`` every process decides in Redis (a Lua script, one round trip), so the
limit holds whichever process answers. While Redis is unreachable the limiter does not fail open:
each process keeps limiting on its own (``FallbackStore``). That is logged once per outage
(``ratelimit.degraded`` / ``ratelimit.recovered``) and counted (``tessera_rate_limit_degraded``).

The bound across an outage, from its first request. Every Redis decision also writes the TAT that
Redis returned into this process's own store (the *shadow*, bounded like any ``InProcessStore``),
so the fallback does not start empty: it carries on from the state this process last saw in Redis.
A subject refused through Redis is still refused on the first request after Redis stops. A process
that last saw the subject with ``r`` requests left lets through at most ``r`` at once, then one per
``window / limit`` seconds, exactly as Redis would have; the requests a subject made through Redis
before the outage are counted in what every process that saw them has left. So with N processes a
subject gets at most N times the limit within a window, counting from the first request of the
outage (``tests/session/test_rate_limit_outage.py`` checks that figure on a Redis it stops). Each
decision sends this process's shadow TAT with it and Redis keeps the later of the two, so a Redis
that comes back empty (restarted without persistence) resumes from what the processes remember
instead of granting a fresh quota. A subject evicted from a full shadow (more than ``max_keys``
subjects with quota in use in this process) falls back to a full quota: the bound holds for the
most recently used ``max_keys`` subjects.

Once per outage. A failure declares an outage only when the decision that failed began after the
last change of state, and only a probe (one decision at a time, once ``retry_seconds`` have passed)
that completed a real round trip declares the recovery. The connections that were open when Redis
went away are dropped at once: Redis killed and restarted leaves them dead in the pool, and before
that was done the first requests to draw one after the recovery declared a second outage.

Responses carry ``RateLimit-Policy`` and ``RateLimit`` (draft-ietf-httpapi-ratelimit-headers-10)
and, when refused, ``Retry-After``: the seconds until one more request fits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import redis
import redis.asyncio
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from tessera.core.clock import Clock
from tessera.core.metrics import Metrics

log = logging.getLogger("tessera.ratelimit")

# Float error of ``window / limit`` summed ``limit`` times onto a Unix time (a double's step there is
# about 2e-7 s) must not refuse the last allowed call: a millisecond of tolerance is far above it.
EPSILON = 1e-3


@dataclass(frozen=True)
class Decision:
    allowed: bool
    policy: str
    limit: int
    remaining: int
    reset_seconds: int  # until the whole quota is available again
    window: int = 60
    retry_after: int = 0  # when refused: until one more request fits

    def headers(self) -> dict[str, str]:
        headers = {
            "RateLimit-Policy": f'"{self.policy}";q={self.limit};w={self.window}',
            "RateLimit": f'"{self.policy}";r={self.remaining};t={self.reset_seconds}',
        }
        if not self.allowed:
            headers["Retry-After"] = str(max(1, self.retry_after))
        return headers


def gcra(tat: float | None, now: float, interval: float, window: float) -> tuple[bool, float]:
    """One request at ``now`` against a stored TAT: (allowed, the TAT after it)."""
    start = now if tat is None or tat < now else tat
    after = start + interval
    if after - now > window + EPSILON:
        return False, start
    return True, after


class Store(Protocol):
    async def take(self, key: str, now: float, interval: float, window: float) -> tuple[bool, float]:
        """Apply ``gcra`` to ``key`` atomically: (allowed, its TAT after the call)."""
        ...

    async def reset(self) -> None: ...


class InProcessStore:
    """TATs in this process's memory, at most ``max_keys`` of them (spent ones go first)."""

    def __init__(self, max_keys: int = 100_000) -> None:
        self._lock = threading.Lock()
        self._tats: dict[str, float] = {}
        self._max_keys = max_keys

    async def take(self, key: str, now: float, interval: float, window: float) -> tuple[bool, float]:
        with self._lock:
            allowed, tat = gcra(self._tats.get(key), now, interval, window)
            if allowed:
                self._tats.pop(key, None)  # re-inserted last: the dict's order is least recently used first
                self._tats[key] = tat
                if len(self._tats) > self._max_keys:
                    self._evict(now)
            return allowed, tat

    def observe(self, key: str, tat: float, now: float) -> None:
        """Remember a TAT decided elsewhere (in Redis): the later of it and the one kept here."""
        with self._lock:
            kept = self._tats.pop(key, None)
            self._tats[key] = tat if kept is None else max(kept, tat)
            if len(self._tats) > self._max_keys:
                self._evict(now)

    def tat(self, key: str) -> float | None:
        with self._lock:
            return self._tats.get(key)

    def _evict(self, now: float) -> None:
        """Forget subjects whose quota is whole again (they lose nothing); if that is not enough,
        the least recently used tenth."""
        self._tats = {k: v for k, v in self._tats.items() if v > now}
        if len(self._tats) > self._max_keys:
            drop = len(self._tats) - self._max_keys + self._max_keys // 10
            for key in list(self._tats)[:drop]:
                del self._tats[key]

    def __len__(self) -> int:
        return len(self._tats)

    async def reset(self) -> None:
        with self._lock:
            self._tats.clear()


# KEYS[1] the subject; ARGV now, interval, window, and the TAT the calling process remembers (0
# when none): Redis keeps the later of its own and that one, so a Redis that lost its keys resumes
# from what the processes saw. The TAT is kept as a string of 17 significant digits (Lua numbers
# become integers on the way back to Redis, and tostring keeps only 14), and expires when the quota
# is whole again.
GCRA_SCRIPT = """
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local remembered = tonumber(ARGV[4] or '0')
local stored = tonumber(redis.call('GET', KEYS[1]) or '0')
local tat = math.max(now, stored, remembered)
local after = tat + interval
if after - now > window + 0.001 then
  if remembered > stored and remembered > now then
    redis.call('SET', KEYS[1], string.format('%.17g', remembered), 'PX', math.ceil((remembered - now) * 1000) + 1000)
  end
  return {0, string.format('%.17g', tat)}
end
local kept = string.format('%.17g', after)
redis.call('SET', KEYS[1], kept, 'PX', math.ceil((after - now) * 1000) + 1000)
return {1, kept}
"""


class RedisStore:
    """TATs in Redis, decided by one Lua script (EVALSHA, one round trip).

    redis.asyncio's connections belong to the event loop that opened them, so each loop (the
    server's, a worker's, a test's) gets its own client.
    """

    def __init__(self, url: str, prefix: str) -> None:
        self._url = url
        self._prefix = prefix
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, tuple[redis.asyncio.Redis, object]] = (
            weakref.WeakKeyDictionary()
        )

    def _client(self) -> tuple[redis.asyncio.Redis, object]:
        loop = asyncio.get_running_loop()
        found = self._clients.get(loop)
        if found is None:
            # One immediate retry on a fresh connection, no back-off: a decision that cannot reach
            # Redis falls back within one timeout instead of redis-py's ten retries.
            client = redis.asyncio.Redis.from_url(self._url, socket_timeout=2, socket_connect_timeout=2,
                                                  retry=Retry(NoBackoff(), 1))
            found = self._clients[loop] = (client, client.register_script(GCRA_SCRIPT))
        return found

    async def take(self, key: str, now: float, interval: float, window: float,
                   remembered: float | None = None) -> tuple[bool, float]:
        _, script = self._client()
        args = [repr(now), repr(interval), window, repr(remembered or 0.0)]
        allowed, tat = await script(keys=[f"{self._prefix}:rl:{key}"], args=args)  # type: ignore[operator]
        return bool(int(allowed)), float(tat)

    async def drop_connections(self) -> None:
        """Close every pooled connection of this loop's client: after Redis went away they are dead,
        and each would fail the first decision that draws it once Redis is back."""
        found = self._clients.get(asyncio.get_running_loop())
        if found is not None:
            await found[0].connection_pool.disconnect()

    async def reset(self) -> None:
        client, _ = self._client()
        async for key in client.scan_iter(match=f"{self._prefix}:rl:*", count=500):
            await client.delete(key)

    async def ping(self) -> bool:
        client, _ = self._client()
        return bool(await client.ping())

    async def close(self) -> None:
        found = self._clients.pop(asyncio.get_running_loop(), None)
        if found is not None:
            await found[0].aclose()


class FallbackStore:
    """Redis, and this process's own store while Redis cannot be reached.

    ``fallback`` is also the shadow of every Redis decision (see the module's docstring), so the
    per-process limits start from what this process last saw. After a failure the fallback answers
    for ``retry_seconds``; then one decision at a time probes Redis, and the first that completes a
    round trip ends the outage. An outage costs one timeout per process every few seconds, not one
    per request. ``monotonic`` times that back-off (injected by tests).
    """

    def __init__(self, primary: RedisStore, metrics: Metrics | None = None, retry_seconds: float = 5.0,
                 max_keys: int = 100_000, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.primary = primary
        self.fallback = InProcessStore(max_keys)
        self.metrics = metrics
        self.retry_seconds = retry_seconds
        self.monotonic = monotonic
        self.degraded = False
        self._retry_at = 0.0
        self._epoch = 0  # changes with every change of state; a decision older than it is stale
        self._probing = False

    async def take(self, key: str, now: float, interval: float, window: float) -> tuple[bool, float]:
        probe = False
        if self.degraded:
            if self._probing or self.monotonic() < self._retry_at:
                return await self._fallback(key, now, interval, window)
            probe = self._probing = True
        epoch = self._epoch
        try:
            allowed, tat = await self.primary.take(key, now, interval, window, self.fallback.tat(key))
        except (redis.RedisError, OSError) as exc:
            if probe:
                self._retry_at = self.monotonic() + self.retry_seconds
            elif epoch == self._epoch and not self.degraded:
                await self._declare_degraded(exc)
            return await self._fallback(key, now, interval, window)
        finally:
            if probe:
                self._probing = False
        self.fallback.observe(key, tat, now)
        if probe:
            log.warning("ratelimit.recovered")
            self.degraded = False
            self._epoch += 1
        return allowed, tat

    async def _declare_degraded(self, exc: BaseException) -> None:
        log.warning("ratelimit.degraded", extra={"error": type(exc).__name__, "fallback": "per-process limits"})
        self.degraded = True
        self._epoch += 1
        self._retry_at = self.monotonic() + self.retry_seconds
        with contextlib.suppress(redis.RedisError, OSError):  # closing a dead connection: nothing to release
            await self.primary.drop_connections()

    async def _fallback(self, key: str, now: float, interval: float, window: float) -> tuple[bool, float]:
        if self.metrics is not None:
            self.metrics.rate_limit_degraded()
        return await self.fallback.take(key, now, interval, window)

    async def reset(self) -> None:
        await self.fallback.reset()
        await self.primary.reset()

    async def ping(self) -> bool:
        return await self.primary.ping()

    async def close(self) -> None:
        await self.primary.close()


class RateLimiter:
    def __init__(self, store: Store, limits: dict[str, int], clock: Clock, window_seconds: int = 60,
                 metrics: Metrics | None = None) -> None:
        self.store = store
        self.metrics = metrics  # refusals are counted by policy
        self.clock = clock
        self.limits = limits
        self.window_seconds = window_seconds

    async def close(self) -> None:
        close = getattr(self.store, "close", None)
        if close is not None:
            await close()

    async def check(self, policy: str, subject: str) -> Decision:
        """Count one request of ``subject`` against ``policy`` (read, write, login, token, open)."""
        limit, window = self.limits[policy], self.window_seconds
        interval = window / limit
        now = self.clock.time()
        allowed, tat = await self.store.take(f"{policy}:{subject}", now, interval, window)
        ahead = max(0.0, tat - now)  # how far the subject has borrowed into the future
        remaining = max(0, min(limit, math.floor((window - ahead + EPSILON) / interval)))
        if allowed:
            return Decision(True, policy, limit, remaining, math.ceil(ahead - EPSILON), window)
        if self.metrics is not None:
            self.metrics.rate_limit_refused(policy)
        retry_after = math.ceil(ahead + interval - window - EPSILON)
        return Decision(False, policy, limit, 0, math.ceil(ahead - EPSILON), window, max(1, retry_after))
