"""The baseline's SQL on PostgreSQL: psycopg 3 (or asyncpg), a fixed pool, one statement per request.

Why two drivers: Tessera must use psycopg 3, so the baseline does too (``BASELINE_DRIVER`` unset or
``psycopg``: the suite's ``baseline``); asyncpg speaks the protocol itself (binary rows, statements
prepared once per connection and cached), the least client work a Python service can spend per
statement, and the same SQL on it (``BASELINE_DRIVER=asyncpg``: the suite's ``limit``) is the floor
under any Python service on these tables; its round trip costs about half psycopg's CPU. The driver sits
behind ``Queries`` (asyncpg's pool methods, ``$n`` placeholders, ``pg_asyncpg`` and ``pg_psycopg``);
only the chosen one is imported. Every request here is one statement, so one round trip (the session
list: its count and its page, two statements in one pipeline on psycopg): a read is the token's digest
joined to its credential, installation, application and tenant with the record or the page beside it; a
token issue is the credential read, then the token and its audit row in one statement; a command checks
the token in SQL (valid and scoped, ``rules.caller_of`` as a WHERE clause) and then, in data-modifying
CTEs that commit together, claims its key completed, writes the record, its unique-value claims, its
audit entry and its outbox rows; an inbound event the same with its one row. Values are stored as
Tessera stores them: naive UTC ``timestamp``, JSON as ``jsonb``.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from baseline.rules import TokenRow
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
    NewRecord,
    NewToken,
    OpenCreate,
    Principal,
    Received,
    RecordRow,
    SessionCreate,
    SessionKeyRow,
    sql,
)

NAMED = re.compile(r"%\((\w+)\)s")
JSONB = re.compile(r"%\((\w+)\)s::jsonb")
DRIVER_VARIABLE = "BASELINE_DRIVER"  # psycopg (the default) or asyncpg
Encode = Callable[[Any], Any]  # a JSON parameter as the driver takes it
Sent = tuple[str, list[Any]]  # a statement with ``$n`` placeholders and its arguments


class Queries(Protocol):
    """What the store asks of a driver: asyncpg's pool methods (``$n`` placeholders, positional arguments,
    rows read by index), each one statement on a pooled connection."""

    async def fetchrow(self, query: str, *args: Any) -> Any: ...

    async def fetch(self, query: str, *args: Any) -> list[Any]: ...

    async def fetchval(self, query: str, *args: Any) -> Any: ...

    async def execute(self, query: str, *args: Any) -> Any: ...

    async def close(self) -> None: ...


@dataclass(frozen=True)
class Driver:
    """A PostgreSQL driver for the store: its pool, its unique violation with the constraint's name, how a
    JSON parameter is passed (None: as a Python value, the driver's codec encodes it), and two statements
    on one connection (in one pipeline where the driver has one)."""

    name: str
    connect: Callable[[str, int], Awaitable[Queries]]
    unique: type[Exception]
    constraint: Callable[[Exception], str | None]
    json: Encode | None
    pair: Callable[[Queries, Sent, Sent], Awaitable[tuple[list[Any], list[Any]]]]


def driver(name: str | None = None) -> Driver:
    """The driver ``BASELINE_DRIVER`` names, only its module imported (asyncpg is not when psycopg is chosen:
    it is in requirements/bench.txt, not the test lock)."""
    name = name or os.environ.get(DRIVER_VARIABLE) or "psycopg"
    if name not in ("asyncpg", "psycopg"):
        raise SystemExit(f"{DRIVER_VARIABLE} must be psycopg or asyncpg, got {name!r}")
    chosen: Driver = importlib.import_module(f"baseline.pg_{name}").DRIVER
    return chosen


class Statement:
    """SQL written with ``%(name)s`` placeholders, sent with asyncpg's ``$n``: readable text, and the
    parameters taken from a dict in their order."""

    def __init__(self, text: str) -> None:
        self.names: list[str] = []

        def number(found: re.Match[str]) -> str:
            if found[1] not in self.names:
                self.names.append(found[1])
            return f"${self.names.index(found[1]) + 1}"

        self.text = NAMED.sub(number, sql(text))
        self.json = [self.names.index(name) for name in dict.fromkeys(JSONB.findall(text))]

    def args(self, params: dict[str, Any], encode: Encode | None) -> list[Any]:
        """The parameters in order, those cast ``::jsonb`` passed through ``encode`` (the driver's JSON)."""
        values = [params[name] for name in self.names]
        if encode is not None:
            for at in self.json:
                if values[at] is not None:
                    values[at] = encode(values[at])
        return values


RECORD_COLUMNS = "r.id, r.pid, r.version, r.data, r.created_at, r.updated_at"
TOKEN_NAMES = ("scopes, issued_at, expires_at, client_id, credential_status, rotated_at, credential_expires_at, "
               "installation_id, installation_pid, environment, installation_status, granted_scopes, "
               "application_id, application_pid, application_name, tenant_id, tenant_code, tenant_status")
TOKEN = Statement(f"SELECT {TOKEN_COLUMNS} FROM {TOKEN_JOINS} WHERE t.token_digest = %(digest)s")
TOKEN_AND_RECORD = Statement(f"""
    SELECT {TOKEN_COLUMNS}, {RECORD_COLUMNS} FROM {TOKEN_JOINS}
    LEFT JOIN records r ON r.tenant_id = i.tenant_id AND r.model = %(model)s AND r.pid = %(pid)s
        AND r.deleted_at IS NULL
    WHERE t.token_digest = %(digest)s""")
# The token's row, then the page of its tenant (the (tenant, model, id) index walked from the cursor):
# one statement, the token's columns sent and decoded once rather than once per record.
TOKEN_AND_PAGE = Statement(f"""
    WITH tok ({TOKEN_NAMES}) AS (SELECT {TOKEN_COLUMNS} FROM {TOKEN_JOINS} WHERE t.token_digest = %(digest)s)
    SELECT tok.*, NULL::bigint AS id, NULL::text AS pid, NULL::int AS version, NULL::jsonb AS data,
           NULL::timestamp AS created_at, NULL::timestamp AS updated_at FROM tok
    UNION ALL
    (SELECT {", ".join(["NULL"] * 18)}, {RECORD_COLUMNS} FROM records r
     WHERE r.tenant_id = (SELECT tenant_id FROM tok) AND r.model = %(model)s AND r.deleted_at IS NULL
       AND r.id > %(after)s ORDER BY r.id LIMIT %(limit)s)
    ORDER BY id NULLS FIRST""")
AUDIT_VALUES = ", ".join(f"${n}" for n in range(1, 13))
AUDIT = f"INSERT INTO audit_log ({AUDIT_COLUMNS}) VALUES ({AUDIT_VALUES})"
ISSUE = sql(f"""
    WITH token AS (INSERT INTO access_tokens (token_digest, credential_id, installation_id, scopes, issued_at,
                                              expires_at)
                   VALUES ($13, $14, $15, $16, $17, $18))
    INSERT INTO audit_log ({AUDIT_COLUMNS}) VALUES ({AUDIT_VALUES})""")

# The token checked in SQL before any write: ``caller_of``'s rules and the scope (token's and still granted).
CHECKED_TOKEN = f"""
    tok ({TOKEN_NAMES}) AS (SELECT {TOKEN_COLUMNS} FROM {TOKEN_JOINS} WHERE t.token_digest = %(digest)s),
    go AS (SELECT installation_id, tenant_id, client_id, application_id FROM tok
           WHERE %(now)s::timestamp < expires_at AND credential_status = 'active'
             AND installation_status = 'enabled' AND tenant_status = 'active'
             AND NOT (rotated_at IS NOT NULL AND issued_at >= rotated_at
                      AND %(now)s::timestamp >= COALESCE(credential_expires_at, %(now)s::timestamp))
             AND scopes ? %(scope)s::text AND granted_scopes ? %(scope)s::text)"""
OPEN_CREATE = Statement(f"""
    WITH {CHECKED_TOKEN},
    k AS (INSERT INTO open_idempotency_keys (installation_id, key, request_hash, state, response, etag, locked_until,
                                             created_at)
          SELECT installation_id, %(key)s::text, %(request_hash)s::text, 'completed', %(response)s::jsonb,
                 %(etag)s::text, %(lock)s::timestamp, %(now)s::timestamp FROM go
          ON CONFLICT (installation_id, key) DO NOTHING RETURNING id),
    rec AS (INSERT INTO records (tenant_id, model, pid, version, data, search_text, created_by, created_at, updated_at)
            SELECT go.tenant_id, %(model)s::text, %(pid)s::text, 1, %(data)s::jsonb, %(search_text)s::text, NULL,
                   %(now)s::timestamp, %(now)s::timestamp FROM go, k
            RETURNING id, tenant_id),
    uq AS (INSERT INTO record_unique_values (tenant_id, model, field, value, record_id)
           SELECT rec.tenant_id, %(model)s::text, u.field, u.value, rec.id
           FROM rec, jsonb_to_recordset(%(claims)s::jsonb) AS u(field text, value text)),
    aud AS (INSERT INTO audit_log ({AUDIT_COLUMNS})
            SELECT %(audit_pid)s::text, go.tenant_id, NULL, go.client_id, %(action)s::text, %(model)s::text,
                   %(pid)s::text, 'null'::jsonb, %(data)s::jsonb, %(request_id)s::text, go.application_id,
                   %(now)s::timestamp FROM go, k),
    box AS (INSERT INTO outbox_events (event_id, tenant_id, event_type, payload, request_id, occurred_at)
            SELECT e.event_id, go.tenant_id, e.event_type, e.payload, %(request_id)s::text, %(now)s::timestamp
            FROM go, k, jsonb_to_recordset(%(events)s::jsonb) AS e(event_id text, event_type text, payload jsonb)),
    seen AS (SELECT o.id, o.request_hash, o.state, o.response, o.etag, o.locked_until, o.created_at
             FROM open_idempotency_keys o JOIN go ON o.installation_id = go.installation_id
             WHERE o.key = %(key)s::text)
    SELECT tok.*, (SELECT count(*) FROM rec), seen.* FROM tok LEFT JOIN seen ON true""")
RECEIVE = Statement(f"""
    WITH {CHECKED_TOKEN},
    ins AS (INSERT INTO inbound_events (pid, installation_id, tenant_id, source, event_type, schema_version,
                                        occurred_at, data, idempotency_key, request_hash, request_id, received_at)
            SELECT %(pid)s::text, installation_id, tenant_id, %(source)s::text, %(event_type)s::text,
                   %(schema_version)s::int, %(occurred_at)s::timestamp, %(data)s::jsonb, %(key)s::text,
                   %(request_hash)s::text, %(request_id)s::text, %(now)s::timestamp FROM go
            ON CONFLICT (installation_id, idempotency_key) DO NOTHING RETURNING pid),
    got AS (SELECT pid, NULL::text AS request_hash FROM ins
            UNION ALL
            SELECT e.pid, e.request_hash FROM inbound_events e JOIN go ON e.installation_id = go.installation_id
            WHERE e.idempotency_key = %(key)s::text)
    SELECT tok.*, got.pid, got.request_hash FROM tok LEFT JOIN got ON true""")
SEEN_EVENT = "SELECT pid, request_hash FROM inbound_events WHERE installation_id = $1 AND idempotency_key = $2"
KEY = sql("""
    SELECT id, request_hash, state, response, etag, locked_until, created_at FROM open_idempotency_keys
    WHERE installation_id = $1 AND key = $2""")
CLASHES = sql("""
    SELECT u.field FROM record_unique_values u
    JOIN unnest($1::text[], $2::text[]) AS c(field, value) ON c.field = u.field AND c.value = u.value
    WHERE u.tenant_id = $3 AND u.model = $4""")
SESSION_KEY = sql("""
    SELECT id, request_hash, response, created_at FROM idempotency_keys
    WHERE tenant_id = $1 AND user_id = $2 AND key = $3""")
PRINCIPAL_COLUMNS = "user_id, email, status, tenant_id, tenant_code, permissions"
PRINCIPAL_SQL = """
    SELECT u.id, u.email, u.status, te.id, te.code,
           CASE WHEN r.id IS NULL THEN NULL
                ELSE ARRAY(SELECT p.permission FROM role_permissions p WHERE p.role_id = r.id) END
    FROM users u
    LEFT JOIN (memberships m
               JOIN tenants te ON te.id = m.tenant_id AND te.code = %(tenant)s::text AND te.status = 'active'
               JOIN roles r ON r.id = m.role_id) ON m.user_id = u.id
    WHERE u.pid = %(user)s::text"""
PRINCIPAL = Statement(PRINCIPAL_SQL)
# A session create as one statement: the user, their membership and permissions read (``pr``), and for an
# active member holding the permission (``who``) the key claimed with its result, the record and
# everything committed with it. A key already held writes nothing (``go`` is empty).
SESSION_CREATE = Statement(f"""
    WITH pr ({PRINCIPAL_COLUMNS}) AS ({PRINCIPAL_SQL}),
    who AS (SELECT user_id, email, tenant_id FROM pr
            WHERE status = 'active' AND tenant_id IS NOT NULL
              AND permissions::text[] && ARRAY['*', %(permission)s::text]),
    k AS (INSERT INTO idempotency_keys (tenant_id, user_id, key, request_hash, status_code, response, created_at)
          SELECT tenant_id, user_id, %(key)s::text, %(request_hash)s::text, 200, %(response)s::jsonb,
                 %(now)s::timestamp FROM who WHERE %(keyed)s::boolean
          ON CONFLICT (tenant_id, user_id, key) DO NOTHING RETURNING id),
    go AS (SELECT who.* FROM who WHERE NOT %(keyed)s::boolean OR EXISTS (SELECT 1 FROM k)),
    rec AS (INSERT INTO records (tenant_id, model, pid, version, data, search_text, created_by, created_at, updated_at)
            SELECT go.tenant_id, %(model)s::text, %(pid)s::text, 1, %(data)s::jsonb, %(search_text)s::text,
                   go.user_id, %(now)s::timestamp, %(now)s::timestamp FROM go
            RETURNING id, tenant_id),
    uq AS (INSERT INTO record_unique_values (tenant_id, model, field, value, record_id)
           SELECT rec.tenant_id, %(model)s::text, u.field, u.value, rec.id
           FROM rec, jsonb_to_recordset(%(claims)s::jsonb) AS u(field text, value text)),
    aud AS (INSERT INTO audit_log ({AUDIT_COLUMNS})
            SELECT %(audit_pid)s::text, go.tenant_id, go.user_id, go.email, %(action)s::text, %(model)s::text,
                   %(pid)s::text, 'null'::jsonb, %(data)s::jsonb, %(request_id)s::text, NULL, %(now)s::timestamp
            FROM go),
    box AS (INSERT INTO outbox_events (event_id, tenant_id, event_type, payload, request_id, occurred_at)
            SELECT e.event_id, go.tenant_id, e.event_type, e.payload, %(request_id)s::text, %(now)s::timestamp
            FROM go, jsonb_to_recordset(%(events)s::jsonb) AS e(event_id text, event_type text, payload jsonb))
    SELECT pr.*, (SELECT count(*) FROM rec) FROM pr""")
# A session create for a known actor (its key claimed, then the record), for the rare second try.
CREATE = Statement(f"""
    WITH k AS (INSERT INTO idempotency_keys (tenant_id, user_id, key, request_hash, status_code, response, created_at)
               SELECT %(tenant_id)s::bigint, %(user_id)s::bigint, %(key)s::text, %(request_hash)s::text, 200,
                      %(response)s::jsonb, %(now)s::timestamp WHERE %(keyed)s::boolean
               ON CONFLICT (tenant_id, user_id, key) DO NOTHING RETURNING id),
    go AS (SELECT 1 AS one FROM k UNION ALL SELECT 1 WHERE NOT %(keyed)s::boolean),
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
            FROM go, jsonb_to_recordset(%(events)s::jsonb) AS e(event_id text, event_type text, payload jsonb))
    SELECT count(*) FROM rec""")
CALLS = sql(f"""
    INSERT INTO open_api_calls ({", ".join(CALL_COLUMNS)})
    SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::int[], $7::text[],
                         $8::timestamp[])""")


def stored(value: datetime) -> datetime:
    """Naive UTC, as Tessera's ``UTCDateTime`` stores it."""
    return value.astimezone(UTC).replace(tzinfo=None)


def aware(value: datetime | None) -> datetime | None:
    return None if value is None else value.replace(tzinfo=UTC)


def token_row(row: Any) -> TokenRow | None:
    if row is None:
        return None
    values = list(row[:18])
    for index in (1, 2, 5, 6):
        values[index] = aware(values[index])
    return TokenRow._make(values)


def record_row(row: Any, at: int = 0) -> RecordRow:
    return RecordRow(row[at], row[at + 1], row[at + 2], row[at + 3], row[at + 4].replace(tzinfo=UTC),
                     row[at + 5].replace(tzinfo=UTC))


def key_row(row: Any, at: int = 0) -> KeyRow:
    return KeyRow(row[at], row[at + 1], row[at + 2], row[at + 3], row[at + 4], row[at + 5].replace(tzinfo=UTC),
                  row[at + 6].replace(tzinfo=UTC))


def principal_of(row: Any) -> Principal | None:
    if row is None:
        return None
    return Principal(row[0], row[1], row[2], row[3], row[4], None if row[5] is None else frozenset(row[5]))


def record_params(plan: NewRecord) -> dict[str, Any]:
    """The parameters every create statement takes, by name."""
    return {"model": plan.model, "pid": plan.pid, "data": plan.data, "search_text": plan.search_text,
            "now": stored(plan.now), "claims": [{"field": f, "value": v} for f, v in plan.claims],
            "audit_pid": plan.audit_pid, "action": plan.action, "request_id": plan.request_id,
            "events": [{"event_id": i, "event_type": t, "payload": p} for i, t, p in plan.events],
            "request_hash": plan.request_hash, "response": plan.response}


def audit_args(entry: Audit, encode: Encode | None) -> list[Any]:
    values = list(entry.values())
    values[11] = stored(entry.created_at)
    if encode is not None:  # before and after: jsonb
        values[7:9] = [None if v is None else encode(v) for v in values[7:9]]
    return values


class PostgresStore:
    """The endpoints' statements on one pool of the chosen driver (``driver``), opened full at start and
    kept full (no connection retired after a number of queries or a time idle)."""

    dialect = "postgresql"

    def __init__(self, dsn: str, size: int, chosen: Driver | None = None) -> None:
        self.dsn, self.size = dsn, size
        self.driver = chosen or driver()
        self.json, self.unique = self.driver.json, self.driver.unique
        self._pool: Queries | None = None

    @property
    def pool(self) -> Queries:
        assert self._pool is not None, "the store is not open"
        return self._pool

    async def open(self) -> None:
        self._pool = await self.driver.connect(self.dsn, self.size)

    def _duplicate(self, exc: Exception) -> bool:
        """A unique value already taken (not another constraint): the store's ``Duplicate``."""
        return (self.driver.constraint(exc) or "").startswith("uq_record_unique_values")

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()

    async def credential(self, client_id: str) -> CredentialRow | None:
        row = await self.pool.fetchrow(CREDENTIAL_QUERY.format(client_id="$1"), client_id)
        if row is None:
            return None
        return CredentialRow(row[0], row[1], row[2], aware(row[3]), row[4], row[5], row[6], row[7], row[8], row[9])

    async def audit(self, entry: Audit) -> None:
        await self.pool.execute(AUDIT, *audit_args(entry, self.json))

    async def issue(self, token: NewToken, entry: Audit) -> None:
        scopes = token.scopes if self.json is None else self.json(token.scopes)
        await self.pool.execute(ISSUE, *audit_args(entry, self.json), token.digest, token.credential_id,
                                token.installation_id, scopes, stored(token.issued_at), stored(token.expires_at))

    async def token(self, digest: str) -> TokenRow | None:
        return token_row(await self.pool.fetchrow(TOKEN.text, digest))

    async def token_and_record(self, digest: str, model: str, pid: str) -> tuple[TokenRow | None, RecordRow | None]:
        params = {"digest": digest, "model": model, "pid": pid}
        row = await self.pool.fetchrow(TOKEN_AND_RECORD.text, *TOKEN_AND_RECORD.args(params, self.json))
        if row is None:
            return None, None
        return token_row(row), (record_row(row, 18) if row[18] is not None else None)

    async def token_and_page(self, digest: str, model: str, after_id: int, limit: int) -> tuple[
            TokenRow | None, list[RecordRow]]:
        rows = await self.pool.fetch(TOKEN_AND_PAGE.text, *TOKEN_AND_PAGE.args(
            {"digest": digest, "model": model, "after": after_id, "limit": limit}, self.json))
        if not rows:
            return None, []
        return token_row(rows[0]), [record_row(r, 18) for r in rows[1:]]

    async def open_create(self, digest: str, plan: OpenCreate) -> Created:
        params = {**record_params(plan), "digest": digest, "scope": plan.scope, "key": plan.key, "etag": plan.etag,
                  "lock": stored(plan.lock)}
        try:
            row = await self.pool.fetchrow(OPEN_CREATE.text, *OPEN_CREATE.args(params, self.json))
        except self.unique as exc:
            if not self._duplicate(exc):
                raise
            token = await self.token(digest)
            raise Duplicate(await self._clashes(token.tenant_id if token else 0, plan.model, plan.claims)) from None
        if row is None:
            return Created(None, False, None)
        return Created(token_row(row), bool(row[18]), key_row(row, 19) if row[19] is not None else None)

    async def _clashes(self, tenant_id: int, model: str, claims: list[tuple[str, str]]) -> list[str]:
        rows = await self.pool.fetch(CLASHES, [f for f, _ in claims], [v for _, v in claims], tenant_id, model)
        taken = {row[0] for row in rows}
        return [f for f, _ in claims if f in taken] or [f for f, _ in claims]

    async def key(self, installation_id: int, key: str) -> KeyRow | None:
        row = await self.pool.fetchrow(KEY, installation_id, key)
        return None if row is None else key_row(row)

    async def forget_key(self, key_id: int, only_in_progress: bool) -> None:
        extra = " AND state = 'in_progress'" if only_in_progress else ""
        await self.pool.execute(f"DELETE FROM open_idempotency_keys WHERE id = $1{extra}", key_id)

    async def receive_checked(self, digest: str, event: Inbound) -> Received:
        row = await self.pool.fetchrow(RECEIVE.text, *RECEIVE.args({
            "digest": digest, "now": stored(event.received_at), "scope": event.scope, "pid": event.pid,
            "source": event.source, "event_type": event.event_type, "schema_version": event.schema_version,
            "occurred_at": stored(event.occurred_at), "data": event.data, "key": event.key,
            "request_hash": event.request_hash, "request_id": event.request_id}, self.json))
        if row is None:
            return Received(None, None, None)
        return Received(token_row(row), row[18], row[19])

    async def seen_event(self, installation_id: int, key: str) -> tuple[str, str] | None:
        row = await self.pool.fetchrow(SEEN_EVENT, installation_id, key)
        return None if row is None else (row[0], row[1])

    async def principal(self, user_pid: str, tenant_code: str) -> Principal | None:
        params = {"user": user_pid, "tenant": tenant_code}
        return principal_of(await self.pool.fetchrow(PRINCIPAL.text, *PRINCIPAL.args(params, self.json)))

    async def session_create(self, user_pid: str, tenant_code: str, plan: SessionCreate) -> tuple[
            Principal | None, bool]:
        params = {**record_params(plan), "user": user_pid, "tenant": tenant_code, "permission": plan.permission,
                  "keyed": plan.key is not None, "key": plan.key}
        try:
            row = await self.pool.fetchrow(SESSION_CREATE.text, *SESSION_CREATE.args(params, self.json))
        except self.unique as exc:
            if not self._duplicate(exc):
                raise
            found = await self.principal(user_pid, tenant_code)
            tenant_id = found.tenant_id if found is not None and found.tenant_id is not None else 0
            raise Duplicate(await self._clashes(tenant_id, plan.model, plan.claims)) from None
        return principal_of(row), bool(row is not None and row[6])

    async def create(self, change: Creation) -> bool:
        """A session create for a known actor: the second try after a key was found held."""
        audit, claim = change.audit, change.session_key
        params = {
            "tenant_id": change.tenant_id, "model": change.model, "pid": change.pid, "data": change.data,
            "search_text": change.search_text, "created_by": change.created_by, "now": stored(change.now),
            "claims": [{"field": f, "value": v} for f, v in change.claims], "audit_pid": audit.pid,
            "actor": audit.actor, "action": audit.action, "request_id": audit.request_id,
            "application_id": audit.application_id,
            "events": [{"event_id": i, "event_type": t, "payload": p} for i, t, p in change.events],
            "keyed": claim is not None, "user_id": claim.user_id if claim else None,
            "key": claim.key if claim else None,
            "request_hash": claim.request_hash if claim else None, "response": claim.response if claim else None}
        try:
            count = await self.pool.fetchval(CREATE.text, *CREATE.args(params, self.json))
        except self.unique as exc:
            if not self._duplicate(exc):
                raise
            raise Duplicate(await self._clashes(change.tenant_id, change.model, change.claims)) from None
        return bool(count)

    async def session_key(self, tenant_id: int, user_id: int, key: str) -> SessionKeyRow | None:
        row = await self.pool.fetchrow(SESSION_KEY, tenant_id, user_id, key)
        return None if row is None else SessionKeyRow(row[0], row[1], row[2], row[3].replace(tzinfo=UTC))

    async def forget_session_key(self, key_id: int) -> None:
        await self.pool.execute("DELETE FROM idempotency_keys WHERE id = $1", key_id)

    async def list_page(self, count: tuple[str, dict[str, Any]], page: tuple[str, dict[str, Any]]) -> tuple[
            int, list[RecordRow]]:
        """A session list's count and page (``listing.statements``), sent together."""
        sent = []
        for text, params in (count, page):
            statement = Statement(text)
            sent.append((statement.text, statement.args(params, self.json)))
        counted, rows = await self.driver.pair(self.pool, sent[0], sent[1])
        return int(counted[0][0]), [RecordRow(0, r[0], 0, r[1], r[2].replace(tzinfo=UTC), r[3].replace(tzinfo=UTC))
                                    for r in rows]

    async def record_calls(self, rows: list[tuple[Any, ...]]) -> None:
        columns = [list(column) for column in zip(*rows, strict=True)]
        columns[7] = [stored(moment) for moment in columns[7]]
        await self.pool.execute(CALLS, *columns)
