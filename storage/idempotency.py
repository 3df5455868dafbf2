"""Idempotency keys of session commands: the first result of a key is kept for the dedupe window.

The key row is written in the same transaction as the command's change, so a key is either bound
to a committed result or not recorded at all; a unique constraint makes a concurrent duplicate
wait for (PostgreSQL) or queue behind (SQLite) the first and then find its result.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Row, and_, delete, insert, select, update

from storage.tables import idempotency_keys


def lookup(conn: Connection, tenant_id: int, user_id: int, key: str, ttl_seconds: int,
           *, now: datetime) -> Row[Any] | None:
    """The live row for the key; an expired one is removed so the key can be used afresh."""
    row = conn.execute(
        select(idempotency_keys).where(
            and_(idempotency_keys.c.tenant_id == tenant_id, idempotency_keys.c.user_id == user_id,
                 idempotency_keys.c.key == key)
        )
    ).first()
    if row is None:
        return None
    if row.created_at < now - timedelta(seconds=ttl_seconds):
        conn.execute(delete(idempotency_keys).where(idempotency_keys.c.id == row.id))
        return None
    return row


def claim(conn: Connection, tenant_id: int, user_id: int, key: str, request_hash: str, *, now: datetime) -> int:
    """Insert the key row; raises ``IntegrityError`` when a concurrent request holds the key."""
    row_id: int = conn.execute(
        insert(idempotency_keys)
        .values(tenant_id=tenant_id, user_id=user_id, key=key, request_hash=request_hash, status_code=0,
                response=None, created_at=now)
        .returning(idempotency_keys.c.id)
    ).scalar_one()
    return row_id


def complete(conn: Connection, row_id: int, status_code: int, response: Any) -> None:
    conn.execute(
        update(idempotency_keys).where(idempotency_keys.c.id == row_id).values(status_code=status_code,
                                                                                response=response)
    )


def purge_expired(conn: Connection, ttl_seconds: int, *, now: datetime) -> int:
    result = conn.execute(
        delete(idempotency_keys).where(idempotency_keys.c.created_at < now - timedelta(seconds=ttl_seconds))
    )
    return result.rowcount or 0
