"""Tenants, users, roles, memberships and platform roles."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple, Protocol

from sqlalchemy import and_, bindparam, func, insert, literal_column, select, update

from storage.drivers.engine import Executor, Query, Statement
from storage.schema.tables import memberships, platform_role_grants, role_permissions, roles, tenants, users
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


class UserRow(NamedTuple):
    """A row of ``users``."""

    id: int
    pid: str
    email: str
    username: str
    password_hash: str
    status: str
    default_tenant_id: int | None
    created_at: datetime


class TenantRow(NamedTuple):
    """A row of ``tenants``."""

    id: int
    code: str
    name: str
    status: str
    created_at: datetime


class _MemberRow(NamedTuple):
    id: int  # the tenant's
    code: str  # the tenant's
    role_id: int
    role_code: str
    status: str


class TenantMembershipRow(NamedTuple):
    """One tenant a user is a member of, as ``memberships_of`` lists it."""

    code: str
    name: str
    role_code: str
    status: str


@dataclass(frozen=True)
class Membership:
    tenant_id: int
    tenant_code: str
    role_code: str
    status: str
    permissions: frozenset[str]


async def find_user_by_email(conn: Executor, email: str) -> UserRow | None:
    return (await conn.execute(Query(select(users).where(users.c.email == email.strip().lower()), UserRow))).first()


async def find_user_by_pid(conn: Executor, pid: str) -> UserRow | None:
    return (await conn.execute(Query(select(users).where(users.c.pid == pid), UserRow))).first()


async def find_user_sharing_a_tenant(conn: Executor, email: str, user_id: int) -> UserRow | None:
    """The user with ``email`` when they are a member of an active tenant ``user_id`` belongs to.

    Looking a user up by email is bounded this way so a caller cannot probe which emails exist
    elsewhere on the platform.
    """
    theirs, mine = memberships.alias("theirs"), memberships.alias("mine")
    return (await conn.execute(Query(
        select(users)
        .select_from(
            users.join(theirs, theirs.c.user_id == users.c.id)
            .join(mine, and_(mine.c.tenant_id == theirs.c.tenant_id, mine.c.user_id == user_id))
            .join(tenants, and_(tenants.c.id == theirs.c.tenant_id, tenants.c.status == "active"))
        )
        .where(users.c.email == email.strip().lower())
        .limit(1),
        UserRow,
    ))).first()


async def find_tenant(conn: Executor, code: str) -> TenantRow | None:
    return (await conn.execute(Query(select(tenants).where(tenants.c.code == code), TenantRow))).first()


async def membership(conn: Executor, user_id: int, tenant_code: str) -> Membership | None:
    """The user's membership in the tenant with its permission codes, or None."""
    row = (await conn.execute(Query(
        select(tenants.c.id, tenants.c.code, roles.c.id.label("role_id"), roles.c.code.label("role_code"),
               memberships.c.status)
        .select_from(memberships.join(tenants, tenants.c.id == memberships.c.tenant_id)
                     .join(roles, roles.c.id == memberships.c.role_id))
        .where(and_(memberships.c.user_id == user_id, tenants.c.code == tenant_code,
                    tenants.c.status == "active")),
        _MemberRow,
    ))).first()
    if row is None:
        return None
    perms = await conn.execute(select(role_permissions.c.permission).where(role_permissions.c.role_id == row.role_id))
    return Membership(row.id, row.code, row.role_code, row.status, frozenset(p for (p,) in perms))


async def default_tenant_code(conn: Executor, user: UserRow) -> str | None:
    """The tenant a login lands in: the user's default, else their oldest membership."""
    if user.default_tenant_id is not None:
        code = (await conn.execute(select(tenants.c.code).where(tenants.c.id == user.default_tenant_id))).scalar()
        if code:
            return str(code)
    oldest: str | None = (await conn.execute(
        select(tenants.c.code)
        .select_from(memberships.join(tenants, tenants.c.id == memberships.c.tenant_id))
        .where(memberships.c.user_id == user.id)
        .order_by(memberships.c.id)
        .limit(1)
    )).scalar()
    return oldest


async def memberships_of(conn: Executor, user_id: int) -> list[TenantMembershipRow]:
    """Every active tenant the user is a member of (code, name, role code, status), by code."""
    return list(await conn.execute(Query(
        select(tenants.c.code, tenants.c.name, roles.c.code.label("role_code"), memberships.c.status)
        .select_from(memberships.join(tenants, tenants.c.id == memberships.c.tenant_id)
                     .join(roles, roles.c.id == memberships.c.role_id))
        .where(and_(memberships.c.user_id == user_id, tenants.c.status == "active"))
        .order_by(tenants.c.code),
        TenantMembershipRow,
    )))


async def platform_roles(conn: Executor, user_id: int) -> frozenset[str]:
    rows = await conn.execute(select(platform_role_grants.c.role_code).where(platform_role_grants.c.user_id == user_id))
    return frozenset(r for (r,) in rows)


async def create_tenant(conn: Executor, code: str, name: str, role_templates: Mapping[str, RoleTemplate],
                        *, now: datetime) -> int:
    tenant_id: int = (await conn.execute(
        insert(tenants).values(code=code, name=name, status="active", created_at=now).returning(tenants.c.id)
    )).scalar_one()
    for role in role_templates.values():
        role_id = (await conn.execute(
            insert(roles).values(tenant_id=tenant_id, code=role.code, name=role.name).returning(roles.c.id)
        )).scalar_one()
        if role.permissions:
            await conn.execute(insert(role_permissions).values([{"role_id": role_id, "permission": p}
                                                                for p in role.permissions]))
    return tenant_id


async def create_user(conn: Executor, email: str, username: str, password_hash: str,
                      default_tenant_id: int | None = None, *, now: datetime) -> UserRow:
    return (await conn.execute(Query(
        insert(users)
        .values(pid=new_pid("usr"), email=email.strip().lower(), username=username, password_hash=password_hash,
                status="active", default_tenant_id=default_tenant_id, created_at=now)
        .returning(*users.c),
        UserRow,
    ))).one()


async def set_password_hash(conn: Executor, emails: list[str], password_hash: str) -> int:
    """Give the users with these emails a new password hash; how many there were."""
    done = await conn.execute(update(users).where(users.c.email.in_([e.strip().lower() for e in emails]))
                              .values(password_hash=password_hash))
    return int(done.rowcount)


async def add_membership(conn: Executor, tenant_id: int, user_id: int, role_code: str, *, now: datetime) -> None:
    role_id = (await conn.execute(
        select(roles.c.id).where(and_(roles.c.tenant_id == tenant_id, roles.c.code == role_code))
    )).scalar_one()
    await conn.execute(insert(memberships).values(tenant_id=tenant_id, user_id=user_id, role_id=role_id,
                                                  status="member", created_at=now))


async def grant_platform_role(conn: Executor, user_id: int, role_code: str) -> None:
    if role_code not in PLATFORM_ROLES:
        raise ValueError(f"unknown platform role {role_code!r}")
    await conn.execute(insert(platform_role_grants).values(user_id=user_id, role_code=role_code))


class PrincipalRow(NamedTuple):
    """A user's row (the columns of ``users``) with their membership in one tenant (``m_``: None
    when they have none there)."""

    id: int
    pid: str
    email: str
    username: str
    password_hash: str
    status: str
    default_tenant_id: int | None
    created_at: datetime
    m_tenant_id: int | None
    m_tenant_code: str | None
    m_role_id: int | None
    m_role_code: str | None
    m_status: str | None
    m_permissions: str | None  # the role's permissions, joined by GRANT_SEPARATOR
    platform_role_codes: str | None  # the user's platform roles, joined by GRANT_SEPARATOR


# Permission and role codes are identifiers (letters, digits, ".", ":", "-", "_"): never a comma.
GRANT_SEPARATOR = ","
# A literal in the SQL text, not a parameter: a bound separator would be rendered at execution
# ("post-compile"), which the statements compiled once here do not do.
_SEPARATOR: Any = literal_column(f"'{GRANT_SEPARATOR}'")


@dataclass(frozen=True)
class Principal:
    """A user with their membership in one tenant, permissions and platform roles."""

    user: PrincipalRow
    membership: Membership | None
    platform_roles: frozenset[str]


_PRINCIPAL = Statement(
    select(users, tenants.c.id.label("m_tenant_id"), tenants.c.code.label("m_tenant_code"),
           roles.c.id.label("m_role_id"), roles.c.code.label("m_role_code"),
           memberships.c.status.label("m_status"),
           # The grants come in the same row (string_agg on PostgreSQL, group_concat on SQLite):
           # every session request reads its principal, so this is one round trip, not two.
           select(func.aggregate_strings(role_permissions.c.permission, _SEPARATOR))
           .where(role_permissions.c.role_id == roles.c.id).scalar_subquery().label("m_permissions"),
           select(func.aggregate_strings(platform_role_grants.c.role_code, _SEPARATOR))
           .where(platform_role_grants.c.user_id == users.c.id).scalar_subquery().label("platform_role_codes"))
    .select_from(
        users.outerjoin(
            memberships.join(tenants, and_(tenants.c.id == memberships.c.tenant_id,
                                           tenants.c.code == bindparam("tenant_code"),
                                           tenants.c.status == "active"))
            .join(roles, roles.c.id == memberships.c.role_id),
            memberships.c.user_id == users.c.id,
        )
    )
    .where(users.c.pid == bindparam("user_pid")),
    row=PrincipalRow,
)


def _codes(joined: str | None) -> frozenset[str]:
    return frozenset(joined.split(GRANT_SEPARATOR)) if joined else frozenset()


async def principal(conn: Executor, user_pid: str, tenant_code: str) -> Principal | None:
    """Everything a session request needs about its user, in one query (hot path)."""
    row = (await conn.execute(_PRINCIPAL, {"user_pid": user_pid, "tenant_code": tenant_code})).first()
    if row is None:
        return None
    member = None
    # The membership's columns are all set or all None (NOT NULL columns, outer-joined together).
    if (row.m_tenant_id is not None and row.m_tenant_code is not None and row.m_role_code is not None
            and row.m_status is not None):
        member = Membership(row.m_tenant_id, row.m_tenant_code, row.m_role_code, row.m_status,
                            _codes(row.m_permissions))
    return Principal(row, member, _codes(row.platform_role_codes))


class RoleGrantRow(NamedTuple):
    """A role of a tenant and one permission it grants (None for a role that grants none)."""

    code: str
    name: str
    permission: str | None


async def tenant_roles(conn: Executor, tenant_id: int) -> dict[str, tuple[str, list[str]]]:
    """The tenant's roles by code: each one's name and the permissions it grants, sorted."""
    rows = await conn.execute(Query(
        select(roles.c.code, roles.c.name, role_permissions.c.permission)
        .select_from(roles.outerjoin(role_permissions, role_permissions.c.role_id == roles.c.id))
        .where(roles.c.tenant_id == tenant_id)
        .order_by(roles.c.code, role_permissions.c.permission), RoleGrantRow))
    found: dict[str, tuple[str, list[str]]] = {}
    for row in rows:
        _, grants = found.setdefault(row.code, (row.name, []))
        if row.permission is not None:
            grants.append(row.permission)
    return found
