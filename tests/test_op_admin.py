"""The Open Platform administration surface: applications, members and roles, installations, credentials."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import quote

from tessera.errors import LastOwner
from tessera.services import op_admin
from tessera.services.actors import resolve_actor
from tests.conftest import Env, TenantUsers


def _app(tenant: TenantUsers) -> str:
    response = tenant.admin_call("POST", "/applications", json={"name": "ERP sync", "description": "nightly"})
    assert response.status_code == 200, response.text
    return response.json()["data"]["appId"]


def _add(tenant: TenantUsers, app_id: str, user_pid: str, role: str) -> None:
    response = tenant.admin_call("POST", f"/applications/{app_id}/members", json={"userPid": user_pid, "role": role})
    assert response.status_code == 200, response.text


def test_creating_an_application_needs_the_platform_role(env: Env, tenant: TenantUsers) -> None:
    response = tenant.admin_call("POST", "/applications", role="viewer", json={"name": "x"})
    assert response.status_code == 403
    assert response.json()["data"] == {"permission": "sys.connector.update"}


def test_the_creator_becomes_the_first_owner(env: Env, tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    members = tenant.admin_call("GET", f"/applications/{app_id}/members/list").json()["data"]
    assert [(m["email"], m["role"]) for m in members["records"]] == [(tenant.emails["admin"], "owner")]


def test_a_non_member_sees_nothing(env: Env, tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    other = env.new_tenant()
    assert other.admin_call("GET", f"/applications/{app_id}").status_code == 404
    assert other.admin_call("GET", f"/applications/{app_id}/members/list").status_code == 404
    listed = other.admin_call("GET", "/applications/list").json()["data"]
    assert app_id not in [a["appId"] for a in listed["records"]]


def test_the_application_list_shows_only_the_callers_applications(env: Env, tenant: TenantUsers) -> None:
    mine = {_app(tenant), _app(tenant)}
    data = tenant.admin_call("GET", "/applications/list?pageSize=500").json()["data"]
    assert {a["appId"] for a in data["records"]} == mine
    assert data["total"] == 2


def test_a_viewer_member_reads_but_cannot_change(env: Env, tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    _add(tenant, app_id, tenant.user_pid("viewer"), "viewer")
    assert tenant.admin_call("GET", f"/applications/{app_id}", role="viewer").json()["data"]["role"] == "viewer"
    response = tenant.admin_call("POST", f"/applications/{app_id}/installations", role="viewer",
                                 json={"tenantId": tenant.code, "environment": "production", "scopes": ["assets.read"]})
    assert response.status_code == 403
    assert response.json()["data"] == {"permission": "application:owner"}


def test_a_maintainer_cannot_manage_members(env: Env, tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    _add(tenant, app_id, tenant.user_pid("viewer"), "maintainer")
    response = tenant.admin_call("PUT", f"/applications/{app_id}/members/{tenant.user_pid('admin')}",
                                 role="viewer", json={"role": "viewer"})
    assert response.status_code == 403


def test_an_owner_changes_and_removes_members(env: Env, tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    viewer_pid = tenant.user_pid("viewer")
    _add(tenant, app_id, viewer_pid, "viewer")
    changed = tenant.admin_call("PUT", f"/applications/{app_id}/members/{viewer_pid}", json={"role": "maintainer"})
    assert changed.json()["data"]["role"] == "maintainer"
    assert tenant.admin_call("DELETE", f"/applications/{app_id}/members/{viewer_pid}").status_code == 200
    assert tenant.admin_call("GET", f"/applications/{app_id}", role="viewer").status_code == 404


def test_the_last_owner_cannot_be_removed_or_demoted(env: Env, tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    admin_pid = tenant.user_pid("admin")
    demote = tenant.admin_call("PUT", f"/applications/{app_id}/members/{admin_pid}", json={"role": "viewer"})
    remove = tenant.admin_call("DELETE", f"/applications/{app_id}/members/{admin_pid}")
    assert demote.status_code == remove.status_code == 409
    assert demote.json()["code"] == remove.json()["code"] == "LAST_OWNER"


def test_two_owners_demoting_each_other_at_once_leave_one_owner(env: Env, tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    _add(tenant, app_id, tenant.user_pid("viewer"), "owner")
    tokens = [tenant.headers(role)["Authorization"][7:] for role in ("admin", "viewer")]
    actors = [resolve_actor(env.runtime, token, None) for token in tokens]

    def demote_other(index: int) -> str:
        me, other = actors[index], actors[1 - index]
        try:
            op_admin.change_member(env.runtime, me, app_id, other.user_pid, "viewer", None)
            return "demoted"
        except LastOwner:
            return "refused"
        except Exception as exc:
            return type(exc).__name__

    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = sorted(pool.map(demote_other, range(2)))
    members = tenant.admin_call("GET", f"/applications/{app_id}/members/list").json()["data"]["records"]
    assert [m["role"] for m in members].count("owner") == 1
    assert outcomes.count("demoted") == 1


def test_installing_needs_administration_of_the_target_tenant(env: Env, tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    response = tenant.admin_call("POST", f"/applications/{app_id}/installations",
                                 json={"tenantId": "acme", "environment": "production", "scopes": ["assets.read"]})
    assert response.status_code == 403
    assert response.json()["code"] == "TENANT_FORBIDDEN"


def test_only_published_scopes_can_be_granted(env: Env, tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    response = tenant.admin_call("POST", f"/applications/{app_id}/installations",
                                 json={"tenantId": tenant.code, "environment": "production", "scopes": ["root.all"]})
    assert response.status_code == 400
    assert "scopes" in response.json()["data"]["fieldErrors"]


def test_one_installation_per_tenant_and_environment(env: Env, tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    body = {"tenantId": tenant.code, "environment": "staging", "scopes": ["assets.read"]}
    assert tenant.admin_call("POST", f"/applications/{app_id}/installations", json=body).status_code == 200
    assert tenant.admin_call("POST", f"/applications/{app_id}/installations", json=body).status_code == 409
    listed = tenant.admin_call("GET", f"/applications/{app_id}/installations/list").json()["data"]
    assert listed["total"] == 1


def test_a_credential_secret_is_shown_once(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    assert cred["clientSecret"].startswith("tsec_")
    listed = tenant.admin_call("GET", f"/applications/{cred['appId']}/installations/list")
    assert cred["clientSecret"] not in listed.text


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


def test_application_members_see_their_applications_audit_entries(env: Env, tenant: TenantUsers) -> None:
    app_id = _app(tenant)
    _add(tenant, app_id, tenant.user_pid("viewer"), "viewer")
    data = env.client.get("/api/audit/list?keyword=member.add", headers=tenant.headers("viewer")).json()["data"]
    assert data["total"] >= 2


def test_keyword_search_of_applications_ignores_case_on_every_database(tenant: TenantUsers) -> None:
    tenant.admin_call("POST", "/applications", json={"name": "Warehouse Robots"})
    found = tenant.admin_call("GET", "/applications/list", params={"keyword": "warehouse ROBOTS"}).json()["data"]
    assert [a["name"] for a in found["records"]] == ["Warehouse Robots"]
