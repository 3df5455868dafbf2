"""Hourly statistics behind the console's plots: an endpoint's deliveries (delivered and failed
attempts, dead deliveries, first-attempt latency percentiles) and an installation's audited Open
Platform calls per status, over 24 hours or 7 days, on both databases.

Rows are written at known times relative to the injected clock, which is first moved to the middle
of an hour so that no test straddles an hour boundary.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest

from tessera.core.clock import ShiftedClock, iso
from tests.conftest import Env, TenantUsers, bearer, issue_token
from tests.support.stats import Attempt, Seeded, seed_calls, seed_deliveries
from tests.support.webhooks import register

HOUR = timedelta(hours=1)
MINUTE = timedelta(minutes=1)


@pytest.fixture
def hour(clock: ShiftedClock) -> Iterator[datetime]:
    """The clock moved to half past the hour; yields the start of that hour."""
    now = clock.now()
    clock.advance((30 * 60 - (now.minute * 60 + now.second + now.microsecond / 1e6)) % 3600)
    yield clock.now().replace(minute=0, second=0, microsecond=0)


def _scene(tenant: TenantUsers) -> dict[str, str]:
    cred = tenant.install(scopes=("assets.read",))
    endpoint = register(tenant, cred["installationId"], "http://127.0.0.1:9/hooks")
    assert endpoint.status_code == 200, endpoint.text
    return {**cred, "endpointId": endpoint.json()["data"]["endpointId"]}


def _endpoint_stats(tenant: TenantUsers, endpoint_id: str, role: str = "admin", **params: str) -> Any:
    return tenant.admin_call("GET", f"/webhook-endpoints/{endpoint_id}/stats", role=role, params=params)


def _call_stats(tenant: TenantUsers, installation_id: str, role: str = "admin", **params: str) -> Any:
    return tenant.admin_call("GET", f"/installations/{installation_id}/call-stats", role=role, params=params)


def _ok(response: Any) -> dict[str, Any]:
    assert response.status_code == 200, response.text
    return dict(response.json()["data"])


def test_delivery_buckets_count_attempts_deaths_and_first_attempt_latencies(env: Env, tenant: TenantUsers,
                                                                           hour: datetime) -> None:
    scene = _scene(tenant)
    other = _scene(tenant)
    h0 = hour
    seed_deliveries(env.sql, scene["endpointId"], [
        # Three hours ago: delivered at once (10 ms); replayed this hour, delivered again (not a first attempt).
        Seeded("delivered", [Attempt(h0 - 3 * HOUR, 200, 10), Attempt(h0 + 2 * MINUTE, 200, 999)]),
        # Two hours ago: a 500 then a 200 (first attempt 300 ms), and a 204 at once (100 ms).
        Seeded("delivered", [Attempt(h0 - 2 * HOUR + 5 * MINUTE, 500, 300),
                             Attempt(h0 - 2 * HOUR + 10 * MINUTE, 200, 100)]),
        Seeded("delivered", [Attempt(h0 - 2 * HOUR + 20 * MINUTE, 204, 100)]),
        # An hour ago: a timeout and a 503; this hour a 500, after which it is dead.
        Seeded("dead", [Attempt(h0 - HOUR + MINUTE, None, 5000, error="timeout"),
                        Attempt(h0 - HOUR + 2 * MINUTE, 503, 40), Attempt(h0 + MINUTE, 500, 20)]),
        # 30 hours ago: only in the 7-day window; 8 days ago: in neither.
        Seeded("delivered", [Attempt(h0 - 30 * HOUR, 200, 50)]),
        Seeded("delivered", [Attempt(h0 - 8 * 24 * HOUR, 200, 50)]),
    ])
    seed_deliveries(env.sql, other["endpointId"], [Seeded("dead", [Attempt(h0 + MINUTE, 500, 1)])])

    day = _ok(_endpoint_stats(tenant, scene["endpointId"]))
    assert day["endpointId"] == scene["endpointId"] and day["window"] == "24h"
    assert (day["from"], day["to"]) == (iso(h0 - 23 * HOUR), iso(h0 + HOUR))
    assert [b["hour"] for b in day["buckets"]] == [iso(h0 - (23 - i) * HOUR) for i in range(24)]
    busy = {i: b for i, b in enumerate(day["buckets"]) if b["delivered"] or b["failed"] or b["dead"]}
    empty = {"delivered": 0, "failed": 0, "dead": 0, "p50LatencyMs": None, "p95LatencyMs": None}
    assert all(b == {"hour": b["hour"], **empty} for i, b in enumerate(day["buckets"]) if i not in busy)
    without_hour = {i: {k: v for k, v in b.items() if k != "hour"} for i, b in busy.items()}
    assert without_hour == {
        20: {"delivered": 1, "failed": 0, "dead": 0, "p50LatencyMs": 10, "p95LatencyMs": 10},
        # First attempts 100 and 300 ms: interpolated as PostgreSQL's percentile_cont does.
        21: {"delivered": 2, "failed": 1, "dead": 0, "p50LatencyMs": 200, "p95LatencyMs": 290},
        22: {"delivered": 0, "failed": 2, "dead": 0, "p50LatencyMs": 5000, "p95LatencyMs": 5000},
        23: {"delivered": 1, "failed": 1, "dead": 1, "p50LatencyMs": None, "p95LatencyMs": None},
    }

    week = _ok(_endpoint_stats(tenant, scene["endpointId"], window="7d"))
    assert week["window"] == "7d" and len(week["buckets"]) == 168
    assert week["buckets"][-24:] == day["buckets"]
    assert [(i, b["delivered"], b["p50LatencyMs"]) for i, b in enumerate(week["buckets"][:-24])
            if b["delivered"] or b["failed"]] == [(167 - 30, 1, 50)]


def test_an_attempt_counts_once_it_ends_and_as_failed_when_its_worker_stopped(env: Env, tenant: TenantUsers,
                                                                              hour: datetime) -> None:
    """Attempt rows are written before their requests: one in flight (its delivery leased) is not
    counted yet; one left ``sending`` by a worker that stopped (no lease any more) is a failure."""
    scene = _scene(tenant)
    seed_deliveries(env.sql, scene["endpointId"], [
        Seeded("pending", [Attempt(hour + MINUTE, None, None, outcome="sending")], locked_until=hour + HOUR),
        Seeded("pending", [Attempt(hour + 2 * MINUTE, None, None, outcome="sending")]),
    ])
    last = _ok(_endpoint_stats(tenant, scene["endpointId"]))["buckets"][-1]
    assert (last["delivered"], last["failed"]) == (0, 1)


@pytest.mark.rule("webhook.dlq.replay-same-ids")
def test_a_replayed_delivery_leaves_the_dead_count(env: Env, tenant: TenantUsers, hour: datetime) -> None:
    scene = _scene(tenant)
    [dead] = seed_deliveries(env.sql, scene["endpointId"], [Seeded("dead", [Attempt(hour + MINUTE, 500, 20)])])
    assert _ok(_endpoint_stats(tenant, scene["endpointId"]))["buckets"][-1]["dead"] == 1
    assert tenant.admin_call("POST", f"/deliveries/{dead}/replay").status_code == 200
    last = _ok(_endpoint_stats(tenant, scene["endpointId"]))["buckets"][-1]
    assert (last["dead"], last["failed"]) == (0, 1)  # the attempt happened; the death is undone


def test_an_endpoint_without_deliveries_has_every_hour_at_zero(tenant: TenantUsers, hour: datetime) -> None:
    scene = _scene(tenant)
    buckets = _ok(_endpoint_stats(tenant, scene["endpointId"], window="7d"))["buckets"]
    assert len(buckets) == 168 and buckets[-1]["hour"] == iso(hour)
    assert {(b["delivered"], b["failed"], b["dead"], b["p50LatencyMs"], b["p95LatencyMs"]) for b in buckets} == {
        (0, 0, 0, None, None)}


def test_call_buckets_count_audited_calls_per_status_and_class(env: Env, tenant: TenantUsers,
                                                              hour: datetime) -> None:
    scene = _scene(tenant)
    other = tenant.install(scopes=("assets.read",))
    seed_calls(env.sql, scene["installationId"], [
        (hour - 2 * HOUR + MINUTE, 200), (hour - 2 * HOUR + 2 * MINUTE, 200), (hour - 2 * HOUR + 3 * MINUTE, 404),
        (hour - HOUR, 304), (hour - HOUR + 59 * MINUTE, 503),
        (hour - 50 * HOUR, 429), (hour - 8 * 24 * HOUR, 200),
    ])
    seed_calls(env.sql, other["installationId"], [(hour + MINUTE, 500)])
    # And one real call, audited by the service itself (in batches: flushed here).
    token = issue_token(env, scene["clientId"], scene["clientSecret"]).json()["access_token"]
    assert env.client.get("/api/open/v1/whoami", headers=bearer(token)).status_code == 200
    env.run(env.runtime.call_audit.flush)

    day = _ok(_call_stats(tenant, scene["installationId"]))
    assert day["installationId"] == scene["installationId"] and day["window"] == "24h"
    assert (day["from"], day["to"]) == (iso(hour - 23 * HOUR), iso(hour + HOUR))
    assert len(day["buckets"]) == 24
    busy = {i: {k: v for k, v in b.items() if k != "hour"} for i, b in enumerate(day["buckets"]) if b["total"]}
    assert busy == {
        21: {"total": 3, "status2xx": 2, "status3xx": 0, "status4xx": 1, "status5xx": 0,
             "statuses": {"200": 2, "404": 1}},
        22: {"total": 2, "status2xx": 0, "status3xx": 1, "status4xx": 0, "status5xx": 1,
             "statuses": {"304": 1, "503": 1}},
        23: {"total": 1, "status2xx": 1, "status3xx": 0, "status4xx": 0, "status5xx": 0, "statuses": {"200": 1}},
    }
    assert day["buckets"][0] == {"hour": iso(hour - 23 * HOUR), "total": 0, "status2xx": 0, "status3xx": 0,
                                 "status4xx": 0, "status5xx": 0, "statuses": {}}
    week = _ok(_call_stats(tenant, scene["installationId"], window="7d"))
    assert len(week["buckets"]) == 168 and week["buckets"][-24:] == day["buckets"]
    assert [(i, b["statuses"]) for i, b in enumerate(week["buckets"][:-24]) if b["total"]] == [(167 - 50, {"429": 1})]


@pytest.mark.rule("op.role.viewer-read-only")
def test_every_member_reads_the_statistics_and_non_members_get_404(env: Env, tenant: TenantUsers) -> None:
    scene = _scene(tenant)
    assert _endpoint_stats(tenant, scene["endpointId"], role="viewer").status_code == 404  # no application role
    assert _call_stats(tenant, scene["installationId"], role="viewer").status_code == 404
    added = tenant.admin_call("POST", f"/applications/{scene['appId']}/members",
                              json={"email": tenant.emails["viewer"], "role": "viewer"})
    assert added.status_code == 200, added.text
    assert len(_ok(_endpoint_stats(tenant, scene["endpointId"], role="viewer"))["buckets"]) == 24
    assert len(_ok(_call_stats(tenant, scene["installationId"], role="viewer"))["buckets"]) == 24

    stranger = env.new_tenant()
    for response in (_endpoint_stats(stranger, scene["endpointId"]), _call_stats(stranger, scene["installationId"]),
                     _endpoint_stats(tenant, "whe_" + "0" * 26), _call_stats(tenant, "ins_" + "0" * 26)):
        assert response.status_code == 404, response.text
        assert response.json()["code"] == "NOT_FOUND"
    deleted = tenant.admin_call("DELETE", f"/webhook-endpoints/{scene['endpointId']}")
    assert deleted.status_code == 200
    assert _endpoint_stats(tenant, scene["endpointId"]).status_code == 404


@pytest.mark.parametrize("window", ["30d", "24H", "", "1h"])
def test_a_window_other_than_24h_or_7d_is_refused(tenant: TenantUsers, window: str) -> None:
    scene = _scene(tenant)
    for response in (_endpoint_stats(tenant, scene["endpointId"], window=window),
                     _call_stats(tenant, scene["installationId"], window=window)):
        assert response.status_code == 400, response.text
        assert response.json()["code"] == "VALIDATION_ERROR"
        assert response.json()["data"]["fieldErrors"].keys() == {"window"}
