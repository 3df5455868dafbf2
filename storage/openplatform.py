"""Open Platform records: applications, members, installations, credentials, access tokens."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Row, and_, bindparam, func, insert, select, update

from storage.tables import (
    access_tokens,
    application_members,
    applications,
    credentials,
    installations,
    open_api_calls,
    tenants,
    users,
)
from storage.types import utcnow
from tessera.core.ids import new_pid


def create_application(conn: Connection, name: str, description: str | None, created_by: int) -> Row[Any]:
    now = utcnow()
    return conn.execute(
        insert(applications)
        .values(pid=new_pid("app"), name=name, description=description, status="active", created_by=created_by,
                created_at=now, updated_at=now)
        .returning(*applications.c)
    ).one()


def application_by_pid(conn: Connection, pid: str, *, lock: bool = False) -> Row[Any] | None:
    query = select(applications).where(applications.c.pid == pid)
    if lock and conn.dialect.name == "postgresql":
        # Serialises membership changes of one application (the last-owner rule); SQLite's
        # BEGIN IMMEDIATE already serialises every writer.
        query = query.with_for_update()
    return conn.execute(query).first()


def member_role(conn: Connection, application_id: int, user_id: int) -> str | None:
    return conn.execute(
        select(application_members.c.role).where(
            and_(application_members.c.application_id == application_id, application_members.c.user_id == user_id)
        )
    ).scalar()


def add_member(conn: Connection, application_id: int, user_id: int, role: str) -> None:
    conn.execute(insert(application_members).values(application_id=application_id, user_id=user_id, role=role,
                                                    created_at=utcnow()))


def set_member_role(conn: Connection, application_id: int, user_id: int, role: str | None) -> None:
    condition = and_(application_members.c.application_id == application_id, application_members.c.user_id == user_id)
    if role is None:
        conn.execute(application_members.delete().where(condition))
    else:
        conn.execute(update(application_members).where(condition).values(role=role))


def owner_count(conn: Connection, application_id: int) -> int:
    return conn.execute(
        select(func.count()).select_from(application_members).where(
            and_(application_members.c.application_id == application_id, application_members.c.role == "owner")
        )
    ).scalar_one()


def member_application_ids(user_id: int) -> Any:
    return select(application_members.c.application_id).where(application_members.c.user_id == user_id)


def members_query(application_id: int) -> Any:
    return (
        select(users.c.pid.label("user_pid"), users.c.email, users.c.username, application_members.c.role,
               application_members.c.created_at, application_members.c.id)
        .select_from(application_members.join(users, users.c.id == application_members.c.user_id))
        .where(application_members.c.application_id == application_id)
    )


def create_installation(conn: Connection, application_id: int, tenant_id: int, environment: str,
                        scopes: list[str]) -> Row[Any]:
    now = utcnow()
    return conn.execute(
        insert(installations)
        .values(pid=new_pid("ins"), application_id=application_id, tenant_id=tenant_id, environment=environment,
                scopes=scopes, status="enabled", created_at=now, updated_at=now)
        .returning(*installations.c)
    ).one()


def installation_by_pid(conn: Connection, pid: str) -> Row[Any] | None:
    return conn.execute(
        select(installations, applications.c.pid.label("application_pid"), tenants.c.code.label("tenant_code"))
        .select_from(installations.join(applications, applications.c.id == installations.c.application_id)
                     .join(tenants, tenants.c.id == installations.c.tenant_id))
        .where(installations.c.pid == pid)
    ).first()


def installations_query(application_id: int) -> Any:
    return (
        select(installations, tenants.c.code.label("tenant_code"))
        .select_from(installations.join(tenants, tenants.c.id == installations.c.tenant_id))
        .where(installations.c.application_id == application_id)
    )


def update_installation(conn: Connection, installation_id: int, values: dict[str, Any]) -> None:
    conn.execute(update(installations).where(installations.c.id == installation_id)
                 .values(**values, updated_at=utcnow()))


def create_credential(conn: Connection, installation_id: int, client_id: str, secret_digest: str) -> Row[Any]:
    return conn.execute(
        insert(credentials)
        .values(client_id=client_id, installation_id=installation_id, secret_digest=secret_digest, status="active",
                created_at=utcnow())
        .returning(*credentials.c)
    ).one()


def credentials_query(installation_id: int, *extra: Any) -> Any:
    """The installation's credentials (and ``extra`` columns) for a list; digests left out."""
    return select(credentials.c.id, credentials.c.client_id, credentials.c.status, credentials.c.created_at,
                  credentials.c.rotated_at, credentials.c.expires_at, credentials.c.revoked_at, *extra).where(
        credentials.c.installation_id == installation_id)


def credential_with_installation(conn: Connection, client_id: str) -> Row[Any] | None:
    return conn.execute(
        select(credentials, installations.c.pid.label("installation_pid"),
               installations.c.application_id, installations.c.tenant_id, installations.c.status.label("inst_status"),
               installations.c.scopes.label("granted_scopes"))
        .select_from(credentials.join(installations, installations.c.id == credentials.c.installation_id))
        .where(credentials.c.client_id == client_id)
    ).first()


def update_credential(conn: Connection, credential_id: int, values: dict[str, Any]) -> None:
    conn.execute(update(credentials).where(credentials.c.id == credential_id).values(**values))


def store_token(conn: Connection, digest: str, credential_id: int, installation_id: int, scopes: list[str],
                issued_at: datetime, expires_at: datetime) -> None:
    conn.execute(insert(access_tokens).values(token_digest=digest, credential_id=credential_id,
                                              installation_id=installation_id, scopes=scopes,
                                              issued_at=issued_at, expires_at=expires_at))


# Built once: constructing this 18-column, 4-join SELECT took longer than running it. Executions
# only bind the digest (SQLAlchemy's compiled-statement cache does the rest).
_TOKEN_CONTEXT = (
    select(
        access_tokens.c.scopes, access_tokens.c.issued_at, access_tokens.c.expires_at,
        credentials.c.client_id, credentials.c.status.label("credential_status"), credentials.c.rotated_at,
        credentials.c.expires_at.label("credential_expires_at"),
        installations.c.id.label("installation_id"), installations.c.pid.label("installation_pid"),
        installations.c.environment, installations.c.status.label("installation_status"),
        installations.c.scopes.label("granted_scopes"),
        applications.c.id.label("application_id"), applications.c.pid.label("application_pid"),
        applications.c.name.label("application_name"),
        tenants.c.id.label("tenant_id"), tenants.c.code.label("tenant_code"),
        tenants.c.status.label("tenant_status"),
    )
    .select_from(
        access_tokens.join(credentials, credentials.c.id == access_tokens.c.credential_id)
        .join(installations, installations.c.id == access_tokens.c.installation_id)
        .join(applications, applications.c.id == installations.c.application_id)
        .join(tenants, tenants.c.id == installations.c.tenant_id)
    )
    .where(access_tokens.c.token_digest == bindparam("digest"))
)


def token_context(conn: Connection, digest: str) -> Row[Any] | None:
    """Everything a business call needs to trust a token, in one query."""
    return conn.execute(_TOKEN_CONTEXT, {"digest": digest}).first()


def record_calls(conn: Connection, rows: list[dict[str, Any]]) -> None:
    """Call-audit rows, each with its own ``created_at`` (one executemany)."""
    conn.execute(insert(open_api_calls), rows)
