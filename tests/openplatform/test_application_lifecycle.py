"""The application lifecycle for owners: rename and describe, disable and enable, delete.

Disabling is the incident switch: every token dead for good, the token endpoint refusing the
application's credentials while it is disabled, its webhooks paused (not dropped); deleting revokes
and removes everything under it and keeps its history in the audit log.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from storage.schema.tables import audit_log
from tests.conftest import Env, TenantUsers, bearer, issue_token
from tests.support.receivers import receiver
from tests.support.webhooks import Hooked, worker_pass

WHOAMI = "/api/open/v1/whoami"


def _update(tenant: TenantUsers, app_id: str, role: str = "admin", **body: Any) -> Any:
    return tenant.admin_call("PUT", f"/applications/{app_id}", role=role, json=body)


def _token(env: Env, cred: dict[str, str]) -> Any:
    return issue_token(env, cred["clientId"], cred["clientSecret"])


def _audited(env: Env, action: str, app_id: str) -> list[Any]:
    with env.sql.connect() as conn:
        return list(conn.execute(select(audit_log).where(audit_log.c.action == action, audit_log.c.target_id == app_id)
                                 .order_by(audit_log.c.id)))  # the order they were written in


@pytest.mark.rule("op.role.owner-application-lifecycle")
def test_an_owner_renames_and_describes_an_application_and_it_is_audited(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    changed = _update(tenant, cred["appId"], name="  Fleet Sync (EU) ", description="EU fleet.")
    assert changed.status_code == 200, changed.text
    data = changed.json()["data"]
    assert (data["name"], data["description"], data["status"], data["role"]) == (
        "Fleet Sync (EU)", "EU fleet.", "active", "owner")
    assert tenant.admin_call("GET", f"/applications/{cred['appId']}").json()["data"]["name"] == "Fleet Sync (EU)"
    entries = _audited(env, "application.update", cred["appId"])
    assert [(e.before, e.after) for e in entries] == [
        ({"name": "Integration", "description": None}, {"name": "Fleet Sync (EU)", "description": "EU fleet."})]
    # The same again changes nothing, writes nothing, audits nothing.
    assert _update(tenant, cred["appId"], name="Fleet Sync (EU)").status_code == 200
    assert len(_audited(env, "application.update", cred["appId"])) == 1


@pytest.mark.rule("op.role.owner-application-lifecycle")
def test_only_owners_change_an_application_and_non_members_do_not_see_it(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    stranger = env.new_tenant()
    assert _update(stranger, cred["appId"], name="x").status_code == 404
    assert stranger.admin_call("DELETE", f"/applications/{cred['appId']}").status_code == 404
    blank = _update(tenant, cred["appId"], name="   ")
    assert blank.status_code == 400 and blank.json()["code"] == "VALIDATION_ERROR"
    empty = _update(tenant, cred["appId"])
    assert empty.status_code == 400
    assert _update(tenant, cred["appId"], status="deleted").status_code == 400  # delete is its own operation


@pytest.mark.rule("op.role.owner-application-lifecycle", "op.incident.revoke-or-disable")
def test_disabling_an_application_kills_its_tokens_for_good_and_refuses_its_credentials(
        env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    before = bearer(_token(env, cred).json()["access_token"])
    assert env.client.get(WHOAMI, headers=before).status_code == 200
    disabled = _update(tenant, cred["appId"], status="disabled")
    assert disabled.status_code == 200 and disabled.json()["data"]["status"] == "disabled"
    refused = env.client.get(WHOAMI, headers=before)
    assert refused.status_code == 401 and refused.json()["code"] == "invalid_token"
    minted = _token(env, cred)
    assert minted.status_code == 401 and minted.json()["error"] == "invalid_client"
    # Enabled again: a new token works; the one stolen before the incident stays dead.
    assert _update(tenant, cred["appId"], status="active").status_code == 200
    after = bearer(_token(env, cred).json()["access_token"])
    assert env.client.get(WHOAMI, headers=after).status_code == 200
    assert env.client.get(WHOAMI, headers=before).status_code == 401
    entries = _audited(env, "application.update", cred["appId"])
    assert [(e.before, e.after) for e in entries] == [({"status": "active"}, {"status": "disabled"}),
                                                      ({"status": "disabled"}, {"status": "active"})]


@pytest.mark.rule("op.role.owner-application-lifecycle")
def test_a_disabled_applications_webhooks_wait_and_go_out_once_it_is_enabled(env: Env, tenant: TenantUsers) -> None:
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook)
        app_id = tenant.admin_call("GET", "/applications/list").json()["data"]["records"][0]["appId"]
        hooked.change("dana")
        assert _update(tenant, app_id, status="disabled").status_code == 200
        for _ in range(3):
            worker_pass(env, tenant)
        assert hook.requests == []
        assert [d["status"] for d in hooked.deliveries()] == ["pending"]
        assert [len(d["attempts"]) for d in hooked.deliveries()] == [0]  # no attempt spent while paused
        assert _update(tenant, app_id, status="active").status_code == 200
        worker_pass(env, tenant)
        assert len(hook.requests) == 1
        assert [d["status"] for d in hooked.deliveries()] == ["delivered"]


@pytest.mark.rule("op.role.owner-application-lifecycle")
def test_deleting_an_application_revokes_and_removes_everything_and_keeps_its_history(
        env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    token = bearer(_token(env, cred).json()["access_token"])
    viewer = _update(tenant, cred["appId"], role="viewer", name="x")
    assert viewer.status_code in (403, 404)  # a tenant viewer is no member of the application
    deleted = tenant.admin_call("DELETE", f"/applications/{cred['appId']}")
    assert deleted.status_code == 200, deleted.text
    assert deleted.json()["data"] == {"appId": cred["appId"], "deleted": True}
    assert tenant.admin_call("GET", f"/applications/{cred['appId']}").status_code == 404
    listed = tenant.admin_call("GET", "/applications/list").json()["data"]["records"]
    assert cred["appId"] not in [a["appId"] for a in listed]
    assert tenant.admin_call("GET", f"/installations/{cred['installationId']}").status_code == 404
    assert env.client.get(WHOAMI, headers=token).status_code == 401
    assert _token(env, cred).status_code == 401
    assert tenant.admin_call("DELETE", f"/applications/{cred['appId']}").status_code == 404
    [entry] = _audited(env, "application.delete", cred["appId"])
    assert entry.after == {"installations": [cred["installationId"]], "revokedCredentials": [cred["clientId"]],
                           "deletedWebhookEndpoints": []}
    assert _audited(env, "application.create", cred["appId"])  # its history is still there
