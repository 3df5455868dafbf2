"""Open Platform administration: applications, members, installations, credentials.

Roles per application: owner (everything), maintainer (runtime concerns, not members), viewer
(read-only), non-member (sees nothing: 404, never a hint the application exists). Every change is
audited with actor, target, before/after and request id; no secret ever reaches the audit log.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Connection, Row, and_, case, literal, select
from sqlalchemy.exc import IntegrityError

from storage import audit, identity
from storage import openplatform as store
from storage.listing import ListField, build_queries, keyword_in, run_list
from storage.tables import application_members, applications, credentials, installations, users
from storage.types import utcnow
from tessera.core.clock import iso
from tessera.core.errors import (
    Conflict,
    FieldError,
    Forbidden,
    LastOwner,
    NotFound,
    TenantForbidden,
    ValidationFailed,
)
from tessera.core.i18n import N_
from tessera.core.secrets import new_client_id, new_client_secret
from tessera.runtime import Runtime
from tessera.session.auth.actors import Actor
from tessera.session.listing import page_of, parse_list_request

CREATE_PERMISSION = "sys.connector.update"
INSTALL_PERMISSION = "open-platform:install"
OWNER = "owner"


# -- presentation --------------------------------------------------------------------------
def _application(row: Row[Any], role: str) -> dict[str, Any]:
    return {"appId": row.pid, "name": row.name, "description": row.description, "status": row.status,
            "role": role, "created_at": iso(row.created_at)}


# -- access ----------------------------------------------------------------------------------
def _app_for(conn: Connection, actor: Actor, app_pid: str, *, owner: bool = False,
             lock: bool = False) -> tuple[Row[Any], str]:
    app = store.application_by_pid(conn, app_pid, lock=lock)
    role = store.member_role(conn, app.id, actor.user_id) if app is not None else None
    if app is None or role is None:
        raise NotFound()
    if owner and role != OWNER:
        raise Forbidden("application:owner")
    return app, role


def _audit(conn: Connection, actor: Actor, request_id: str | None, action: str, *, application_id: int,
           target_type: str, target_id: str, before: Any = None, after: Any = None,
           tenant_id: int | None = None) -> None:
    """Application-level entries carry no tenant (applications belong to none): their members see
    them; entries about an installation carry its tenant, so that tenant's administrators do too."""
    audit.append(conn, tenant_id=tenant_id,
                 actor_user_id=actor.user_id, actor=actor.email, action=action, target_type=target_type,
                 target_id=target_id, before=before, after=after, request_id=request_id,
                 application_id=application_id)


# -- applications ----------------------------------------------------------------------------
def create_application(rt: Runtime, actor: Actor, body: Mapping[str, Any], request_id: str | None) -> dict[str, Any]:
    if CREATE_PERMISSION not in actor.platform_roles:
        raise Forbidden(CREATE_PERMISSION)
    name = str(body["name"]).strip()
    if not name:
        raise ValidationFailed({"name": FieldError(N_("Must not be empty."))})
    with rt.db.write() as conn:
        app = store.create_application(conn, name, body.get("description"), actor.user_id)
        store.add_member(conn, app.id, actor.user_id, OWNER)
        _audit(conn, actor, request_id, "application.create", application_id=app.id, target_type="application",
               target_id=app.pid, after={"name": app.name, "description": app.description})
        _audit(conn, actor, request_id, "member.add", application_id=app.id, target_type="member",
               target_id=actor.user_pid, after={"role": OWNER})
    return _application(app, OWNER)


APP_FIELDS = {
    "name": ListField("name", "string", applications.c.name),
    "status": ListField("status", "string", applications.c.status),
    "created_at": ListField("created_at", "timestamp", applications.c.created_at),
}


def list_applications(rt: Runtime, actor: Actor, params: Mapping[str, Any]) -> dict[str, Any]:
    request = parse_list_request(params, APP_FIELDS)
    base = select(applications, application_members.c.role).select_from(
        applications.join(application_members, and_(application_members.c.application_id == applications.c.id,
                                                    application_members.c.user_id == actor.user_id))
    )
    queries = build_queries(base, [], request, applications.c.id, keyword_in(applications.c.name))
    with rt.db.read() as conn:
        rows, total = run_list(conn, queries)
    return page_of([_application(r, r.role) for r in rows], total, request)


def get_application(rt: Runtime, actor: Actor, app_pid: str) -> dict[str, Any]:
    with rt.db.read() as conn:
        app, role = _app_for(conn, actor, app_pid)
    return _application(app, role)


# -- members ---------------------------------------------------------------------------------
MEMBER_FIELDS = {
    "role": ListField("role", "string", application_members.c.role),
    "email": ListField("email", "string", users.c.email),
    "created_at": ListField("created_at", "timestamp", application_members.c.created_at),
}


def list_members(rt: Runtime, actor: Actor, app_pid: str, params: Mapping[str, Any]) -> dict[str, Any]:
    request = parse_list_request(params, MEMBER_FIELDS)
    with rt.db.read() as conn:
        app, _ = _app_for(conn, actor, app_pid)
        queries = build_queries(store.members_query(app.id), [], request, application_members.c.id,
                                keyword_in(users.c.email))
        rows, total = run_list(conn, queries)
    return page_of([{"userPid": r.user_pid, "email": r.email, "username": r.username, "role": r.role,
                   "created_at": iso(r.created_at)} for r in rows], total, request)


def add_member(rt: Runtime, actor: Actor, app_pid: str, body: Mapping[str, Any],
               request_id: str | None) -> dict[str, Any]:
    with rt.db.write() as conn:
        app, _ = _app_for(conn, actor, app_pid, owner=True, lock=True)
        if "email" in body:
            # By email only users who share a tenant with the caller: no probing for accounts.
            user = identity.find_user_sharing_a_tenant(conn, str(body["email"]), actor.user_id)
            if user is None:
                raise ValidationFailed({"email": FieldError(N_("No user with this email shares a tenant with you."))})
        else:
            user = identity.find_user_by_pid(conn, body["userPid"])
            if user is None:
                raise ValidationFailed({"userPid": FieldError(N_("Unknown user."))})
        if store.member_role(conn, app.id, user.id) is not None:
            raise Conflict(N_("This user is already a member."))
        store.add_member(conn, app.id, user.id, body["role"])
        _audit(conn, actor, request_id, "member.add", application_id=app.id, target_type="member",
               target_id=user.pid, after={"role": body["role"]})
    return {"userPid": user.pid, "email": user.email, "username": user.username, "role": body["role"]}


def change_member(rt: Runtime, actor: Actor, app_pid: str, user_pid: str, new_role: str | None,
                  request_id: str | None) -> dict[str, Any]:
    """Change a member's role (``new_role``) or remove them (``None``), keeping one owner."""
    with rt.db.write() as conn:
        app, _ = _app_for(conn, actor, app_pid, owner=True, lock=True)
        user = identity.find_user_by_pid(conn, user_pid)
        current = store.member_role(conn, app.id, user.id) if user is not None else None
        if user is None or current is None:
            raise NotFound()
        if current == OWNER and new_role != OWNER and store.owner_count(conn, app.id) <= 1:
            raise LastOwner()
        store.set_member_role(conn, app.id, user.id, new_role)
        _audit(conn, actor, request_id, "member.remove" if new_role is None else "member.role_change",
               application_id=app.id, target_type="member", target_id=user.pid, before={"role": current},
               after=None if new_role is None else {"role": new_role})
    return {"userPid": user.pid, "role": new_role, "removed": new_role is None}


# -- installations ---------------------------------------------------------------------------
def _check_scopes(rt: Runtime, scopes: list[str], field: str = "scopes") -> list[str]:
    unknown = sorted(set(scopes) - rt.capabilities.scopes)
    if unknown:
        raise ValidationFailed({field: FieldError(N_("Unknown scopes: {scopes}."), scopes=", ".join(unknown))})
    return sorted(set(scopes))


def create_installation(rt: Runtime, actor: Actor, app_pid: str, body: Mapping[str, Any],
                        request_id: str | None) -> dict[str, Any]:
    with rt.db.write() as conn:
        app, _ = _app_for(conn, actor, app_pid, owner=True)
        scopes = _check_scopes(rt, list(body["scopes"]))
        # Installing grants access to a tenant's data: that tenant's administrators decide.
        tenant_member = identity.membership(conn, actor.user_id, body["tenantId"])
        if tenant_member is None:
            raise TenantForbidden()
        if not ({"*", INSTALL_PERMISSION} & tenant_member.permissions):
            raise Forbidden(INSTALL_PERMISSION)
        try:
            with conn.begin_nested():
                row = store.create_installation(conn, app.id, tenant_member.tenant_id, body["environment"], scopes)
        except IntegrityError:
            raise Conflict(N_("The application is already installed in this tenant and environment.")) from None
        _audit(conn, actor, request_id, "installation.create", application_id=app.id, target_type="installation",
               target_id=row.pid, tenant_id=tenant_member.tenant_id,
               after={"tenantId": body["tenantId"], "environment": body["environment"], "scopes": scopes})
    return {**_installation_dict(row, body["tenantId"]), "appId": app.pid}


def _installation_dict(row: Row[Any], tenant_code: str) -> dict[str, Any]:
    return {"installationId": row.pid, "tenantId": tenant_code, "environment": row.environment,
            "scopes": list(row.scopes), "status": row.status, "created_at": iso(row.created_at),
            "updated_at": iso(row.updated_at)}


INSTALLATION_FIELDS = {
    "environment": ListField("environment", "string", installations.c.environment),
    "status": ListField("status", "string", installations.c.status),
    "created_at": ListField("created_at", "timestamp", installations.c.created_at),
}


def list_installations(rt: Runtime, actor: Actor, app_pid: str, params: Mapping[str, Any]) -> dict[str, Any]:
    request = parse_list_request(params, INSTALLATION_FIELDS)
    with rt.db.read() as conn:
        app, _ = _app_for(conn, actor, app_pid)
        queries = build_queries(store.installations_query(app.id), [], request, installations.c.id,
                                keyword_in(installations.c.environment))
        rows, total = run_list(conn, queries)
    return page_of([{**_installation_dict(r, r.tenant_code), "appId": app.pid} for r in rows], total, request)


def get_installation(rt: Runtime, actor: Actor, installation_pid: str) -> dict[str, Any]:
    """Any member of the installation's application may read it; others get 404."""
    with rt.db.read() as conn:
        inst = store.installation_by_pid(conn, installation_pid)
        if inst is None:
            raise NotFound()
        app, _ = _app_for(conn, actor, inst.application_pid)
    return {**_installation_dict(inst, inst.tenant_code), "appId": app.pid}


def _installation_for_owner(conn: Connection, actor: Actor, installation_pid: str) -> tuple[Row[Any], Row[Any]]:
    inst = store.installation_by_pid(conn, installation_pid)
    if inst is None:
        raise NotFound()
    app, _ = _app_for(conn, actor, inst.application_pid, owner=True)
    return inst, app


def update_installation(rt: Runtime, actor: Actor, installation_pid: str, body: Mapping[str, Any],
                        request_id: str | None) -> dict[str, Any]:
    if "scopes" not in body and "status" not in body:
        raise ValidationFailed({"body": FieldError(N_("Give scopes, status or both."))})
    with rt.db.write() as conn:
        inst, app = _installation_for_owner(conn, actor, installation_pid)
        wanted: dict[str, Any] = {}
        if "scopes" in body:
            wanted["scopes"] = _check_scopes(rt, list(body["scopes"]))
        if "status" in body:
            wanted["status"] = body["status"]
        current = {"scopes": sorted(inst.scopes), "status": inst.status}
        changes = {k: v for k, v in wanted.items() if current[k] != v}
        if changes:  # an update that changes nothing writes nothing and audits nothing
            store.update_installation(conn, inst.id, changes)
            _audit(conn, actor, request_id, "installation.update", application_id=app.id,
                   target_type="installation", target_id=inst.pid, tenant_id=inst.tenant_id,
                   before={k: current[k] for k in changes}, after=changes)
        updated = store.installation_by_pid(conn, installation_pid)
    assert updated is not None
    return {**_installation_dict(updated, updated.tenant_code), "appId": app.pid}


# -- credentials -----------------------------------------------------------------------------
def create_credential(rt: Runtime, actor: Actor, installation_pid: str, request_id: str | None) -> dict[str, Any]:
    secret = new_client_secret()
    with rt.db.write() as conn:
        inst, app = _installation_for_owner(conn, actor, installation_pid)
        cred = store.create_credential(conn, inst.id, new_client_id(), rt.digests.digest(secret))
        _audit(conn, actor, request_id, "credential.create", application_id=app.id, target_type="credential",
               target_id=cred.client_id, tenant_id=inst.tenant_id, after={"installationId": inst.pid})
    return {"clientId": cred.client_id, "clientSecret": secret, "installationId": inst.pid,
            "created_at": iso(cred.created_at)}


CREDENTIAL_STATUSES = ("active", "rotated", "expired", "revoked")


def _credential_status(now: datetime) -> ColumnElement[str]:
    """The status a client sees, derived in SQL so that it can be filtered and sorted on: the
    stored status only says active or revoked; rotation and the end of the grace window are
    timestamps."""
    return case(
        (credentials.c.status == "revoked", literal("revoked")),
        (and_(credentials.c.expires_at.is_not(None), credentials.c.expires_at <= now), literal("expired")),
        (credentials.c.rotated_at.is_not(None), literal("rotated")),
        else_=literal("active"),
    )


def list_credentials(rt: Runtime, actor: Actor, installation_pid: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The installation's credentials for any member of its application; never a secret."""
    status = _credential_status(utcnow())
    fields = {
        "status": ListField("status", "enum", status, CREDENTIAL_STATUSES),
        "created_at": ListField("created_at", "timestamp", credentials.c.created_at),
    }
    request = parse_list_request(params, fields)
    with rt.db.read() as conn:
        inst = store.installation_by_pid(conn, installation_pid)
        if inst is None:
            raise NotFound()
        _app_for(conn, actor, inst.application_pid)
        base = store.credentials_query(inst.id, status.label("derived_status"))
        rows, total = run_list(conn, build_queries(base, [], request, credentials.c.id,
                                                   keyword_in(credentials.c.client_id)))
    return page_of([{"clientId": r.client_id, "installationId": inst.pid, "status": r.derived_status,
                   "created_at": iso(r.created_at),
                   "rotatedAt": iso(r.rotated_at) if r.rotated_at else None,
                   "expiresAt": iso(r.expires_at) if r.expires_at else None,
                   "revokedAt": iso(r.revoked_at) if r.revoked_at else None} for r in rows], total, request)


def _credential_for_owner(conn: Connection, actor: Actor, client_id: str) -> tuple[Row[Any], Row[Any]]:
    cred = store.credential_with_installation(conn, client_id)
    if cred is None:
        raise NotFound()
    app = conn.execute(select(applications).where(applications.c.id == cred.application_id)).one()
    _app_for(conn, actor, app.pid, owner=True)
    return cred, app


def rotate_credential(rt: Runtime, actor: Actor, client_id: str, grace_seconds: int,
                      request_id: str | None) -> dict[str, Any]:
    """A new pair for the same installation; the old pair keeps minting tokens for the grace window."""
    secret = new_client_secret()
    now = utcnow()
    with rt.db.write() as conn:
        old, app = _credential_for_owner(conn, actor, client_id)
        if old.status != "active" or old.rotated_at is not None:
            raise Conflict(N_("Only an active credential that was not rotated yet can be rotated."))
        grace_end = now + timedelta(seconds=grace_seconds)
        store.update_credential(conn, old.id, {"rotated_at": now, "expires_at": grace_end})
        new = store.create_credential(conn, old.installation_id, new_client_id(), rt.digests.digest(secret))
        _audit(conn, actor, request_id, "credential.rotate", application_id=app.id, target_type="credential",
               target_id=old.client_id, tenant_id=old.tenant_id, before={"status": "active"},
               after={"graceEndsAt": iso(grace_end), "newClientId": new.client_id})
    return {"clientId": new.client_id, "clientSecret": secret, "installationId": old.installation_pid,
            "previousClientId": old.client_id, "previousExpiresAt": iso(grace_end)}


def revoke_credential(rt: Runtime, actor: Actor, client_id: str, request_id: str | None) -> dict[str, Any]:
    now = utcnow()
    with rt.db.write() as conn:
        cred, app = _credential_for_owner(conn, actor, client_id)
        if cred.status != "revoked":
            store.update_credential(conn, cred.id, {"status": "revoked", "revoked_at": now})
            _audit(conn, actor, request_id, "credential.revoke", application_id=app.id, target_type="credential",
                   target_id=cred.client_id, tenant_id=cred.tenant_id, before={"status": cred.status},
                   after={"status": "revoked"})
    return {"clientId": client_id, "status": "revoked"}


# -- shared with the other administration services (webhooks, automations) -------------------------
def role_in(conn: Connection, actor: Actor, app_pid: str) -> tuple[Row[Any], str]:
    """The application and the actor's role in it; 404 for non-members."""
    return _app_for(conn, actor, app_pid)


audit_change = _audit
