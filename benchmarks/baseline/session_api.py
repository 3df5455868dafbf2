"""The session API endpoints: a dynamic page's list, and create commands with ``X-Idempotent-Key``.

The JWT is verified as Tessera verifies it (PyJWT, HS256 under the ``session-jwt`` key, audience
``tessera-session``, issuer ``tessera``, ``exp``/``iat``/``sub``/``tid``/``jti`` required, expiry against the
clock); then one query reads the user, their membership in the tenant asked for (``X-Tenant-Id``, else
the token's) and its permissions. Left out, as framework: the per-user rate limit and its headers.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from baseline import checks, errors, listing, payloads, rules, sessions
from baseline.config import Config, Keys
from baseline.errors import Refusal, respond
from baseline.registry import Registry, SessionCommand, events_of
from baseline.sessions import Actor, present
from baseline.store import Audit, Creation, Duplicate, SessionClaim, Store

log = logging.getLogger("baseline.session")


def ok(data: Any, request_id: str, replay: bool = False) -> Response:
    return respond(200, sessions.ok_body(data, replay), {"X-Request-Id": request_id})


class SessionApi:
    def __init__(self, store: Store, keys: Keys, registry: Registry, config: Config) -> None:
        self.store, self.keys, self.registry, self.config = store, keys, registry, config
        self.fields = {code: listing.fields_of(model, store.dialect) for code, model in registry.models.items()}

    async def frame(self, request: Request, handler: Callable[[Request, str], Awaitable[Response]]) -> Response:
        request_id = rules.request_id(request.headers.get("x-request-id"))
        try:
            return await handler(request, request_id)
        except Refusal as refusal:
            return errors.session_error(refusal, request_id)
        except Exception:
            log.exception("unhandled error")
            return errors.session_error(Refusal(500, "INTERNAL_ERROR", "An internal error occurred."), request_id)

    async def actor(self, request: Request) -> Actor:
        """The user acting in the token's tenant, or ``X-Tenant-Id``'s where they are a member."""
        claims = sessions.claims(request.headers.get("authorization"), self.keys.jwt_key)
        tenant = request.headers.get("x-tenant-id") or claims["tid"]
        return sessions.judge(await self.store.principal(claims["sub"], tenant), tenant, claims)

    # -- GET /api/dynamic/{pageKey}/list -----------------------------------------------------------

    async def list_records(self, request: Request) -> Response:
        return await self.frame(request, self._list)

    async def _list(self, request: Request, request_id: str) -> Response:
        actor = await self.actor(request)
        page = self.registry.pages.get(request.path_params["pageKey"])
        if page is None:
            raise errors.not_found()
        actor.require(page.permission)
        query = listing.parse(dict(request.query_params), self.fields[page.model.code], self.store.dialect,
                              actor.tenant_id, page.model.code)
        if query.errors:
            raise errors.validation_failed(query.errors)
        total, rows = await self.store.list_page(*listing.statements(query))
        return ok({"records": [present(r.pid, r.data, r.created_at, r.updated_at) for r in rows], "total": total,
                   "pageNum": query.page_num, "pageSize": query.page_size}, request_id)

    # -- POST /api/meta/commands/execute/{commandCode} (create commands) ----------------------------

    async def execute(self, request: Request) -> Response:
        return await self.frame(request, self._execute)

    async def _execute(self, request: Request, request_id: str) -> Response:
        actor = await self.actor(request)
        command = self.registry.session_commands.get(request.path_params["commandCode"])
        if command is None or command.action != "create":
            raise errors.not_found()
        actor.require(command.permission)
        try:
            body = checks.create_shape(json.loads(await request.body()))
        except ValueError:
            raise errors.validation_failed({"body": "Must be an object."}) from None
        key = checks.session_key(request.headers.get("x-idempotent-key"), body)
        request_hash = rules.fingerprint(command.code, {k: v for k, v in body.items() if k != "clientRequestId"})
        try:
            data = payloads.for_create(command.page.model, body.get("payload"))
        except payloads.Invalid as exc:
            await self._refuse_reused_key(actor, key, request_hash)
            raise errors.validation_failed(exc.field_errors) from None
        return await self._create(actor, command, data, key, request_hash, request_id)

    async def _refuse_reused_key(self, actor: Actor, key: str | None, request_hash: str) -> None:
        """A key already used with another request is a conflict before the payload is judged (Tessera
        looks the key up first)."""
        seen = await self.store.session_key(actor.tenant_id, actor.user_id, key) if key else None
        live = seen is not None and seen.created_at >= rules.now() - timedelta(
            seconds=self.config.idempotency_ttl_seconds)
        if live and seen is not None and seen.request_hash != request_hash:
            raise errors.session_key_conflict()

    async def _create(self, actor: Actor, command: SessionCommand, data: dict[str, Any], key: str | None,
                      request_hash: str, request_id: str) -> Response:
        """One write: the key claimed (stored with its result), the record with its unique-value claims,
        the audit entry, the outbox rows. A key already held replays its result (a concurrent holder is
        waited for by the database's unique index)."""
        model, at, pid = command.page.model, rules.now(), rules.new_pid("rec")
        result = present(pid, data, at, at)
        change = Creation(
            actor.tenant_id, model.code, pid, data, payloads.search_text(model, data), actor.user_id, at,
            [(code, str(data[code])) for code in model.unique if data.get(code) is not None],
            Audit(rules.new_pid("aud"), actor.tenant_id, actor.user_id, actor.email, command.code, model.code, pid,
                  None, data, request_id, None, at),
            events_of(self.registry, model.code, pid, data),
            session_key=SessionClaim(actor.user_id, key, request_hash, result) if key else None)
        ttl = timedelta(seconds=self.config.idempotency_ttl_seconds)
        for _ in range(5):
            try:
                if await self.store.create(change):
                    return ok(result, request_id)
            except Duplicate as exc:
                raise errors.validation_failed(dict.fromkeys(exc.fields, "This value is already used.")) from None
            seen = await self.store.session_key(actor.tenant_id, actor.user_id, key or "")
            if seen is None:
                continue  # its holder rolled back: claim it again
            if seen.created_at < at - ttl:
                await self.store.forget_session_key(seen.id)
                continue
            if seen.request_hash != request_hash:
                raise errors.session_key_conflict()
            return ok(seen.response, request_id, replay=True)
        raise errors.session_key_conflict()
