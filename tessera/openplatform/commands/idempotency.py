"""Idempotency keys of Open Platform writes: one result per (installation, key) for 24 hours.

Unlike the session API's keys, a claim is committed before the command runs, in its own short
transaction: a duplicate that arrives while the first request is still running must see the claim
and answer 409 ``idempotency_in_progress`` (with ``Retry-After``) instead of waiting on a lock. The
command's transaction completes the claim together with its change; a failed command releases it.
A process that dies mid-command leaves its claim, which a retry takes over once its lease lapses.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from storage.openplatform import idempotency as keys
from tessera.core.errors import FieldError, IdempotencyInProgress, InvalidRequest, OpenIdempotencyKeyConflict
from tessera.core.i18n import N_
from tessera.openplatform.tokens.bearer import Caller
from tessera.runtime import Runtime

log = logging.getLogger("tessera.commands")

KEY_HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 255
# How long a claim protects a running command before a retry may take it over.
CLAIM_LEASE_SECONDS = 30
# What a duplicate of a running command is told to wait, in seconds.
RETRY_AFTER_SECONDS = 1
REQUIRED = N_("This field is required.")
BAD_KEY = N_("Must be 1 to 255 visible ASCII characters.")


def check_key(key: str | None) -> str:
    """The key: required, 1 to 255 visible ASCII characters (it travels in a header)."""
    if not key:
        raise InvalidRequest(data={"fieldErrors": {KEY_HEADER: FieldError(REQUIRED)}})
    if len(key) > MAX_KEY_LENGTH or not all("\x21" <= ch <= "\x7e" for ch in key):
        raise InvalidRequest(data={"fieldErrors": {KEY_HEADER: FieldError(BAD_KEY)}})
    return key


@dataclass(frozen=True)
class Claim:
    """A claimed key (``row_id`` and the lease it was claimed with), or the stored result of an
    earlier run (``stored``; ``row_id`` 0)."""

    row_id: int
    locked_until: datetime
    stored: keys.OpenKeyRow | None = None


async def claim(rt: Runtime, caller: Caller, key: str, request_hash: str) -> Claim:
    """Claim the key, or return the stored result of an earlier run.

    The claim is one ``INSERT ... ON CONFLICT DO NOTHING`` in autocommit: a new key costs one
    round trip. Only when the key has a row is it read and judged (replay, conflict, running, or
    a lapsed claim taken over); an expired row is forgotten and the claim tried again.
    """
    ttl = timedelta(seconds=rt.settings.idempotency_ttl_seconds)
    now = rt.clock.now()
    lock = now + timedelta(seconds=CLAIM_LEASE_SECONDS)
    if rt.db.dialect == "sqlite":
        # Replays and duplicates are answered from a read first: on SQLite the first request holds
        # the single write lock while it runs, and a duplicate must not queue behind it.
        stored = await _completed(rt, caller, key, request_hash, now, ttl)
        if stored is not None:
            return Claim(0, lock, stored)
    for _ in range(3):
        claimed = await keys.claim(rt.db, caller.installation_id, key, request_hash, lock, now=now)
        if claimed is not None:
            return Claim(claimed, lock)
        existing = await keys.find(rt.db, caller.installation_id, key)
        if existing is None:  # released between the two statements: try again
            continue
        if existing.created_at < now - ttl:
            await keys.forget(rt.db, existing.id, existing.created_at)
            continue
        _judge(existing, request_hash, now)
        if existing.state == keys.COMPLETED:
            return Claim(0, lock, existing)
        if await keys.take_over(rt.db, existing.id, existing.locked_until, lock):
            log.warning("idempotency.claim_taken_over", extra={"installationId": caller.installation_pid})
            return Claim(existing.id, lock)
        break
    raise IdempotencyInProgress(retry_after=RETRY_AFTER_SECONDS)


async def _completed(rt: Runtime, caller: Caller, key: str, request_hash: str, now: datetime,
                     ttl: timedelta) -> keys.OpenKeyRow | None:
    """The live key's completed result to replay, found by a read alone; None when the key is new,
    expired or a lapsed claim (the claim decides). A conflict or a running command raises here."""
    seen = await keys.find(rt.db, caller.installation_id, key)
    if seen is None or seen.created_at < now - ttl:
        return None
    _judge(seen, request_hash, now)
    return seen if seen.state == keys.COMPLETED else None


def _judge(seen: keys.OpenKeyRow, request_hash: str, now: datetime) -> None:
    """A live key seen in a read: a conflict, or a command still running. A completed key and a
    lapsed claim raise nothing (the caller replays the one and takes the other over)."""
    if seen.request_hash != request_hash:
        raise OpenIdempotencyKeyConflict()
    if seen.state != keys.COMPLETED and seen.locked_until > now:
        raise IdempotencyInProgress(retry_after=RETRY_AFTER_SECONDS)
