"""Per-tenant, per-user rate limits: read 100/min, write 30/min, login 10/min; in process and Redis."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tessera.app import create_app
from tessera.core.clock import FrozenClock, ShiftedClock
from tessera.ratelimit import InProcessStore, RateLimiter, RedisStore, Store
from tessera.runtime import build_runtime
from tests.conftest import REDIS_URL, Env, TenantUsers, fresh_window, make_settings, redis_reachable

WINDOW_START = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)  # a minute boundary


@pytest.fixture
def frozen() -> FrozenClock:
    return FrozenClock(WINDOW_START)


@pytest.fixture(params=["in-process", "redis"])
def limiter(request: pytest.FixtureRequest, frozen: FrozenClock) -> Iterator[RateLimiter]:
    store: Store
    if request.param == "redis":
        redis_reachable()
        store = RedisStore(REDIS_URL, f"tessera-test-{uuid.uuid4().hex[:8]}")
    else:
        store = InProcessStore()
    yield RateLimiter(store, {"read": 100, "write": 30, "login": 10}, frozen, 60)
    store.reset()


@pytest.mark.parametrize(("policy", "limit"), [("read", 100), ("write", 30), ("login", 10)])
def test_the_call_after_the_limit_is_refused(limiter: RateLimiter, policy: str, limit: int) -> None:
    decisions = [limiter.check(policy, "tenant-1:user-1") for _ in range(limit + 1)]
    assert all(d.allowed for d in decisions[:limit])
    refused = decisions[limit]
    assert not refused.allowed
    assert 1 <= int(refused.headers()["Retry-After"]) <= 60
    assert refused.headers()["RateLimit-Policy"] == f'"{policy}";q={limit};w=60'


def test_users_are_counted_separately(limiter: RateLimiter) -> None:
    for _ in range(10):
        limiter.check("login", "a")
    assert not limiter.check("login", "a").allowed
    assert limiter.check("login", "b").allowed


def test_the_count_starts_again_in_the_next_window(limiter: RateLimiter, frozen: FrozenClock) -> None:
    for _ in range(10):
        limiter.check("login", "a")
    assert not limiter.check("login", "a").allowed
    frozen.advance(60)
    assert limiter.check("login", "a").allowed


def test_retry_after_counts_down_to_the_next_window(limiter: RateLimiter, frozen: FrozenClock) -> None:
    frozen.advance(45)
    for _ in range(10):
        limiter.check("login", "a")
    assert limiter.check("login", "a").headers()["Retry-After"] == "15"


def test_remaining_counts_down(limiter: RateLimiter) -> None:
    first = limiter.check("write", "u")
    second = limiter.check("write", "u")
    assert (first.remaining, second.remaining) == (29, 28)
    assert second.headers()["RateLimit"].startswith('"write";r=28;t=')


def test_the_101st_read_in_a_minute_is_rate_limited(env: Env, tenant: TenantUsers, clock: ShiftedClock) -> None:
    fresh_window(clock)
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


def test_successful_reads_carry_rate_limit_headers(env: Env, tenant: TenantUsers) -> None:
    response = env.client.get("/api/dynamic/assets/list", headers=tenant.headers())
    assert response.headers["RateLimit-Policy"] == '"read";q=100;w=60'
    assert response.headers["RateLimit"].startswith('"read";r=99;')


def test_the_31st_command_in_a_minute_is_rate_limited(env: Env, tenant: TenantUsers, clock: ShiftedClock) -> None:
    fresh_window(clock)
    headers = tenant.headers()
    url = "/api/meta/commands/execute/assets:create"
    for index in range(30):
        ok = env.client.post(url, json={"payload": {"name": "n", "serialNo": f"RL-{index}"}}, headers=headers)
        assert ok.status_code == 200, ok.text
    refused = env.client.post(url, json={"payload": {"name": "n", "serialNo": "RL-X"}}, headers=headers)
    assert refused.status_code == 429
    assert refused.json()["code"] == "RATE_LIMITED"


def test_the_11th_login_in_a_minute_is_rate_limited(env: Env, clock: ShiftedClock) -> None:
    fresh_window(clock)
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
    fresh_window(shared)
    with TestClient(apps[0]) as first, TestClient(apps[1]) as second:
        clients = [first, second]
        statuses = [clients[i % 2].get("/api/dynamic/assets/list", headers=headers).status_code for i in range(100)]
        assert statuses == [200] * 100
        assert first.get("/api/dynamic/assets/list", headers=headers).status_code == 429
        assert second.get("/api/dynamic/assets/list", headers=headers).status_code == 429
    for app in apps:
        app.runtime.rate_limiter.store.reset()
