"""The baseline of ``benchmarks/suite.py`` (and ``benchmarks/open_read.py``): bare Starlette calling
Tessera's own service functions, so every endpoint runs the same SQL as the service.

    python benchmarks/_baseline_suite.py --port 8124      # with the same TESSERA_* variables as Tessera

Why it exists: a ratio to a baseline doing the same database work in the same run tells what the
framework layers cost (Connexion routing, request validation, security middleware, the
request-context middleware, rate limiting, the call audit, envelopes), independent of how fast the
host or the database is today. So each endpoint here calls exactly what Tessera's handler calls,
from one ``Runtime`` built by ``tessera.runtime.build_runtime`` from the same ``TESSERA_*`` variables
(same engine settings, server key, registry, declarations):

* ``POST /oauth2/token``: the form parsed by Starlette, then ``op_tokens.issue`` (credential read,
  HMAC digest check, token row and audit entry in one write transaction) in the thread pool, as
  Tessera's sync handler runs. The runtime's rate limiter is replaced by one that allows everything
  (the service calls it inside ``issue``).
* Open Platform business calls: the bearer token checked by ``op_tokens.validate`` on the event loop
  (as Tessera's ``access_token_info`` does), then

  - ``GET /api/open/v1/whoami``: the body of ``handlers.open.whoami``, on the loop;
  - ``GET /api/open/v1/resources/<name>/{pid}`` and ``GET /api/open/v1/resources/<name>?limit=&cursor=``:
    ``op_resources.read`` / ``op_resources.list_page`` on the loop (Tessera's handlers are
    ``async def`` since its reads stopped hopping to a worker thread);
  - ``POST /api/open/v1/commands/<code>:execute``: ``op_commands.execute`` (idempotency claim in its
    own transaction, then the record, its audit entry, its outbox row and the key's completion in
    one) in the thread pool, with ``If-Match``, ``Idempotency-Key`` and a fresh request id;
  - ``POST /api/open/v1/event-sources/<code>/events``: ``inbound_events.receive`` (schema check,
    dedupe read, one insert) in the thread pool; 202.
* Session API: ``services.actors.resolve_actor`` (JWT check and the principal query: user,
  membership, permissions) and then, in the thread pool as Tessera's sync handlers run,

  - ``GET /api/dynamic/{pageKey}/list``: ``services.records.list_records`` (the page query and the
    count query built by ``tessera.session.listing``);
  - ``POST /api/meta/commands/execute/{commandCode}``: ``services.commands.execute`` with
    ``X-Idempotent-Key`` (key lookup and claim, record insert with its unique-value claims, audit
    entry, outbox rows if any, in one transaction).

Left out, on purpose, because they are what is being measured: Connexion (routing, parameter, body
and security validation, response serialisation), the request-context middleware (request id,
locale, access log, payload size check), the method guard, the rate limiter, the Open Platform call
audit (Tessera queues one ``open_api_calls`` row per business call), the second JWT decode Tessera's
session security handler does, i18n of messages. Errors are answered with the service error's status
and code in a minimal body.

Sync vs async mirrors Tessera's handlers as of this writing; if the service moves a handler between
the loop and the thread pool, move it here too, or the ratio measures the move, not the framework.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tessera.core.clock import iso
from tessera.core.errors import InvalidRequest, InvalidToken, ServiceError, Unauthorized
from tessera.core.settings import load_settings
from tessera.events import inbound as inbound_events
from tessera.openplatform.commands import execute as op_commands
from tessera.openplatform.resources import reads as op_resources
from tessera.openplatform.tokens import grants as op_tokens
from tessera.openplatform.tokens.grants import Caller
from tessera.ratelimit import Decision, InProcessStore, RateLimiter
from tessera.runtime import build_runtime
from tessera.session.auth.actors import Actor, resolve_actor
from tessera.session.commands import execute as commands
from tessera.session.records import reads as records

Endpoint = Callable[[Request], Awaitable[Response]]
NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}


class Unlimited(RateLimiter):
    """A rate limiter that counts nothing and allows everything (services call the limiter themselves)."""

    def __init__(self) -> None:
        super().__init__(InProcessStore(), {})

    def check(self, policy: str, subject: str) -> Decision:
        return Decision(True, policy, 0, 0, self.window_seconds)


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


def build_app() -> Starlette:
    rt = build_runtime(load_settings())
    rt.rate_limiter = Unlimited()

    # -- Open Platform ------------------------------------------------------------------------------

    def caller_of(request: Request) -> Caller:
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer":
            raise InvalidToken()
        return op_tokens.validate(rt, token.strip())

    async def issue_token(request: Request) -> Response:
        form = await request.form()
        fields = {key: value for key, value in form.items() if isinstance(value, str)}
        try:
            body = await run_in_threadpool(op_tokens.issue, rt, fields, request.headers.get("authorization"),
                                           dict(request.query_params), new_request_id())
        except ServiceError as error:
            return open_error(error, oauth=True)
        return json_response(200, body, NO_STORE)

    async def whoami(request: Request) -> Response:
        try:
            who = caller_of(request)
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

    def reader(name: str) -> Endpoint:
        async def endpoint(request: Request) -> Response:
            try:
                record, tag = op_resources.read(rt, caller_of(request), name, request.path_params["pid"])
            except ServiceError as error:
                return open_error(error)
            return json_response(200, record, {"ETag": tag})

        return endpoint

    def lister(name: str) -> Endpoint:
        async def endpoint(request: Request) -> Response:
            params = request.query_params
            try:
                caller = caller_of(request)
                try:
                    limit = int(params["limit"]) if "limit" in params else None
                except ValueError:
                    raise InvalidRequest() from None
                page = op_resources.list_page(rt, caller, name, limit, params.get("cursor"))
            except ServiceError as error:
                return open_error(error)
            return json_response(200, page)

        return endpoint

    def executor(code: str) -> Endpoint:
        async def endpoint(request: Request) -> Response:
            try:
                caller = caller_of(request)
                body = await request.json()
                outcome = await run_in_threadpool(
                    op_commands.execute, rt, caller, code, body, request.headers.get("if-match"),
                    request.headers.get("idempotency-key"), new_request_id())
            except ServiceError as error:
                return open_error(error)
            headers = {"ETag": outcome.etag}
            if outcome.replay:
                headers["Idempotent-Replayed"] = "true"
            return json_response(200, outcome.body, headers)

        return endpoint

    def event_receiver(source: str) -> Endpoint:
        async def endpoint(request: Request) -> Response:
            try:
                caller = caller_of(request)
                body = await request.json()
                received = await run_in_threadpool(
                    inbound_events.receive, rt, caller, source, body, request.headers.get("idempotency-key"),
                    new_request_id())
            except ServiceError as error:
                return open_error(error)
            return json_response(202, {"eventId": received.event_id, "duplicate": received.duplicate})

        return endpoint

    # -- session API --------------------------------------------------------------------------------

    def actor_of(request: Request) -> Actor:
        authorization = request.headers.get("authorization", "")
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer":
            raise Unauthorized()
        return resolve_actor(rt, token.strip(), request.headers.get("x-tenant-id"))

    def list_records(request: Request) -> Response:  # sync: Starlette runs it in the thread pool
        try:
            data = records.list_records(rt, actor_of(request), request.path_params["pageKey"],
                                        dict(request.query_params))
        except ServiceError as error:
            return session_error(error)
        return session_ok(data)

    async def execute_command(request: Request) -> Response:
        body = await request.json()

        def run() -> commands.Outcome:
            return commands.execute(rt, actor_of(request), request.path_params["commandCode"], body,
                                    request.headers.get("x-idempotent-key"), new_request_id())

        try:
            outcome = await run_in_threadpool(run)
        except ServiceError as error:
            return session_error(error)
        return session_ok(outcome.data, outcome.replay)

    async def health(_request: Request) -> Response:
        return session_ok({"status": "up"})

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        yield
        rt.close()

    routes = [
        Route("/api/health", health),
        Route("/oauth2/token", issue_token, methods=["POST"]),
        Route("/api/open/v1/whoami", whoami),
        Route("/api/dynamic/{pageKey}/list", list_records),
        Route("/api/meta/commands/execute/{commandCode}", execute_command, methods=["POST"]),
    ]
    for name in rt.capabilities.resources:
        routes.append(Route(f"/api/open/v1/resources/{name}", lister(name)))
        routes.append(Route(f"/api/open/v1/resources/{name}/{{pid}}", reader(name)))
    for code in rt.capabilities.commands:
        routes.append(Route(f"/api/open/v1/commands/{code}:execute", executor(code), methods=["POST"]))
    for source in rt.capabilities.event_sources:
        routes.append(Route(f"/api/open/v1/event-sources/{source}/events", event_receiver(source), methods=["POST"]))
    return Starlette(routes=routes, lifespan=lifespan)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    uvicorn.run(build_app(), host=args.host, port=args.port, log_config=None, access_log=False, workers=1)


if __name__ == "__main__":
    main()
