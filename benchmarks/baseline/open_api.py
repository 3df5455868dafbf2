"""The Open Platform's business calls: whoami, read by pid, a page, an inbound event (commands are
in ``commands``), each one statement on the happy path.

Why the checks run before the statement: a request's own checks (its key, its body) need no
database, so they run first, and the token is checked by the one statement that also reads or
writes. A request that fails its own checks reads the token alone before it is refused, so a bad
token is still refused first, as Tessera refuses it. Every call is audited through
the batched call audit (``calls``: queued, written every 50 ms).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from baseline import checks, published, refusals, rules
from baseline.calls import CallAudit
from baseline.config import Keys
from baseline.published import present
from baseline.refusals import Refusal
from baseline.registry import Registry, Resource
from baseline.rules import Caller, TokenRow
from baseline.store import Inbound, Store
from baseline.web import Reply, Request, json_reply

log = logging.getLogger("baseline.open")



@dataclass
class Call:
    """One business call: its request, request id and, once the token is verified, the caller."""

    request: Request
    request_id: str
    caller: Caller | None = None

    def digest(self, keys: Keys) -> str:
        """The bearer token's digest, or ``invalid_token`` without a usable token."""
        token = rules.bearer(self.request.header("authorization"))
        if not token or len(token) > rules.MAX_FIELD:
            raise refusals.invalid_token()
        return keys.digest(token)

    def json(self) -> Any:
        try:
            return json.loads(self.request.body)
        except ValueError:
            raise refusals.invalid_request({"body": "Must be a JSON document."}) from None

    def headers(self, **extra: str) -> dict[str, str]:
        return {"X-Request-Id": self.request_id, **extra}

    def reply(self, status: int, body: Any, **headers: str) -> Reply:
        return json_reply(status, body, self.headers(**headers))


Handler = Callable[[Call], Awaitable[Reply]]


class Business:
    """The frame of every business call: the Open Platform envelope for a refusal, the call audited."""

    def __init__(self, store: Store, keys: Keys, calls: CallAudit) -> None:
        self.store, self.keys, self.calls = store, keys, calls

    async def run(self, request: Request, handler: Handler) -> Reply:
        call = Call(request, rules.request_id(request.header("x-request-id")))
        try:
            reply = await handler(call)
        except Refusal as refusal:
            reply = json_reply(*refusals.open_envelope(refusal, call.request_id))
        except Exception:
            log.exception("unhandled error")
            reply = json_reply(*refusals.open_envelope(Refusal(500, "internal_error", "An internal error occurred."),
                                                       call.request_id))
        self.calls.record(call.caller, request.method, request.path, reply.status, call.request_id)
        return reply

    @staticmethod
    def verify(call: Call, row: TokenRow | None, scope: str | None = None, at: datetime | None = None) -> Caller:
        """The caller behind the token row (else ``invalid_token``), holding ``scope`` (else 403), judged
        at ``at`` (a write's statement judged it at the same moment) or now."""
        caller = rules.caller_of(row, at or rules.now())
        if caller is None:
            raise refusals.invalid_token()
        call.caller = caller
        if scope is not None and scope not in caller.scopes:
            raise refusals.insufficient_scope(scope)
        return caller

    async def token_first(self, call: Call, digest: str, scope: str) -> None:
        """Before refusing a request for its own faults: the token's refusal, if it has one, comes first."""
        self.verify(call, await self.store.token(digest), scope)


class OpenPlatform(Business):
    """whoami, reads, pages and inbound events."""

    def __init__(self, store: Store, keys: Keys, calls: CallAudit, registry: Registry) -> None:
        super().__init__(store, keys, calls)
        self.registry = registry

    async def whoami(self, call: Call) -> Reply:
        caller = self.verify(call, await self.store.token(call.digest(self.keys)))
        return call.reply(200, rules.whoami(caller))

    async def read(self, call: Call, resource: Resource) -> Reply:
        """The token and the record of its tenant in one statement; checked in Tessera's order."""
        pid = call.request.params["pid"]
        row, record = await self.store.token_and_record(call.digest(self.keys), resource.model.code,
                                                        pid if rules.storable(pid) else "")
        self.verify(call, row, resource.read_scope)
        if record is None:
            raise refusals.record_not_found()
        return call.reply(200, present(resource, record), ETag=rules.etag(record.pid, record.version))

    async def page(self, call: Call, resource: Resource) -> Reply:
        """Keyset page by id: the token and the page of its tenant in one statement."""
        size, position, problem = published.position(self.keys, resource.name, call.request.query())
        row, rows = await self.store.token_and_page(call.digest(self.keys), resource.model.code,
                                                    position[1] if position else 0, size + 1)
        caller = self.verify(call, row, resource.read_scope)
        if problem is not None:
            raise problem
        if position is not None and position[0] != caller.installation_id:
            raise refusals.invalid_cursor()
        more, rows = len(rows) > size, rows[:size]
        cursor = None
        if more:
            cursor = published.seal(self.keys, resource.name, caller.installation_id, rows[-1].id)
        return call.reply(200, {"items": [present(resource, r) for r in rows], "nextCursor": cursor})

    async def event(self, call: Call, source_code: str) -> Reply:
        """The key and the body checked, then one statement: the token checked, the event stored unless
        its key was seen (whose pid and fingerprint it returns instead)."""
        source = self.registry.event_sources[source_code]
        digest = call.digest(self.keys)
        try:
            key = checks.idempotency_key(call.request.header("idempotency-key"))
            body = call.json()
            event_type, version, occurred, data = checks.event(source, body)
        except Refusal:
            await self.token_first(call, digest, source.scope)
            raise
        request_hash, at = rules.fingerprint(source_code, body), rules.now()
        row, pid, seen_hash = await self.store.receive_checked(digest, Inbound(
            source.scope, rules.new_pid("evt"), source_code, event_type, version, occurred, data, key, request_hash,
            call.request_id, at))
        caller = self.verify(call, row, source.scope, at)
        if pid is None:  # a concurrent duplicate committed after the statement's snapshot: read it now
            found = await self.store.seen_event(caller.installation_id, key)
            if found is None:
                raise RuntimeError("an inbound event neither stored nor found")
            pid, seen_hash = found
        if seen_hash is not None and seen_hash != request_hash:
            raise refusals.key_conflict()
        return call.reply(202, {"eventId": pid, "duplicate": seen_hash is not None})
