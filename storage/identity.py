"""Tenants, users, roles, memberships and platform roles."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import Connection, Row, and_, insert, literal_column, select

from storage.tables import memberships, platform_role_grants, role_permissions, roles, tenants, users
from tessera.core.ids import new_pid

PLATFORM_ROLES = ("sys.connector.update", "sys.admin")


class RoleTemplate(Protocol):
    """A role every new tenant gets (``tessera.registry.models.RoleDecl`` is one)."""

    @property
    def code(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def permissions(self) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class Membership:
    tenant_id: int
    tenant_code: str
    role_code: str
    status: str
    permissions: frozenset[str]


def find_user_by_email(conn: Connection, email: str) -> Row[Any] | None:
    return conn.execute(select(users).where(users.c.email == email.strip().lower())).first()


def find_user_by_pid(conn: Connection, pid: str) -> Row[Any] | None:
    return conn.execute(select(users).where(users.c.pid == pid)).first()


def find_user_sharing_a_tenant(conn: Connection, email: str, user_id: int) -> Row[Any] | None:
    """The user with ``email`` when they are a member of an active tenant ``user_id`` belongs to.

    Looking a user up by email is bounded this way so a caller cannot probe which emails exist
    elsewhere on the platform.
    """
    theirs, mine = memberships.alias("theirs"), memberships.alias("mine")
    return conn.execute(
        select(users)
        .select_from(
            users.join(theirs, theirs.c.user_id == users.c.id)
            .join(mine, and_(mine.c.tenant_id == theirs.c.tenant_id, mine.c.user_id == user_id))
            .join(tenants, and_(tenants.c.id == theirs.c.tenant_id, tenants.c.status == "active"))
        )
        .where(users.c.email == email.strip().lower())
        .limit(1)
    ).first()


def find_tenant(conn: Connection, code: str) -> Row[Any] | None:
    return conn.execute(select(tenants).where(tenants.c.code == code)).first()


def membership(conn: Connection, user_id: int, tenant_code: str) -> Membership | None:
    """The user's membership in the tenant with its permission codes, or None."""
    row = conn.execute(
        select(tenants.c.id, tenants.c.code, roles.c.id.label("role_id"), roles.c.code.label("role_code"),
               memberships.c.status)
        .select_from(memberships.join(tenants, tenants.c.id == memberships.c.tenant_id)
                     .join(roles, roles.c.id == memberships.c.role_id))
        .where(and_(memberships.c.user_id == user_id, tenants.c.code == tenant_code,
                    tenants.c.status == "active"))
    ).first()
    if row is None:
        return None
    perms = conn.execute(select(role_permissions.c.permission).where(role_permissions.c.role_id == row.role_id))
    return Membership(row.id, row.code, row.role_code, row.status, frozenset(p for (p,) in perms))


def default_tenant_code(conn: Connection, user: Row[Any]) -> str | None:
    """The tenant a login lands in: the user's default, else their oldest membership."""
    if user.default_tenant_id is not None:
        code = conn.execute(select(tenants.c.code).where(tenants.c.id == user.default_tenant_id)).scalar()
        if code:
            return str(code)
    oldest: str | None = conn.execute(
        select(tenants.c.code)
        .select_from(memberships.join(tenants, tenants.c.id == memberships.c.tenant_id))
        .where(memberships.c.user_id == user.id)
        .order_by(memberships.c.id)
        .limit(1)
    ).scalar()
    return oldest


def memberships_of(conn: Connection, user_id: int) -> list[Row[Any]]:
    """Every active tenant the user is a member of (code, name, role code, status), by code."""
    return list(conn.execute(
        select(tenants.c.code, tenants.c.name, roles.c.code.label("role_code"), memberships.c.status)
        .select_from(memberships.join(tenants, tenants.c.id == memberships.c.tenant_id)
                     .join(roles, roles.c.id == memberships.c.role_id))
        .where(and_(memberships.c.user_id == user_id, tenants.c.status == "active"))
        .order_by(tenants.c.code)
    ))


def platform_roles(conn: Connection, user_id: int) -> frozenset[str]:
    rows = conn.execute(select(platform_role_grants.c.role_code).where(platform_role_grants.c.user_id == user_id))
    return frozenset(r for (r,) in rows)


def create_tenant(conn: Connection, code: str, name: str, role_templates: Mapping[str, RoleTemplate],
                  *, now: datetime) -> int:
    tenant_id: int = conn.execute(
        insert(tenants).values(code=code, name=name, status="active", created_at=now).returning(tenants.c.id)
    ).scalar_one()
    for role in role_templates.values():
        role_id = conn.execute(
            insert(roles).values(tenant_id=tenant_id, code=role.code, name=role.name).returning(roles.c.id)
        ).scalar_one()
        if role.permissions:
            conn.execute(insert(role_permissions), [{"role_id": role_id, "permission": p} for p in role.permissions])
    return tenant_id


def create_user(conn: Connection, email: str, username: str, password_hash: str,
                default_tenant_id: int | None = None, *, now: datetime) -> Row[Any]:
    return conn.execute(
        insert(users)
        .values(pid=new_pid("usr"), email=email.strip().lower(), username=username, password_hash=password_hash,
                status="active", default_tenant_id=default_tenant_id, created_at=now)
        .returning(*users.c)
    ).one()


def add_membership(conn: Connection, tenant_id: int, user_id: int, role_code: str, *, now: datetime) -> None:
    role_id = conn.execute(
        select(roles.c.id).where(and_(roles.c.tenant_id == tenant_id, roles.c.code == role_code))
    ).scalar_one()
    conn.execute(insert(memberships).values(tenant_id=tenant_id, user_id=user_id, role_id=role_id,
                                            status="member", created_at=now))


def grant_platform_role(conn: Connection, user_id: int, role_code: str) -> None:
    if role_code not in PLATFORM_ROLES:
        raise ValueError(f"unknown platform role {role_code!r}")
    conn.execute(insert(platform_role_grants).values(user_id=user_id, role_code=role_code))


@dataclass(frozen=True)
class Principal:
    """A user with their membership in one tenant, permissions and platform roles."""

    user: Row[Any]
    membership: Membership | None
    platform_roles: frozenset[str]


def principal(conn: Connection, user_pid: str, tenant_code: str) -> Principal | None:
    """Everything a session request needs about its user, in two queries (hot path)."""
    row = conn.execute(
        select(users, tenants.c.id.label("m_tenant_id"), tenants.c.code.label("m_tenant_code"),
               roles.c.id.label("m_role_id"), roles.c.code.label("m_role_code"),
               memberships.c.status.label("m_status"))
        .select_from(
            users.outerjoin(
                memberships.join(tenants, and_(tenants.c.id == memberships.c.tenant_id, tenants.c.code == tenant_code,
                                               tenants.c.status == "active"))
                .join(roles, roles.c.id == memberships.c.role_id),
                memberships.c.user_id == users.c.id,
            )
        )
        .where(users.c.pid == user_pid)
    ).first()
    if row is None:
        return None
    grants = conn.execute(
        select(literal_column("'p'").label("kind"), role_permissions.c.permission.label("code"))
        .where(role_permissions.c.role_id == row.m_role_id)
        .union_all(
            select(literal_column("'r'"), platform_role_grants.c.role_code)
            .where(platform_role_grants.c.user_id == row.id)
        )
    ).all()
    member = None
    if row.m_tenant_id is not None:
        member = Membership(row.m_tenant_id, row.m_tenant_code, row.m_role_code, row.m_status,
                            frozenset(code for kind, code in grants if kind == "p"))
    return Principal(row, member, frozenset(code for kind, code in grants if kind == "r"))
