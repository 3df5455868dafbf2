"""Rate limits: a sliding log per subject, in process or in Redis, with a per-process fallback.

Each policy allows ``limit`` requests in any ``window`` seconds (read 100, write 30, login 10 a
minute per user; token requests 60 per client; an Open Platform installation 600). The store keeps
the time of each request it let through in the last ``window`` seconds, and lets one more through
only while fewer than ``limit`` are there: at most ``limit`` in *any* window of that length, which
is what "requests per minute" says (rules.yaml: session.ratelimit.per-user-per-60s). (A token
bucket or GCRA lets a quiet subject spend its whole quota at once and then refill, so nearly twice
the limit lands in one rolling minute; fixed windows let twice the limit through across a boundary.)
The price is memory: one float per request let through in the window, so at most ``limit`` per subject, and at most
``max_keys`` subjects per process (the least recently used go first, and those with nothing in
the window before them). A refused request is not recorded: a client hammering a closed limit does
not push its own opening further away.

With ``TESSERA_REDIS_URL`` every process decides in Redis (a Lua script over a sorted set, one round
trip), so the limit holds whichever process answers. Without Redis, one process is the only one
that counts: ``tessera serve --workers N`` refuses to start with more than one process and no Redis,
as the limits would be N times too generous. While Redis is unreachable the limiter does not fail
open: each process keeps limiting on its own (``FallbackStore``). That is logged once per outage
(``ratelimit.degraded`` / ``ratelimit.recovered``) and counted (``tessera_rate_limit_degraded``).

The bound across an outage, from its first request. Every Redis decision also writes what Redis
said about the subject (how many requests are in its window, the oldest and the newest) into this
process's own store (the *shadow*, bounded like any ``InProcessStore``), so the fallback does not
start empty: it carries on from the state this process last saw in Redis, counting the requests in
between as made at the newest one's time (they expire no earlier than they really do: the fallback
refuses rather than lets through). A subject refused through Redis is still refused on the first
request after Redis stops; the requests a subject made through Redis before the outage are counted
in what every process that saw them has left. So with N processes a subject gets at most N times the
limit within a window, counting from the first request of the outage
(``tests/session/test_rate_limit_outage.py`` checks that figure on a Redis it stops). Each decision
sends this process's shadow with it, and a Redis that has no entry for the subject (restarted
without persistence) is seeded from it, so it resumes from what the processes remember instead of
granting a fresh quota.

Once per outage. A failure declares an outage only when the decision that failed began after the
last change of state, and only a probe (one decision at a time, once ``retry_seconds`` have passed)
that completed a real round trip declares the recovery. The connections that were open when Redis
went away are dropped at once: Redis killed and restarted leaves them dead in the pool, and before
that was done the first requests to draw one after the recovery declared a second outage.

Responses carry ``RateLimit-Policy`` and ``RateLimit`` (draft-ietf-httpapi-ratelimit-headers-10)
and, when refused, ``Retry-After``: the seconds until the oldest request in the window leaves it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import threading
import time
import weakref
from collections import deque
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

# A request exactly ``window`` seconds old has left the window; float error of the times (a
# double's step around a Unix time is about 2e-7 s) must not keep it in: a millisecond of tolerance.
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


@dataclass(frozen=True)
class Window:
    """What a store knows of one subject after a decision: the requests in its window, the oldest
    one's time and the newest one's (both 0.0 when there are none)."""

    count: int
    oldest: float
    newest: float


EMPTY = Window(0, 0.0, 0.0)


class Log:
    """One subject's requests in the window, oldest first, as (time, how many at that time).

    A request let through here weighs 1; what a Redis decision reported is kept as two entries
    (the oldest request, and the others at the newest one's time), see the module's docstring.
    """

    __slots__ = ("count", "entries")

    def __init__(self) -> None:
        self.entries: deque[tuple[float, int]] = deque()
        self.count = 0

    def expire(self, now: float, window: float) -> None:
        entries = self.entries
        while entries and entries[0][0] <= now - window + EPSILON:
            self.count -= entries.popleft()[1]

    def take(self, now: float, limit: int) -> bool:
        if self.count >= limit:
            return False
        self.entries.append((now, 1))
        self.count += 1
        return True

    def window(self) -> Window:
        if not self.entries:
            return EMPTY
        return Window(self.count, self.entries[0][0], self.entries[-1][0])

    @classmethod
    def of(cls, seen: Window) -> Log:
        log_ = cls()
        if seen.count > 0:
            log_.entries.append((seen.oldest, 1))
            if seen.count > 1:
                log_.entries.append((seen.newest, seen.count - 1))
            log_.count = seen.count
        return log_


class Store(Protocol):
    async def take(self, key: str, now: float, limit: int, window: float) -> tuple[bool, Window]:
        """One request of ``key`` at ``now``, atomically: (allowed, the subject's window after it)."""
        ...

    async def reset(self) -> None: ...


class InProcessStore:
    """Sliding logs in this process's memory, at most ``max_keys`` subjects (idle ones go first)."""

    def __init__(self, max_keys: int = 100_000) -> None:
        self._lock = threading.Lock()
        self._logs: dict[str, Log] = {}
        self._max_keys = max_keys
        self._window = 60.0  # the longest window seen: a log idle that long is empty

    async def take(self, key: str, now: float, limit: int, window: float) -> tuple[bool, Window]:
        with self._lock:
            found = self._logs.pop(key, None)  # re-inserted last: the dict's order is least recently used first
            log_ = found if found is not None else Log()
            log_.expire(now, window)
            allowed = log_.take(now, limit)
            self._logs[key] = log_
            self._window = max(self._window, window)
            if len(self._logs) > self._max_keys:
                self._evict(now)
            return allowed, log_.window()

    def observe(self, key: str, seen: Window, now: float) -> None:
        """Remember what Redis said about ``key`` (its window after a decision made there)."""
        with self._lock:
            self._logs.pop(key, None)
            self._logs[key] = Log.of(seen)
            if len(self._logs) > self._max_keys:
                self._evict(now)

    def seen(self, key: str, now: float, window: float) -> Window:
        """What this process knows of ``key``'s window at ``now`` (to seed a Redis that lost it)."""
        with self._lock:
            log_ = self._logs.get(key)
            if log_ is None:
                return EMPTY
            log_.expire(now, window)
            return log_.window()

    def _evict(self, now: float) -> None:
        """Forget subjects with nothing in their window (they lose nothing); if that is not enough,
        the least recently used tenth."""
        self._logs = {k: v for k, v in self._logs.items() if v.entries and v.entries[-1][0] > now - self._window}
        if len(self._logs) > self._max_keys:
            drop = len(self._logs) - self._max_keys + self._max_keys // 10
            for key in list(self._logs)[:drop]:
                del self._logs[key]

    def __len__(self) -> int:
        return len(self._logs)

    async def reset(self) -> None:
        with self._lock:
            self._logs.clear()


# KEYS[1] the subject's sorted set (member: a unique id, score: the request's time); ARGV now,
# window, limit, a unique member for this request, and what the calling process remembers of the
# subject (count, oldest, newest; count 0 when nothing). A set Redis does not have (restarted
# without persistence) is seeded from that memory first. Times travel as strings of 17 significant
# digits (Lua numbers become integers on the way back to Redis, and tostring keeps only 14). The set
# expires when its newest request leaves the window.
SLIDING_LOG_SCRIPT = """
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local remembered = tonumber(ARGV[5])
if remembered > 0 and redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('ZADD', KEYS[1], tonumber(ARGV[6]), 'seen:0')
  for i = 1, remembered - 1 do
    redis.call('ZADD', KEYS[1], tonumber(ARGV[7]), 'seen:' .. i)
  end
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window + 0.001)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  count = count + 1
  allowed = 1
end
if count == 0 then
  return {allowed, 0, '0', '0'}
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
local newest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2]
redis.call('PEXPIRE', KEYS[1], math.ceil((tonumber(newest) + window - now) * 1000) + 1000)
return {allowed, count, oldest, newest}
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
            found = self._clients[loop] = (client, client.register_script(SLIDING_LOG_SCRIPT))
        return found

    async def take(self, key: str, now: float, limit: int, window: float,
                   remembered: Window = EMPTY) -> tuple[bool, Window]:
        _, script = self._client()
        member = f"{now!r}:{secrets.token_hex(6)}"  # unique: two requests at one instant are two entries
        args = [repr(now), repr(float(window)), limit, member, remembered.count, repr(remembered.oldest),
                repr(remembered.newest)]
        allowed, count, oldest, newest = await script(keys=[f"{self._prefix}:rl:{key}"],  # type: ignore[operator]
                                                      args=args)
        return bool(int(allowed)), Window(int(count), float(oldest), float(newest))

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

    async def take(self, key: str, now: float, limit: int, window: float) -> tuple[bool, Window]:
        probe = False
        if self.degraded:
            if self._probing or self.monotonic() < self._retry_at:
                return await self._fallback(key, now, limit, window)
            probe = self._probing = True
        epoch = self._epoch
        try:
            allowed, seen = await self.primary.take(key, now, limit, window, self.fallback.seen(key, now, window))
        except (redis.RedisError, OSError) as exc:
            if probe:
                self._retry_at = self.monotonic() + self.retry_seconds
            elif epoch == self._epoch and not self.degraded:
                await self._declare_degraded(exc)
            return await self._fallback(key, now, limit, window)
        finally:
            if probe:
                self._probing = False
        self.fallback.observe(key, seen, now)
        if probe:
            log.warning("ratelimit.recovered")
            self.degraded = False
            self._epoch += 1
        return allowed, seen

    async def _declare_degraded(self, exc: BaseException) -> None:
        log.warning("ratelimit.degraded", extra={"error": type(exc).__name__, "fallback": "per-process limits"})
        self.degraded = True
        self._epoch += 1
        self._retry_at = self.monotonic() + self.retry_seconds
        with contextlib.suppress(redis.RedisError, OSError):  # closing a dead connection: nothing to release
            await self.primary.drop_connections()

    async def _fallback(self, key: str, now: float, limit: int, window: float) -> tuple[bool, Window]:
        if self.metrics is not None:
            self.metrics.rate_limit_degraded()
        return await self.fallback.take(key, now, limit, window)

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
        now = self.clock.time()
        allowed, seen = await self.store.take(f"{policy}:{subject}", now, limit, window)
        # The whole quota is back when the newest request leaves the window; one more fits when the oldest does.
        reset = math.ceil(seen.newest + window - now - EPSILON) if seen.count else 0
        if allowed:
            return Decision(True, policy, limit, max(0, limit - seen.count), max(0, reset), window)
        if self.metrics is not None:
            self.metrics.rate_limit_refused(policy)
        retry_after = math.ceil(seen.oldest + window - now - EPSILON)
        return Decision(False, policy, limit, 0, max(0, reset), window, max(1, retry_after))
