"""Client credentials of installations: the client id and either the keyed digest of the secret
(kind ``secret``) or the public JWK Set of a ``private_key_jwt`` client; and the ``jti`` claims of
client assertions already used."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import ColumnElement, and_, bindparam, case, false, func, insert, literal, or_, select, update

from storage.drivers.engine import Executor, Query, Statement, insert_or_skip
from storage.listing import ListField, ListRequest, build_queries, keyword_in, run_list
from storage.schema.tables import (
    applications,
    client_assertion_jtis,
    credentials,
    installations,
    tenants,
)

SECRET = "secret"  # noqa: S105 - a kind's name, not a secret
PRIVATE_KEY_JWT = "private_key_jwt"


class CredentialRow(NamedTuple):
    """A row of ``credentials``."""

    id: int
    client_id: str
    installation_id: int
    kind: str
    secret_digest: str | None
    public_jwks: dict[str, Any] | None
    status: str
    created_at: datetime
    rotated_at: datetime | None
    expires_at: datetime | None
    revoked_at: datetime | None
    rotation_due_announced_at: datetime | None
    expiry_announced_at: datetime | None
    aged_out_at: datetime | None


async def create_credential(conn: Executor, installation_id: int, client_id: str, secret_digest: str | None,
                            *, now: datetime, public_jwks: dict[str, Any] | None = None) -> CredentialRow:
    """A secret credential (``secret_digest``) or, given ``public_jwks``, a ``private_key_jwt`` one."""
    kind = SECRET if public_jwks is None else PRIVATE_KEY_JWT
    return (await conn.execute(Query(
        insert(credentials)
        .values(client_id=client_id, installation_id=installation_id, secret_digest=secret_digest, kind=kind,
                public_jwks=public_jwks, status="active", created_at=now)
        .returning(*credentials.c), CredentialRow)
    )).one()


STATUSES = ("active", "rotated", "expired", "revoked")


def derived_status(now: datetime, born_before: datetime | None = None) -> ColumnElement[str]:
    """The status a client sees, derived in SQL so that it can be filtered and sorted on: the
    stored status only says active or revoked; rotation, the end of the grace window and the
    maximum age (a credential created at or before ``born_before`` is past it) are timestamps."""
    aged_out: ColumnElement[bool] = credentials.c.created_at <= born_before if born_before is not None else false()
    return case(
        (credentials.c.status == "revoked", literal("revoked")),
        (and_(credentials.c.expires_at.is_not(None), credentials.c.expires_at <= now), literal("expired")),
        (aged_out, literal("expired")),
        (credentials.c.rotated_at.is_not(None), literal("rotated")),
        else_=literal("active"),
    )


def list_fields(now: datetime, born_before: datetime | None = None) -> dict[str, ListField]:
    """What a credential list sorts and filters on; ``status`` is the status derived at ``now``
    (with ``born_before``, the creation time at or before which a credential is past its maximum age)."""
    return {
        "status": ListField("status", "enum", derived_status(now, born_before), STATUSES),
        "created_at": ListField("created_at", "timestamp", credentials.c.created_at),
    }


class CredentialPageRow(NamedTuple):
    """A credential as a list shows it: never its digest, with the status a client sees."""

    id: int
    client_id: str
    kind: str
    status: str
    public_jwks: dict[str, Any] | None
    created_at: datetime
    rotated_at: datetime | None
    expires_at: datetime | None
    revoked_at: datetime | None
    derived_status: str


async def credentials_page(conn: Executor, installation_id: int, fields: dict[str, ListField],
                           request: ListRequest) -> tuple[list[CredentialPageRow], int]:
    """One page of the installation's credentials with ``derived_status``; never a digest."""
    base = select(credentials.c.id, credentials.c.client_id, credentials.c.kind, credentials.c.status,
                  credentials.c.public_jwks, credentials.c.created_at,
                  credentials.c.rotated_at, credentials.c.expires_at, credentials.c.revoked_at,
                  fields["status"].expr.label("derived_status")).where(
        credentials.c.installation_id == installation_id)
    return await run_list(conn, build_queries(base, [], request, credentials.c.id, keyword_in(credentials.c.client_id),
                                              row=CredentialPageRow))


class CredentialWithInstallationRow(NamedTuple):
    """A credential (every column) with what a token request checks of its installation."""

    id: int
    client_id: str
    installation_id: int
    kind: str
    secret_digest: str | None
    public_jwks: dict[str, Any] | None
    status: str
    created_at: datetime
    rotated_at: datetime | None
    expires_at: datetime | None
    revoked_at: datetime | None
    rotation_due_announced_at: datetime | None
    expiry_announced_at: datetime | None
    aged_out_at: datetime | None
    installation_pid: str
    application_id: int
    tenant_id: int
    inst_status: str
    granted_scopes: list[str]
    app_status: str


_WITH_INSTALLATION = Statement(
    select(credentials, installations.c.pid.label("installation_pid"),
           installations.c.application_id, installations.c.tenant_id, installations.c.status.label("inst_status"),
           installations.c.scopes.label("granted_scopes"), applications.c.status.label("app_status"))
    .select_from(credentials.join(installations, installations.c.id == credentials.c.installation_id)
                 .join(applications, applications.c.id == installations.c.application_id))
    .where(credentials.c.client_id == bindparam("client_id")),
    row=CredentialWithInstallationRow,
)


async def credential_with_installation(conn: Executor, client_id: str) -> CredentialWithInstallationRow | None:
    """The credential of a token request with what the grant checks of its installation (hot path)."""
    return (await conn.execute(_WITH_INSTALLATION, {"client_id": client_id})).first()


async def update_credential(conn: Executor, credential_id: int, values: dict[str, Any]) -> None:
    await conn.execute(update(credentials).where(credentials.c.id == credential_id).values(**values))


# -- hygiene: the rotation baseline and the maximum age ---------------------------------------------

ROTATION_DUE = "rotation_due_announced_at"
EXPIRY_APPROACHING = "expiry_announced_at"
AGED_OUT = "aged_out_at"


def _unannounced(column: str, born_before: datetime | None) -> ColumnElement[bool]:
    if born_before is None:
        return false()
    return and_(credentials.c[column].is_(None), credentials.c.created_at <= born_before)


class CrossingRow(NamedTuple):
    """A credential in use with its announcements so far, its installation and its application."""

    id: int
    client_id: str
    kind: str
    created_at: datetime
    rotation_due_announced_at: datetime | None
    expiry_announced_at: datetime | None
    aged_out_at: datetime | None
    installation_pid: str
    tenant_id: int
    application_id: int
    application_pid: str


async def crossing(conn: Executor, *, rotation_before: datetime, notice_before: datetime | None,
                   max_age_before: datetime | None, tenant_id: int | None = None,
                   limit: int = 500) -> list[CrossingRow]:
    """Credentials in use (active, not rotated) that crossed a line not yet announced: created at or
    before ``rotation_before`` (the rotation baseline), ``notice_before`` (the advance notice of the
    maximum age) or ``max_age_before`` (the maximum age); each with its installation and application."""
    query = (
        select(credentials.c.id, credentials.c.client_id, credentials.c.kind, credentials.c.created_at,
               credentials.c.rotation_due_announced_at, credentials.c.expiry_announced_at, credentials.c.aged_out_at,
               installations.c.pid.label("installation_pid"), installations.c.tenant_id,
               installations.c.application_id, applications.c.pid.label("application_pid"))
        .select_from(credentials.join(installations, installations.c.id == credentials.c.installation_id)
                     .join(applications, applications.c.id == installations.c.application_id))
        .where(credentials.c.status == "active", credentials.c.rotated_at.is_(None),
               or_(_unannounced(ROTATION_DUE, rotation_before), _unannounced(EXPIRY_APPROACHING, notice_before),
                   _unannounced(AGED_OUT, max_age_before)))
        .order_by(credentials.c.id).limit(limit)
    )
    if tenant_id is not None:
        query = query.where(installations.c.tenant_id == tenant_id)
    return list(await conn.execute(Query(query, CrossingRow)))


async def mark_announced(conn: Executor, credential_id: int, column: str, now: datetime) -> bool:
    """Note that ``column``'s line was announced; false if another worker did it first."""
    result = await conn.execute(
        update(credentials).where(credentials.c.id == credential_id, credentials.c[column].is_(None))
        .values({column: now}))
    return result.rowcount == 1


class _TenantCount(NamedTuple):
    code: str
    n: int


async def rotation_due_by_tenant(conn: Executor, rotation_before: datetime) -> dict[str, int]:
    """Credentials in use created at or before ``rotation_before``, counted per tenant code."""
    query = (
        select(tenants.c.code, func.count().label("n"))
        .select_from(credentials.join(installations, installations.c.id == credentials.c.installation_id)
                     .join(tenants, tenants.c.id == installations.c.tenant_id))
        .where(credentials.c.status == "active", credentials.c.rotated_at.is_(None),
               credentials.c.created_at <= rotation_before)
        .group_by(tenants.c.code)
    )
    return {row.code: int(row.n) for row in await conn.execute(Query(query, _TenantCount))}


class _Claimed(NamedTuple):
    id: int


_CLAIM_JTI = insert_or_skip(client_assertion_jtis, ("jti_digest", "expires_at"), (client_assertion_jtis.c.id,),
                            _Claimed)


async def claim_jti(conn: Executor, jti_digest: str, expires_at: datetime) -> bool:
    """Record a client assertion's ``jti`` until ``expires_at``; False if it was already used
    (one statement: the unique constraint decides, a conflict is no error)."""
    return (await conn.execute(_CLAIM_JTI, {"jti_digest": jti_digest, "expires_at": expires_at})).first() is not None
