"""Refusals of the OAuth endpoints (token, introspection, revocation), audited per client and minute.

The specification has the token endpoint "rate-limited and audited", and every refusal counts:
``invalid_request``, ``unsupported_grant_type``, ``invalid_client``, ``invalid_scope``,
``rate_limit_exceeded``, whatever refused it (the request validator, the handler, the limiter).
One audit entry per refusal would let anyone who can reach the endpoint fill the audit log with
garbage client ids, so refusals are aggregated: one ``oauth.token.refused`` entry per client id,
error and endpoint for each minute in which there were any, with their ``count``, the minute
(``from``, ``until``) and the first refusal's request id. Within a minute at most ``MAX_KEYS``
distinct (client, error, endpoint) are kept apart; the rest of that minute's refusals are counted
under one entry per error and endpoint without a client (``otherClients``: true). So a flood costs
at most ``MAX_KEYS`` entries per minute per process, however many client ids it invents.

The entries are written when their minute is over (a task on the event loop wakes then) and at
shutdown; a process killed without a clean shutdown loses at most the minute in progress. An entry
names the credential's tenant and application when the client id is one of a credential, so its
tenant's administrators see it in their audit search; a client id that names none is audited
without a tenant (operators see those).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime

from storage import audit
from storage.drivers.engine import Database
from storage.openplatform import credentials as credential_store
from tessera.core.clock import Clock
from tessera.core.text import storable_text

log = logging.getLogger("tessera.token_refusals")

ACTION = "oauth.token.refused"
MAX_KEYS = 1000
# The longest client id looked up (a credential's is far shorter); a longer one is stored cut.
MAX_CLIENT_ID = 64
# Seconds after a minute ends before its entries are written (late refusals of that minute land first).
SETTLE_SECONDS = 1.0


@dataclass
class Bucket:
    """The refusals of one client, error and endpoint within one minute."""

    client_id: str | None
    error: str
    endpoint: str
    minute: int  # Unix time of the minute's start
    first_request_id: str
    count: int = 0
    other_clients: bool = False


@dataclass
class TokenRefusals:
    """The open minutes' buckets and the task that writes them when their minute is over."""

    db: Database
    clock: Clock
    max_keys: int = MAX_KEYS
    _buckets: dict[tuple[int, str | None, str, str], Bucket] = field(default_factory=dict)
    _keys_per_minute: dict[int, int] = field(default_factory=dict)  # buckets kept apart per minute
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _writer: asyncio.Task[None] | None = None

    def record(self, client_id: str | None, error: str, endpoint: str, request_id: str) -> None:
        """Count one refusal (on the event loop, never waiting for the database)."""
        minute = math.floor(self.clock.time() / 60) * 60
        client = None if not client_id else client_id[:MAX_CLIENT_ID]
        with self._lock:
            key = (minute, client, error, endpoint)
            bucket = self._buckets.get(key)
            if bucket is None:
                if self._keys_per_minute.get(minute, 0) >= self.max_keys:
                    key = (minute, None, error, endpoint)
                    bucket = self._buckets.get(key)
                if bucket is None:
                    bucket = self._buckets[key] = Bucket(key[1], error, endpoint, minute, request_id,
                                                         other_clients=key[1] is None and client is not None)
                    self._keys_per_minute[minute] = self._keys_per_minute.get(minute, 0) + 1
            bucket.other_clients = bucket.other_clients or (key[1] is None and client is not None)
            bucket.count += 1
        self._schedule()

    def _schedule(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a script): the buckets wait for flush()
            return
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_when_over(), name="token-refusals")

    async def _write_when_over(self) -> None:
        while True:
            with self._lock:
                if not self._buckets:
                    return
                ends = min(key[0] for key in self._buckets) + 60
            await asyncio.sleep(max(0.0, ends + SETTLE_SECONDS - self.clock.time()))
            try:
                await self.flush()
            except Exception:  # the database is away: kept, and tried again a minute later
                log.warning("token_refusals.not_written", exc_info=True)
                await asyncio.sleep(60)

    def _take(self, final: bool) -> list[Bucket]:
        """The buckets of the minutes that are over (every bucket when ``final``), taken out."""
        now = self.clock.time()
        with self._lock:
            keys = [key for key in self._buckets if final or key[0] + 60 <= now]
            for minute in {key[0] for key in keys}:
                self._keys_per_minute.pop(minute, None)
            return [self._buckets.pop(key) for key in keys]

    async def flush(self, *, final: bool = False) -> int:
        """Write the entries of the minutes that are over (all of them when ``final``: tests,
        shutdown); the number of entries written. Buckets whose write failed are kept."""
        taken = self._take(final)
        if not taken:
            return 0
        try:
            async with self.db.write() as conn:
                for bucket in taken:
                    cred = None
                    if bucket.client_id is not None and storable_text(bucket.client_id):
                        cred = await credential_store.credential_with_installation(conn, bucket.client_id)
                    await audit.append(conn, tenant_id=cred.tenant_id if cred else None, actor_user_id=None,
                                       actor=bucket.client_id, action=ACTION, target_type="credential",
                                       target_id=bucket.client_id, after=_summary(bucket),
                                       request_id=bucket.first_request_id,
                                       application_id=cred.application_id if cred else None,
                                       now=self.clock.now())
        except BaseException:
            with self._lock:  # back, to be written with the next pass
                for bucket in taken:
                    key = (bucket.minute, bucket.client_id, bucket.error, bucket.endpoint)
                    kept = self._buckets.setdefault(key, bucket)
                    if kept is not bucket:
                        kept.count += bucket.count
            raise
        return len(taken)

    async def close(self) -> None:
        """Write everything (shutdown), and stop the waiting task."""
        if self._writer is not None and not self._writer.done():
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, RuntimeError):
                await self._writer
        with contextlib.suppress(Exception):
            await self.flush(final=True)


def _summary(bucket: Bucket) -> dict[str, object]:
    start = datetime.fromtimestamp(bucket.minute, UTC)
    summary: dict[str, object] = {
        "endpoint": bucket.endpoint, "error": bucket.error, "count": bucket.count,
        "from": start.isoformat().replace("+00:00", "Z"),
        "until": datetime.fromtimestamp(bucket.minute + 60, UTC).isoformat().replace("+00:00", "Z"),
    }
    if bucket.other_clients:
        summary["otherClients"] = True
    return summary
