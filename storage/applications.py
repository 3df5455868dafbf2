"""Applications and their members (with roles)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import and_, func, insert, select, update

from storage.engine import Executor, Query
from storage.listing import ListField, ListRequest, build_queries, keyword_in, run_list
from storage.tables import (
    application_members,
    applications,
    users,
)
from tessera.core.ids import new_pid


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
    query = select(applications).where(applications.c.pid == pid)
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
    )
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
