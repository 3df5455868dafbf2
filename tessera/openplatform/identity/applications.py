"""Applications: created by a holder of the platform role ``sys.connector.update``, who becomes its
first owner; renamed, described, disabled, enabled and deleted by its owners (the lifecycle).

Disabling is the incident switch for a whole application: its tokens are deleted (dead for good;
enabling again lets its clients obtain new ones), the token endpoint refuses its credentials while
it is disabled (``tokens.clients``), and its webhook deliveries wait unclaimed until it is enabled
(``storage.webhooks.claim_due``). Deleting revokes its credentials, removes its installations and
deletes its webhook endpoints; the rows stay for the audit log's history, found nowhere else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from storage.openplatform import applications as app_store
from storage.openplatform import tokens as token_store
from storage.openplatform.applications import ApplicationPageRow, ApplicationRow
from tessera.access.actors import Actor
from tessera.core.clock import iso
from tessera.core.errors import FieldError, Forbidden, ValidationFailed
from tessera.core.i18n import N_
from tessera.lists.contract import page_of, parse_list_request
from tessera.openplatform.identity.access import OWNER, application_for, audit_change
from tessera.runtime import Runtime

CREATE_PERMISSION = "sys.connector.update"


def _application(row: ApplicationRow | ApplicationPageRow, role: str) -> dict[str, Any]:
    return {"appId": row.pid, "name": row.name, "description": row.description, "status": row.status,
            "role": role, "created_at": iso(row.created_at)}


async def create_application(rt: Runtime, actor: Actor, body: Mapping[str, Any],
                             request_id: str | None) -> dict[str, Any]:
    if CREATE_PERMISSION not in actor.platform_roles:
        raise Forbidden(CREATE_PERMISSION)
    name = str(body["name"]).strip()
    if not name:
        raise ValidationFailed({"name": FieldError(N_("Must not be empty."))})
    now = rt.clock.now()
    async with rt.db.write() as conn:
        app = await app_store.create_application(conn, name, body.get("description"), actor.user_id, now=now)
        await app_store.add_member(conn, app.id, actor.user_id, OWNER, now=now)
        await audit_change(conn, actor, request_id, "application.create", application_id=app.id,
                           target_type="application", target_id=app.pid,
                           after={"name": app.name, "description": app.description}, now=now)
        await audit_change(conn, actor, request_id, "member.add", application_id=app.id, target_type="member",
                           target_id=actor.user_pid, after={"role": OWNER}, now=now)
    return _application(app, OWNER)


async def list_applications(rt: Runtime, actor: Actor, params: Mapping[str, Any]) -> dict[str, Any]:
    request = parse_list_request(params, app_store.APPLICATION_FIELDS)
    async with rt.db.read() as conn:
        rows, total = await app_store.applications_page(conn, actor.user_id, request)
    return page_of([_application(r, r.role) for r in rows], total, request)


async def get_application(rt: Runtime, actor: Actor, app_pid: str) -> dict[str, Any]:
    async with rt.db.read() as conn:
        app, role = await application_for(conn, actor, app_pid)
    return _application(app, role)


def _changes(app: ApplicationRow, body: Mapping[str, Any]) -> dict[str, Any]:
    """The fields ``body`` changes (a name trimmed and not blank), against the application as it is."""
    wanted: dict[str, Any] = {}
    if "name" in body:
        wanted["name"] = str(body["name"]).strip()
        if not wanted["name"]:
            raise ValidationFailed({"name": FieldError(N_("Must not be empty."))})
    if "description" in body:
        wanted["description"] = body["description"]
    if "status" in body:
        wanted["status"] = body["status"]
    current = {"name": app.name, "description": app.description, "status": app.status}
    return {k: v for k, v in wanted.items() if current[k] != v}


async def update_application(rt: Runtime, actor: Actor, app_pid: str, body: Mapping[str, Any],
                             request_id: str | None) -> dict[str, Any]:
    """Rename, describe, disable or enable (owners only); a change to nothing writes nothing."""
    if not body:
        raise ValidationFailed({"body": FieldError(N_("Give name, description, status or any of them."))})
    now = rt.clock.now()
    async with rt.db.write() as conn:
        app, role = await application_for(conn, actor, app_pid, owner=True, lock=True)
        changes = _changes(app, body)
        if changes:
            await app_store.update_application(conn, app.id, changes, now=now)
            if changes.get("status") == "disabled":  # every token dead for good, not paused
                await token_store.delete_tokens_of(conn, application_id=app.id)
            await audit_change(conn, actor, request_id, "application.update", application_id=app.id,
                               target_type="application", target_id=app.pid,
                               before={k: getattr(app, k) for k in changes}, after=changes, now=now)
            app = await app_store.application_by_id(conn, app.id)
    if changes.get("status") == "active":  # its paused deliveries are due again
        rt.work.notify()
    return _application(app, role)


async def delete_application(rt: Runtime, actor: Actor, app_pid: str, request_id: str | None) -> dict[str, Any]:
    """Delete for good (owners only): credentials revoked, tokens deleted, installations removed,
    webhook endpoints deleted; the audit entry names what went with it."""
    now = rt.clock.now()
    async with rt.db.write() as conn:
        app, _ = await application_for(conn, actor, app_pid, owner=True, lock=True)
        await token_store.delete_tokens_of(conn, application_id=app.id)
        removed = await app_store.remove_application(conn, app.id, now=now)
        await audit_change(conn, actor, request_id, "application.delete", application_id=app.id,
                           target_type="application", target_id=app.pid,
                           before={"name": app.name, "status": app.status},
                           after={"installations": removed.installations, "revokedCredentials": removed.credentials,
                                  "deletedWebhookEndpoints": removed.webhook_endpoints}, now=now)
    return {"appId": app.pid, "deleted": True}
