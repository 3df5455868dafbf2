"""Members of an application and their roles; owners manage them, and the last owner stays."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from storage import identity
from storage.openplatform import applications as app_store
from tessera.access.actors import Actor
from tessera.core.clock import iso
from tessera.core.errors import Conflict, LastOwner, NotFound
from tessera.core.i18n import N_
from tessera.lists.contract import page_of, parse_list_request
from tessera.openplatform.identity.access import OWNER, application_for, audit_change
from tessera.runtime import Runtime


async def list_members(rt: Runtime, actor: Actor, app_pid: str, params: Mapping[str, Any]) -> dict[str, Any]:
    request = parse_list_request(params, app_store.MEMBER_FIELDS)
    async with rt.db.read() as conn:
        app, _ = await application_for(conn, actor, app_pid)
        rows, total = await app_store.members_page(conn, app.id, request)
    return page_of([{"userPid": r.user_pid, "email": r.email, "username": r.username, "role": r.role,
                     "created_at": iso(r.created_at)} for r in rows], total, request)


async def add_member(rt: Runtime, actor: Actor, app_pid: str, body: Mapping[str, Any],
                     request_id: str | None) -> dict[str, Any]:
    now = rt.clock.now()
    async with rt.db.write() as conn:
        app, _ = await application_for(conn, actor, app_pid, owner=True, lock=True)
        if "email" in body:
            # By email only users who share a tenant with the caller: no probing for accounts.
            user = await identity.find_user_sharing_a_tenant(conn, str(body["email"]), actor.user_id)
            if user is None:
                # A well-formed address that names nobody the caller may add: not found, like an id.
                raise NotFound(N_("No user with this email shares a tenant with you."))
        else:
            user = await identity.find_user_by_pid(conn, body["userPid"])
            if user is None:
                raise NotFound(N_("Unknown user."))
        if await app_store.member_role(conn, app.id, user.id) is not None:
            raise Conflict(N_("This user is already a member."))
        await app_store.add_member(conn, app.id, user.id, body["role"], now=now)
        await audit_change(conn, actor, request_id, "member.add", application_id=app.id, target_type="member",
                           target_id=user.pid, after={"role": body["role"]}, now=now)
    return {"userPid": user.pid, "email": user.email, "username": user.username, "role": body["role"]}


async def change_member(rt: Runtime, actor: Actor, app_pid: str, user_pid: str, new_role: str | None,
                        request_id: str | None) -> dict[str, Any]:
    """Change a member's role (``new_role``) or remove them (``None``), keeping one owner."""
    now = rt.clock.now()
    async with rt.db.write() as conn:
        app, _ = await application_for(conn, actor, app_pid, owner=True, lock=True)
        user = await identity.find_user_by_pid(conn, user_pid)
        current = await app_store.member_role(conn, app.id, user.id) if user is not None else None
        if user is None or current is None:
            raise NotFound()
        if current == OWNER and new_role != OWNER and await app_store.owner_count(conn, app.id) <= 1:
            raise LastOwner()
        await app_store.set_member_role(conn, app.id, user.id, new_role)
        await audit_change(conn, actor, request_id, "member.remove" if new_role is None else "member.role_change",
                           application_id=app.id, target_type="member", target_id=user.pid, before={"role": current},
                           after=None if new_role is None else {"role": new_role}, now=now)
    return {"userPid": user.pid, "role": new_role, "removed": new_role is None}
