"""The outermost middleware: request id, locale, runtime, access log.

It runs before Connexion's exception handling so that every response, errors included, carries
``X-Request-Id`` and every log line of the request carries the same id.
"""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tessera.core.errors import PayloadTooLarge
from tessera.core.i18n import negotiate, reset_locale, set_locale, translate
from tessera.core.logs import request_id_var

SAFE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
MAX_BODY_BYTES = 1024 * 1024
RUNTIME_KEY = "tessera.runtime"
# A mutable per-request holder: inner layers (the Open Platform bearer check) record the caller in
# it, and this middleware reads it after the response to write the call audit.
STATE_KEY = "tessera.state"

log = logging.getLogger("tessera.access")


def header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            try:
                return value.decode("latin-1")
            except UnicodeDecodeError:  # pragma: no cover - latin-1 decodes every byte
                return None
    return None


class RequestContextMiddleware:
    def __init__(self, app: ASGIApp, runtime: Any = None) -> None:
        self.app = app
        self.runtime = runtime

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        supplied = header(scope, b"x-request-id")
        request_id = supplied if supplied and SAFE_REQUEST_ID.match(supplied) else str(uuid.uuid4())
        token = request_id_var.set(request_id)
        locale_token = set_locale(negotiate(header(scope, b"accept-language")))
        scope[RUNTIME_KEY] = self.runtime
        state: dict[str, Any] = {}
        scope[STATE_KEY] = state
        scope["tessera.request_id"] = request_id
        started = time.perf_counter()
        status_holder: dict[str, int] = {}

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                status_holder["status"] = message["status"]
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"x-request-id"]
                headers.append((b"x-request-id", request_id.encode()))
                message["headers"] = headers
            await send(message)

        declared = header(scope, b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY_BYTES):
            await self._too_large(send_with_id)
            self._log(scope, started, status_holder)
            request_id_var.reset(token)
            reset_locale(locale_token)
            return
        # A body without Content-Length (chunked) is never read: Connexion treats it as missing and
        # answers 400 before reading, so the declared length is the only size to check.
        try:
            await self.app(scope, receive, send_with_id)
        finally:
            self._log(scope, started, status_holder)
            if scope.get("path", "").startswith("/api/open/"):
                self._record_call(scope, state, status_holder, request_id)
            request_id_var.reset(token)
            reset_locale(locale_token)

    @staticmethod
    def _log(scope: Scope, started: float, status_holder: dict[str, int]) -> None:
        """One access line per request: method, path (never the query string), status, duration."""
        log.info(
            "request",
            extra={
                "method": scope.get("method"),
                "path": scope.get("path"),
                "status": status_holder.get("status"),
                "durationMs": round((time.perf_counter() - started) * 1000, 2),
            },
        )

    @staticmethod
    async def _too_large(send: Send) -> None:
        """Refuse before reading a body whose declared length is over the limit."""
        error = PayloadTooLarge()
        body = json.dumps({"code": error.code, "message": translate(error.message), "data": None}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})

    def _record_call(self, scope: Scope, state: dict[str, Any], status_holder: dict[str, int],
                     request_id: str) -> None:
        """The call audit of the Open Platform: who called what, with which outcome and request id.

        Queued for the batch writer (storage/call_audit.py): no thread hop, no transaction here.
        """
        caller = state.get("caller")
        self.runtime.call_audit.record(
            installation_id=getattr(caller, "installation_id", None),
            tenant_id=getattr(caller, "tenant_id", None),
            client_id=getattr(caller, "client_id", None),
            method=str(scope.get("method", ""))[:10],
            path=str(scope.get("path", ""))[:300],
            status=status_holder.get("status", 500),
            request_id=request_id,
        )
