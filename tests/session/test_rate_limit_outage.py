"""Rate limits across a Redis outage, on a Redis server of the test's own that it kills and restarts.

The documented bound (docs/integrator/session-api.md, "Contract in brief"): while Redis is
unreachable each process carries on from the state it last saw in Redis, so with N processes a
subject gets at most N times the limit within a window, counting from the first request of the
outage; and one outage is declared degraded, then recovered, once.
Time is the limiter's injected clock (standing still unless a test advances it), which also times
the fallback's back-off before Redis is tried again.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import redis

from tessera.core.clock import FrozenClock
from tessera.ratelimit import FallbackStore, RateLimiter, RedisStore

RETRY_SECONDS = 5.0  # FallbackStore's default back-off before Redis is tried again


class OwnRedis:
    """``redis-server`` on a free port, without persistence: a restart comes back empty."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("redis-server is not installed: these tests need a Redis server of their own to stop")
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--daemonize", "no", "--dir", str(self.directory)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                output = self.process.stdout.read().decode(errors="replace") if self.process.stdout else ""
                pytest.fail(f"redis-server could not start on port {self.port}: {output[-2000:]}")
            try:
                redis.Redis(port=self.port, socket_connect_timeout=0.2).ping()
                return
            except redis.RedisError:
                time.sleep(0.05)
        self.kill()
        pytest.fail(f"redis-server did not answer on port {self.port} within 10 s")

    def kill(self) -> None:
        """SIGKILL, as a crashed or OOM-killed Redis: its clients' connections are left dead."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        self.process = None


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    server = OwnRedis(tmp_path)
    server.start()
    yield server
    server.kill()


@pytest.fixture
def frozen() -> FrozenClock:
    return FrozenClock(datetime(2026, 11, 23, 12, 0, tzinfo=UTC))


class Process:
    """One API process's limiter (its own store and Redis client), driven on a loop of its own."""

    def __init__(self, url: str, prefix: str, clock: FrozenClock, limits: dict[str, int],
                 max_keys: int = 100_000) -> None:
        self.store = FallbackStore(RedisStore(url, prefix), max_keys=max_keys, monotonic=clock.time)
        self.limiter = RateLimiter(self.store, limits, clock, 60)
        self.loop = asyncio.new_event_loop()

    def allowed(self, policy: str, subject: str, times: int = 1) -> list[bool]:
        return [self.loop.run_until_complete(self.limiter.check(policy, subject)).allowed for _ in range(times)]

    def at_once(self, policy: str, subject: str, times: int) -> list[bool]:
        """``times`` decisions concurrently: each draws its own pooled connection."""
        async def together() -> list[bool]:
            decisions = await asyncio.gather(*(self.limiter.check(policy, subject) for _ in range(times)))
            return [d.allowed for d in decisions]
        return self.loop.run_until_complete(together())

    def close(self) -> None:
        self.loop.run_until_complete(self.limiter.close())
        self.loop.close()


@pytest.fixture
def processes(own_redis: OwnRedis, frozen: FrozenClock) -> Iterator[list[Process]]:
    prefix = f"tessera-test-{uuid.uuid4().hex[:8]}"
    made = [Process(own_redis.url, prefix, frozen, {"read": 100, "login": 10}) for _ in range(2)]
    yield made
    for process in made:
        process.close()


def test_a_subject_refused_through_redis_is_still_refused_on_the_first_request_after_redis_stops(
        own_redis: OwnRedis, processes: list[Process]) -> None:
    """The fault run: refused 27 times by the read limit, then 50 of 50 reads got through."""
    api = processes[0]
    assert api.allowed("read", "tenant-1:user-1", 100) == [True] * 100
    assert api.allowed("read", "tenant-1:user-1", 27) == [False] * 27
    own_redis.kill()
    assert api.allowed("read", "tenant-1:user-1", 50) == [False] * 50
    assert api.store.degraded


def test_n_processes_let_through_at_most_n_times_the_limit_within_a_window_of_an_outage(
        own_redis: OwnRedis, processes: list[Process]) -> None:
    """The worst case: one process spent the quota through Redis, the other never saw the subject."""
    first, second = processes
    through_redis = first.allowed("read", "s", 100)
    own_redis.kill()
    during = first.allowed("read", "s", 150) + second.allowed("read", "s", 150)
    assert sum(through_redis) + sum(during) == 2 * 100  # N = 2 processes, limit 100, clock standing still


def test_each_process_lets_the_quota_through_again_once_the_window_moved_on_during_an_outage(
        own_redis: OwnRedis, processes: list[Process], frozen: FrozenClock) -> None:
    api = processes[0]
    assert api.allowed("login", "s", 11) == [True] * 10 + [False]
    own_redis.kill()
    assert api.allowed("login", "s") == [False]
    frozen.advance(59)  # the ten logins seen through Redis are still in the window
    assert api.allowed("login", "s") == [False]
    frozen.advance(1)  # now they have left it, as in Redis
    assert api.allowed("login", "s", 11) == [True] * 10 + [False]


def test_the_shadow_counts_requests_seen_through_redis_no_earlier_than_they_leave(
        own_redis: OwnRedis, processes: list[Process], frozen: FrozenClock) -> None:
    """Logins every 5 s through Redis (12:00:00 to 12:00:45): the fallback knows the oldest one's time
    and counts the nine after it as made at the last one's, so it refuses until the last has left:
    sooner than Redis would, never later."""
    api = processes[0]
    for _ in range(10):
        assert api.allowed("login", "s") == [True]
        frozen.advance(5)
    own_redis.kill()
    frozen.advance(15)  # 12:01:05: the first has left the window, as it has in Redis
    assert api.allowed("login", "s", 2) == [True, False]
    frozen.advance(5)  # 12:01:10: Redis would let the one of 12:00:05 go; the fallback counts it at 12:00:45
    assert api.allowed("login", "s") == [False]
    frozen.advance(35)  # 12:01:45: the nine counted at 12:00:45 leave; the one of 12:01:05 stays
    assert api.allowed("login", "s", 10) == [True] * 9 + [False]


def test_a_redis_restarted_empty_resumes_from_what_the_processes_saw(
        own_redis: OwnRedis, processes: list[Process], frozen: FrozenClock) -> None:
    api = processes[0]
    assert api.allowed("login", "s", 10) == [True] * 10
    own_redis.kill()
    assert api.allowed("login", "s") == [False]
    own_redis.start()  # no persistence: the subject's key is gone
    frozen.advance(RETRY_SECONDS)  # the back-off is over (and the ten logins are still in the window)
    assert api.allowed("login", "s") == [False]
    assert not api.store.degraded  # refused by Redis itself, which now holds the remembered state
    assert processes[1].allowed("login", "s") == [False]


def test_one_outage_is_declared_degraded_and_recovered_once(
        own_redis: OwnRedis, processes: list[Process], frozen: FrozenClock, caplog: pytest.LogCaptureFixture) -> None:
    """Redis killed with connections open in the pool: those connections are dead after the restart,
    and each used to declare a new outage when a request drew it."""
    api = processes[0]
    with caplog.at_level(logging.WARNING, logger="tessera.ratelimit"):
        assert all(api.at_once("read", "s", 20))  # 20 pooled connections
        own_redis.kill()
        api.allowed("read", "s")
        own_redis.start()
        frozen.advance(RETRY_SECONDS)
        api.allowed("read", "s")  # the probe: the connection that failed, reconnected
        for _ in range(5):
            api.at_once("read", "s", 20)  # every pooled connection
    assert [r.message for r in caplog.records if r.name == "tessera.ratelimit"] == [
        "ratelimit.degraded", "ratelimit.recovered"]
    assert not api.store.degraded


def test_the_shadow_of_redis_decisions_keeps_a_bounded_number_of_subjects(
        own_redis: OwnRedis, frozen: FrozenClock) -> None:
    api = Process(own_redis.url, f"tessera-test-{uuid.uuid4().hex[:8]}", frozen, {"read": 100}, max_keys=100)
    try:
        for subject in range(1000):
            api.allowed("read", f"user-{subject}")
        assert not api.store.degraded
        assert len(api.store.fallback) <= 100
    finally:
        api.close()
