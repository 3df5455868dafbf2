"""The limit's SQL on SQLite: the baseline's aiosqlite store, with fewer statements per request.

Why build on the baseline's store: on SQLite the database is in the process, so there are no round
trips to save, only statements (each one a hop to aiosqlite's thread and back). The connections,
the one writer behind an ``asyncio.Lock`` and the stored forms are the baseline's; what changes is
that a read is one statement (the token joined to the record or the page, as on PostgreSQL), and a
command or an inbound event checks its token and writes in one ``BEGIN IMMEDIATE`` transaction, the
command's key inserted already completed, so it is never claimed in a transaction of its own.
"""

from __future__ import annotations

from datetime import datetime

import aiosqlite
from baseline.lite import (
    AUDIT,
    INBOUND,
    RECORD_COLUMNS,
    SEEN_EVENT,
    SqliteStore,
    audit_values,
    js,
    record_row,
    stored,
    token_row,
)
from baseline.rules import TokenRow, caller_of
from baseline.store import TOKEN_COLUMNS, TOKEN_JOINS, Audit, Creation, OpenCompletion, Principal, RecordRow

from limit.store import Created, Inbound, OpenCreate, Received, SessionCreate

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


def scoped(row: TokenRow | None, scope: str, at: datetime) -> bool:
    """The baseline's token rules (``caller_of``) and the scope: what the PostgreSQL statement checks in SQL."""
    caller = caller_of(row, at)
    return caller is not None and scope in caller.scopes


class LimitSqliteStore(SqliteStore):
    """The baseline's SQLite store with one-statement reads and one-transaction writes."""

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
            plan.events, open_key=OpenCompletion(0, plan.response, plan.etag))
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

