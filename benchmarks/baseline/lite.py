"""The baseline's SQL on SQLite: aiosqlite, a few reader connections and one writer connection.

Why this shape: SQLite has one writer at a time, so writes queue on an ``asyncio.Lock`` in the
process (instead of on the file lock, retried by ``busy_timeout``) and run on the one writer
connection inside ``BEGIN IMMEDIATE`` ... ``COMMIT``; reads go to whichever reader connection is free,
in autocommit (WAL readers never wait). There are no round trips to save (the database is in the
process), so each write is plain statements in one transaction. The connections are set up as
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

from baseline.rules import TokenRow
from baseline.store import (
    AUDIT_COLUMNS,
    CALL_COLUMNS,
    CREDENTIAL_QUERY,
    TOKEN_COLUMNS,
    TOKEN_JOINS,
    Audit,
    Creation,
    CredentialRow,
    Duplicate,
    KeyRow,
    NewEvent,
    NewToken,
    Principal,
    RecordRow,
    SessionKeyRow,
    sql,
)

PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA foreign_keys=ON", "PRAGMA busy_timeout=30000",
           "PRAGMA synchronous=NORMAL")
RECORD_COLUMNS = "r.id, r.pid, r.version, r.data, r.created_at, r.updated_at"
TOKEN = f"SELECT {TOKEN_COLUMNS} FROM {TOKEN_JOINS} WHERE t.token_digest = ?"
RECORD = (f"SELECT {RECORD_COLUMNS} FROM records r WHERE r.tenant_id = ? AND r.model = ? AND r.pid = ? "
          "AND r.deleted_at IS NULL")
PAGE_AFTER = (f"SELECT {RECORD_COLUMNS} FROM records r WHERE r.tenant_id = ? AND r.model = ? AND r.deleted_at IS NULL "
              "AND r.id > ? ORDER BY r.id LIMIT ?")
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
CLAIM_KEY = sql("""
    INSERT INTO open_idempotency_keys (installation_id, key, request_hash, state, locked_until, created_at)
    VALUES (?, ?, ?, 'in_progress', ?, ?) ON CONFLICT (installation_id, key) DO NOTHING RETURNING id""")
SESSION_CLAIM = sql("""
    INSERT INTO idempotency_keys (tenant_id, user_id, key, request_hash, status_code, response, created_at)
    VALUES (?, ?, ?, ?, 200, ?, ?) ON CONFLICT (tenant_id, user_id, key) DO NOTHING RETURNING id""")


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


class SqliteStore:
    """The endpoints' queries on reader connections and one writer."""

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
        async with self.reader() as conn:
            async with conn.execute(TOKEN, (digest,)) as cursor:
                token = token_row(await cursor.fetchone())
            if token is None:
                return None, None
            async with conn.execute(RECORD, (token.tenant_id, model, pid)) as cursor:
                row = await cursor.fetchone()
        return token, (record_row(row) if row is not None else None)

    async def token_and_page(self, digest: str, model: str, after_id: int, limit: int) -> tuple[
            TokenRow | None, list[RecordRow]]:
        async with self.reader() as conn:
            async with conn.execute(TOKEN, (digest,)) as cursor:
                token = token_row(await cursor.fetchone())
            if token is None:
                return None, []
            async with conn.execute(PAGE_AFTER, (token.tenant_id, model, after_id, limit)) as cursor:
                rows = await cursor.fetchall()
        return token, [record_row(r) for r in rows]

    async def receive(self, event: NewEvent) -> tuple[str, str | None]:
        async with self.transaction() as conn:
            async with conn.execute(INBOUND,
                    (event.pid, event.installation_id, event.tenant_id, event.source, event.event_type,
                     event.schema_version, stored(event.occurred_at), js(event.data), event.idempotency_key,
                     event.request_hash, event.request_id, stored(event.received_at))) as cursor:
                inserted = await cursor.fetchone()
            if inserted is not None:
                return inserted[0], None
            async with conn.execute(SEEN_EVENT, (event.installation_id, event.idempotency_key)) as cursor:
                seen = await cursor.fetchone()
        assert seen is not None, "an inbound event neither stored nor found"
        return seen[0], seen[1]

    async def claim_key(self, installation_id: int, key: str, request_hash: str, lock: datetime,
                        now: datetime) -> int | None:
        async with self.transaction() as conn, conn.execute(CLAIM_KEY,
                (installation_id, key, request_hash, stored(lock), stored(now))) as cursor:
            row = await cursor.fetchone()
        return None if row is None else int(row[0])

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

    async def take_over(self, key_id: int, previous: datetime, lock: datetime) -> bool:
        async with self.transaction() as conn, conn.execute(
                "UPDATE open_idempotency_keys SET locked_until = ? WHERE id = ? AND state = 'in_progress' "
                "AND locked_until = ?", (stored(lock), key_id, stored(previous))) as cursor:
            return cursor.rowcount == 1

    async def create(self, change: Creation) -> bool:
        async with self.transaction() as conn:
            if change.session_key is not None and not await self._claim_session_key(conn, change):
                return False
            async with conn.execute(
                    "INSERT INTO records (tenant_id, model, pid, version, data, search_text, created_by, created_at, "
                    "updated_at) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?) RETURNING id",
                    (change.tenant_id, change.model, change.pid, js(change.data), change.search_text, change.created_by,
                     stored(change.now), stored(change.now))) as cursor:
                (record_id,) = await cursor.fetchone()  # type: ignore[misc]
            await self._claim_values(conn, change, record_id)
            await conn.execute(AUDIT, audit_values(change.audit))
            for event_id, event_type, payload in change.events:
                await conn.execute("INSERT INTO outbox_events (event_id, tenant_id, event_type, payload, request_id, "
                                   "occurred_at) VALUES (?, ?, ?, ?, ?, ?)", (event_id, change.tenant_id, event_type,
                                                                            js(payload), change.audit.request_id,
                                                                            stored(change.now)))
            if change.open_key is not None:
                done = change.open_key
                await conn.execute("UPDATE open_idempotency_keys SET state = 'completed', response = ?, etag = ? "
                                   "WHERE id = ?", (js(done.response), done.etag, done.key_id))
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
