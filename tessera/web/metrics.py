"""``/metrics`` in the Prometheus text format, two ways (docs/operator/health-and-metrics.md):

- on the API port, only with ``TESSERA_METRICS_TOKEN`` set, and only to a request carrying
  ``Authorization: Bearer <that token>`` (compared in constant time); without the setting the
  path is not served (404), a missing or wrong token is 401 in the session envelope;
- on a listener of its own (``TESSERA_METRICS_PORT``, bound to ``TESSERA_METRICS_HOST``, 127.0.0.1
  by default) without a token: the separate worker process, which has no API port, is scraped
  there. It answers ``GET /metrics`` and nothing else, one request per connection.

Either way the scrape runs on the event loop: the samplers' queries go through the async data path.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json

from starlette.types import ASGIApp, Receive, Scope, Send

from tessera.core.errors import Unauthorized
from tessera.core.metrics import Metrics
from tessera.web.context import current, header
from tessera.web.envelopes import render_error

PATH = "/metrics"
MAX_HEAD_BYTES = 16 * 1024
READ_TIMEOUT_SECONDS = 5.0


class MetricsMiddleware:
    """Answers ``GET /metrics`` with the bearer token; passes everything else on."""

    def __init__(self, app: ASGIApp, token: str | None) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode() if token else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.expected is None or scope["type"] != "http" or scope["path"] != PATH or scope["method"] != "GET":
            await self.app(scope, receive, send)
            return
        state = current()
        supplied = (header(scope, b"authorization") or "").encode("latin-1")
        if not hmac.compare_digest(supplied, self.expected):
            status, body, headers = render_error(Unauthorized(), state.surface, state.request_id)
            encoded = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
            await _answer(send, status, encoded, "application/json",
                          {**headers, "WWW-Authenticate": 'Bearer realm="metrics"'})
            return
        encoded, media_type = await state.runtime.metrics.render(header(scope, b"accept"))
        await _answer(send, 200, encoded, media_type, {"Cache-Control": "no-store"})


def claims(path: str) -> bool:
    """Whether this middleware may answer ``path`` itself (when a token is configured)."""
    return path == PATH


async def _answer(send: Send, status: int, body: bytes, media_type: str, headers: dict[str, str]) -> None:
    raw = [(b"content-type", media_type.encode()), (b"content-length", str(len(body)).encode()),
           *((k.lower().encode(), v.encode()) for k, v in headers.items())]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


async def start_listener(metrics: Metrics, host: str, port: int) -> asyncio.Server:
    """The listener of its own: ``GET /metrics`` (or HEAD) answered on plain HTTP/1.1, then closed."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), READ_TIMEOUT_SECONDS)
            status, body, media_type = await _respond(metrics, head)
            if head.startswith(b"HEAD "):
                writer.write(_response_head(status, media_type, len(body)))
            else:
                writer.write(_response_head(status, media_type, len(body)) + body)
            await writer.drain()
        except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            pass  # a client that sent no complete request head in time gets nothing
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()

    return await asyncio.start_server(serve, host, port, limit=MAX_HEAD_BYTES)


async def _respond(metrics: Metrics, head: bytes) -> tuple[int, bytes, str]:
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3:
        return 400, b"bad request\n", "text/plain; charset=utf-8"
    method, target, _ = parts
    if target.split("?", 1)[0] != PATH:
        return 404, b"not found: metrics are at /metrics\n", "text/plain; charset=utf-8"
    if method not in {"GET", "HEAD"}:
        return 405, b"method not allowed\n", "text/plain; charset=utf-8"
    accept = next((line.split(":", 1)[1].strip() for line in lines[1:]
                   if line.lower().startswith("accept:")), None)
    body, media_type = await metrics.render(accept)
    return 200, body, media_type


REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed"}


def _response_head(status: int, media_type: str, length: int) -> bytes:
    allow = "Allow: GET, HEAD\r\n" if status == 405 else ""
    return (f"HTTP/1.1 {status} {REASONS[status]}\r\nContent-Type: {media_type}\r\nContent-Length: {length}\r\n"
            f"Cache-Control: no-store\r\n{allow}Connection: close\r\n\r\n").encode("latin-1")
