"""What the endpoints ask of the database, as one interface with two implementations.

``pg.PostgresStore`` (one pool of psycopg 3 or asyncpg, autocommit: every request one statement)
and ``lite.SqliteStore`` (aiosqlite: reader connections and one writer). The endpoints see only this
module's types, so the HTTP side is written once and the SQL of each dialect sits in its own module.
Why the writes take the token's digest or the session's user rather than a checked caller: the
statement itself checks the token (valid, holding the scope) or the actor (an active member holding
the permission) before it writes anything, so a command or an inbound event is one round trip; the
caller still judges the row it gets back with ``rules.caller_of`` or ``sessions.judge``, so the
refusals are the same as if it had been checked first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple, Protocol, TypedDict

from baseline.rules import TokenRow


def sql(text: str) -> str:
    """SQL written over several lines for the reader, sent as one (whitespace collapsed)."""
    return " ".join(text.split())


# The token query's columns, in ``TokenRow``'s order, and its joins: both dialects run this text.
TOKEN_COLUMNS = ("t.scopes, t.issued_at, t.expires_at, c.client_id, c.status, c.rotated_at, c.expires_at, i.id, "
                 "i.pid, i.environment, i.status, i.scopes, a.id, a.pid, a.name, te.id, te.code, te.status")
TOKEN_JOINS = ("access_tokens t JOIN credentials c ON c.id = t.credential_id "
               "JOIN installations i ON i.id = t.installation_id JOIN applications a ON a.id = i.application_id "
               "JOIN tenants te ON te.id = i.tenant_id")
CREDENTIAL_QUERY = ("SELECT c.id, c.secret_digest, c.status, c.expires_at, i.id, i.pid, i.application_id, "
                    "i.tenant_id, i.status, i.scopes FROM credentials c "
                    "JOIN installations i ON i.id = c.installation_id WHERE c.client_id = {client_id}")
AUDIT_COLUMNS = ("pid, tenant_id, actor_user_id, actor, action, target_type, target_id, before, after, request_id, "
                 "application_id, created_at")
CALL_COLUMNS = ("installation_id", "tenant_id", "client_id", "method", "path", "status", "request_id", "created_at")


class CredentialRow(NamedTuple):
    id: int
    secret_digest: str
    status: str
    expires_at: datetime | None
    installation_id: int
    installation_pid: str
    application_id: int
    tenant_id: int
    installation_status: str
    granted_scopes: list[str]


class RecordRow(NamedTuple):
    id: int
    pid: str
    version: int
    data: dict[str, Any]
    created_at: datetime
    updated_at: datetime


class KeyRow(NamedTuple):
    """An Open Platform idempotency key."""

    id: int
    request_hash: str
    state: str
    response: Any
    etag: str | None
    locked_until: datetime
    created_at: datetime


class SessionKeyRow(NamedTuple):
    id: int
    request_hash: str
    response: Any
    created_at: datetime


@dataclass(frozen=True)
class Principal:
    """A user and, when they are a member of the tenant asked for, that membership's permissions."""

    user_id: int
    email: str
    status: str
    tenant_id: int | None
    tenant_code: str | None
    permissions: frozenset[str] | None  # None: not a member of the tenant


@dataclass(frozen=True)
class Audit:
    """One ``audit_log`` row."""

    pid: str
    tenant_id: int | None
    actor_user_id: int | None
    actor: str | None
    action: str
    target_type: str | None
    target_id: str | None
    before: Any
    after: Any
    request_id: str | None
    application_id: int | None
    created_at: datetime

    def values(self) -> tuple[Any, ...]:
        return (self.pid, self.tenant_id, self.actor_user_id, self.actor, self.action, self.target_type,
                self.target_id, self.before, self.after, self.request_id, self.application_id, self.created_at)


@dataclass(frozen=True)
class NewToken:
    digest: str
    credential_id: int
    installation_id: int
    scopes: list[str]
    issued_at: datetime
    expires_at: datetime


@dataclass(frozen=True)
class SessionClaim:
    """The session key a create claims in its own transaction (stored completed with the result)."""

    user_id: int
    key: str
    request_hash: str
    response: Any


@dataclass(frozen=True)
class Creation:
    """A new record with everything committed with it: unique-value claims, audit entry, outbox
    events and the session's idempotency key, claimed with its result."""

    tenant_id: int
    model: str
    pid: str
    data: dict[str, Any]
    search_text: str
    created_by: int | None
    now: datetime
    claims: list[tuple[str, str]]  # (unique field, value)
    audit: Audit
    events: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)  # (event id, type, payload)
    session_key: SessionClaim | None = None


class Duplicate(Exception):
    def __init__(self, fields: list[str]) -> None:
        super().__init__(", ".join(fields))
        self.fields = fields


class Parts(TypedDict):
    """What any create derives from the model and the payload alone (``payloads.new_record``)."""

    model: str
    pid: str
    data: dict[str, Any]
    search_text: str
    now: datetime
    claims: list[tuple[str, str]]
    audit_pid: str
    events: list[tuple[str, str, dict[str, Any]]]


@dataclass(frozen=True, kw_only=True)
class NewRecord:
    """A create, everything but who makes it: the record, its unique-value claims, its audit entry's
    pid and action, its outbox events, and the result stored with its idempotency key."""

    model: str
    pid: str
    data: dict[str, Any]
    search_text: str
    now: datetime
    claims: list[tuple[str, str]]  # (unique field, value)
    audit_pid: str
    action: str
    request_id: str
    events: list[tuple[str, str, dict[str, Any]]]  # (event id, type, payload)
    request_hash: str
    response: Any


@dataclass(frozen=True, kw_only=True)
class OpenCreate(NewRecord):
    """An Open Platform create command: the statement takes the tenant, installation, client and
    application from the token it checks, and completes its key with the record."""

    scope: str
    key: str
    etag: str
    lock: datetime


class Created(NamedTuple):
    """The token row (None: unknown), whether the command was written, and the key found instead."""

    row: TokenRow | None
    created: bool
    seen: KeyRow | None


@dataclass(frozen=True)
class Inbound:
    """An inbound event to store for the token's installation and tenant, deduplicated on its key."""

    scope: str
    pid: str
    source: str
    event_type: str
    schema_version: int
    occurred_at: datetime
    data: Any
    key: str
    request_hash: str
    request_id: str
    received_at: datetime


class Received(NamedTuple):
    """The token row, and the event's pid with the request hash of an earlier one (None: stored now)."""

    row: TokenRow | None
    pid: str | None
    seen_hash: str | None


@dataclass(frozen=True, kw_only=True)
class SessionCreate(NewRecord):
    """A session create command: the statement reads the user, their membership of the tenant and its
    permissions, and writes only for an active member allowed to."""

    permission: str
    key: str | None  # the idempotency key, claimed with the result

    def allows(self, found: Principal | None) -> bool:
        """What the statement checks before it writes: an active user, a member, holding the permission."""
        return found is not None and found.status == "active" and found.tenant_id is not None \
            and found.permissions is not None and bool({"*", self.permission} & found.permissions)

    def creation(self, found: Principal) -> Creation:
        """This write as ``create`` takes it, for the actor found: the second try after a key was held."""
        assert found.tenant_id is not None
        return Creation(found.tenant_id, self.model, self.pid, self.data, self.search_text, found.user_id, self.now,
                        self.claims, Audit(self.audit_pid, found.tenant_id, found.user_id, found.email, self.action,
                                           self.model, self.pid, None, self.data, self.request_id, None, self.now),
                        self.events, session_key=None if self.key is None else SessionClaim(
                            found.user_id, self.key, self.request_hash, self.response))


class Store(Protocol):
    """What the endpoints ask of the database."""

    dialect: str

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def credential(self, client_id: str) -> CredentialRow | None: ...

    async def audit(self, entry: Audit) -> None: ...

    async def issue(self, token: NewToken, entry: Audit) -> None: ...

    async def token(self, digest: str) -> TokenRow | None: ...

    async def token_and_record(self, digest: str, model: str, pid: str) -> tuple[TokenRow | None,
                                                                                  RecordRow | None]: ...

    async def token_and_page(self, digest: str, model: str, after_id: int, limit: int) -> tuple[
        TokenRow | None, list[RecordRow]]: ...

    async def open_create(self, digest: str, plan: OpenCreate) -> Created: ...

    async def key(self, installation_id: int, key: str) -> KeyRow | None: ...

    async def forget_key(self, key_id: int, only_in_progress: bool) -> None: ...

    async def receive_checked(self, digest: str, event: Inbound) -> Received: ...

    async def seen_event(self, installation_id: int, key: str) -> tuple[str, str] | None: ...

    async def principal(self, user_pid: str, tenant_code: str) -> Principal | None: ...

    async def session_create(self, user_pid: str, tenant_code: str, plan: SessionCreate) -> tuple[
        Principal | None, bool]: ...

    async def create(self, change: Creation) -> bool: ...

    async def session_key(self, tenant_id: int, user_id: int, key: str) -> SessionKeyRow | None: ...

    async def forget_session_key(self, key_id: int) -> None: ...

    async def list_page(self, count: tuple[str, dict[str, Any]], page: tuple[str, dict[str, Any]]) -> tuple[
        int, list[RecordRow]]: ...

    async def record_calls(self, rows: list[tuple[Any, ...]]) -> None: ...
