"""Applications and their members (with roles)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import and_, func, insert, select, update

from storage.drivers.engine import Executor, Query
from storage.listing import ListField, ListRequest, build_queries, keyword_in, run_list
from storage.schema.tables import (
    application_members,
    applications,
    credentials,
    installations,
    users,
    webhook_endpoints,
)
from tessera.core.ids import new_pid

# A deleted application is kept (its id, for the audit log's history) but is found nowhere.
DELETED = "deleted"


class ApplicationRow(NamedTuple):
    """A row of ``applications``."""

    id: int
    pid: str
    name: str
    description: str | None
    status: str
    created_by: int
    created_at: datetime
    updated_at: datetime


class ApplicationPageRow(NamedTuple):
    """An application as its member's list shows it, with that member's role."""

    id: int
    pid: str
    name: str
    description: str | None
    status: str
    created_by: int
    created_at: datetime
    updated_at: datetime
    role: str


class MemberPageRow(NamedTuple):
    """A member of an application as the members list shows them."""

    user_pid: str
    email: str
    username: str
    role: str
    created_at: datetime
    id: int


async def create_application(conn: Executor, name: str, description: str | None, created_by: int,
                             *, now: datetime) -> ApplicationRow:
    return (await conn.execute(Query(
        insert(applications)
        .values(pid=new_pid("app"), name=name, description=description, status="active", created_by=created_by,
                created_at=now, updated_at=now)
        .returning(*applications.c), ApplicationRow)
    )).one()


async def application_by_id(conn: Executor, application_id: int) -> ApplicationRow:
    return (await conn.execute(Query(select(applications).where(applications.c.id == application_id),
                                     ApplicationRow))).one()


async def application_by_pid(conn: Executor, pid: str, *, lock: bool = False) -> ApplicationRow | None:
    """The application (None for an unknown or deleted one)."""
    query = select(applications).where(and_(applications.c.pid == pid, applications.c.status != DELETED))
    if lock and conn.dialect == "postgresql":
        # Serialises membership changes of one application (the last-owner rule); SQLite's
        # BEGIN IMMEDIATE already serialises every writer.
        query = query.with_for_update()
    return (await conn.execute(Query(query, ApplicationRow))).first()


async def member_role(conn: Executor, application_id: int, user_id: int) -> str | None:
    role: str | None = (await conn.execute(
        select(application_members.c.role).where(
            and_(application_members.c.application_id == application_id, application_members.c.user_id == user_id)
        )
    )).scalar()
    return role


async def add_member(conn: Executor, application_id: int, user_id: int, role: str, *, now: datetime) -> None:
    await conn.execute(insert(application_members).values(application_id=application_id, user_id=user_id, role=role,
                                                          created_at=now))


async def set_member_role(conn: Executor, application_id: int, user_id: int, role: str | None) -> None:
    condition = and_(application_members.c.application_id == application_id, application_members.c.user_id == user_id)
    if role is None:
        await conn.execute(application_members.delete().where(condition))
    else:
        await conn.execute(update(application_members).where(condition).values(role=role))


async def owner_count(conn: Executor, application_id: int) -> int:
    return int((await conn.execute(
        select(func.count()).select_from(application_members).where(
            and_(application_members.c.application_id == application_id, application_members.c.role == "owner")
        )
    )).scalar_one())


async def update_application(conn: Executor, application_id: int, values: dict[str, Any], *,
                             now: datetime) -> None:
    await conn.execute(update(applications).where(applications.c.id == application_id)
                       .values(**values, updated_at=now))


class Removed(NamedTuple):
    """What deleting an application took with it (for its audit entry)."""

    installations: list[str]
    credentials: list[str]
    webhook_endpoints: list[str]


async def remove_application(conn: Executor, application_id: int, *, now: datetime) -> Removed:
    """Delete the application softly: marked deleted, its installations disabled, their credentials
    revoked and their webhook endpoints deleted (rows kept: the audit log and the deliveries refer
    to them). Its tokens are the caller's to delete (``storage.openplatform.tokens.delete_tokens_of``)."""
    own_installations = select(installations.c.id).where(installations.c.application_id == application_id)
    installed = [str(pid) for pid in (await conn.execute(
        select(installations.c.pid).where(installations.c.application_id == application_id)
        .order_by(installations.c.id))).scalars()]
    revoked = [str(client_id) for client_id in (await conn.execute(
        select(credentials.c.client_id).where(and_(credentials.c.installation_id.in_(own_installations),
                                                   credentials.c.status != "revoked"))
        .order_by(credentials.c.id))).scalars()]
    endpoints = [str(pid) for pid in (await conn.execute(
        select(webhook_endpoints.c.pid).where(and_(webhook_endpoints.c.installation_id.in_(own_installations),
                                                   webhook_endpoints.c.deleted_at.is_(None)))
        .order_by(webhook_endpoints.c.id))).scalars()]
    await conn.execute(update(credentials).where(and_(credentials.c.installation_id.in_(own_installations),
                                                      credentials.c.status != "revoked"))
                       .values(status="revoked", revoked_at=now))
    await conn.execute(update(webhook_endpoints).where(and_(webhook_endpoints.c.installation_id.in_(own_installations),
                                                            webhook_endpoints.c.deleted_at.is_(None)))
                       .values(enabled=0, deleted_at=now, updated_at=now))
    await conn.execute(update(installations).where(installations.c.application_id == application_id)
                       .values(status="disabled", updated_at=now))
    await update_application(conn, application_id, {"status": DELETED}, now=now)
    return Removed(installed, revoked, endpoints)


def member_application_ids(user_id: int) -> Any:
    return select(application_members.c.application_id).where(application_members.c.user_id == user_id)


APPLICATION_FIELDS: dict[str, ListField] = {
    "name": ListField("name", "string", applications.c.name),
    "status": ListField("status", "string", applications.c.status),
    "created_at": ListField("created_at", "timestamp", applications.c.created_at),
}


async def applications_page(conn: Executor, user_id: int,
                            request: ListRequest) -> tuple[list[ApplicationPageRow], int]:
    """The applications ``user_id`` is a member of (with ``role``), one page of them and the total."""
    base = select(applications, application_members.c.role).select_from(
        applications.join(application_members, and_(application_members.c.application_id == applications.c.id,
                                                    application_members.c.user_id == user_id))
    ).where(applications.c.status != DELETED)
    return await run_list(conn, build_queries(base, [], request, applications.c.id, keyword_in(applications.c.name),
                                              row=ApplicationPageRow))


MEMBER_FIELDS: dict[str, ListField] = {
    "role": ListField("role", "string", application_members.c.role),
    "email": ListField("email", "string", users.c.email),
    "created_at": ListField("created_at", "timestamp", application_members.c.created_at),
}


async def members_page(conn: Executor, application_id: int,
                       request: ListRequest) -> tuple[list[MemberPageRow], int]:
    """One page of the application's members (user pid, email, username, role) and the total."""
    base = (
        select(users.c.pid.label("user_pid"), users.c.email, users.c.username, application_members.c.role,
               application_members.c.created_at, application_members.c.id)
        .select_from(application_members.join(users, users.c.id == application_members.c.user_id))
        .where(application_members.c.application_id == application_id)
    )
    return await run_list(conn, build_queries(base, [], request, application_members.c.id, keyword_in(users.c.email),
                                              row=MemberPageRow))
