"""Client credentials (client id and the keyed digest of the secret) of installations."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Connection, Row, and_, case, insert, literal, select, update

from storage.listing import ListField, ListRequest, build_queries, keyword_in, run_list
from storage.tables import (
    credentials,
    installations,
)


def create_credential(conn: Connection, installation_id: int, client_id: str, secret_digest: str,
                      *, now: datetime) -> Row[Any]:
    return conn.execute(
        insert(credentials)
        .values(client_id=client_id, installation_id=installation_id, secret_digest=secret_digest, status="active",
                created_at=now)
        .returning(*credentials.c)
    ).one()


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


def credentials_page(conn: Connection, installation_id: int, fields: dict[str, ListField],
                     request: ListRequest) -> tuple[list[Row[Any]], int]:
    """One page of the installation's credentials with ``derived_status``; never a digest."""
    base = select(credentials.c.id, credentials.c.client_id, credentials.c.status, credentials.c.created_at,
                  credentials.c.rotated_at, credentials.c.expires_at, credentials.c.revoked_at,
                  fields["status"].expr.label("derived_status")).where(
        credentials.c.installation_id == installation_id)
    return run_list(conn, build_queries(base, [], request, credentials.c.id, keyword_in(credentials.c.client_id)))


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
