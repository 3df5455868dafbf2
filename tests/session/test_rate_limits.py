"""Rate limits (a sliding log: at most N in any 60 s): read 100/min, write 30/min per user, login 10/min
per email, Open Platform calls 600/min per installation; in process, in Redis, and per process while Redis
is unreachable."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tessera.app import create_app
from tessera.core.clock import FrozenClock, ShiftedClock
from tessera.core.metrics import Metrics
from tessera.ratelimit import Decision, FallbackStore, InProcessStore, RateLimiter, RedisStore, Store
from tessera.runtime import build_runtime
from tests.conftest import REDIS_URL, Env, TenantUsers, fresh_quota, make_settings, redis_reachable
from tests.support.tenants import member_of_two_tenants

WINDOW_START = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)  # a minute boundary


@pytest.fixture
def frozen() -> FrozenClock:
    return FrozenClock(WINDOW_START)


class OnOwnLoop:
    """A limiter driven from a test, on an event loop of its own (the Redis client is per loop)."""

    def __init__(self, limiter: RateLimiter) -> None:
        self.limiter = limiter
        self.loop = asyncio.new_event_loop()

    def check(self, policy: str, subject: str) -> Decision:
        return self.loop.run_until_complete(self.limiter.check(policy, subject))

    def close(self) -> None:
        self.loop.run_until_complete(self.limiter.store.reset())
        self.loop.run_until_complete(self.limiter.close())
        self.loop.close()


@pytest.fixture(params=["in-process", "redis"])
def limiter(request: pytest.FixtureRequest, frozen: FrozenClock) -> Iterator[OnOwnLoop]:
    store: Store
    if request.param == "redis":
        redis_reachable()
        store = RedisStore(REDIS_URL, f"tessera-test-{uuid.uuid4().hex[:8]}")
    else:
        store = InProcessStore()
    driven = OnOwnLoop(RateLimiter(store, {"read": 100, "write": 30, "login": 10}, frozen, 60))
    yield driven
    driven.close()


@pytest.mark.parametrize(("policy", "limit"), [("read", 100), ("write", 30), ("login", 10)])
@pytest.mark.rule("session.ratelimit.per-user-per-60s")
def test_the_call_after_the_limit_is_refused(limiter: OnOwnLoop, policy: str, limit: int) -> None:
    decisions = [limiter.check(policy, "tenant-1:user-1") for _ in range(limit + 1)]
    assert all(d.allowed for d in decisions[:limit])
    refused = decisions[limit]
    assert not refused.allowed
    assert 1 <= int(refused.headers()["Retry-After"]) <= 60
    assert refused.headers()["RateLimit-Policy"] == f'"{policy}";q={limit};w=60'


@pytest.mark.rule("session.ratelimit.per-user-per-60s")
def test_users_are_counted_separately(limiter: OnOwnLoop) -> None:
    for _ in range(10):
        limiter.check("login", "a")
    assert not limiter.check("login", "a").allowed
    assert limiter.check("login", "b").allowed


def test_the_count_starts_again_in_the_next_window(limiter: OnOwnLoop, frozen: FrozenClock) -> None:
    for _ in range(10):
        limiter.check("login", "a")
    assert not limiter.check("login", "a").allowed
    frozen.advance(60)
    assert limiter.check("login", "a").allowed


@pytest.mark.rule("session.error.rate-limited")
def test_retry_after_is_the_time_until_the_oldest_request_leaves_the_window(limiter: OnOwnLoop,
                                                                            frozen: FrozenClock) -> None:
    frozen.advance(45)
    limiter.check("login", "a")
    frozen.advance(10)
    for _ in range(9):
        limiter.check("login", "a")
    assert limiter.check("login", "a").headers()["Retry-After"] == "50"  # the first one leaves at 45 + 60
    frozen.advance(49)
    assert not limiter.check("login", "a").allowed
    frozen.advance(1)
    assert limiter.check("login", "a").allowed
    assert not limiter.check("login", "a").allowed  # the other nine are in the window until 55 + 60


@pytest.mark.rule("session.ratelimit.per-user-per-60s")
def test_there_is_no_burst_across_a_window_boundary(limiter: OnOwnLoop, frozen: FrozenClock) -> None:
    """Fixed windows let 10 logins at 12:00:59 and 10 more at 12:01:00; the sliding log none."""
    frozen.advance(59)
    assert all(limiter.check("login", "a").allowed for _ in range(10))
    frozen.advance(2)
    assert not limiter.check("login", "a").allowed


@pytest.mark.rule("session.ratelimit.per-user-per-60s", "session.ratelimit.login")
def test_at_most_n_requests_land_in_any_60_seconds(limiter: OnOwnLoop, frozen: FrozenClock) -> None:
    """A login a second for three minutes: ten in each minute, never eleven in any 60 s."""
    allowed_at = []
    for second in range(180):
        if limiter.check("login", "a").allowed:
            allowed_at.append(second)
        frozen.advance(1)
    assert allowed_at == [*range(0, 10), *range(60, 70), *range(120, 130)]
    assert max(sum(1 for t in allowed_at if start <= t < start + 60) for start in range(180)) == 10


@pytest.mark.rule("session.ratelimit.per-user-per-60s")
def test_requests_spread_over_the_window_leave_it_one_by_one(limiter: OnOwnLoop, frozen: FrozenClock) -> None:
    for _ in range(10):  # one every 5 s: 12:00:00 to 12:00:45
        assert limiter.check("login", "a").allowed
        frozen.advance(5)
    frozen.advance(10)  # 12:01:00: the first is 60 s old, the window holds nine
    decisions = [limiter.check("login", "a") for _ in range(2)]
    assert [d.allowed for d in decisions] == [True, False]
    assert decisions[1].headers()["Retry-After"] == "5"  # 12:00:05 leaves at 12:01:05


def test_a_quiet_subject_has_its_whole_quota_again(limiter: OnOwnLoop, frozen: FrozenClock) -> None:
    for _ in range(10):
        limiter.check("login", "a")
    frozen.advance(60)
    decisions = [limiter.check("login", "a") for _ in range(11)]
    assert [d.allowed for d in decisions] == [True] * 10 + [False]


def test_the_in_process_store_keeps_a_bounded_number_of_subjects(frozen: FrozenClock) -> None:
    store = InProcessStore(max_keys=100)
    driven = OnOwnLoop(RateLimiter(store, {"read": 100}, frozen, 60))
    for subject in range(1000):
        driven.check("read", f"user-{subject}")
    assert len(store) <= 100
    driven.close()


def _unreachable_redis(frozen: FrozenClock, metrics: Metrics | None = None) -> tuple[OnOwnLoop, FallbackStore]:
    store = FallbackStore(RedisStore("redis://127.0.0.1:1", "tessera-test-down"), metrics)
    return OnOwnLoop(RateLimiter(store, {"login": 10}, frozen, 60)), store


def test_limits_still_hold_while_redis_is_unreachable(frozen: FrozenClock) -> None:
    driven, store = _unreachable_redis(frozen)
    decisions = [driven.check("login", "a") for _ in range(11)]
    assert [d.allowed for d in decisions] == [True] * 10 + [False]
    assert store.degraded
    driven.loop.run_until_complete(store.fallback.reset())
    driven.loop.run_until_complete(driven.limiter.close())
    driven.loop.close()


def test_the_degraded_mode_is_logged_once_and_counted(frozen: FrozenClock, caplog: pytest.LogCaptureFixture) -> None:
    metrics = Metrics()
    driven, _ = _unreachable_redis(frozen, metrics)
    with caplog.at_level(logging.WARNING, logger="tessera.ratelimit"):
        for _ in range(3):
            driven.check("login", "a")
    assert [r.message for r in caplog.records] == ["ratelimit.degraded"]
    assert metrics.registry.get_sample_value("tessera_rate_limit_degraded_total") == 3
    driven.loop.run_until_complete(driven.limiter.close())
    driven.loop.close()


def test_redis_is_used_again_once_it_answers(frozen: FrozenClock) -> None:
    redis_reachable()
    driven, store = _unreachable_redis(frozen)
    driven.check("login", "a")
    assert store.degraded
    driven.loop.run_until_complete(store.primary.close())
    store.primary = RedisStore(REDIS_URL, f"tessera-test-{uuid.uuid4().hex[:8]}")
    store.retry_seconds = 0
    store._retry_at = 0.0  # the back-off is over
    assert driven.check("login", "a").allowed
    assert not store.degraded
    driven.close()


def test_remaining_counts_down(limiter: OnOwnLoop) -> None:
    first = limiter.check("write", "u")
    second = limiter.check("write", "u")
    assert (first.remaining, second.remaining) == (29, 28)
    assert second.headers()["RateLimit"] == '"write";r=28;t=60'  # the whole quota is back when both leave


@pytest.mark.rule("session.error.rate-limited", "session.ratelimit.read")
def test_the_101st_read_in_a_minute_is_rate_limited(env: Env, tenant: TenantUsers, clock: ShiftedClock) -> None:
    with fresh_quota(clock):
        headers = tenant.headers()
        statuses = [env.client.get("/api/dynamic/assets/list", headers=headers).status_code for _ in range(100)]
        assert statuses == [200] * 100
        refused = env.client.get("/api/dynamic/assets/list", headers=headers)
        assert refused.status_code == 429
        assert refused.json()["code"] == "RATE_LIMITED"
        assert int(refused.headers["Retry-After"]) >= 1
        assert "RateLimit" in refused.headers
        # another user of the same tenant is not affected
        assert env.client.get("/api/dynamic/assets/list", headers=tenant.headers("viewer")).status_code == 200


@pytest.mark.rule("session.ratelimit.per-user-per-60s", "session.ratelimit.read")
def test_a_user_has_one_read_quota_whichever_tenant_they_act_in(env: Env, clock: ShiftedClock) -> None:
    home, other = member_of_two_tenants(env)
    with fresh_quota(clock):
        headers = home.headers()
        for index in range(100):  # half in each tenant
            switch = {"X-Tenant-Id": other.code} if index % 2 else {}
            assert env.client.get("/api/dynamic/assets/list", headers={**headers, **switch}).status_code == 200
        for switch in ({}, {"X-Tenant-Id": other.code}):
            refused = env.client.get("/api/dynamic/assets/list", headers={**headers, **switch})
            assert refused.status_code == 429 and refused.json()["code"] == "RATE_LIMITED"


@pytest.mark.rule("session.ratelimit.read")
def test_successful_reads_carry_rate_limit_headers(env: Env, tenant: TenantUsers) -> None:
    response = env.client.get("/api/dynamic/assets/list", headers=tenant.headers())
    assert response.headers["RateLimit-Policy"] == '"read";q=100;w=60'
    assert response.headers["RateLimit"].startswith('"read";r=99;')


@pytest.mark.rule("session.error.rate-limited", "session.ratelimit.write")
def test_the_31st_command_in_a_minute_is_rate_limited(env: Env, tenant: TenantUsers, clock: ShiftedClock) -> None:
    with fresh_quota(clock):
        headers = tenant.headers()
        url = "/api/meta/commands/execute/assets:create"
        for index in range(30):
            ok = env.client.post(url, json={"payload": {"name": "n", "serialNo": f"RL-{index}"}}, headers=headers)
            assert ok.status_code == 200, ok.text
        refused = env.client.post(url, json={"payload": {"name": "n", "serialNo": "RL-X"}}, headers=headers)
        assert refused.status_code == 429
        assert refused.json()["code"] == "RATE_LIMITED"


@pytest.mark.rule("session.ratelimit.login")
def test_the_11th_login_in_a_minute_is_rate_limited(env: Env, clock: ShiftedClock) -> None:
    with fresh_quota(clock):
        email = f"nobody-{uuid.uuid4().hex[:6]}@example.test"
        statuses = [
            env.client.post("/api/auth/login", json={"email": email, "password": "x"}).status_code for _ in range(11)
        ]
        assert statuses[:10] == [401] * 10
        assert statuses[10] == 429


def test_redis_limits_hold_across_processes(env: Env, tenant: TenantUsers, tmp_path: Path) -> None:
    """Two independent app instances (as two processes would be) share one Redis counter."""
    redis_reachable()
    prefix = f"tessera-test-{uuid.uuid4().hex[:8]}"
    shared = ShiftedClock()  # two processes read one time
    apps = []
    for index in range(2):
        settings = make_settings(tmp_path / str(index), env.database_url, TESSERA_REDIS_URL=REDIS_URL,
                                 TESSERA_REDIS_PREFIX=prefix)
        apps.append(create_app(settings, build_runtime(settings, clock=shared)))
    headers = tenant.headers()
    with fresh_quota(shared), TestClient(apps[0]) as first, TestClient(apps[1]) as second:
        clients = [first, second]
        statuses = [clients[i % 2].get("/api/dynamic/assets/list", headers=headers).status_code for i in range(100)]
        assert statuses == [200] * 100
        assert first.get("/api/dynamic/assets/list", headers=headers).status_code == 429
        assert second.get("/api/dynamic/assets/list", headers=headers).status_code == 429
        assert first.portal is not None
        first.portal.call(apps[0].runtime.rate_limiter.store.reset)
