"""Applications: created by a holder of the platform role ``sys.connector.update``, who becomes its first owner."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from storage import applications as app_store
from storage.applications import ApplicationPageRow, ApplicationRow
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
