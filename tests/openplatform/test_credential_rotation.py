"""Credential hygiene: each credential's age and the 90-day rotation baseline in the administration
lists and the metrics, ``credential.rotation.due`` announced once, and the optional maximum age
(off by default) that stops a credential from obtaining tokens, announced in advance. Time is moved
with the clock fixture; each test works in a tenant of its own."""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import quote

import pytest

from tessera.core.clock import ShiftedClock
from tessera.registry.operational import CREDENTIAL_EXPIRY_APPROACHING, CREDENTIAL_ROTATION_DUE
from tests.conftest import Env, TenantUsers, issue_token
from tests.support.receivers import receiver
from tests.support.webhooks import register, worker_pass

DAY = 86400


def _listed(tenant: TenantUsers, installation_id: str, **params: str) -> list[dict[str, Any]]:
    response = tenant.admin_call("GET", f"/installations/{installation_id}/credentials/list", params=params)
    assert response.status_code == 200, response.text
    return list(response.json()["data"]["records"])


def _one(tenant: TenantUsers, cred: dict[str, str]) -> dict[str, Any]:
    return next(r for r in _listed(tenant, cred["installationId"]) if r["clientId"] == cred["clientId"])


def _days_on(tenant: TenantUsers, clock: ShiftedClock, days: float) -> None:
    """Move the clock, and sign in again (the session's JWT lives 8 hours)."""
    clock.advance(days * DAY)
    tenant.sign_in_again()


def _max_age(env: Env, monkeypatch: pytest.MonkeyPatch, days: int, notice: int = 14) -> None:
    monkeypatch.setattr(env.runtime, "settings", dataclasses.replace(
        env.runtime.settings, credential_max_age_days=days, credential_expiry_notice_days=notice))


def _audit(env: Env, tenant: TenantUsers, client_id: str, role: str = "admin") -> list[dict[str, Any]]:
    filters = quote(json.dumps([{"fieldName": "targetId", "operator": "eq", "value": client_id}]))
    response = env.client.get(f"/api/audit/list?filters={filters}&sortOrder=asc", headers=tenant.headers(role))
    assert response.status_code == 200, response.text
    return list(response.json()["data"]["records"])


@pytest.mark.rule("op.credential.rotation-baseline-90-days")
def test_a_new_credential_shows_its_age_and_when_rotation_falls_due(tenant: TenantUsers) -> None:
    cred = tenant.install()
    listed = _one(tenant, cred)
    assert listed["ageDays"] == 0 and listed["rotationDue"] is False
    created = datetime.fromisoformat(listed["created_at"].replace("Z", "+00:00"))
    assert datetime.fromisoformat(listed["rotationDueAt"].replace("Z", "+00:00")) == created + timedelta(days=90)
    assert listed["maxAgeExpiresAt"] is None  # no maximum age by default


@pytest.mark.rule("op.credential.rotation-baseline-90-days")
def test_a_credential_past_the_90_day_baseline_is_rotation_due(tenant: TenantUsers, clock: ShiftedClock) -> None:
    cred = tenant.install()
    _days_on(tenant, clock, 89.9)
    assert _one(tenant, cred)["rotationDue"] is False
    _days_on(tenant, clock, 0.2)
    listed = _one(tenant, cred)
    assert (listed["ageDays"], listed["rotationDue"], listed["status"]) == (90, True, "active")


def test_rotating_a_due_credential_clears_rotation_due(tenant: TenantUsers, clock: ShiftedClock) -> None:
    cred = tenant.install()
    _days_on(tenant, clock, 91)
    rotated = tenant.admin_call("POST", f"/credentials/{cred['clientId']}/rotate", json={"graceSeconds": 300})
    assert rotated.status_code == 200, rotated.text
    by_id = {r["clientId"]: r for r in _listed(tenant, cred["installationId"])}
    assert by_id[cred["clientId"]]["rotationDue"] is False  # rotated: on its way out
    assert (by_id[rotated.json()["data"]["clientId"]]["ageDays"],
            by_id[rotated.json()["data"]["clientId"]]["rotationDue"]) == (0, False)


def test_the_baseline_is_a_setting(env: Env, tenant: TenantUsers, clock: ShiftedClock,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(env.runtime, "settings", dataclasses.replace(env.runtime.settings, credential_rotation_days=30))
    cred = tenant.install()
    _days_on(tenant, clock, 31)
    assert _one(tenant, cred)["rotationDue"] is True


def test_credentials_sort_by_age(tenant: TenantUsers, clock: ShiftedClock) -> None:
    older = tenant.install()
    _days_on(tenant, clock, 1)
    newer = tenant.admin_call("POST", f"/installations/{older['installationId']}/credentials").json()["data"]
    oldest_first = _listed(tenant, older["installationId"], sortField="created_at", sortOrder="asc")
    assert [(r["clientId"], r["ageDays"]) for r in oldest_first] == [(older["clientId"], 1), (newer["clientId"], 0)]


def test_the_metric_counts_credentials_past_the_baseline_per_tenant(env: Env, tenant: TenantUsers,
                                                                    clock: ShiftedClock) -> None:
    tenant.install()
    tenant.install()

    def due() -> float:
        env.runtime.metrics.forget_samples()
        env.run(env.runtime.metrics.refresh)
        registry = env.runtime.metrics.registry
        return registry.get_sample_value("tessera_credentials_rotation_due", {"tenant": tenant.code}) or 0.0

    assert due() == 0.0
    _days_on(tenant, clock, 91)
    assert due() == 2.0


@pytest.mark.rule("op.credential.rotation-baseline-90-days")
def test_crossing_the_baseline_sends_credential_rotation_due_once(env: Env, tenant: TenantUsers,
                                                                  clock: ShiftedClock) -> None:
    cred = tenant.install()
    with receiver(200) as hook:
        registered = register(tenant, cred["installationId"], hook.url, (CREDENTIAL_ROTATION_DUE,))
        assert registered.status_code == 200, registered.text
        worker_pass(env, tenant)
        assert hook.requests == []  # not due yet
        _days_on(tenant, clock, 91)
        worker_pass(env, tenant)  # announced and delivered in one pass
        worker_pass(env, tenant)  # not again
        assert len(hook.requests) == 1
    event = json.loads(hook.requests[0].body)
    assert event["type"] == CREDENTIAL_ROTATION_DUE
    assert {k: event["data"][k] for k in ("clientId", "installationId", "applicationId", "rotationDays")} == {
        "clientId": cred["clientId"], "installationId": cred["installationId"], "applicationId": cred["appId"],
        "rotationDays": 90}


def test_rotation_due_is_audited_where_the_applications_owners_read_it(env: Env, tenant: TenantUsers,
                                                                       clock: ShiftedClock) -> None:
    cred = tenant.install()
    _days_on(tenant, clock, 91)
    worker_pass(env, tenant)
    worker_pass(env, tenant)
    entries = [e for e in _audit(env, tenant, cred["clientId"]) if e["action"] == "credential.rotation_due"]
    assert len(entries) == 1
    assert entries[0]["actor"] == "system:credentials" and entries[0]["after"]["rotationDays"] == 90


def test_a_credential_past_the_maximum_age_obtains_no_token(env: Env, tenant: TenantUsers, clock: ShiftedClock,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    _max_age(env, monkeypatch, 180)
    cred = tenant.install()
    _days_on(tenant, clock, 179.9)
    assert issue_token(env, cred["clientId"], cred["clientSecret"]).status_code == 200
    _days_on(tenant, clock, 0.2)
    refused = issue_token(env, cred["clientId"], cred["clientSecret"])
    assert (refused.status_code, refused.json()["code"]) == (401, "invalid_client")
    assert _one(tenant, cred)["status"] == "expired"


def test_no_maximum_age_by_default(env: Env, tenant: TenantUsers, clock: ShiftedClock) -> None:
    assert env.runtime.settings.credential_max_age_days == 0
    cred = tenant.install()
    _days_on(tenant, clock, 400)
    assert issue_token(env, cred["clientId"], cred["clientSecret"]).status_code == 200


def test_the_maximum_age_is_announced_in_advance_once(env: Env, tenant: TenantUsers, clock: ShiftedClock,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    _max_age(env, monkeypatch, 180, notice=14)
    cred = tenant.install()
    with receiver(200) as hook:
        registered = register(tenant, cred["installationId"], hook.url, (CREDENTIAL_EXPIRY_APPROACHING,))
        assert registered.status_code == 200, registered.text
        _days_on(tenant, clock, 165)
        worker_pass(env, tenant)
        assert hook.requests == []  # 15 days left
        _days_on(tenant, clock, 2)
        worker_pass(env, tenant)
        worker_pass(env, tenant)
        assert len(hook.requests) == 1
    event = json.loads(hook.requests[0].body)
    assert event["type"] == CREDENTIAL_EXPIRY_APPROACHING
    assert event["data"]["clientId"] == cred["clientId"] and event["data"]["maxAgeDays"] == 180
    assert event["data"]["expiresAt"] == _one(tenant, cred)["maxAgeExpiresAt"]


def test_reaching_the_maximum_age_is_audited(env: Env, tenant: TenantUsers, clock: ShiftedClock,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    _max_age(env, monkeypatch, 180)
    cred = tenant.install()
    _days_on(tenant, clock, 181)
    worker_pass(env, tenant)
    worker_pass(env, tenant)
    expired = [e for e in _audit(env, tenant, cred["clientId"]) if e["action"] == "credential.expire"]
    assert len(expired) == 1
    assert expired[0]["before"] == {"status": "active"} and expired[0]["after"]["status"] == "expired"
