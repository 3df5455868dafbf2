"""Installations: an application in one tenant and environment, with the scopes that tenant granted."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from storage import identity
from storage.drivers.engine import Executor, IntegrityError
from storage.openplatform import installations as installation_store
from storage.openplatform import tokens as token_store
from storage.openplatform.applications import ApplicationRow
from storage.openplatform.installations import InstallationDetailRow, InstallationPageRow, InstallationRow
from tessera.access.actors import Actor
from tessera.core.clock import iso
from tessera.core.errors import Conflict, FieldError, NotFound, TenantForbidden, ValidationFailed
from tessera.core.i18n import N_
from tessera.lists.contract import page_of, parse_list_request
from tessera.openplatform.identity.access import application_for, audit_change
from tessera.runtime import Runtime

INSTALL_PERMISSION = "open-platform:install"


def _check_scopes(rt: Runtime, scopes: list[str], field: str = "scopes") -> list[str]:
    unknown = sorted(set(scopes) - rt.capabilities.scopes)
    if unknown:
        raise ValidationFailed({field: FieldError(N_("Unknown scopes: {scopes}."), scopes=", ".join(unknown))})
    return sorted(set(scopes))


def installation_dict(row: InstallationRow | InstallationPageRow | InstallationDetailRow, tenant_code: str,
                      app_pid: str) -> dict[str, Any]:
    return {"installationId": row.pid, "tenantId": tenant_code, "environment": row.environment,
            "scopes": list(row.scopes), "status": row.status, "created_at": iso(row.created_at),
            "updated_at": iso(row.updated_at), "appId": app_pid}


CANNOT_INSTALL_HERE = N_("You may not install applications in this tenant.")


async def create_installation(rt: Runtime, actor: Actor, app_pid: str, body: Mapping[str, Any],
                              request_id: str | None) -> dict[str, Any]:
    now = rt.clock.now()
    async with rt.db.write() as conn:
        app, _ = await application_for(conn, actor, app_pid, owner=True)
        scopes = _check_scopes(rt, list(body["scopes"]))
        # Installing grants access to a tenant's data: that tenant's administrators decide.
        tenant_member = await identity.membership(conn, actor.user_id, body["tenantId"])
        if tenant_member is None:
            raise TenantForbidden()
        if not ({"*", INSTALL_PERMISSION} & tenant_member.permissions):
            # As documented: the tenant refuses (TENANT_FORBIDDEN), naming what it takes there.
            raise TenantForbidden(CANNOT_INSTALL_HERE, data={"permission": INSTALL_PERMISSION})
        try:  # a duplicate ends the transaction: nothing else was written yet
            row = await installation_store.create_installation(conn, app.id, tenant_member.tenant_id,
                                                               body["environment"], scopes, now=now)
        except IntegrityError:
            raise Conflict(N_("The application is already installed in this tenant and environment.")) from None
        await audit_change(conn, actor, request_id, "installation.create", application_id=app.id,
                           target_type="installation", target_id=row.pid, tenant_id=tenant_member.tenant_id,
                           after={"tenantId": body["tenantId"], "environment": body["environment"], "scopes": scopes},
                           now=now)
    return installation_dict(row, body["tenantId"], app.pid)


async def list_installations(rt: Runtime, actor: Actor, app_pid: str, params: Mapping[str, Any]) -> dict[str, Any]:
    request = parse_list_request(params, installation_store.INSTALLATION_FIELDS)
    async with rt.db.read() as conn:
        app, _ = await application_for(conn, actor, app_pid)
        rows, total = await installation_store.installations_page(conn, app.id, request)
    return page_of([installation_dict(r, r.tenant_code, app.pid) for r in rows], total, request)


async def get_installation(rt: Runtime, actor: Actor, installation_pid: str) -> dict[str, Any]:
    """Any member of the installation's application may read it; others get 404."""
    async with rt.db.read() as conn:
        inst, app, _ = await installation_for_member(conn, actor, installation_pid)
    return installation_dict(inst, inst.tenant_code, app.pid)


async def installation_for_member(conn: Executor, actor: Actor,
                                  installation_pid: str) -> tuple[InstallationDetailRow, ApplicationRow, str]:
    """The installation, its application and the actor's role there (404 for non-members)."""
    inst = await installation_store.installation_by_pid(conn, installation_pid)
    if inst is None:
        raise NotFound()
    app, role = await application_for(conn, actor, inst.application_pid)
    return inst, app, role


async def installation_for_owner(conn: Executor, actor: Actor,
                                 installation_pid: str) -> tuple[InstallationDetailRow, ApplicationRow]:
    """The installation and its application, for an owner of that application (404 / 403 otherwise)."""
    inst = await installation_store.installation_by_pid(conn, installation_pid)
    if inst is None:
        raise NotFound()
    app, _ = await application_for(conn, actor, inst.application_pid, owner=True)
    return inst, app


def _wanted_changes(rt: Runtime, body: Mapping[str, Any]) -> dict[str, Any]:
    """The fields an update asks for, its scopes checked against the published ones."""
    wanted: dict[str, Any] = {}
    if "scopes" in body:
        wanted["scopes"] = _check_scopes(rt, list(body["scopes"]))
    if "status" in body:
        wanted["status"] = body["status"]
    return wanted


async def update_installation(rt: Runtime, actor: Actor, installation_pid: str, body: Mapping[str, Any],
                              request_id: str | None) -> dict[str, Any]:
    if "scopes" not in body and "status" not in body:
        raise ValidationFailed({"body": FieldError(N_("Give scopes, status or both."))})
    now = rt.clock.now()
    async with rt.db.write() as conn:
        inst, app = await installation_for_owner(conn, actor, installation_pid)
        wanted = _wanted_changes(rt, body)
        current = {"scopes": sorted(inst.scopes), "status": inst.status}
        changes = {k: v for k, v in wanted.items() if current[k] != v}
        if changes:  # an update that changes nothing writes nothing and audits nothing
            await installation_store.update_installation(conn, inst.id, changes, now=now)
            if changes.get("status") == "disabled":  # its tokens are dead for good, not paused
                await token_store.delete_tokens_of(conn, installation_id=inst.id)
            await audit_change(conn, actor, request_id, "installation.update", application_id=app.id,
                               target_type="installation", target_id=inst.pid, tenant_id=inst.tenant_id,
                               before={k: current[k] for k in changes}, after=changes, now=now)
        updated = await installation_store.installation_by_pid(conn, installation_pid)
    assert updated is not None
    return installation_dict(updated, updated.tenant_code, app.pid)
