"""What the limit's endpoints ask of the database: the baseline's questions, plus two that fold a
whole write into one statement.

Why two more: the baseline checks a token in one statement and writes in another (a command also
claims its key in a third); the limit sends the token's digest with the write, and the statement
itself checks the token (valid, holding the scope) before it writes anything, so a command or an
inbound event is one round trip. The caller still judges the token row it gets back with the
baseline's rules (``baseline.rules.caller_of``), so its refusals are the baseline's. ``pg`` (asyncpg)
and ``lite`` (aiosqlite) implement it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple, Protocol

from baseline.rules import TokenRow
from baseline.store import (
    Audit,
    Common,
    Creation,
    KeyRow,
    Principal,
    SessionClaim,
)


@dataclass(frozen=True)
class OpenCreate:
    """An Open Platform create command, everything but its caller: the statement takes the tenant,
    installation, client and application from the token it checks."""

    scope: str
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
    key: str
    request_hash: str
    response: Any  # stored with the key, completed in the same statement
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


@dataclass(frozen=True)
class SessionCreate:
    """A session create command, everything but its actor: the statement reads the user, their
    membership of the tenant and its permissions, and writes only for an active member allowed to."""

    permission: str
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
    key: str | None  # the idempotency key, claimed with the result
    request_hash: str
    response: Any

    def allows(self, found: Principal | None) -> bool:
        """What the statement checks before it writes: an active user, a member, holding the permission."""
        return found is not None and found.status == "active" and found.tenant_id is not None \
            and found.permissions is not None and bool({"*", self.permission} & found.permissions)

    def creation(self, found: Principal) -> Creation:
        """The baseline's form of this write, for the actor found."""
        assert found.tenant_id is not None
        return Creation(found.tenant_id, self.model, self.pid, self.data, self.search_text, found.user_id, self.now,
                        self.claims, Audit(self.audit_pid, found.tenant_id, found.user_id, found.email, self.action,
                                           self.model, self.pid, None, self.data, self.request_id, None, self.now),
                        self.events, session_key=None if self.key is None else SessionClaim(
                            found.user_id, self.key, self.request_hash, self.response))


class Store(Common, Protocol):
    """The limit's: the baseline's questions, and the writes that check their token or actor themselves."""

    async def open_create(self, digest: str, plan: OpenCreate) -> Created: ...

    async def receive_checked(self, digest: str, event: Inbound) -> Received: ...

    async def seen_event(self, installation_id: int, key: str) -> tuple[str, str] | None: ...

    async def session_create(self, user_pid: str, tenant_code: str, plan: SessionCreate) -> tuple[
        Principal | None, bool]: ...
