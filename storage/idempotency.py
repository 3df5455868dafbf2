"""Idempotency keys of session commands: the first result of a key is kept for the dedupe window.

The key row is written with the command's change, in its transaction, as its last write (one
plain INSERT of the key and its result), so a key is either bound to a committed result or not
recorded at all. A key that already has a row makes that INSERT fail on the unique constraint and
the whole transaction roll back; a concurrent duplicate's INSERT waits for the first to commit
(PostgreSQL) or queues behind it (SQLite) and then fails the same way. The caller then reads the
row (``find``) and replays it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import and_, bindparam, delete, insert, select

from storage.drivers.engine import Executor, Statement, bound
from storage.schema.tables import idempotency_keys


class KeyRow(NamedTuple):
    """A row of ``idempotency_keys``."""

    id: int
    tenant_id: int
    user_id: int
    key: str
    request_hash: str
    status_code: int
    response: Any
    created_at: datetime


_FIND = Statement(select(idempotency_keys).where(and_(
    idempotency_keys.c.tenant_id == bindparam("tenant_id"), idempotency_keys.c.user_id == bindparam("user_id"),
    idempotency_keys.c.key == bindparam("key"))), row=KeyRow)
_FORGET = Statement(delete(idempotency_keys).where(and_(
    idempotency_keys.c.id == bindparam("row_id"), idempotency_keys.c.created_at == bindparam("created_at"))))
_RECORD = Statement(insert(idempotency_keys).values(bound(
    "tenant_id", "user_id", "key", "request_hash", "status_code", "response", "created_at")))


async def find(conn: Executor, tenant_id: int, user_id: int, key: str) -> KeyRow | None:
    """The key's row, live or expired (the caller judges its age)."""
    return (await conn.execute(_FIND, {"tenant_id": tenant_id, "user_id": user_id, "key": key})).first()


async def forget(conn: Executor, row_id: int, created_at: datetime) -> None:
    """Remove an expired row (only the one that was seen), so the key can be used afresh."""
    await conn.execute(_FORGET, {"row_id": row_id, "created_at": created_at})


async def record(conn: Executor, tenant_id: int, user_id: int, key: str, request_hash: str, status_code: int,
                 response: Any, *, now: datetime) -> None:
    """Queue the key row with its result; the transaction fails at commit when the key has one."""
    await conn.enqueue(_RECORD, {
        "tenant_id": tenant_id, "user_id": user_id, "key": key, "request_hash": request_hash,
        "status_code": status_code, "response": response, "created_at": now,
    })
