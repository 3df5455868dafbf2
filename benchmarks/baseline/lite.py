"""The baseline's SQL on SQLite: aiosqlite, a few reader connections and one writer connection.

Why this shape: SQLite has one writer at a time, so writes queue on an ``asyncio.Lock`` in the
process (instead of on the file lock, retried by ``busy_timeout``) and run on the one writer
connection inside ``BEGIN IMMEDIATE`` ... ``COMMIT``; reads go to whichever reader connection is free,
in autocommit (WAL readers never wait). There are no round trips to save (the database is in the
process), only statements (each one a hop to aiosqlite's thread and back): a read is one statement
(the token joined to the record or the page, as on PostgreSQL), and a command or an inbound event
checks its token and writes in one ``BEGIN IMMEDIATE`` transaction, the command's key inserted
already completed, so it is never claimed in a transaction of its own. The connections are set up as
Tessera's (WAL, foreign keys, 30 s busy timeout, ``synchronous=NORMAL``) and values are stored as
SQLAlchemy stores them there: timestamps as ``YYYY-MM-DD HH:MM:SS.ffffff`` UTC text, JSON as text.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import aiosqlite

from baseline.rules import TokenRow, caller_of
from baseline.store import (
    AUDIT_COLUMNS,
    CALL_COLUMNS,
    CREDENTIAL_QUERY,
    TOKEN_COLUMNS,
    TOKEN_JOINS,
    Audit,
    Created,
    Creation,
    CredentialRow,
    Duplicate,
    Inbound,
    KeyRow,
    NewToken,
    OpenCreate,
    Principal,
    Received,
    RecordRow,
    SessionCreate,
    SessionKeyRow,
    sql,
)

PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA foreign_keys=ON", "PRAGMA busy_timeout=30000",
           "PRAGMA synchronous=NORMAL")
RECORD_COLUMNS = "r.id, r.pid, r.version, r.data, r.created_at, r.updated_at"
TOKEN = f"SELECT {TOKEN_COLUMNS} FROM {TOKEN_JOINS} WHERE t.token_digest = ?"
AUDIT = f"INSERT INTO audit_log ({AUDIT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
PRINCIPAL = ("SELECT u.id, u.email, u.status, te.id, te.code, CASE WHEN r.id IS NULL THEN NULL ELSE "
             "(SELECT json_group_array(p.permission) FROM role_permissions p WHERE p.role_id = r.id) END FROM users u "
             "LEFT JOIN (memberships m JOIN tenants te ON te.id = m.tenant_id AND te.code = :tenant "
             "AND te.status = 'active' JOIN roles r ON r.id = m.role_id) ON m.user_id = u.id WHERE u.pid = :user")

INBOUND = sql("""
    INSERT INTO inbound_events (pid, installation_id, tenant_id, source, event_type, schema_version, occurred_at, data,
                                idempotency_key, request_hash, request_id, received_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (installation_id, idempotency_key) DO NOTHING RETURNING pid""")
SEEN_EVENT = "SELECT pid, request_hash FROM inbound_events WHERE installation_id = ? AND idempotency_key = ?"
SESSION_CLAIM = sql("""
    INSERT INTO idempotency_keys (tenant_id, user_id, key, request_hash, status_code, response, created_at)
    VALUES (?, ?, ?, ?, 200, ?, ?) ON CONFLICT (tenant_id, user_id, key) DO NOTHING RETURNING id""")
TOKEN_AND_RECORD = (f"SELECT {TOKEN_COLUMNS}, {RECORD_COLUMNS} FROM {TOKEN_JOINS} LEFT JOIN records r "
                    "ON r.tenant_id = i.tenant_id AND r.model = ? AND r.pid = ? AND r.deleted_at IS NULL "
                    "WHERE t.token_digest = ?")
# SQLite has no LATERAL: the page is the records whose id is in the token tenant's next ids.
TOKEN_AND_PAGE = (f"SELECT {TOKEN_COLUMNS}, {RECORD_COLUMNS} FROM {TOKEN_JOINS} LEFT JOIN records r "
                  "ON r.id IN (SELECT x.id FROM records x WHERE x.tenant_id = i.tenant_id AND x.model = ? "
                  "AND x.deleted_at IS NULL AND x.id > ? ORDER BY x.id LIMIT ?) "
                  "WHERE t.token_digest = ? ORDER BY r.id")
COMPLETED_KEY = ("INSERT INTO open_idempotency_keys (installation_id, key, request_hash, state, response, etag, "
                 "locked_until, created_at) VALUES (?, ?, ?, 'completed', ?, ?, ?, ?) "
                 "ON CONFLICT (installation_id, key) DO NOTHING RETURNING id")



def stored(value: datetime) -> str:
    """UTC text as SQLAlchemy's SQLite ``DateTime`` writes it (it sorts in time order)."""
    return value.astimezone(UTC).replace(tzinfo=None).isoformat(sep=" ", timespec="microseconds")


def aware(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value).replace(tzinfo=UTC)


def moment(value: str) -> datetime:
    return datetime.fromisoformat(value).replace(tzinfo=UTC)


def js(value: Any) -> str:
    return json.dumps(value)


def token_row(row: Any) -> TokenRow | None:
    if row is None:
        return None
    values = list(row[:18])
    values[0], values[11] = json.loads(values[0]), json.loads(values[11])
    for index in (1, 2, 5, 6):
        values[index] = aware(values[index])
    return TokenRow._make(values)


def record_row(row: Any) -> RecordRow:
    return RecordRow(row[0], row[1], row[2], json.loads(row[3]), moment(row[4]), moment(row[5]))


def audit_values(entry: Audit) -> tuple[Any, ...]:
    values = list(entry.values())
    values[7], values[8], values[11] = js(entry.before), js(entry.after), stored(entry.created_at)
    return tuple(values)


def scoped(row: TokenRow | None, scope: str, at: datetime) -> bool:
    """The token's rules (``caller_of``) and the scope: what the PostgreSQL statement checks in SQL."""
    caller = caller_of(row, at)
    return caller is not None and scope in caller.scopes


class SqliteStore:
    """The endpoints' statements on reader connections and one writer."""

    dialect = "sqlite"

    def __init__(self, path: str, readers: int) -> None:
        self.path, self.size = path, readers
        self.readers: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        self.writer: aiosqlite.Connection | None = None
        self.write_lock = asyncio.Lock()

    async def _connect(self) -> aiosqlite.Connection:
        conn = await aiosqlite.connect(self.path, isolation_level=None, timeout=30, check_same_thread=False)
        for pragma in PRAGMAS:
            await conn.execute(pragma)
        return conn

    async def open(self) -> None:
        for _ in range(self.size):
            self.readers.put_nowait(await self._connect())
        self.writer = await self._connect()

    async def close(self) -> None:
        while not self.readers.empty():
            await self.readers.get_nowait().close()
        if self.writer is not None:
            await self.writer.close()

    @contextlib.asynccontextmanager
    async def reader(self) -> AsyncIterator[aiosqlite.Connection]:
        conn = await self.readers.get()
        try:
            yield conn
        finally:
            self.readers.put_nowait(conn)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` on the writer, committed at the end, rolled back on any exception."""
        async with self.write_lock:
            conn = self.writer
            assert conn is not None
            await conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                await conn.execute("ROLLBACK")
                raise
            await conn.execute("COMMIT")

    async def _one(self, sql: str, params: Any) -> Any:
        async with self.reader() as conn, conn.execute(sql, params) as cursor:
            return await cursor.fetchone()

    async def credential(self, client_id: str) -> CredentialRow | None:
        row = await self._one(CREDENTIAL_QUERY.format(client_id="?"), (client_id,))
        if row is None:
            return None
        return CredentialRow(row[0], row[1], row[2], aware(row[3]), row[4], row[5], row[6], row[7], row[8],
                             json.loads(row[9]))

    async def audit(self, entry: Audit) -> None:
        async with self.transaction() as conn:
            await conn.execute(AUDIT, audit_values(entry))

    async def issue(self, token: NewToken, entry: Audit) -> None:
        async with self.transaction() as conn:
            await conn.execute(
                "INSERT INTO access_tokens (token_digest, credential_id, installation_id, scopes, issued_at, "
                "expires_at) VALUES (?, ?, ?, ?, ?, ?)", (token.digest, token.credential_id, token.installation_id,
                                              js(token.scopes), stored(token.issued_at), stored(token.expires_at)))
            await conn.execute(AUDIT, audit_values(entry))

    async def token(self, digest: str) -> TokenRow | None:
        return token_row(await self._one(TOKEN, (digest,)))

    async def token_and_record(self, digest: str, model: str, pid: str) -> tuple[TokenRow | None, RecordRow | None]:
        row = await self._one(TOKEN_AND_RECORD, (model, pid, digest))
        if row is None:
            return None, None
        return token_row(row), (record_row(row[18:]) if row[18] is not None else None)

    async def token_and_page(self, digest: str, model: str, after_id: int, limit: int) -> tuple[
            TokenRow | None, list[RecordRow]]:
        async with self.reader() as conn, conn.execute(TOKEN_AND_PAGE, (model, after_id, limit, digest)) as cursor:
            rows = list(await cursor.fetchall())
        if not rows:
            return None, []
        return token_row(rows[0]), [record_row(r[18:]) for r in rows if r[18] is not None]

    async def open_create(self, digest: str, plan: OpenCreate) -> Created:
        row = await self.token(digest)
        if not scoped(row, plan.scope, plan.now):
            return Created(row, False, None)
        assert row is not None
        change = Creation(
            row.tenant_id, plan.model, plan.pid, plan.data, plan.search_text, None, plan.now, plan.claims,
            Audit(plan.audit_pid, row.tenant_id, None, row.client_id, plan.action, plan.model, plan.pid, None,
                  plan.data, plan.request_id, row.application_id, plan.now),
            plan.events)
        async with self.transaction() as conn:
            async with conn.execute(COMPLETED_KEY, (row.installation_id, plan.key, plan.request_hash,
                                                    js(plan.response), plan.etag, stored(plan.lock),
                                                    stored(plan.now))) as cursor:
                claimed = await cursor.fetchone()
            if claimed is not None:
                await self._write_record(conn, change)
        if claimed is not None:
            return Created(row, True, None)
        return Created(row, False, await self.key(row.installation_id, plan.key))

    async def _write_record(self, conn: aiosqlite.Connection, change: Creation) -> None:
        """The record, its unique values, audit entry and outbox rows, on the writer in its transaction."""
        async with conn.execute(
                "INSERT INTO records (tenant_id, model, pid, version, data, search_text, created_by, created_at, "
                "updated_at) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?) RETURNING id",
                (change.tenant_id, change.model, change.pid, js(change.data), change.search_text, change.created_by,
                 stored(change.now), stored(change.now))) as cursor:
            (record_id,) = await cursor.fetchone()  # type: ignore[misc]
        await self._claim_values(conn, change, record_id)
        await conn.execute(AUDIT, audit_values(change.audit))
        if change.events:
            await conn.executemany(
                "INSERT INTO outbox_events (event_id, tenant_id, event_type, payload, request_id, occurred_at) "
                "VALUES (?, ?, ?, ?, ?, ?)", [(event_id, change.tenant_id, event_type, js(payload),
                                              change.audit.request_id, stored(change.now))
                                             for event_id, event_type, payload in change.events])

    async def receive_checked(self, digest: str, event: Inbound) -> Received:
        row = await self.token(digest)
        if not scoped(row, event.scope, event.received_at):
            return Received(row, None, None)
        assert row is not None
        async with self.transaction() as conn:
            async with conn.execute(INBOUND, (
                    event.pid, row.installation_id, row.tenant_id, event.source, event.event_type,
                    event.schema_version, stored(event.occurred_at), js(event.data), event.key, event.request_hash,
                    event.request_id, stored(event.received_at))) as cursor:
                inserted = await cursor.fetchone()
            if inserted is not None:
                return Received(row, inserted[0], None)
            async with conn.execute(SEEN_EVENT, (row.installation_id, event.key)) as cursor:
                seen = await cursor.fetchone()
        return Received(row, seen[0] if seen else None, seen[1] if seen else None)

    async def session_create(self, user_pid: str, tenant_code: str, plan: SessionCreate) -> tuple[
            Principal | None, bool]:
        found = await self.principal(user_pid, tenant_code)
        if found is None or not plan.allows(found):
            return found, False
        return found, await self.create(plan.creation(found))

    async def seen_event(self, installation_id: int, key: str) -> tuple[str, str] | None:
        row = await self._one(SEEN_EVENT, (installation_id, key))
        return None if row is None else (row[0], row[1])

    async def key(self, installation_id: int, key: str) -> KeyRow | None:
        row = await self._one("SELECT id, request_hash, state, response, etag, locked_until, created_at FROM "
                              "open_idempotency_keys WHERE installation_id = ? AND key = ?", (installation_id, key))
        if row is None:
            return None
        return KeyRow(row[0], row[1], row[2], json.loads(row[3]) if row[3] is not None else None, row[4],
                      moment(row[5]), moment(row[6]))

    async def forget_key(self, key_id: int, only_in_progress: bool) -> None:
        extra = " AND state = 'in_progress'" if only_in_progress else ""
        async with self.transaction() as conn:
            await conn.execute(f"DELETE FROM open_idempotency_keys WHERE id = ?{extra}", (key_id,))

    async def create(self, change: Creation) -> bool:
        """A session create for a known actor: its key claimed (when it has one), then the record."""
        async with self.transaction() as conn:
            if change.session_key is not None and not await self._claim_session_key(conn, change):
                return False
            await self._write_record(conn, change)
        return True

    @staticmethod
    async def _claim_session_key(conn: aiosqlite.Connection, change: Creation) -> bool:
        claim = change.session_key
        assert claim is not None
        async with conn.execute(SESSION_CLAIM,
                (change.tenant_id, claim.user_id, claim.key, claim.request_hash, js(claim.response),
                 stored(change.now))) as cursor:
            return await cursor.fetchone() is not None

    @staticmethod
    async def _claim_values(conn: aiosqlite.Connection, change: Creation, record_id: int) -> None:
        """Each unique value claimed on its own (a failed insert leaves the transaction open), so every
        clash is named at once; then the transaction is rolled back."""
        clashes = []
        for code, value in change.claims:
            try:
                await conn.execute("INSERT INTO record_unique_values (tenant_id, model, field, value, record_id) "
                                   "VALUES (?, ?, ?, ?, ?)", (change.tenant_id, change.model, code, value, record_id))
            except sqlite3.IntegrityError:
                clashes.append(code)
        if clashes:
            raise Duplicate(clashes)

    async def session_key(self, tenant_id: int, user_id: int, key: str) -> SessionKeyRow | None:
        row = await self._one("SELECT id, request_hash, response, created_at FROM idempotency_keys WHERE tenant_id = ? "
                              "AND user_id = ? AND key = ?", (tenant_id, user_id, key))
        return None if row is None else SessionKeyRow(row[0], row[1], json.loads(row[2]), moment(row[3]))

    async def forget_session_key(self, key_id: int) -> None:
        async with self.transaction() as conn:
            await conn.execute("DELETE FROM idempotency_keys WHERE id = ?", (key_id,))

    async def principal(self, user_pid: str, tenant_code: str) -> Principal | None:
        row = await self._one(PRINCIPAL, {"user": user_pid, "tenant": tenant_code})
        if row is None:
            return None
        return Principal(row[0], row[1], row[2], row[3], row[4],
                         None if row[5] is None else frozenset(json.loads(row[5])))

    async def list_page(self, count: tuple[str, dict[str, Any]], page: tuple[str, dict[str, Any]]) -> tuple[
            int, list[RecordRow]]:
        async with self.reader() as conn:
            await conn.execute("BEGIN")  # one snapshot for the count and the page, as Tessera's read transaction
            try:
                async with conn.execute(*count) as cursor:
                    total = int((await cursor.fetchone())[0])  # type: ignore[index]
                rows = []
                if total:
                    async with conn.execute(*page) as cursor:
                        rows = list(await cursor.fetchall())
            finally:
                await conn.execute("COMMIT")
        return total, [RecordRow(0, r[0], 0, json.loads(r[1]), moment(r[2]), moment(r[3])) for r in rows]

    async def record_calls(self, rows: list[tuple[Any, ...]]) -> None:
        values = [(*row[:7], stored(row[7])) for row in rows]
        async with self.transaction() as conn:
            await conn.executemany(f"INSERT INTO open_api_calls ({', '.join(CALL_COLUMNS)}) VALUES "
                                   "(?, ?, ?, ?, ?, ?, ?, ?)", values)
