"""The session API: a dynamic page's list, and create commands with ``X-Idempotent-Key``.

The list (``GET /api/dynamic/{pageKey}/list``) keeps Tessera's list contract (``listing``: filters, a
keyword, a sort, numbered pages with an exact total), its count and page sent together. The command
(``POST /api/meta/commands/execute/{commandCode}``, create commands) is one statement. Why one
statement: the session JWT names a user and a tenant; the user's membership and permissions decide
between four answers (401, 403 for the tenant, 403 for the permission, or the write), and the statement
that reads them writes only when the answer is the write (an active member holding the permission): the
key claimed with its result, the record and everything committed with it. The answer is then judged from
the row it read, by ``sessions.judge``. The JWT is verified as Tessera verifies it (PyJWT, HS256 under
the ``session-jwt`` key, audience ``tessera-session``, issuer ``tessera``,
``exp``/``iat``/``sub``/``tid``/``jti`` required, expiry against the clock). Left out, as framework: the
per-user rate limit and its headers.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from baseline import checks, listing, payloads, refusals, rules, sessions
from baseline.config import Config, Keys
from baseline.refusals import Refusal
from baseline.registry import Registry, SessionCommand
from baseline.sessions import Actor
from baseline.store import Creation, Duplicate, SessionCreate, Store
from baseline.web import Reply, Request, json_reply

log = logging.getLogger("baseline.session")
TRIES = 5


def ok(data: Any, request_id: str, replay: bool = False) -> Reply:
    return json_reply(200, sessions.ok_body(data, replay), {"X-Request-Id": request_id})


class SessionApi:
    def __init__(self, store: Store, keys: Keys, registry: Registry, config: Config) -> None:
        self.store, self.keys, self.registry = store, keys, registry
        self.ttl = timedelta(seconds=config.idempotency_ttl_seconds)
        self.fields = {code: listing.fields_of(model, store.dialect) for code, model in registry.models.items()}

    async def execute(self, request: Request) -> Reply:
        return await self.frame(request, self._execute)

    async def list(self, request: Request) -> Reply:
        return await self.frame(request, self._list)

    async def frame(self, request: Request, handler: Callable[[Request, str], Awaitable[Reply]]) -> Reply:
        """``handler``'s answer, a refusal in the session envelope, or 500 ``INTERNAL_ERROR`` logged."""
        request_id = rules.request_id(request.header("x-request-id"))
        try:
            return await handler(request, request_id)
        except Refusal as refusal:
            return json_reply(*refusals.session_envelope(refusal, request_id))
        except Exception:
            log.exception("unhandled error")
            return json_reply(*refusals.session_envelope(Refusal(500, "INTERNAL_ERROR", "An internal error occurred."),
                                                         request_id))

    async def actor(self, tenant: str, claims: dict[str, Any]) -> Actor:
        return sessions.judge(await self.store.principal(claims["sub"], tenant), tenant, claims)

    async def _list(self, request: Request, request_id: str) -> Reply:
        """The user acting in the token's tenant (or ``X-Tenant-Id``'s), the page and its permission, the
        query's checks, then the count and the page."""
        claims = sessions.claims(request.header("authorization"), self.keys.jwt_key)
        actor = await self.actor(request.header("x-tenant-id") or claims["tid"], claims)
        page = self.registry.pages.get(request.params["pageKey"])
        if page is None:
            raise refusals.not_found()
        actor.require(page.permission)
        query = listing.parse(request.query(), self.fields[page.model.code], self.store.dialect, actor.tenant_id,
                              page.model.code)
        if query.errors:
            raise refusals.validation_failed(query.errors)
        total, rows = await self.store.list_page(*listing.statements(query))
        return ok({"records": [sessions.present(r.pid, r.data, r.created_at, r.updated_at) for r in rows],
                   "total": total, "pageNum": query.page_num, "pageSize": query.page_size}, request_id)

    @staticmethod
    def parse(request: Request, command: SessionCommand | None) -> tuple[SessionCommand, dict[str, Any], str | None]:
        """(command, body, key) of a create command's request, or the refusal of a malformed one."""
        if command is None or command.action != "create":
            raise refusals.not_found()
        try:
            body = checks.create_shape(json.loads(request.body))
        except ValueError:
            raise refusals.validation_failed({"body": "Must be an object."}) from None
        return command, body, checks.session_key(request.header("x-idempotent-key"), body)

    async def _execute(self, request: Request, request_id: str) -> Reply:
        """Every check that needs no database first; a request that fails one reads its actor before it is
        refused (Tessera's order: actor, command, permission, body, key, payload). Then one statement."""
        claims = sessions.claims(request.header("authorization"), self.keys.jwt_key)
        tenant = request.header("x-tenant-id") or claims["tid"]
        found = self.registry.session_commands.get(request.params["commandCode"])
        try:
            command, body, key = self.parse(request, found)
        except Refusal:
            actor = await self.actor(tenant, claims)
            if found is not None and found.action == "create":
                actor.require(found.permission)
            raise
        request_hash = rules.fingerprint(command.code, {k: v for k, v in body.items() if k != "clientRequestId"})
        try:
            data = payloads.for_create(command.page.model, body.get("payload"))
        except payloads.Invalid as exc:
            actor = await self.actor(tenant, claims)
            actor.require(command.permission)
            await self._refuse_reused_key(actor, key, request_hash)
            raise refusals.validation_failed(exc.field_errors) from None
        return await self._create(claims, tenant, command, data, key, request_hash, request_id)

    async def _refuse_reused_key(self, actor: Actor, key: str | None, request_hash: str) -> None:
        """A key already used with another request is a conflict before the payload is judged."""
        seen = await self.store.session_key(actor.tenant_id, actor.user_id, key) if key else None
        if seen is not None and seen.created_at >= rules.now() - self.ttl and seen.request_hash != request_hash:
            raise refusals.session_key_conflict()

    async def _create(self, claims: dict[str, Any], tenant: str, command: SessionCommand, data: dict[str, Any],
                      key: str | None, request_hash: str, request_id: str) -> Reply:
        """One statement: the actor read and, for an active member holding the permission, the key claimed
        (stored with its result), the record, its unique values, audit entry and outbox rows. A key already
        held replays its result (a concurrent holder is waited for by the database's unique index)."""
        model, at, pid = command.page.model, rules.now(), rules.new_pid("rec")
        result = sessions.present(pid, data, at, at)
        plan = SessionCreate(
            **payloads.new_record(self.registry, model, pid, data, at), action=command.code, request_id=request_id,
            request_hash=request_hash, response=result, permission=command.permission, key=key)
        try:
            found, created = await self.store.session_create(claims["sub"], tenant, plan)
        except Duplicate as exc:
            raise refusals.validation_failed(dict.fromkeys(exc.fields, "This value is already used.")) from None
        actor = sessions.judge(found, tenant, claims)
        actor.require(command.permission)
        if created:
            return ok(result, request_id)
        assert found is not None
        return await self._held(actor, plan.creation(found), key or "", request_hash, request_id)

    async def _held(self, actor: Actor, change: Creation, key: str, request_hash: str, request_id: str) -> Reply:
        """The key was held: replay its result, refuse another body, or claim it again once its holder is
        gone (rolled back, or expired)."""
        for _ in range(TRIES):
            seen = await self.store.session_key(actor.tenant_id, actor.user_id, key)
            if seen is None or seen.created_at < change.now - self.ttl:
                if seen is not None:
                    await self.store.forget_session_key(seen.id)
                try:
                    if await self.store.create(change):
                        return ok(change.session_key.response if change.session_key else None, request_id)
                except Duplicate as exc:
                    raise refusals.validation_failed(
                        dict.fromkeys(exc.fields, "This value is already used.")) from None
                continue
            if seen.request_hash != request_hash:
                raise refusals.session_key_conflict()
            return ok(seen.response, request_id, replay=True)
        raise refusals.session_key_conflict()
