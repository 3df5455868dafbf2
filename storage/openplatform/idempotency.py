"""Idempotency keys of Open Platform commands, one per (installation, key), kept 24 hours.

Unlike the session API's keys, a claim is committed before the command runs, in its own short
transaction: a duplicate that arrives while the first request is still running must see the claim
and answer 409 ``idempotency_in_progress`` instead of waiting on a lock. The command's transaction
then completes the claim together with its change; a failed command releases it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import and_, bindparam, delete, select, update

from storage.drivers.engine import Executor, Row, Statement, insert_or_skip
from storage.schema.tables import open_idempotency_keys as keys

IN_PROGRESS = "in_progress"
COMPLETED = "completed"


class OpenKeyRow(NamedTuple):
    """A row of ``open_idempotency_keys``."""

    id: int
    installation_id: int
    key: str
    request_hash: str
    state: str
    response: Any  # the command's result once completed; None while in progress
    etag: str | None
    locked_until: datetime
    created_at: datetime


class _Claimed(NamedTuple):
    id: int


_FIND = Statement(select(keys).where(and_(keys.c.installation_id == bindparam("installation_id"),
                                         keys.c.key == bindparam("key"))), row=OpenKeyRow)
_COMPLETE = Statement(update(keys).where(keys.c.id == bindparam("row_id")).values(
    state=COMPLETED, response=bindparam("response"), etag=bindparam("etag")))


async def find(conn: Executor, installation_id: int, key: str) -> OpenKeyRow | None:
    """The row for the key, live or expired (a read: no write lock needed)."""
    return (await conn.execute(_FIND, {"installation_id": installation_id, "key": key})).first()


_CLAIM = insert_or_skip(keys, ("installation_id", "key", "request_hash", "state", "locked_until", "created_at"),
                        [keys.c.id], _Claimed)
_FORGET = Statement(delete(keys).where(and_(keys.c.id == bindparam("row_id"),
                                            keys.c.created_at == bindparam("created_at"))))


async def claim(conn: Executor, installation_id: int, key: str, request_hash: str, locked_until: datetime,
                *, now: datetime) -> int | None:
    """Insert an in-progress claim in one statement: its id, or None when the key has a row."""
    row = (await conn.execute(_CLAIM, {
        "installation_id": installation_id, "key": key, "request_hash": request_hash, "state": IN_PROGRESS,
        "locked_until": locked_until, "created_at": now,
    })).first()
    return None if row is None else row.id


async def forget(conn: Executor, row_id: int, created_at: datetime) -> None:
    """Remove an expired row (only the one that was seen), so the key starts afresh."""
    await conn.execute(_FORGET, {"row_id": row_id, "created_at": created_at})


async def take_over(conn: Executor, row_id: int, previous_lock: datetime, locked_until: datetime) -> bool:
    """Re-claim an in-progress row whose lock lapsed (its process died); false if another won."""
    result = await conn.execute(
        update(keys)
        .where(and_(keys.c.id == row_id, keys.c.state == IN_PROGRESS, keys.c.locked_until == previous_lock))
        .values(locked_until=locked_until)
    )
    return result.rowcount == 1


async def complete(conn: Executor, row_id: int, response: dict[str, Any], etag: str | None) -> None:
    await conn.enqueue(_COMPLETE, {"row_id": row_id, "response": response, "etag": etag})


_RELEASE = Statement(delete(keys).where(and_(keys.c.id == bindparam("row_id"), keys.c.state == IN_PROGRESS,
                                             keys.c.locked_until == bindparam("locked_until"))))


def release_statement(row_id: int, locked_until: datetime) -> tuple[Statement[Row], dict[str, Any]]:
    """Forget an in-progress claim whose command failed, so the key can be used again: only while
    it is still the claim made with ``locked_until`` (a retry that took it over set another)."""
    return _RELEASE, {"row_id": row_id, "locked_until": locked_until}


async def release(conn: Executor, row_id: int, locked_until: datetime) -> None:
    statement, params = release_statement(row_id, locked_until)
    await conn.execute(statement, params)
