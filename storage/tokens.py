"""Access tokens (keyed digests), the one query that trusts a bearer token, and revocation."""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from sqlalchemy import bindparam, delete, insert, select

from storage.engine import Executor, Statement, bound
from storage.tables import (
    access_tokens,
    applications,
    credentials,
    installations,
    tenants,
)

_STORE = Statement(insert(access_tokens).values(bound(
    "token_digest", "credential_id", "installation_id", "scopes", "issued_at",
    "expires_at")))


async def store_token(conn: Executor, digest: str, credential_id: int, installation_id: int, scopes: list[str],
                      issued_at: datetime, expires_at: datetime) -> None:
    """Queued in the issuing transaction: on PostgreSQL it travels with the COMMIT."""
    await conn.enqueue(_STORE, {"token_digest": digest, "credential_id": credential_id,
                                "installation_id": installation_id, "scopes": scopes, "issued_at": issued_at,
                                "expires_at": expires_at})


class TokenContextRow(NamedTuple):
    """A stored token with what trusting it takes: its credential, installation, application and tenant."""

    scopes: list[str]
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
    granted_scopes: list[str]
    application_id: int
    application_pid: str
    application_name: str
    tenant_id: int
    tenant_code: str
    tenant_status: str


# Built once: constructing this 18-column, 4-join SELECT took longer than running it. Executions
# only bind the digest (SQLAlchemy's compiled-statement cache does the rest).
_TOKEN_CONTEXT = Statement(
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
    .where(access_tokens.c.token_digest == bindparam("digest")),
    row=TokenContextRow,
)


async def token_context(conn: Executor, digest: str) -> TokenContextRow | None:
    """Everything a business call needs to trust a token, in one query."""
    return (await conn.execute(_TOKEN_CONTEXT, {"digest": digest})).first()


_REVOKE = Statement(
    delete(access_tokens)
    .where(access_tokens.c.token_digest == bindparam("digest"))
    .where(access_tokens.c.installation_id == bindparam("installation_id"))
)


async def revoke_token(conn: Executor, digest: str, installation_id: int) -> bool:
    """Delete the token if the installation owns it: True when it did (anyone else's is left alone)."""
    result = await conn.execute(_REVOKE, {"digest": digest, "installation_id": installation_id})
    return result.rowcount > 0
