"""Client credentials of installations: the client id and either the keyed digest of the secret
(kind ``secret``) or the public JWK Set of a ``private_key_jwt`` client; and the ``jti`` claims of
client assertions already used."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, and_, bindparam, case, insert, literal, select, update

from storage.engine import Executor, Row, Statement, insert_or_skip
from storage.listing import ListField, ListRequest, build_queries, keyword_in, run_list
from storage.tables import (
    client_assertion_jtis,
    credentials,
    installations,
)

SECRET = "secret"  # noqa: S105 - a kind's name, not a secret
PRIVATE_KEY_JWT = "private_key_jwt"


async def create_credential(conn: Executor, installation_id: int, client_id: str, secret_digest: str | None,
                            *, now: datetime, public_jwks: dict[str, Any] | None = None) -> Row:
    """A secret credential (``secret_digest``) or, given ``public_jwks``, a ``private_key_jwt`` one."""
    kind = SECRET if public_jwks is None else PRIVATE_KEY_JWT
    return (await conn.execute(
        insert(credentials)
        .values(client_id=client_id, installation_id=installation_id, secret_digest=secret_digest, kind=kind,
                public_jwks=public_jwks, status="active", created_at=now)
        .returning(*credentials.c)
    )).one()


STATUSES = ("active", "rotated", "expired", "revoked")


def derived_status(now: datetime) -> ColumnElement[str]:
    """The status a client sees, derived in SQL so that it can be filtered and sorted on: the
    stored status only says active or revoked; rotation and the end of the grace window are
    timestamps."""
    return case(
        (credentials.c.status == "revoked", literal("revoked")),
        (and_(credentials.c.expires_at.is_not(None), credentials.c.expires_at <= now), literal("expired")),
        (credentials.c.rotated_at.is_not(None), literal("rotated")),
        else_=literal("active"),
    )


def list_fields(now: datetime) -> dict[str, ListField]:
    """What a credential list sorts and filters on; ``status`` is the status derived at ``now``."""
    return {
        "status": ListField("status", "enum", derived_status(now), STATUSES),
        "created_at": ListField("created_at", "timestamp", credentials.c.created_at),
    }


async def credentials_page(conn: Executor, installation_id: int, fields: dict[str, ListField],
                           request: ListRequest) -> tuple[list[Row], int]:
    """One page of the installation's credentials with ``derived_status``; never a digest."""
    base = select(credentials.c.id, credentials.c.client_id, credentials.c.kind, credentials.c.status,
                  credentials.c.public_jwks, credentials.c.created_at,
                  credentials.c.rotated_at, credentials.c.expires_at, credentials.c.revoked_at,
                  fields["status"].expr.label("derived_status")).where(
        credentials.c.installation_id == installation_id)
    return await run_list(conn, build_queries(base, [], request, credentials.c.id, keyword_in(credentials.c.client_id)))


_WITH_INSTALLATION = Statement(
    select(credentials, installations.c.pid.label("installation_pid"),
           installations.c.application_id, installations.c.tenant_id, installations.c.status.label("inst_status"),
           installations.c.scopes.label("granted_scopes"))
    .select_from(credentials.join(installations, installations.c.id == credentials.c.installation_id))
    .where(credentials.c.client_id == bindparam("client_id"))
)


async def credential_with_installation(conn: Executor, client_id: str) -> Row | None:
    """The credential of a token request with what the grant checks of its installation (hot path)."""
    return (await conn.execute(_WITH_INSTALLATION, {"client_id": client_id})).first()


async def update_credential(conn: Executor, credential_id: int, values: dict[str, Any]) -> None:
    await conn.execute(update(credentials).where(credentials.c.id == credential_id).values(**values))


_CLAIM_JTI = insert_or_skip(client_assertion_jtis, ("jti_digest", "expires_at"), (client_assertion_jtis.c.id,))


async def claim_jti(conn: Executor, jti_digest: str, expires_at: datetime) -> bool:
    """Record a client assertion's ``jti`` until ``expires_at``; False if it was already used
    (one statement: the unique constraint decides, a conflict is no error)."""
    return (await conn.execute(_CLAIM_JTI, {"jti_digest": jti_digest, "expires_at": expires_at})).first() is not None
