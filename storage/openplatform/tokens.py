"""Access tokens (keyed digests), the one query that trusts a bearer token, and revocation.

A read by pid on the Open Platform trusts its token and reads its record in that same query
(``token_context_and_record``): one round trip instead of two on the busiest published call. A new
token and its audit entry are one statement on PostgreSQL (``store_token_audited``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import Text, and_, bindparam, cast, delete, insert, select

from storage import audit
from storage.drivers.engine import Database, Executor, Statement, bound
from storage.records import RecordRow
from storage.schema.tables import (
    access_tokens,
    applications,
    audit_log,
    credentials,
    installations,
    records,
    tenants,
)

_TOKEN_COLUMNS = ("token_digest", "credential_id", "installation_id", "scopes", "issued_at", "expires_at")
_STORE = Statement(insert(access_tokens).values(bound(*_TOKEN_COLUMNS)))
# PostgreSQL: the token, and its audit entry selected from the token's insert (a data-modifying
# CTE), in one statement: atomic as any statement, one round trip on an autocommit connection, no
# BEGIN or COMMIT. The audit entry's values are typed binds (psycopg renders their casts).
_STORED = insert(access_tokens).values(bound(*_TOKEN_COLUMNS)).returning(access_tokens.c.id).cte("stored")
_STORE_AUDITED = Statement(
    insert(audit_log).from_select(
        list(audit.COLUMNS),
        select(*(bindparam(name, type_=audit_log.c[name].type) for name in audit.COLUMNS)).select_from(_STORED),
    ).add_cte(_STORED)
)


async def store_token(conn: Executor, digest: str, credential_id: int, installation_id: int, scopes: list[str],
                      issued_at: datetime, expires_at: datetime) -> None:
    """Queued in the issuing transaction: on PostgreSQL it travels with the COMMIT."""
    await conn.enqueue(_STORE, {"token_digest": digest, "credential_id": credential_id,
                                "installation_id": installation_id, "scopes": scopes, "issued_at": issued_at,
                                "expires_at": expires_at})


class TokenContextRow(NamedTuple):
    """A stored token with what trusting it takes: its credential, installation, application and tenant."""

    scopes: str  # the token's scopes, a JSON list as text
    issued_at: datetime
    expires_at: datetime
    client_id: str
    credential_status: str
    rotated_at: datetime | None
    credential_expires_at: datetime | None
    installation_id: int
    installation_pid: str
    environment: str
    installation_status: str
    granted_scopes: str  # the installation's granted scopes, a JSON list as text
    application_id: int
    application_pid: str
    application_name: str
    tenant_id: int
    tenant_code: str
    tenant_status: str


async def store_token_audited(db: Database, digest: str, credential_id: int, installation_id: int,
                              scopes: list[str], issued_at: datetime, expires_at: datetime,
                              entry: dict[str, Any]) -> None:
    """A new token and its audit entry (``audit.entry``), both or neither, in one statement.
    PostgreSQL only (SQLite has no data-modifying CTE: there, ``store_token`` and
    ``audit.append_entry`` share the caller's transaction)."""
    if db.dialect != "postgresql":
        raise ValueError("store_token_audited needs PostgreSQL")
    await db.execute(_STORE_AUDITED, {"token_digest": digest, "credential_id": credential_id,
                                      "installation_id": installation_id, "scopes": scopes, "issued_at": issued_at,
                                      "expires_at": expires_at, **entry})


# Built once: constructing this 18-column, 4-join SELECT took longer than running it. Executions
# only bind the digest (SQLAlchemy's compiled-statement cache does the rest).
# The two scope lists come as their JSON text: a handful of distinct grants serve every call, so
# ``bearer.scopes_of`` parses each distinct pair once instead of the driver parsing both per call.
_CONTEXT_COLUMNS = (
    cast(access_tokens.c.scopes, Text).label("scopes"), access_tokens.c.issued_at, access_tokens.c.expires_at,
    credentials.c.client_id, credentials.c.status.label("credential_status"), credentials.c.rotated_at,
    credentials.c.expires_at.label("credential_expires_at"),
    installations.c.id.label("installation_id"), installations.c.pid.label("installation_pid"),
    installations.c.environment, installations.c.status.label("installation_status"),
    cast(installations.c.scopes, Text).label("granted_scopes"),
    applications.c.id.label("application_id"), applications.c.pid.label("application_pid"),
    applications.c.name.label("application_name"),
    tenants.c.id.label("tenant_id"), tenants.c.code.label("tenant_code"),
    tenants.c.status.label("tenant_status"),
)
_CONTEXT_JOIN = (
    access_tokens.join(credentials, credentials.c.id == access_tokens.c.credential_id)
    .join(installations, installations.c.id == access_tokens.c.installation_id)
    .join(applications, applications.c.id == installations.c.application_id)
    .join(tenants, tenants.c.id == installations.c.tenant_id)
)
_BY_DIGEST = access_tokens.c.token_digest == bindparam("digest")
_TOKEN_CONTEXT = Statement(select(*_CONTEXT_COLUMNS).select_from(_CONTEXT_JOIN).where(_BY_DIGEST), row=TokenContextRow)
# The same, with the token's tenant's live record of one model and pid beside it (NULLs when there
# is none): the unique index on a record's pid makes it one more index probe.
_TOKEN_AND_RECORD = Statement(
    select(*_CONTEXT_COLUMNS, *(column.label(f"record_{column.name}") for column in records.c))
    .select_from(_CONTEXT_JOIN.outerjoin(records, and_(
        records.c.tenant_id == tenants.c.id, records.c.model == bindparam("model"),
        records.c.pid == bindparam("pid"), records.c.deleted_at.is_(None))))
    .where(_BY_DIGEST)
)
_CONTEXT_WIDTH = len(_CONTEXT_COLUMNS)  # TokenContextRow's fields, in order (the row class is checked)


async def token_context(conn: Executor, digest: str) -> TokenContextRow | None:
    """Everything a business call needs to trust a token, in one query."""
    return (await conn.execute(_TOKEN_CONTEXT, {"digest": digest})).first()


async def token_context_and_record(conn: Executor, digest: str, model: str,
                                   pid: str) -> tuple[TokenContextRow, RecordRow | None] | None:
    """``token_context``, and in the same statement the record ``pid`` of ``model`` in the token's
    tenant (None when it has none, or it is deleted); None when there is no such token. ``pid``
    must be storable text (``tessera.core.text.storable_text``): PostgreSQL refuses a NUL."""
    row = (await conn.execute(_TOKEN_AND_RECORD, {"digest": digest, "model": model, "pid": pid})).first()
    if row is None:
        return None
    record = row[_CONTEXT_WIDTH:]
    return TokenContextRow(*row[:_CONTEXT_WIDTH]), None if record[0] is None else RecordRow(*record)


_REVOKE = Statement(
    delete(access_tokens)
    .where(access_tokens.c.token_digest == bindparam("digest"))
    .where(access_tokens.c.installation_id == bindparam("installation_id"))
)


async def delete_tokens_of(conn: Executor, *, installation_id: int | None = None,
                           application_id: int | None = None) -> int:
    """Delete every access token of an installation, or of every installation of an application:
    how many went. A disable is for good for the tokens issued before it (re-enabling lets the
    client obtain new ones only), so they are not kept to come back to life. Found through the
    tokens' credential index, by the credentials of the installation or application."""
    holders = select(credentials.c.id).join(installations, installations.c.id == credentials.c.installation_id)
    if installation_id is not None:
        holders = holders.where(installations.c.id == installation_id)
    elif application_id is not None:
        holders = holders.where(installations.c.application_id == application_id)
    else:
        raise ValueError("delete_tokens_of needs an installation or an application")
    result = await conn.execute(delete(access_tokens).where(access_tokens.c.credential_id.in_(holders)))
    return int(result.rowcount)


async def revoke_token(conn: Executor, digest: str, installation_id: int) -> bool:
    """Delete the token if the installation owns it: True when it did (anyone else's is left alone)."""
    result = await conn.execute(_REVOKE, {"digest": digest, "installation_id": installation_id})
    return result.rowcount > 0
