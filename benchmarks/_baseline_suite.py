"""The baseline of ``benchmarks/suite.py`` (and ``benchmarks/open_read.py``): bare Starlette calling
Tessera's own service functions, so every endpoint runs the same SQL as the service.

    python benchmarks/_baseline_suite.py --port 8124      # with the same TESSERA_* variables as Tessera

The ``baseline`` target of ``harness.servers`` (``BASELINE``).

Why it exists: a ratio to a baseline doing the same database work in the same run tells what the
framework layers cost (Connexion routing, request validation, security middleware, the
request-context middleware, rate limiting, the call audit, envelopes), independent of how fast the
host or the database is today. So each endpoint here calls exactly what Tessera's handler calls,
from one ``Runtime`` built by ``tessera.runtime.build_runtime`` from the same ``TESSERA_*`` variables
(same engine settings, server key, registry, declarations):

* ``POST /oauth2/token``: the form parsed by Starlette, then ``grants.issue`` (credential read,
  HMAC digest check, token row and audit entry in one write transaction) in the thread pool, as
  Tessera's sync handler runs.
* Open Platform business calls: the bearer token checked by ``bearer.validate`` on the event loop
  (as Tessera's ``access_token_info`` does), then

  - ``GET /api/open/v1/whoami``: the body of ``handlers.open.whoami``, on the loop;
  - ``GET /api/open/v1/resources/<name>/{pid}`` and ``GET /api/open/v1/resources/<name>?limit=&cursor=``:
    ``op_resources.read`` / ``op_resources.list_page`` on the loop (Tessera's handlers are
    ``async def`` since its reads stopped hopping to a worker thread);
  - ``POST /api/open/v1/commands/<code>:execute``: ``op_commands.execute`` (idempotency claim in its
    own transaction, then the record, its audit entry, its outbox row and the key's completion in
    one) in the thread pool, with ``If-Match`` parsed by the handler's own ``strong_etags``,
    ``Idempotency-Key`` and a fresh request id;
  - ``POST /api/open/v1/event-sources/<code>/events``: ``inbound_events.receive`` (schema check,
    dedupe read, one insert) in the thread pool; 202.
* Session API: the JWT verified once (``rt.session_tokens.verify``, as Tessera's bearer check does)
  and, in the thread pool as Tessera's sync handlers run, ``resolve_actor`` (the principal query:
  user, membership, permissions), then

  - ``GET /api/dynamic/{pageKey}/list``: ``tessera.session.records.reads.list_records`` (the page
    query and the count query built by ``tessera.session.listing``);
  - ``POST /api/meta/commands/execute/{commandCode}``: ``tessera.session.commands.execute`` with
    ``X-Idempotent-Key`` (key lookup and claim, record insert with its unique-value claims, audit
    entry, outbox rows if any, in one transaction).

Left out, on purpose, because they are what is being measured: Connexion (routing, parameter, body
and security validation, response serialisation), the request-context middleware (request id,
locale, access log, payload size check), the method guard, the rate limiter (Tessera's handlers
apply it), HTTP Basic client authentication, the Open Platform call audit (Tessera queues one
``open_api_calls`` row per business call), i18n of messages. Errors are answered with the service
error's status and code in a minimal body.

Sync vs async mirrors Tessera's handlers as of this writing; if the service moves a handler between
the loop and the thread pool, move it here too, or the ratio measures the move, not the framework.
"""

from __future__ import annotations

import contextlib
import json
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from harness.serving import serve
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from handlers.open.published import strong_etags
from tessera.core.clock import iso
from tessera.core.crypto import SessionClaims
from tessera.core.errors import InvalidRequest, InvalidToken, ServiceError, Unauthorized
from tessera.core.settings import load_settings
from tessera.events import inbound as inbound_events
from tessera.openplatform.commands import execute as op_commands
from tessera.openplatform.resources import reads as op_resources
from tessera.openplatform.tokens import bearer, grants
from tessera.openplatform.tokens.bearer import Caller
from tessera.runtime import build_runtime
from tessera.session.auth.actors import resolve_actor
from tessera.session.commands import execute as commands
from tessera.session.records import reads as records

Endpoint = Callable[[Request], Awaitable[Response]]
NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> Response:
    """The same encoding as ``tessera.web.envelopes``: compact UTF-8 JSON."""
    content = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    return Response(content, status_code=status, headers=headers, media_type="application/json")


def open_error(error: ServiceError, oauth: bool = False) -> Response:
    """``{code, message, details}``; the token endpoint adds RFC 6749's ``error``."""
    body: dict[str, Any] = {"code": error.code, "message": error.message, "details": {}}
    if oauth:
        body["error"] = error.code
    return json_response(error.status, body, error.headers or None)


def session_error(error: ServiceError) -> Response:
    return json_response(error.status, {"code": error.code, "message": error.message, "data": None},
                         error.headers or None)


def session_ok(data: Any, replay: bool = False) -> Response:
    code = "IDEMPOTENT_REPLAY" if replay else "0"
    return json_response(200, {"code": code, "message": "OK", "data": data})


def new_request_id() -> str:
    """Tessera generates one per request (uuid4) and stores it with every write."""
    return str(uuid.uuid4())


class Baseline:
    """The endpoints, on one runtime."""

    def __init__(self) -> None:
        self.rt = build_runtime(load_settings())

    # -- Open Platform -----------------------------------------------------------------------------

    def caller_of(self, request: Request) -> Caller:
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer":
            raise InvalidToken()
        return bearer.validate(self.rt, token.strip())

    async def issue_token(self, request: Request) -> Response:
        form = {key: value for key, value in (await request.form()).items() if isinstance(value, str)}
        wanted = grants.TokenRequest(form.get("grant_type"), form.get("client_id"), form.get("client_secret"),
                                     form.get("scope"))
        try:
            body = await run_in_threadpool(grants.issue, self.rt, wanted, new_request_id())
        except ServiceError as error:
            return open_error(error, oauth=True)
        return json_response(200, body, NO_STORE)

    async def whoami(self, request: Request) -> Response:
        try:
            who = self.caller_of(request)
        except ServiceError as error:
            return open_error(error)
        return json_response(200, {
            "application": {"appId": who.application_pid, "name": who.application_name},
            "installation": {"installationId": who.installation_pid, "environment": who.environment},
            "tenant": {"tenantId": who.tenant_code},
            "environment": who.environment,
            "scopes": list(who.scopes),
            "clientId": who.client_id,
            "expiresAt": iso(who.expires_at),
        })

    def reader(self, name: str) -> Endpoint:
        async def endpoint(request: Request) -> Response:
            try:
                record, tag = op_resources.read(self.rt, self.caller_of(request), name, request.path_params["pid"])
            except ServiceError as error:
                return open_error(error)
            return json_response(200, record, {"ETag": tag})

        return endpoint

    def lister(self, name: str) -> Endpoint:
        async def endpoint(request: Request) -> Response:
            params = request.query_params
            try:
                caller = self.caller_of(request)
                try:
                    limit = int(params["limit"]) if "limit" in params else None
                except ValueError:
                    raise InvalidRequest() from None
                page = op_resources.list_page(self.rt, caller, name, limit, params.get("cursor"))
            except ServiceError as error:
                return open_error(error)
            return json_response(200, page)

        return endpoint

    def executor(self, code: str) -> Endpoint:
        async def endpoint(request: Request) -> Response:
            try:
                caller = self.caller_of(request)
                outcome = await run_in_threadpool(
                    op_commands.execute, self.rt, caller, code, await request.json(),
                    strong_etags(request.headers.get("if-match")), request.headers.get("idempotency-key"),
                    new_request_id())
            except ServiceError as error:
                return open_error(error)
            headers = {"ETag": outcome.etag} | ({"Idempotent-Replayed": "true"} if outcome.replay else {})
            return json_response(200, outcome.body, headers)

        return endpoint

    def event_receiver(self, source: str) -> Endpoint:
        async def endpoint(request: Request) -> Response:
            try:
                caller = self.caller_of(request)
                received = await run_in_threadpool(
                    inbound_events.receive, self.rt, caller, source, await request.json(),
                    request.headers.get("idempotency-key"), new_request_id())
            except ServiceError as error:
                return open_error(error)
            return json_response(202, {"eventId": received.event_id, "duplicate": received.duplicate})

        return endpoint

    # -- session API -------------------------------------------------------------------------------

    def claims_of(self, request: Request) -> SessionClaims:
        """The JWT, verified once on the loop, as Tessera's bearer check does."""
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        claims = self.rt.session_tokens.verify(token.strip()) if scheme.lower() == "bearer" else None
        if claims is None:
            raise Unauthorized()
        return claims

    async def list_records(self, request: Request) -> Response:
        def run(claims: SessionClaims) -> Any:
            actor = resolve_actor(self.rt, claims, request.headers.get("x-tenant-id"))
            return records.list_records(self.rt, actor, request.path_params["pageKey"], dict(request.query_params))

        try:
            data = await run_in_threadpool(run, self.claims_of(request))
        except ServiceError as error:
            return session_error(error)
        return session_ok(data)

    async def execute_command(self, request: Request) -> Response:
        def run(claims: SessionClaims, body: Any) -> commands.Outcome:
            actor = resolve_actor(self.rt, claims, request.headers.get("x-tenant-id"))
            return commands.execute(self.rt, actor, request.path_params["commandCode"], body,
                                    request.headers.get("x-idempotent-key"), new_request_id())

        try:
            claims = self.claims_of(request)
            outcome = await run_in_threadpool(run, claims, await request.json())
        except ServiceError as error:
            return session_error(error)
        return session_ok(outcome.data, outcome.replay)

    async def health(self, _request: Request) -> Response:
        return session_ok({"status": "up"})

    @contextlib.asynccontextmanager
    async def lifespan(self, _app: Starlette) -> AsyncIterator[None]:
        yield
        self.rt.close()

    def app(self) -> Starlette:
        capabilities = self.rt.capabilities
        return Starlette(lifespan=self.lifespan, routes=[
            Route("/api/health", self.health),
            Route("/oauth2/token", self.issue_token, methods=["POST"]),
            Route("/api/open/v1/whoami", self.whoami),
            Route("/api/dynamic/{pageKey}/list", self.list_records),
            Route("/api/meta/commands/execute/{commandCode}", self.execute_command, methods=["POST"]),
            *(Route(f"/api/open/v1/resources/{name}", self.lister(name)) for name in capabilities.resources),
            *(Route(f"/api/open/v1/resources/{name}/{{pid}}", self.reader(name)) for name in capabilities.resources),
            *(Route(f"/api/open/v1/commands/{code}:execute", self.executor(code), methods=["POST"])
              for code in capabilities.commands),
            *(Route(f"/api/open/v1/event-sources/{source}/events", self.event_receiver(source), methods=["POST"])
              for source in capabilities.event_sources),
        ])


if __name__ == "__main__":
    serve(lambda: Baseline().app(), __doc__)
