"""Idempotency keys of Open Platform commands, one per (installation, key), kept 24 hours.

Unlike the session API's keys, a claim is committed before the command runs, in its own short
transaction: a duplicate that arrives while the first request is still running must see the claim
and answer 409 ``idempotency_in_progress`` instead of waiting on a lock. The command's transaction
then completes the claim together with its change; a failed command releases it.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Row, and_, delete, insert, select, update

from storage.tables import open_idempotency_keys as keys

IN_PROGRESS = "in_progress"
COMPLETED = "completed"


def find(conn: Connection, installation_id: int, key: str) -> Row[Any] | None:
    """The row for the key, live or expired (a read: no write lock needed)."""
    return conn.execute(
        select(keys).where(and_(keys.c.installation_id == installation_id, keys.c.key == key))
    ).first()


def lookup(conn: Connection, installation_id: int, key: str, ttl_seconds: int, *, now: datetime) -> Row[Any] | None:
    """The live row for the key; an expired one is removed so the key starts afresh."""
    row = find(conn, installation_id, key)
    if row is not None and row.created_at < now - timedelta(seconds=ttl_seconds):
        conn.execute(delete(keys).where(keys.c.id == row.id))
        return None
    return row


def claim(conn: Connection, installation_id: int, key: str, request_hash: str, locked_until: datetime,
          *, now: datetime) -> int:
    """Insert an in-progress claim; ``IntegrityError`` when a concurrent request claimed it first."""
    row_id: int = conn.execute(
        insert(keys)
        .values(installation_id=installation_id, key=key, request_hash=request_hash, state=IN_PROGRESS,
                locked_until=locked_until, created_at=now)
        .returning(keys.c.id)
    ).scalar_one()
    return row_id


def take_over(conn: Connection, row_id: int, previous_lock: datetime, locked_until: datetime) -> bool:
    """Re-claim an in-progress row whose lock lapsed (its process died); false if another won."""
    result = conn.execute(
        update(keys)
        .where(and_(keys.c.id == row_id, keys.c.state == IN_PROGRESS, keys.c.locked_until == previous_lock))
        .values(locked_until=locked_until)
    )
    return result.rowcount == 1


def complete(conn: Connection, row_id: int, response: dict[str, Any], etag: str | None) -> None:
    conn.execute(update(keys).where(keys.c.id == row_id).values(state=COMPLETED, response=response, etag=etag))


def release(conn: Connection, row_id: int) -> None:
    """Forget an in-progress claim whose command failed, so the key can be used again."""
    conn.execute(delete(keys).where(and_(keys.c.id == row_id, keys.c.state == IN_PROGRESS)))


def purge_expired(conn: Connection, ttl_seconds: int, *, now: datetime) -> int:
    result = conn.execute(delete(keys).where(keys.c.created_at < now - timedelta(seconds=ttl_seconds)))
    return result.rowcount or 0
