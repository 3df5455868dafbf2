"""Open Platform business calls are limited per installation (TESSERA_RATE_LIMIT_OPEN a minute):
over it, 429 ``rate_limit_exceeded`` with ``Retry-After``, and every answer carries the limit's
``RateLimit-Policy`` and ``RateLimit`` fields."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from tessera.app import create_app
from tessera.runtime import build_runtime
from tests.conftest import Env, TenantUsers, make_settings
from tests.support.openplatform import Integration

LIMIT = 3


@pytest.fixture
def limited(env: Env, tmp_path: Path) -> Iterator[TestClient]:
    """Another app on the same database whose installations may make 3 calls a minute."""
    settings = make_settings(tmp_path, env.database_url, TESSERA_RATE_LIMIT_OPEN=str(LIMIT))
    with TestClient(create_app(settings, build_runtime(settings))) as client:
        yield client


@pytest.mark.rule("op.error-envelope.request-id", "op.error.rate-limit-exceeded", "op.ratelimit.token-endpoint-429")
def test_the_call_over_an_installations_limit_is_rate_limit_exceeded(env: Env, tenant: TenantUsers,
                                                                     limited: TestClient) -> None:
    auth = Integration(env, tenant).auth
    started = time.monotonic()
    statuses = [limited.get("/api/open/v1/whoami", headers=auth).status_code for _ in range(LIMIT)]
    refused = limited.get("/api/open/v1/whoami", headers=auth)
    took = time.monotonic() - started
    assert statuses == [200] * LIMIT
    assert refused.status_code == 429
    body = refused.json()
    assert body["code"] == "rate_limit_exceeded"
    assert body["requestId"] == refused.headers["X-Request-Id"]
    # When the first of the three leaves the minute: 60 s after it, less the time the calls took.
    assert 60 - math.ceil(took) - 1 <= int(refused.headers["Retry-After"]) <= 60


def test_every_business_call_carries_the_installations_limit(env: Env, tenant: TenantUsers,
                                                              limited: TestClient) -> None:
    auth = Integration(env, tenant).auth
    first = limited.get("/api/open/v1/whoami", headers=auth)
    assert first.headers["RateLimit-Policy"] == f'"open";q={LIMIT};w=60'
    assert first.headers["RateLimit"].startswith(f'"open";r={LIMIT - 1};t=')


@pytest.mark.rule("op.error.rate-limit-exceeded")
def test_installations_are_limited_separately(env: Env, tenant: TenantUsers, limited: TestClient) -> None:
    busy, quiet = Integration(env, tenant).auth, Integration(env, env.new_tenant()).auth
    for _ in range(LIMIT + 1):
        limited.get("/api/open/v1/whoami", headers=busy)
    assert limited.get("/api/open/v1/whoami", headers=quiet).status_code == 200
