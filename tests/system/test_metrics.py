"""Metrics (/metrics, Prometheus format) and health: liveness apart from readiness.

Counters of the shared ``env`` app are read from its runtime's own registry, as differences
(other tests of the same app count too); the exposure tests build apps of their own, with the
settings they need.
"""

from __future__ import annotations

import socket
import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import select, update
from starlette.testclient import TestClient

from storage.schema.migrate import upgrade
from storage.schema.tables import deliveries, webhook_endpoints
from tessera.app import create_app
from tessera.automations import runner as automations
from tessera.core.clock import ShiftedClock
from tessera.runtime import build_runtime
from tessera.webhooks import sending
from tests.conftest import REDIS_URL, Env, TenantUsers, fresh_quota, issue_token, make_settings
from tests.inbound.test_inbound_events import GOOD, post, robot_token
from tests.support.receivers import receiver
from tests.support.webhooks import Hooked, drain

TOKEN = "metrics-token-for-tests-0123456789abcdef"
CLOSED = "127.0.0.1:1"  # nothing listens on port 1


def sample(env: Env, name: str, **labels: str) -> float:
    return env.runtime.metrics.registry.get_sample_value(name, labels) or 0.0


def scraped(env: Env) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape, run the way /metrics runs it (samplers first, afresh), by name and labels."""
    env.runtime.metrics.forget_samples()
    env.run(env.runtime.metrics.refresh)
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in env.runtime.metrics.registry.collect() for s in family.samples}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def own_app(tmp_path: Path, database_url: str | None = None, *, listener: bool = False,
            **overrides: str) -> Iterator[TestClient]:
    """An app of its own on a fresh SQLite file (or ``database_url``), with these settings."""
    url = database_url or f"sqlite:///{tmp_path / 'own.db'}"
    settings = make_settings(tmp_path, url, **overrides)
    if database_url is None:
        upgrade(settings.database_url)
    app = create_app(settings, build_runtime(settings, clock=ShiftedClock()), metrics_listener=listener)
    with TestClient(app) as client:
        yield client


# -- requests ---------------------------------------------------------------------------------------
def test_a_request_is_counted_by_operation_and_status_with_its_latency(env: Env) -> None:
    labels = {"surface": "session", "operation": "health"}
    count = sample(env, "tessera_http_requests_total", **labels, status="200")
    observed = sample(env, "tessera_http_request_duration_seconds_count", **labels)
    assert env.client.get("/api/health").status_code == 200
    assert sample(env, "tessera_http_requests_total", **labels, status="200") == count + 1
    assert sample(env, "tessera_http_request_duration_seconds_count", **labels) == observed + 1
    assert sample(env, "tessera_http_request_duration_seconds_sum", **labels) > 0


def test_a_request_no_operation_answers_is_counted_as_unrouted_never_by_its_path(env: Env) -> None:
    path = f"/api/nothing-here-{uuid.uuid4().hex}"
    before = sample(env, "tessera_http_requests_total", surface="session", operation="unrouted", status="404")
    assert env.client.get(path).status_code == 404
    assert sample(env, "tessera_http_requests_total", surface="session", operation="unrouted",
                   status="404") == before + 1
    assert not any(path in value for _, labels in scraped(env) for _, value in labels)


# -- tokens and rate limits ---------------------------------------------------------------------------
def test_an_issued_token_is_counted(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    before = sample(env, "tessera_oauth_tokens_issued_total")
    assert issue_token(env, cred["clientId"], cred["clientSecret"]).status_code == 200
    assert sample(env, "tessera_oauth_tokens_issued_total") == before + 1


def test_a_refused_token_is_counted_by_its_error(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    before = sample(env, "tessera_oauth_tokens_refused_total", error="invalid_client")
    issued = sample(env, "tessera_oauth_tokens_issued_total")
    assert issue_token(env, cred["clientId"], "not-the-secret").status_code == 401
    assert sample(env, "tessera_oauth_tokens_refused_total", error="invalid_client") == before + 1
    assert sample(env, "tessera_oauth_tokens_issued_total") == issued


def test_a_rate_limit_refusal_is_counted_by_policy(env: Env, clock: ShiftedClock) -> None:
    with fresh_quota(clock):
        email = f"nobody-{uuid.uuid4().hex[:8]}@example.test"
        before = sample(env, "tessera_rate_limit_refusals_total", policy="login")
        limit = env.runtime.settings.rate_limit_login
        statuses = [env.client.post("/api/auth/login", json={"email": email, "password": "wrong"}).status_code
                    for _ in range(limit + 1)]
        assert statuses[-1] == 429 and 429 not in statuses[:-1]
        assert sample(env, "tessera_rate_limit_refusals_total", policy="login") == before + 1


# -- queues, deliveries, pool ------------------------------------------------------------------------
def test_queue_depths_and_lag_reflect_the_deliveries_waiting(env: Env, tenant: TenantUsers) -> None:
    hooked = Hooked(env, tenant, SimpleNamespace(url="http://127.0.0.1:9/never-sent"))  # type: ignore[arg-type]
    for assignee in ("ann", "bob", "cy"):
        hooked.change(assignee)
    env.run(sending.dispatch, env.runtime)  # fanned out, never sent (no worker runs here)
    before = scraped(env)
    with env.sql.begin() as conn:
        ids = list(conn.execute(
            select(deliveries.c.id).join(webhook_endpoints, webhook_endpoints.c.id == deliveries.c.endpoint_id)
            .where(webhook_endpoints.c.pid == hooked.endpoint["endpointId"]).order_by(deliveries.c.id)).scalars())
        assert len(ids) == 3
        late = env.runtime.clock.now() - timedelta(minutes=10)
        conn.execute(update(deliveries).where(deliveries.c.id == ids[0]).values(next_attempt_at=late))
        conn.execute(update(deliveries).where(deliveries.c.id == ids[1]).values(status="retrying"))
        conn.execute(update(deliveries).where(deliveries.c.id == ids[2]).values(status="dead", next_attempt_at=None))
    after = scraped(env)
    try:
        for status, change in (("pending", -2), ("retrying", 1), ("dead", 1)):
            key = ("tessera_webhook_deliveries", (("status", status),))
            assert after[key] == before[key] + change, status
        assert after[("tessera_webhook_delivery_lag_seconds", ())] >= 600
    finally:  # never sent by later tests' workers
        with env.sql.begin() as conn:
            conn.execute(update(deliveries).where(deliveries.c.id.in_(ids)).values(status="dead", next_attempt_at=None))


def test_inbound_events_not_yet_dispatched_are_counted(env: Env, tenant: TenantUsers) -> None:
    auth = robot_token(env, tenant)
    before = scraped(env)[("tessera_inbound_undispatched", ())]
    for key in ("metrics-in-1", "metrics-in-2"):
        assert post(env, auth, GOOD, f"{key}-{uuid.uuid4().hex[:8]}").status_code == 202
    after = scraped(env)
    try:
        assert after[("tessera_inbound_undispatched", ())] == before + 2  # no worker runs here
        assert ("tessera_automation_runs", (("status", "parked"),)) in after
    finally:
        env.run(automations.dispatch, env.runtime)  # consumed, so later tests count from zero again


def test_an_attempt_is_observed_by_the_deliverys_next_status(env: Env, tenant: TenantUsers) -> None:
    before = sample(env, "tessera_webhook_attempt_duration_seconds_count", outcome="delivered")
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook)
        hooked.change("dana")
        drain(env, tenant, lambda: len(hook.requests) == 1)
    assert sample(env, "tessera_webhook_attempt_duration_seconds_count", outcome="delivered") == before + 1


def test_the_pool_in_use_is_reported_on_postgresql(env: Env) -> None:
    if env.backend != "postgresql":
        assert not any(name == "tessera_db_pool_connections" for name, _ in scraped(env)), "SQLite has no pool"
        return
    samples = scraped(env)
    maximum = samples[("tessera_db_pool_connections", (("state", "max"),))]
    in_use = samples[("tessera_db_pool_connections", (("state", "in_use"),))]
    idle = samples[("tessera_db_pool_connections", (("state", "idle"),))]
    assert maximum == env.runtime.settings.database_pool_size
    assert in_use >= 0 and idle >= 1 and in_use + idle <= maximum
    assert samples[("tessera_db_pool_requests_waiting", ())] == 0


# -- exposure -------------------------------------------------------------------------------------------
def test_metrics_need_the_token_on_the_api_port(tmp_path: Path) -> None:
    with own_app(tmp_path, TESSERA_METRICS_TOKEN=TOKEN) as client:
        missing = client.get("/metrics")
        wrong = client.get("/metrics", headers={"Authorization": "Bearer " + "x" * len(TOKEN)})
    for response in (missing, wrong):
        assert response.status_code == 401
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
        assert response.json()["code"] == "UNAUTHORIZED"
        assert "tessera_" not in response.text


def test_metrics_with_the_token_are_in_the_prometheus_format(tmp_path: Path) -> None:
    with own_app(tmp_path, TESSERA_METRICS_TOKEN=TOKEN) as client:
        client.get("/api/health")
        response = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    families = {family.name: family for family in text_string_to_metric_families(response.text)}
    assert {"tessera_http_requests", "tessera_http_request_duration_seconds", "tessera_webhook_deliveries",
            "tessera_webhook_delivery_lag_seconds", "tessera_oauth_tokens_issued",
            "tessera_rate_limit_refusals"} <= set(families)
    health = [s for s in families["tessera_http_requests"].samples if s.labels.get("operation") == "health"]
    assert health and health[0].labels["status"] == "200"


def test_metrics_are_not_served_on_the_api_port_without_a_token_setting(tmp_path: Path) -> None:
    with own_app(tmp_path) as client:
        response = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 404


def test_the_metrics_listener_serves_metrics_on_a_port_of_its_own(tmp_path: Path) -> None:
    port = free_port()
    with own_app(tmp_path, listener=True, TESSERA_METRICS_PORT=str(port)) as client:
        on_api_port = client.get("/metrics")
        scrape = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5)
        elsewhere = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=5)
    assert on_api_port.status_code == 404
    assert scrape.status_code == 200 and "tessera_webhook_deliveries" in scrape.text
    assert elsewhere.status_code == 404


# -- health -----------------------------------------------------------------------------------------------
def test_liveness_checks_no_dependency(tmp_path: Path) -> None:
    with own_app(tmp_path, f"postgresql://nobody@{CLOSED}/nothing") as client:
        response = client.get("/api/health")
    assert response.status_code == 200
    assert response.json()["data"] == {"status": "up"}


def test_readiness_is_200_when_the_database_answers(env: Env) -> None:
    response = env.client.get("/api/health/ready")
    assert response.status_code == 200
    assert response.json()["data"] == {"status": "up", "database": "up", "databaseWrite": "up"}


@pytest.mark.allows_5xx  # the 503 is the point
def test_readiness_is_503_when_the_database_is_unreachable(tmp_path: Path) -> None:
    with own_app(tmp_path, f"postgresql://nobody@{CLOSED}/nothing") as client:
        response = client.get("/api/health/ready")
    assert response.status_code == 503
    assert response.json()["code"] == "SERVICE_UNAVAILABLE"
    assert response.json()["data"] == {"status": "down", "database": "down", "databaseWrite": "down"}


@pytest.mark.allows_5xx  # the 503 is the point
def test_readiness_is_503_naming_the_write_check_when_sqlite_cannot_write(tmp_path: Path) -> None:
    with own_app(tmp_path) as client:
        assert client.get("/api/health/ready").status_code == 200
        # Another process holds SQLite's write lock for good: reads answer, no write can commit.
        holder = sqlite3.connect(tmp_path / "own.db", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            response = client.get("/api/health/ready")
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert response.status_code == 503
        assert response.json()["data"] == {"status": "down", "database": "up", "databaseWrite": "down"}
        assert response.json()["message"] == "The database does not accept writes."
        assert client.get("/api/health/ready").status_code == 200


def test_readiness_checks_redis_when_it_is_configured(tmp_path: Path) -> None:
    with own_app(tmp_path, TESSERA_REDIS_URL=REDIS_URL) as client:
        response = client.get("/api/health/ready")
    assert response.status_code == 200
    assert response.json()["data"] == {"status": "up", "database": "up", "databaseWrite": "up", "redis": "up"}


@pytest.mark.allows_5xx  # the 503 is the point
def test_readiness_is_503_when_redis_is_unreachable(tmp_path: Path) -> None:
    with own_app(tmp_path, TESSERA_REDIS_URL=f"redis://{CLOSED}/0") as client:
        response = client.get("/api/health/ready")
    assert response.status_code == 503
    assert response.json()["data"] == {"status": "down", "database": "up", "databaseWrite": "up", "redis": "down"}
