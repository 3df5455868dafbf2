"""Idempotency keys of session commands: the first result of a key is kept for the dedupe window.

The key row is written in the same transaction as the command's change, so a key is either bound
to a committed result or not recorded at all; a unique constraint makes a concurrent duplicate
wait for (PostgreSQL) or queue behind (SQLite) the first and then find its result.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import and_, bindparam, delete, select, update

from storage.engine import Executor, Statement, insert_or_skip
from storage.tables import idempotency_keys


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


class _Claimed(NamedTuple):
    id: int


_FIND = Statement(select(idempotency_keys).where(and_(
    idempotency_keys.c.tenant_id == bindparam("tenant_id"), idempotency_keys.c.user_id == bindparam("user_id"),
    idempotency_keys.c.key == bindparam("key"))), row=KeyRow)
_FORGET = Statement(delete(idempotency_keys).where(and_(
    idempotency_keys.c.id == bindparam("row_id"), idempotency_keys.c.created_at == bindparam("created_at"))))
_CLAIM = insert_or_skip(idempotency_keys, ("tenant_id", "user_id", "key", "request_hash", "status_code", "response",
                                           "created_at"), [idempotency_keys.c.id], _Claimed)
_COMPLETE = Statement(update(idempotency_keys).where(idempotency_keys.c.id == bindparam("row_id")).values(
    status_code=bindparam("status_code"), response=bindparam("response")))


async def find(conn: Executor, tenant_id: int, user_id: int, key: str) -> KeyRow | None:
    """The key's row, live or expired (the caller judges its age)."""
    return (await conn.execute(_FIND, {"tenant_id": tenant_id, "user_id": user_id, "key": key})).first()


async def forget(conn: Executor, row_id: int, created_at: datetime) -> None:
    """Remove an expired row (only the one that was seen), so the key can be used afresh."""
    await conn.execute(_FORGET, {"row_id": row_id, "created_at": created_at})


async def claim(conn: Executor, tenant_id: int, user_id: int, key: str, request_hash: str, *,
                now: datetime) -> int | None:
    """Insert the key row: its id, or None when the key already has one (on PostgreSQL, after a
    concurrent holder committed; a rolled-back holder's key is claimed)."""
    row = (await conn.execute(_CLAIM, {
        "tenant_id": tenant_id, "user_id": user_id, "key": key, "request_hash": request_hash, "status_code": 0,
        "response": None, "created_at": now,
    })).first()
    return None if row is None else row.id


async def complete(conn: Executor, row_id: int, status_code: int, response: Any) -> None:
    await conn.enqueue(_COMPLETE, {"row_id": row_id, "status_code": status_code, "response": response})
