"""The outermost middleware: request id, locale, surface, runtime, access log, call audit.

It runs before Connexion's exception handling, so every response, errors included, carries
``X-Request-Id``, and every log line of the request carries the same id. It also makes the
request's ``RequestState`` current: handlers and the security checks read the runtime, the request
id, the surface and the verified caller from it (``current()``), never from Connexion, so only the
web layer's Connexion package knows Connexion's request objects.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import re
import time
import uuid
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from starlette.datastructures import Headers, QueryParams
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tessera.core.crypto import SessionClaims
from tessera.core.errors import HeaderFieldsTooLarge, PayloadTooLarge, ServiceError, UriTooLong
from tessera.core.i18n import negotiate, reset_locale, set_locale
from tessera.core.logs import request_id_var
from tessera.core.text import storable
from tessera.runtime import Runtime
from tessera.web.connexion.routing import routed_operation_id
from tessera.web.envelopes import render_error
from tessera.web.surface import OAUTH_ENDPOINTS, Surface, surface_of

SAFE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
# Bounds of what one request may make the service hold and parse; each refusal comes in the
# surface's envelope. The body's bound is checked on the declared length, before reading it.
MAX_BODY_BYTES = 1024 * 1024
MAX_URL_BYTES = 8 * 1024  # path and query string, as sent
MAX_HEADERS = 100
MAX_HEADER_BYTES = 16 * 1024  # every name and value together

log = logging.getLogger("tessera.access")


@dataclass
class RequestState:
    """What the layers of one request share, set up once by ``RequestContextMiddleware``."""

    scope: Scope
    runtime: Runtime
    request_id: str
    surface: Surface
    # Set by the bearer checks once the token or JWT is verified, read by handlers and the call audit.
    caller: Any = None
    session: SessionClaims | None = None
    # What the bearer check read for the handler in its own statement (a read by pid's record).
    read_ahead: Any = None
    status: int | None = field(default=None)
    # Added to the answer, whatever produces it (the Open Platform's rate-limit fields).
    response_headers: dict[str, str] | None = None
    # Set by ``tessera.web.tracing`` when tracing is on: the access log line carries it.
    trace_id: str | None = None
    # The refusal's code, set where an error is rendered; and on the OAuth endpoints the client id
    # the request named, once read: a refusal there is audited under both (storage/openplatform/token_refusals.py).
    error_code: str | None = None
    oauth_client: str | None = None

    @cached_property
    def headers(self) -> Headers:
        return Headers(scope=self.scope)

    @cached_property
    def query_params(self) -> QueryParams:
        return QueryParams(self.scope.get("query_string", b""))


_current: ContextVar[RequestState | None] = ContextVar("tessera_request", default=None)


def current() -> RequestState:
    """The state of the request being handled (handlers, security checks, error rendering)."""
    state = _current.get()
    if state is None:
        raise RuntimeError("no request is being handled")
    return state


def current_or_none() -> RequestState | None:
    return _current.get()


def basic_username(headers: Headers) -> str | None:
    """The client id of an ``Authorization: Basic`` header (still form-urlencoded), or None."""
    scheme, _, value = headers.get("authorization", "").partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        decoded = base64.b64decode(value.strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
    return decoded.partition(":")[0] or None


def header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


class RequestContextMiddleware:
    def __init__(self, app: ASGIApp, runtime: Runtime) -> None:
        self.app = app
        self.runtime = runtime

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        supplied = header(scope, b"x-request-id")
        request_id = supplied if supplied and SAFE_REQUEST_ID.match(supplied) else str(uuid.uuid4())
        state = RequestState(scope, self.runtime, request_id, surface_of(scope.get("path", "")))
        tokens = (request_id_var.set(request_id), _current.set(state))
        locale_token = set_locale(negotiate(header(scope, b"accept-language")))
        started = time.perf_counter()
        # Shared with Connexion's routing (it copies the scope, not this dict): the operation's name.
        scope.setdefault("extensions", {})

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                state.status = message["status"]
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"x-request-id"]
                headers.append((b"x-request-id", request_id.encode()))
                if state.response_headers:
                    names = {k.lower().encode() for k in state.response_headers}
                    headers = [(k, v) for k, v in headers if k.lower() not in names]
                    headers.extend((k.lower().encode(), v.encode()) for k, v in state.response_headers.items())
                message["headers"] = headers
            await send(message)

        try:
            refusal = _over_a_limit(scope)
            if refusal is not None:
                await _refuse(refusal, state, send_with_id)
            else:
                await self.app(scope, receive, send_with_id)
        finally:
            self._log(scope, started, state)
            if state.surface is Surface.OPEN_PLATFORM:
                self._record_call(scope, state)
            elif state.surface is Surface.OAUTH and 400 <= (state.status or 500) < 500:
                self._record_refusal(scope, state)
            reset_locale(locale_token)
            _current.reset(tokens[1])
            request_id_var.reset(tokens[0])

    def _log(self, scope: Scope, started: float, state: RequestState) -> None:
        """One access line per request: method, path (never the query string), status, duration,
        the trace id when tracing is on; and the request counted in the metrics by surface, operation and status."""
        seconds = time.perf_counter() - started
        extra = {
            "method": scope.get("method"),
            "path": scope.get("path"),
            # The peer, or the client a trusted proxy named (tessera/web/transport.py).
            "client": (scope.get("client") or (None,))[0],
            "status": state.status,
            "durationMs": round(seconds * 1000, 2),
        }
        if state.trace_id is not None:  # tracing on (tessera/web/tracing.py): beside the request id
            # Not "traceId": that name is the request id's, in an INTERNAL_ERROR's data.
            extra["otelTraceId"] = state.trace_id
        log.info("request", extra=extra)
        self.runtime.metrics.request(state.surface.value, routed_operation_id(scope), state.status or 500, seconds)

    def _record_refusal(self, scope: Scope, state: RequestState) -> None:
        """A refusal of an OAuth endpoint, counted for its audit entry (one per client, error and minute)."""
        path = str(scope.get("path", ""))
        endpoint = OAUTH_ENDPOINTS.get(path)
        if endpoint is None:
            return
        client = state.oauth_client if state.oauth_client is not None else basic_username(state.headers)
        self.runtime.token_refusals.record(storable(client)[:64] if client else None,
                                           state.error_code or f"http_{state.status}", endpoint, state.request_id)

    def _record_call(self, scope: Scope, state: RequestState) -> None:
        """The call audit of the Open Platform: who called what, with which outcome and request id.

        Queued for the batch writer (``storage/openplatform/call_audit.py``): no thread hop, no transaction here.
        """
        caller = state.caller
        self.runtime.call_audit.record(
            installation_id=getattr(caller, "installation_id", None),
            tenant_id=getattr(caller, "tenant_id", None),
            client_id=getattr(caller, "client_id", None),
            method=storable(str(scope.get("method", "")))[:10],
            # A path may hold a NUL or a lone surrogate (``%00``, ``%ED%A0%80``); kept escaped, as
            # a row no database can store would fail its whole batch, and every batch after it.
            path=storable(str(scope.get("path", "")))[:300],
            status=state.status or 500,
            request_id=state.request_id,
        )


def _over_a_limit(scope: Scope) -> ServiceError | None:
    """The error of a request over one of the bounds, before anything parses it further."""
    raw_headers = scope.get("headers", ())
    if len(raw_headers) > MAX_HEADERS or sum(len(k) + len(v) for k, v in raw_headers) > MAX_HEADER_BYTES:
        return HeaderFieldsTooLarge()
    if len(scope.get("raw_path") or scope.get("path", "")) + len(scope.get("query_string", b"")) > MAX_URL_BYTES:
        return UriTooLong()
    declared = header(scope, b"content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY_BYTES):
        # A body without Content-Length (chunked) is never read: Connexion treats it as missing
        # and answers 400, so the declared length is the only size to check.
        return PayloadTooLarge()
    return None


async def _refuse(error: ServiceError, state: RequestState, send: Send) -> None:
    """The error in the surface's envelope, with the connection closed (the body was never read)."""
    status, body, headers = render_error(error, state.surface, state.request_id)
    encoded = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    raw_headers = [(b"content-type", b"application/json"), (b"content-length", str(len(encoded)).encode()),
                   (b"connection", b"close"), *((k.lower().encode(), v.encode()) for k, v in headers.items())]
    await send({"type": "http.response.start", "status": status, "headers": raw_headers})
    await send({"type": "http.response.body", "body": encoded})
