"""The baseline's SQL on PostgreSQL: psycopg 3 async, a fixed pool of autocommit connections.

Why this shape: it is the fewest round trips a hand-written service needs. Every read is one
statement (no BEGIN/COMMIT: autocommit); a read that needs the token and a page is one pipeline
(two statements, one Sync, one round trip); every write is one statement, its data-modifying CTEs
committing together (a token with its audit row, a record with its unique-value claims, audit
entry, outbox rows and idempotency key). The pool is opened, full, at start. Timestamps are
stored as Tessera stores them: naive UTC in ``timestamp`` columns; JSON as ``jsonb`` (a Python
``None`` as JSON ``null``, as SQLAlchemy's JSON type writes it).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool

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

RECORD_COLUMNS = "r.id, r.pid, r.version, r.data, r.created_at, r.updated_at"
TOKEN = f"SELECT {TOKEN_COLUMNS} FROM {TOKEN_JOINS} WHERE t.token_digest = %s"
TOKEN_AND_RECORD = sql(f"""
    SELECT {TOKEN_COLUMNS}, {RECORD_COLUMNS} FROM {TOKEN_JOINS}
    LEFT JOIN records r ON r.tenant_id = i.tenant_id AND r.model = %(model)s AND r.pid = %(pid)s
        AND r.deleted_at IS NULL
    WHERE t.token_digest = %(digest)s""")
# The page of the token's tenant: the tenant is read from the token in the same statement, so this can
# go in the pipeline beside the token query (the caller checks the token before using the rows).
PAGE_AFTER = sql(f"""
    SELECT {RECORD_COLUMNS} FROM records r
    WHERE r.tenant_id = (SELECT i.tenant_id FROM access_tokens t JOIN installations i ON i.id = t.installation_id
                         WHERE t.token_digest = %(digest)s)
      AND r.model = %(model)s AND r.deleted_at IS NULL AND r.id > %(after)s
    ORDER BY r.id LIMIT %(limit)s""")
AUDIT_VALUES = ", ".join(["%s"] * 12)
ISSUE = sql(f"""
    WITH token AS (INSERT INTO access_tokens (token_digest, credential_id, installation_id, scopes, issued_at,
                                              expires_at)
                   VALUES (%s, %s, %s, %s, %s, %s))
    INSERT INTO audit_log ({AUDIT_COLUMNS}) VALUES ({AUDIT_VALUES})""")
AUDIT = f"INSERT INTO audit_log ({AUDIT_COLUMNS}) VALUES ({AUDIT_VALUES})"
RECEIVE = sql("""
    WITH ins AS (
        INSERT INTO inbound_events (pid, installation_id, tenant_id, source, event_type, schema_version, occurred_at,
                                    data, idempotency_key, request_hash, request_id, received_at)
        VALUES (%(pid)s, %(installation_id)s, %(tenant_id)s, %(source)s, %(event_type)s, %(schema_version)s,
                %(occurred_at)s, %(data)s, %(key)s, %(request_hash)s, %(request_id)s, %(received_at)s)
        ON CONFLICT (installation_id, idempotency_key) DO NOTHING RETURNING pid)
    SELECT pid, NULL::text FROM ins
    UNION ALL
    SELECT pid, request_hash FROM inbound_events
    WHERE installation_id = %(installation_id)s AND idempotency_key = %(key)s""")
SEEN_EVENT = "SELECT pid, request_hash FROM inbound_events WHERE installation_id = %s AND idempotency_key = %s"
CLAIM_KEY = sql("""
    INSERT INTO open_idempotency_keys (installation_id, key, request_hash, state, locked_until, created_at)
    VALUES (%s, %s, %s, 'in_progress', %s, %s) ON CONFLICT (installation_id, key) DO NOTHING RETURNING id""")
KEY = sql("""
    SELECT id, request_hash, state, response, etag, locked_until, created_at FROM open_idempotency_keys
    WHERE installation_id = %s AND key = %s""")
TAKE_OVER = sql("""
    UPDATE open_idempotency_keys SET locked_until = %s WHERE id = %s AND state = 'in_progress' AND locked_until = %s""")
SESSION_KEY = sql("""
    SELECT id, request_hash, response, created_at FROM idempotency_keys
    WHERE tenant_id = %s AND user_id = %s AND key = %s""")
PRINCIPAL = sql("""
    SELECT u.id, u.email, u.status, te.id, te.code,
           CASE WHEN r.id IS NULL THEN NULL
                ELSE ARRAY(SELECT p.permission FROM role_permissions p WHERE p.role_id = r.id) END
    FROM users u
    LEFT JOIN (memberships m
               JOIN tenants te ON te.id = m.tenant_id AND te.code = %(tenant)s AND te.status = 'active'
               JOIN roles r ON r.id = m.role_id) ON m.user_id = u.id
    WHERE u.pid = %(user)s""")
CALLS = sql(f"""
    INSERT INTO open_api_calls ({", ".join(CALL_COLUMNS)})
    SELECT * FROM unnest(%s::bigint[], %s::bigint[], %s::text[], %s::text[], %s::text[], %s::int[], %s::text[],
                         %s::timestamp[])""")
CLASHES = sql("""
    SELECT u.field FROM record_unique_values u
    JOIN unnest(%s::text[], %s::text[]) AS c(field, value) ON c.field = u.field AND c.value = u.value
    WHERE u.tenant_id = %s AND u.model = %s""")

# A create, as one statement. ``go`` has a row when the create is to happen: always, or (a session
# command with a key) only when the key was claimed; every insert selects from it. Parameters in a
# SELECT list are cast: PostgreSQL would take an untyped NULL there for text.
FREE = "go AS (SELECT 1 AS one)"
SESSION_CLAIM = sql("""
    k AS (INSERT INTO idempotency_keys (tenant_id, user_id, key, request_hash, status_code, response, created_at)
          VALUES (%(tenant_id)s, %(user_id)s, %(key)s, %(request_hash)s, 200, %(response)s, %(now)s)
          ON CONFLICT (tenant_id, user_id, key) DO NOTHING RETURNING id),
    go AS (SELECT 1 AS one FROM k)""")
WRITES = sql(f"""
    rec AS (INSERT INTO records (tenant_id, model, pid, version, data, search_text, created_by, created_at, updated_at)
            SELECT %(tenant_id)s::bigint, %(model)s::text, %(pid)s::text, 1, %(data)s::jsonb, %(search_text)s::text,
                   %(created_by)s::bigint, %(now)s::timestamp, %(now)s::timestamp FROM go
            RETURNING id),
    uq AS (INSERT INTO record_unique_values (tenant_id, model, field, value, record_id)
           SELECT %(tenant_id)s::bigint, %(model)s::text, u.field, u.value, rec.id
           FROM rec, jsonb_to_recordset(%(claims)s::jsonb) AS u(field text, value text)),
    aud AS (INSERT INTO audit_log ({AUDIT_COLUMNS})
            SELECT %(audit_pid)s::text, %(tenant_id)s::bigint, %(created_by)s::bigint, %(actor)s::text,
                   %(action)s::text, %(model)s::text, %(pid)s::text, 'null'::jsonb, %(data)s::jsonb,
                   %(request_id)s::text, %(application_id)s::bigint, %(now)s::timestamp FROM go),
    box AS (INSERT INTO outbox_events (event_id, tenant_id, event_type, payload, request_id, occurred_at)
            SELECT e.event_id, %(tenant_id)s::bigint, e.event_type, e.payload, %(request_id)s::text,
                   %(now)s::timestamp
            FROM go, jsonb_to_recordset(%(events)s::jsonb) AS e(event_id text, event_type text, payload jsonb))""")
OPEN_DONE = sql("""
    , done AS (UPDATE open_idempotency_keys SET state = 'completed', response = %(response)s, etag = %(etag)s
               WHERE id = %(key_id)s)""")
CREATE = {
    "open": f"WITH {FREE}, {WRITES} {OPEN_DONE} SELECT count(*) FROM rec",
    "session": f"WITH {SESSION_CLAIM}, {WRITES} SELECT count(*) FROM rec",
    "free": f"WITH {FREE}, {WRITES} SELECT count(*) FROM rec",
}


def stored(value: datetime) -> datetime:
    """Naive UTC, as Tessera's ``UTCDateTime`` stores it."""
    return value.astimezone(UTC).replace(tzinfo=None)


def aware(value: datetime | None) -> datetime | None:
    return None if value is None else value.replace(tzinfo=UTC)


def token_row(row: tuple[Any, ...] | None) -> TokenRow | None:
    if row is None:
        return None
    values = list(row[:18])
    for index in (1, 2, 5, 6):
        values[index] = aware(values[index])
    return TokenRow._make(values)


def record_row(row: tuple[Any, ...]) -> RecordRow:
    return RecordRow(row[0], row[1], row[2], row[3], row[4].replace(tzinfo=UTC), row[5].replace(tzinfo=UTC))


def audit_values(entry: Audit) -> tuple[Any, ...]:
    values = list(entry.values())
    values[7], values[8], values[11] = Jsonb(entry.before), Jsonb(entry.after), stored(entry.created_at)
    return tuple(values)


def creation_params(change: Creation) -> dict[str, Any]:
    audit = change.audit
    params: dict[str, Any] = {
        "tenant_id": change.tenant_id, "model": change.model, "pid": change.pid, "data": Jsonb(change.data),
        "search_text": change.search_text, "created_by": change.created_by, "now": stored(change.now),
        "claims": Jsonb([{"field": f, "value": v} for f, v in change.claims]), "audit_pid": audit.pid,
        "actor": audit.actor, "action": audit.action, "request_id": audit.request_id,
        "application_id": audit.application_id,
        "events": Jsonb([{"event_id": i, "event_type": t, "payload": p} for i, t, p in change.events]),
    }
    if change.open_key is not None:
        done = change.open_key
        params |= {"key_id": done.key_id, "response": Jsonb(done.response), "etag": done.etag}
    if change.session_key is not None:
        claim = change.session_key
        params |= {"user_id": claim.user_id, "key": claim.key, "request_hash": claim.request_hash,
                   "response": Jsonb(claim.response)}
    return params


class PostgresStore:
    """The endpoints' queries on one pool of autocommit connections."""

    dialect = "postgresql"

    def __init__(self, dsn: str, size: int) -> None:
        self.pool = AsyncConnectionPool(dsn, min_size=size, max_size=size, kwargs={"autocommit": True}, open=False)

    async def open(self) -> None:
        await self.pool.open(wait=True, timeout=60)

    async def close(self) -> None:
        await self.pool.close()

    async def _one(self, statement: str, params: Any) -> tuple[Any, ...] | None:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(statement, params)
            return await cursor.fetchone()

    async def _run(self, statement: str, params: Any) -> int:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(statement, params)
            return cursor.rowcount

    async def credential(self, client_id: str) -> CredentialRow | None:
        row = await self._one(CREDENTIAL_QUERY.format(client_id="%s"), (client_id,))
        if row is None:
            return None
        return CredentialRow(row[0], row[1], row[2], aware(row[3]), row[4], row[5], row[6], row[7], row[8], row[9])

    async def audit(self, entry: Audit) -> None:
        await self._run(AUDIT, audit_values(entry))

    async def issue(self, token: NewToken, entry: Audit) -> None:
        await self._run(ISSUE, (token.digest, token.credential_id, token.installation_id, Jsonb(token.scopes),
                                stored(token.issued_at), stored(token.expires_at), *audit_values(entry)))

    async def token(self, digest: str) -> TokenRow | None:
        return token_row(await self._one(TOKEN, (digest,)))

    async def token_and_record(self, digest: str, model: str, pid: str) -> tuple[TokenRow | None, RecordRow | None]:
        row = await self._one(TOKEN_AND_RECORD, {"digest": digest, "model": model, "pid": pid})
        if row is None:
            return None, None
        return token_row(row), (record_row(row[18:]) if row[18] is not None else None)

    async def token_and_page(self, digest: str, model: str, after_id: int, limit: int) -> tuple[
            TokenRow | None, list[RecordRow]]:
        async with self.pool.connection() as conn:
            async with conn.pipeline():
                token = await conn.execute(TOKEN, (digest,))
                page = await conn.execute(PAGE_AFTER, {"digest": digest, "model": model, "after": after_id,
                                                       "limit": limit})
            return token_row(await token.fetchone()), [record_row(r) for r in await page.fetchall()]

    async def receive(self, event: NewEvent) -> tuple[str, str | None]:
        params = {"pid": event.pid, "installation_id": event.installation_id, "tenant_id": event.tenant_id,
                  "source": event.source, "event_type": event.event_type, "schema_version": event.schema_version,
                  "occurred_at": stored(event.occurred_at), "data": Jsonb(event.data), "key": event.idempotency_key,
                  "request_hash": event.request_hash, "request_id": event.request_id,
                  "received_at": stored(event.received_at)}
        row = await self._one(RECEIVE, params)
        if row is None:  # a concurrent duplicate committed after this statement's snapshot: read it now
            row = await self._one(SEEN_EVENT, (event.installation_id, event.idempotency_key))
        assert row is not None, "an inbound event neither stored nor found"
        return row[0], row[1]

    async def claim_key(self, installation_id: int, key: str, request_hash: str, lock: datetime,
                        now: datetime) -> int | None:
        row = await self._one(CLAIM_KEY, (installation_id, key, request_hash, stored(lock), stored(now)))
        return None if row is None else int(row[0])

    async def key(self, installation_id: int, key: str) -> KeyRow | None:
        row = await self._one(KEY, (installation_id, key))
        if row is None:
            return None
        return KeyRow(row[0], row[1], row[2], row[3], row[4], row[5].replace(tzinfo=UTC), row[6].replace(tzinfo=UTC))

    async def forget_key(self, key_id: int, only_in_progress: bool) -> None:
        extra = " AND state = 'in_progress'" if only_in_progress else ""
        await self._run(f"DELETE FROM open_idempotency_keys WHERE id = %s{extra}", (key_id,))

    async def take_over(self, key_id: int, previous: datetime, lock: datetime) -> bool:
        return await self._run(TAKE_OVER, (stored(lock), key_id, stored(previous))) == 1

    async def create(self, change: Creation) -> bool:
        variant = "open" if change.open_key else "session" if change.session_key else "free"
        try:
            row = await self._one(CREATE[variant], creation_params(change))
        except psycopg.errors.UniqueViolation as exc:
            if not (exc.diag.constraint_name or "").startswith("uq_record_unique_values"):
                raise
            raise Duplicate(await self._clashes(change)) from None
        return bool(row and row[0])

    async def _clashes(self, change: Creation) -> list[str]:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(CLASHES, ([f for f, _ in change.claims], [v for _, v in change.claims],
                                                  change.tenant_id, change.model))
            taken = {row[0] for row in await cursor.fetchall()}
        return [f for f, _ in change.claims if f in taken] or [f for f, _ in change.claims]

    async def session_key(self, tenant_id: int, user_id: int, key: str) -> SessionKeyRow | None:
        row = await self._one(SESSION_KEY, (tenant_id, user_id, key))
        return None if row is None else SessionKeyRow(row[0], row[1], row[2], row[3].replace(tzinfo=UTC))

    async def forget_session_key(self, key_id: int) -> None:
        await self._run("DELETE FROM idempotency_keys WHERE id = %s", (key_id,))

    async def principal(self, user_pid: str, tenant_code: str) -> Principal | None:
        row = await self._one(PRINCIPAL, {"user": user_pid, "tenant": tenant_code})
        if row is None:
            return None
        return Principal(row[0], row[1], row[2], row[3], row[4], None if row[5] is None else frozenset(row[5]))

    async def list_page(self, count: tuple[str, dict[str, Any]], page: tuple[str, dict[str, Any]]) -> tuple[
            int, list[RecordRow]]:
        async with self.pool.connection() as conn:
            async with conn.pipeline():
                counted = await conn.execute(*count)
                listed = await conn.execute(*page)
            total = await counted.fetchone()
            rows = await listed.fetchall()
        return (int(total[0]) if total else 0), [
            RecordRow(0, r[0], 0, r[1], r[2].replace(tzinfo=UTC), r[3].replace(tzinfo=UTC)) for r in rows]

    async def record_calls(self, rows: list[tuple[Any, ...]]) -> None:
        columns = [list(column) for column in zip(*rows, strict=True)]
        columns[7] = [stored(moment) for moment in columns[7]]
        await self._run(CALLS, columns)
