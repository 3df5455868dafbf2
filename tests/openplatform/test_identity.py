"""The Open Platform administration surface: applications, members and roles, installations, credentials."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import quote

import pytest

from tessera.core.clock import ShiftedClock
from tessera.core.errors import LastOwner
from tessera.openplatform.identity import members
from tests.conftest import Env, TenantUsers, actor_for


def _app(tenant: TenantUsers) -> str:
    response = tenant.admin_call("POST", "/applications", json={"name": "ERP sync", "description": "nightly"})
    assert response.status_code == 200, response.text
    return response.json()["data"]["appId"]


def _add(tenant: TenantUsers, app_id: str, user_pid: str, role: str) -> None:
    response = tenant.admin_call("POST", f"/applications/{app_id}/members", json={"userPid": user_pid, "role": role})
    assert response.status_code == 200, response.text


@pytest.mark.rule("op.admin.platform-role", "session.error.forbidden")
def test_creating_an_application_needs_the_platform_role(tenant: TenantUsers) -> None:
    response = tenant.admin_call("POST", "/applications", role="viewer", json={"name": "x"})
    assert response.status_code == 403
    assert response.json()["data"] == {"permission": "sys.connector.update"}


@pytest.mark.rule("op.admin.creator-first-owner")
def test_the_creator_becomes_the_first_owner(tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    members = tenant.admin_call("GET", f"/applications/{app_id}/members/list").json()["data"]
    assert [(m["email"], m["role"]) for m in members["records"]] == [(tenant.emails["admin"], "owner")]


@pytest.mark.rule("op.role.non-member-sees-nothing")
def test_a_non_member_sees_nothing(env: Env, tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    other = env.new_tenant()
    assert other.admin_call("GET", f"/applications/{app_id}").status_code == 404
    assert other.admin_call("GET", f"/applications/{app_id}/members/list").status_code == 404
    listed = other.admin_call("GET", "/applications/list").json()["data"]
    assert app_id not in [a["appId"] for a in listed["records"]]


def test_the_application_list_shows_only_the_callers_applications(tenant: TenantUsers) -> None:
    mine = {_app(tenant), _app(tenant)}
    data = tenant.admin_call("GET", "/applications/list?pageSize=500").json()["data"]
    assert {a["appId"] for a in data["records"]} == mine
    assert data["total"] == 2


@pytest.mark.rule("op.role.owner", "op.role.viewer-read-only")
def test_a_viewer_member_reads_but_cannot_change(tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    _add(tenant, app_id, tenant.user_pid("viewer"), "viewer")
    assert tenant.admin_call("GET", f"/applications/{app_id}", role="viewer").json()["data"]["role"] == "viewer"
    response = tenant.admin_call("POST", f"/applications/{app_id}/installations", role="viewer",
                                 json={"tenantId": tenant.code, "environment": "production", "scopes": ["assets.read"]})
    assert response.status_code == 403
    assert response.json()["data"] == {"permission": "application:owner"}


@pytest.mark.rule("op.role.maintainer-no-members")
def test_a_maintainer_cannot_manage_members(tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    _add(tenant, app_id, tenant.user_pid("viewer"), "maintainer")
    response = tenant.admin_call("PUT", f"/applications/{app_id}/members/{tenant.user_pid('admin')}",
                                 role="viewer", json={"role": "viewer"})
    assert response.status_code == 403


@pytest.mark.rule("op.role.owner")
def test_an_owner_changes_and_removes_members(tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    viewer_pid = tenant.user_pid("viewer")
    _add(tenant, app_id, viewer_pid, "viewer")
    changed = tenant.admin_call("PUT", f"/applications/{app_id}/members/{viewer_pid}", json={"role": "maintainer"})
    assert changed.json()["data"]["role"] == "maintainer"
    assert tenant.admin_call("DELETE", f"/applications/{app_id}/members/{viewer_pid}").status_code == 200
    assert tenant.admin_call("GET", f"/applications/{app_id}", role="viewer").status_code == 404


@pytest.mark.rule("op.membership.last-owner")
def test_the_last_owner_cannot_be_removed_or_demoted(tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    admin_pid = tenant.user_pid("admin")
    demote = tenant.admin_call("PUT", f"/applications/{app_id}/members/{admin_pid}", json={"role": "viewer"})
    remove = tenant.admin_call("DELETE", f"/applications/{app_id}/members/{admin_pid}")
    assert demote.status_code == remove.status_code == 409
    assert demote.json()["code"] == remove.json()["code"] == "LAST_OWNER"


@pytest.mark.rule("op.membership.last-owner")
def test_two_owners_demoting_each_other_at_once_leave_one_owner(env: Env, tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    _add(tenant, app_id, tenant.user_pid("viewer"), "owner")
    tokens = [tenant.headers(role)["Authorization"][7:] for role in ("admin", "viewer")]
    actors = [actor_for(env, {"Authorization": f"Bearer {token}"}) for token in tokens]

    def demote_other(index: int) -> str:
        me, other = actors[index], actors[1 - index]
        try:
            env.run(members.change_member, env.runtime, me, app_id, other.user_pid, "viewer", None)
            return "demoted"
        except LastOwner:
            return "refused"
        except Exception as exc:
            return type(exc).__name__

    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = sorted(pool.map(demote_other, range(2)))
    listed = tenant.admin_call("GET", f"/applications/{app_id}/members/list").json()["data"]["records"]
    assert [m["role"] for m in listed].count("owner") == 1
    assert outcomes.count("demoted") == 1


@pytest.mark.rule("op.admin.install-tenant-environment", "session.error.tenant-forbidden")
def test_installing_needs_administration_of_the_target_tenant(tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    response = tenant.admin_call("POST", f"/applications/{app_id}/installations",
                                 json={"tenantId": "acme", "environment": "production", "scopes": ["assets.read"]})
    assert response.status_code == 403
    assert response.json()["code"] == "TENANT_FORBIDDEN"


@pytest.mark.rule("op.admin.grant-scopes")
def test_only_published_scopes_can_be_granted(tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    response = tenant.admin_call("POST", f"/applications/{app_id}/installations",
                                 json={"tenantId": tenant.code, "environment": "production", "scopes": ["root.all"]})
    assert response.status_code == 400
    # The document lists the published scopes as an enum: the bad item is named.
    assert "scopes.0" in response.json()["data"]["fieldErrors"]


@pytest.mark.rule("op.admin.install-tenant-environment")
def test_one_installation_per_tenant_and_environment(tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    body = {"tenantId": tenant.code, "environment": "staging", "scopes": ["assets.read"]}
    assert tenant.admin_call("POST", f"/applications/{app_id}/installations", json=body).status_code == 200
    assert tenant.admin_call("POST", f"/applications/{app_id}/installations", json=body).status_code == 409
    listed = tenant.admin_call("GET", f"/applications/{app_id}/installations/list").json()["data"]
    assert listed["total"] == 1


@pytest.mark.rule("op.identity.machine-identity", "op.credential.shown-once")
def test_a_credential_secret_is_shown_once(tenant: TenantUsers) -> None:
    cred = tenant.install()
    assert cred["clientSecret"].startswith("tsec_")
    listed = tenant.admin_call("GET", f"/applications/{cred['appId']}/installations/list")
    assert cred["clientSecret"] not in listed.text


@pytest.mark.rule("op.membership.audited")
def test_every_change_is_audited_with_actor_target_before_after_and_request_id(env: Env, tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    viewer_pid = tenant.user_pid("viewer")
    tenant.admin_call("POST", f"/applications/{app_id}/members", json={"userPid": viewer_pid, "role": "viewer"},
                      headers={"X-Request-Id": "member-add-1"})
    tenant.admin_call("PUT", f"/applications/{app_id}/members/{viewer_pid}", json={"role": "maintainer"},
                      headers={"X-Request-Id": "member-change-1"})
    filters = quote(json.dumps([{"fieldName": "targetId", "operator": "eq", "value": viewer_pid}]))
    entries = env.client.get(f"/api/audit/list?filters={filters}&sortOrder=asc",
                             headers=tenant.headers()).json()["data"]["records"]
    assert [(e["action"], e["requestId"]) for e in entries] == [
        ("member.add", "member-add-1"), ("member.role_change", "member-change-1"),
    ]
    assert entries[1]["before"] == {"role": "viewer"} and entries[1]["after"] == {"role": "maintainer"}
    assert entries[1]["actor"] == tenant.emails["admin"]


@pytest.mark.rule("op.role.viewer-read-only")
def test_application_members_see_their_applications_audit_entries(env: Env, tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    _add(tenant, app_id, tenant.user_pid("viewer"), "viewer")
    data = env.client.get("/api/audit/list?keyword=member.add", headers=tenant.headers("viewer")).json()["data"]
    assert data["total"] >= 2


def test_keyword_search_of_applications_ignores_case_on_every_database(tenant: TenantUsers) -> None:
    tenant.admin_call("POST", "/applications", json={"name": "Warehouse Robots"})
    found = tenant.admin_call("GET", "/applications/list", params={"keyword": "warehouse ROBOTS"}).json()["data"]
    assert [a["name"] for a in found["records"]] == ["Warehouse Robots"]


# -- what the admin console reads: one installation, credentials, the catalog; members by email -----

@pytest.mark.rule("op.role.non-member-sees-nothing")
def test_any_member_reads_an_installation_and_a_non_member_gets_not_found(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    _add(tenant, cred["appId"], tenant.user_pid("viewer"), "viewer")
    for role in ("admin", "viewer"):
        response = tenant.admin_call("GET", f"/installations/{cred['installationId']}", role=role)
        assert response.status_code == 200, response.text
        data = response.json()["data"]
        assert (data["appId"], data["tenantId"], data["environment"], data["status"]) == (
            cred["appId"], tenant.code, "production", "enabled")
        assert data["scopes"] == ["assets.manage", "assets.read"]
    assert env.new_tenant().admin_call("GET", f"/installations/{cred['installationId']}").status_code == 404
    assert tenant.admin_call("GET", "/installations/ins_00000000000000000000000000").status_code == 404


@pytest.mark.rule("op.credential.shown-once", "session.list.contract-everywhere")
def test_credentials_are_listed_with_their_status_and_never_a_secret(tenant: TenantUsers) -> None:
    cred = tenant.install()
    inst = cred["installationId"]
    rotated = tenant.admin_call("POST", f"/credentials/{cred['clientId']}/rotate", json={"graceSeconds": 300}).json()
    revoked = tenant.admin_call("POST", f"/installations/{inst}/credentials").json()["data"]
    tenant.admin_call("POST", f"/credentials/{revoked['clientId']}/revoke")
    _add(tenant, cred["appId"], tenant.user_pid("viewer"), "viewer")
    response = tenant.admin_call("GET", f"/installations/{inst}/credentials/list", role="viewer",
                                 params={"sortField": "created_at", "sortOrder": "asc"})
    assert response.status_code == 200, response.text
    records = response.json()["data"]["records"]
    statuses = {r["clientId"]: r["status"] for r in records}
    assert statuses == {cred["clientId"]: "rotated", rotated["data"]["clientId"]: "active",
                        revoked["clientId"]: "revoked"}
    old = next(r for r in records if r["clientId"] == cred["clientId"])
    assert old["expiresAt"] == rotated["data"]["previousExpiresAt"] and old["rotatedAt"]
    # The only "secret" a list shows is the kind of credential, never a secret or its digest.
    shown = response.text.replace('"kind":"secret"', "").replace('"kind": "secret"', "")
    assert "tsec_" not in shown and "secret" not in shown.lower()
    only_active = tenant.admin_call("GET", f"/installations/{inst}/credentials/list", params={
        "filters": json.dumps([{"fieldName": "status", "operator": "in", "value": ["active", "rotated"]}])})
    assert only_active.json()["data"]["total"] == 2
    by_keyword = tenant.admin_call("GET", f"/installations/{inst}/credentials/list",
                                   params={"keyword": revoked["clientId"].upper()}).json()["data"]
    assert [r["clientId"] for r in by_keyword["records"]] == [revoked["clientId"]]


@pytest.mark.rule("op.credential.grace-old-rejected")
def test_a_rotated_credential_is_expired_once_its_grace_window_is_over(tenant: TenantUsers,
                                                                      clock: ShiftedClock) -> None:
    cred = tenant.install()
    tenant.admin_call("POST", f"/credentials/{cred['clientId']}/rotate", json={"graceSeconds": 300})
    clock.advance(301)
    filters = json.dumps([{"fieldName": "status", "operator": "eq", "value": "expired"}])
    data = tenant.admin_call("GET", f"/installations/{cred['installationId']}/credentials/list",
                             params={"filters": filters}).json()["data"]
    assert [r["clientId"] for r in data["records"]] == [cred["clientId"]]


@pytest.mark.rule("op.role.non-member-sees-nothing")
def test_credentials_of_an_installation_are_hidden_from_non_members(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    other = env.new_tenant()
    assert other.admin_call("GET", f"/installations/{cred['installationId']}/credentials/list").status_code == 404


@pytest.mark.rule("op.admin.install-tenant-environment")
def test_the_catalog_lists_the_registrys_scopes_event_types_and_sources(env: Env, tenant: TenantUsers) -> None:
    response = tenant.admin_call("GET", "/catalog", role="viewer")
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    registry = env.runtime.capabilities
    assert [s["scope"] for s in data["scopes"]] == sorted(registry.scopes)
    assert {"scope": "assets.read", "description": "read assets"} in data["scopes"]
    assert [e["eventType"] for e in data["webhookEventTypes"]] == [
        *sorted(registry.webhook_events), "credential.expiry.approaching", "credential.rotation.due",
        "webhook.endpoint.disabled"]
    assigned, *_, operational = data["webhookEventTypes"]
    assert (assigned["eventType"], assigned["scope"]) == ("assets.assignment.changed", "assets.read")
    assert operational["scope"] is None  # the platform's own event: no scope needed
    [robots] = data["eventSources"]
    assert (robots["source"], robots["scope"], robots["eventTypes"]) == (
        "robot-fleet", "events.robot-fleet.publish", ["inventory.received"])
    assert data["environments"] == ["development", "staging", "production"]


def test_an_owner_adds_a_member_of_a_shared_tenant_by_email(tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    response = tenant.admin_call("POST", f"/applications/{app_id}/members",
                                 json={"email": tenant.emails["viewer"].upper(), "role": "maintainer"})
    assert response.status_code == 200, response.text
    assert response.json()["data"]["userPid"] == tenant.user_pid("viewer")
    assert tenant.admin_call("GET", f"/applications/{app_id}", role="viewer").json()["data"]["role"] == "maintainer"


def test_adding_by_email_reveals_no_account_outside_the_callers_tenants(env: Env, tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    stranger = env.new_tenant()
    answers = [tenant.admin_call("POST", f"/applications/{app_id}/members", json={"email": email, "role": "viewer"})
               for email in (stranger.emails["admin"], "nobody@nowhere.example")]
    # A well-formed address naming no one the caller may add is not found, the same for both.
    assert [a.status_code for a in answers] == [404, 404]
    assert answers[0].json() == answers[1].json()
    assert answers[0].json()["code"] == "NOT_FOUND"


def test_a_member_is_named_by_exactly_one_of_user_pid_and_email(tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    both = {"userPid": tenant.user_pid("viewer"), "email": tenant.emails["viewer"], "role": "viewer"}
    for body in (both, {"role": "viewer"}):
        assert tenant.admin_call("POST", f"/applications/{app_id}/members", json=body).status_code == 400
