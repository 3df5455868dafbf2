"""The Open Platform endpoints: token issue, whoami, reads, pages, inbound events, create commands.

Each keeps Tessera's rules in Tessera's order (token, scope, parameters, body, key, write) and the
same answers; what it leaves out is the framework: no routing or validation from the OpenAPI
document, no middleware stack, no rate limiter. Every business call under ``/api/open/`` leaves a
call-audit row, queued (``calls.py``), with the verified caller when there is one. A token's digest
is looked up with everything it needs in the same round trip as the data the call reads.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from baseline import checks, errors, grants, payloads, published, rules
from baseline.calls import CallAudit
from baseline.config import Config, Keys
from baseline.errors import NO_STORE, Refusal, respond
from baseline.published import present
from baseline.registry import OpenCommand, Registry, Resource, events_of
from baseline.rules import Caller, TokenRow
from baseline.store import (
    Audit,
    Creation,
    Duplicate,
    KeyRow,
    NewEvent,
    OpenCompletion,
    RecordRow,
    Store,
)

log = logging.getLogger("baseline.open")

CLAIM_LEASE = timedelta(seconds=30)


@dataclass
class Call:
    """One business call: its request, request id and, once the token is verified, the caller."""

    request: Request
    request_id: str
    caller: Caller | None = None

    def bearer_token(self) -> str:
        """The bearer token, or ``invalid_token`` without a usable one."""
        token = rules.bearer(self.request.headers.get("authorization"))
        if not token or len(token) > rules.MAX_FIELD:
            raise errors.invalid_token()
        return token

    async def json(self) -> Any:
        try:
            return json.loads(await self.request.body())
        except ValueError:
            raise errors.invalid_request({"body": "Must be a JSON document."}) from None

    def headers(self, **extra: str) -> dict[str, str]:
        return {"X-Request-Id": self.request_id, **extra}


class OpenPlatform:
    """The endpoints, on one store."""

    def __init__(self, store: Store, keys: Keys, registry: Registry, config: Config, calls: CallAudit) -> None:
        self.store, self.keys, self.registry, self.config, self.calls = store, keys, registry, config, calls

    # -- the frame every business call runs in -----------------------------------------------------

    async def business(self, request: Request, handler: Callable[[Call], Awaitable[Response]]) -> Response:
        """Run ``handler``; a refusal becomes the Open Platform envelope; the call is audited either way."""
        call = Call(request, rules.request_id(request.headers.get("x-request-id")))
        try:
            response = await handler(call)
        except Refusal as refusal:
            response = errors.open_error(refusal, call.request_id)
        except Exception:
            log.exception("unhandled error")
            response = errors.open_error(Refusal(500, "internal_error", "An internal error occurred."), call.request_id)
        self.calls.record(call.caller, request.method, request.scope["path"], response.status_code, call.request_id)
        return response

    def verify(self, call: Call, row: TokenRow | None, scope: str | None = None) -> Caller:
        """The caller behind the token row (else ``invalid_token``), holding ``scope`` (else 403)."""
        caller = rules.caller_of(row, rules.now())
        if caller is None:
            raise errors.invalid_token()
        call.caller = caller
        if scope is not None and scope not in caller.scopes:
            raise errors.insufficient_scope(scope)
        return caller

    async def authenticated(self, call: Call, scope: str) -> Caller:
        """A call that reads nothing before its checks: the token alone, one query."""
        return self.verify(call, await self.store.token(self.keys.digest(call.bearer_token())), scope)

    # -- POST /oauth2/token ------------------------------------------------------------------------

    async def issue_token(self, request: Request) -> Response:
        request_id = rules.request_id(request.headers.get("x-request-id"))
        try:
            body = await self._issue(request, request_id)
        except Refusal as refusal:
            return errors.open_error(refusal, request_id, oauth=True)
        return respond(200, body, {**NO_STORE, "X-Request-Id": request_id})

    async def _issue(self, request: Request, request_id: str) -> dict[str, Any]:
        form = {k: v for k, v in (await request.form()).items() if isinstance(v, str)}
        asked = grants.client(request.query_params, form, request.headers.get("authorization"))
        return await grants.issue(self.store, self.keys, self.config.token_ttl_seconds, asked, request_id)

    # -- GET /api/open/v1/whoami -------------------------------------------------------------------

    async def whoami(self, request: Request) -> Response:
        return await self.business(request, self._whoami)

    async def _whoami(self, call: Call) -> Response:
        caller = self.verify(call, await self.store.token(self.keys.digest(call.bearer_token())))
        return respond(200, rules.whoami(caller), call.headers())

    # -- GET /api/open/v1/resources/{name}/{pid} ---------------------------------------------------

    def reader(self, resource: Resource) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            return await self.business(request, lambda call: self._read(call, resource))

        return endpoint

    async def _read(self, call: Call, resource: Resource) -> Response:
        """The token and the record of its tenant in one statement; checked in Tessera's order."""
        pid = call.request.path_params["pid"]
        row, record = await self.store.token_and_record(self.keys.digest(call.bearer_token()), resource.model.code,
                                                        pid if rules.storable(pid) else "")
        self.verify(call, row, resource.read_scope)
        if record is None:
            raise errors.record_not_found()
        return respond(200, present(resource, record), call.headers(ETag=rules.etag(record.pid, record.version)))

    # -- GET /api/open/v1/resources/{name}?limit=&cursor= ------------------------------------------

    def lister(self, resource: Resource) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            return await self.business(request, lambda call: self._list(call, resource))

        return endpoint

    async def _list(self, call: Call, resource: Resource) -> Response:
        """Keyset page by id: the token and the page of its tenant in one pipeline (one round trip)."""
        size, position, problem = published.position(self.keys, resource.name, call.request.query_params)
        after = position[1] if position else 0
        row, rows = await self.store.token_and_page(self.keys.digest(call.bearer_token()), resource.model.code,
                                                    after, size + 1)
        caller = self.verify(call, row, resource.read_scope)
        if problem is not None:
            raise problem
        if position is not None and position[0] != caller.installation_id:
            raise errors.invalid_cursor()
        more, rows = len(rows) > size, rows[:size]
        cursor = None
        if more:
            cursor = published.seal(self.keys, resource.name, caller.installation_id, rows[-1].id)
        return respond(200, {"items": [present(resource, r) for r in rows], "nextCursor": cursor}, call.headers())

    # -- POST /api/open/v1/event-sources/{source}/events ------------------------------------------

    def event_receiver(self, source_code: str) -> Callable[[Request], Awaitable[Response]]:
        source = self.registry.event_sources[source_code]

        async def endpoint(request: Request) -> Response:
            return await self.business(request, lambda call: self._event(call, source_code, source.scope))

        return endpoint

    async def _event(self, call: Call, source_code: str, scope: str) -> Response:
        """Check, then one statement that stores the event unless its key was seen (which it returns)."""
        caller = await self.authenticated(call, scope)
        key = checks.idempotency_key(call.request.headers.get("idempotency-key"))
        body = await call.json()
        event_type, version, occurred, data = checks.event(self.registry.event_sources[source_code], body)
        request_hash = rules.fingerprint(source_code, body)
        pid, seen_hash = await self.store.receive(NewEvent(
            rules.new_pid("evt"), caller.installation_id, caller.tenant_id, source_code, event_type, version, occurred,
            data, key, request_hash, call.request_id, rules.now()))
        if seen_hash is not None and seen_hash != request_hash:
            raise errors.key_conflict()
        return respond(202, {"eventId": pid, "duplicate": seen_hash is not None}, call.headers())

    # -- POST /api/open/v1/commands/{code}:execute (create commands) -------------------------------

    def executor(self, command: OpenCommand) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            return await self.business(request, lambda call: self._execute(call, command))

        return endpoint

    async def _claim(self, caller: Caller, key: str, request_hash: str) -> tuple[int, KeyRow | None]:
        """Claim the key in a committed statement of its own (row id, None), or return the stored result of
        an earlier run (0, row). Another body is 409 ``idempotency_key_conflict``; a run still holding its
        lease is 409 ``idempotency_in_progress``; a lapsed lease is taken over; an expired key starts afresh."""
        at = rules.now()
        lock, ttl = at + CLAIM_LEASE, timedelta(seconds=self.config.idempotency_ttl_seconds)
        for _ in range(3):
            claimed = await self.store.claim_key(caller.installation_id, key, request_hash, lock, at)
            if claimed is not None:
                return claimed, None
            seen = await self.store.key(caller.installation_id, key)
            if seen is None:
                continue  # released meanwhile: claim again
            if seen.created_at < at - ttl:
                await self.store.forget_key(seen.id, only_in_progress=False)
                continue
            if seen.request_hash != request_hash:
                raise errors.key_conflict()
            if seen.state == "completed":
                return 0, seen
            if seen.locked_until > at or not await self.store.take_over(seen.id, seen.locked_until, lock):
                raise errors.in_progress()
            return seen.id, None
        raise errors.in_progress()

    async def _execute(self, call: Call, command: OpenCommand) -> Response:
        caller = await self.authenticated(call, command.scope)
        key = checks.idempotency_key(call.request.headers.get("idempotency-key"))
        body = await call.json()
        given = checks.command_input(command, body)
        key_id, stored = await self._claim(caller, key, rules.fingerprint(command.code, body))
        if stored is not None:
            return respond(200, {**stored.response, "idempotentReplay": True},
                           call.headers(ETag=stored.etag or "", **{"Idempotent-Replayed": "true"}))
        try:
            result, tag = await self._create(call, caller, command, given, key_id)
        except BaseException:
            try:  # nothing of the command committed: free the key so a corrected retry can use it
                await self.store.forget_key(key_id, only_in_progress=True)
            except Exception:
                log.exception("could not release idempotency key %s", key_id)
            raise
        return respond(200, {**result, "idempotentReplay": False}, call.headers(ETag=tag))

    async def _create(self, call: Call, caller: Caller, command: OpenCommand, given: dict[str, Any],
                      key_id: int) -> tuple[dict[str, Any], str]:
        """The record, its unique-value claims, audit entry and outbox rows, and the key completed: one write."""
        model = command.resource.model
        try:
            data = payloads.for_create(model, command.changes(given))
        except payloads.Invalid as exc:
            raise errors.invalid_request(self._input_names(command, exc.field_errors)) from None
        at, pid = rules.now(), rules.new_pid("rec")
        record = RecordRow(0, pid, 1, data, at, at)
        result, tag = {"commandCode": command.code, "record": present(command.resource, record)}, rules.etag(pid, 1)
        change = Creation(
            caller.tenant_id, model.code, pid, data, payloads.search_text(model, data), None, at,
            [(code, str(data[code])) for code in model.unique if data.get(code) is not None],
            Audit(rules.new_pid("aud"), caller.tenant_id, None, caller.client_id, f"open.command.{command.code}",
                  model.code, pid, None, data, call.request_id, caller.row.application_id, at),
            events_of(self.registry, model.code, pid, data),
            open_key=OpenCompletion(key_id, result, tag))
        try:
            await self.store.create(change)
        except Duplicate as exc:
            raise errors.invalid_request(
                self._input_names(command, dict.fromkeys(exc.fields, "This value is already used."))) from None
        return result, tag

    @staticmethod
    def _input_names(command: OpenCommand, field_errors: dict[str, str]) -> dict[str, str]:
        """Model-rule errors named after the input property that fed the field, when there is one."""
        return {f"input.{command.apply.get(f, {})['input']}" if "input" in command.apply.get(f, {}) else f: message
                for f, message in field_errors.items()}
