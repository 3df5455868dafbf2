"""uvicorn's httptools protocol, with the request bounds and unparsable requests answered in the
surface's envelope.

llhttp (under httptools) refuses a request head of more than about 64 KiB with a parse error, which
uvicorn 0.54 answers itself with a plain-text 400 ("Invalid HTTP request received."): an answer in
neither surface's envelope, and not the 414 or 431 that every operation of both documents states
(``tessera/web/context.py`` refuses a URL over 8 KiB and header fields over 16 KiB, but only once
the head has been parsed). This protocol counts the URL and the header fields as llhttp hands them
over and, past those same bounds, stops parsing and answers 414 or 431 in the envelope of the
surface the path names, with ``Connection: close``.

Any other request llhttp cannot parse (a malformed request line, a ``Content-Length`` that is no
number...) gets the same treatment: 400 in the surface's envelope (``VALIDATION_ERROR`` /
``invalid_request``, as every operation documents), never uvicorn's plain text.

It subclasses ``uvicorn.protocols.http.httptools_impl.HttpToolsProtocol`` (uvicorn 0.54.0, pinned
exactly in ``pyproject.toml`` for that reason: ``UVICORN_VERSION``) and overrides eight of its
methods (``OVERRIDDEN``): ``on_url`` and ``on_header`` count before calling uvicorn's own;
``send_400_response``, which uvicorn calls when the parser stops, answers the bound that was passed
(or 400) instead of its text and drains the rest of the request before closing; ``data_received``
does the draining; ``connection_made``, ``connection_lost``, ``on_message_begin`` and
``on_headers_complete`` start and stop the head timer (below). It reads four attributes uvicorn sets
(``transport``, ``loop``, ``url``, ``cycle``). ``tests/web/test_protocol_fence.py`` checks the
installed version and that each of those still has the shape this relies on;
``tests/web/test_transport.py`` sends a 100 KiB URL, 100 KiB of headers and unparsable heads to a
real server.

It also bounds the time a client may take to send a request head (``TESSERA_HEADER_TIMEOUT_SECONDS``,
from the connection's first byte or the request's first byte to the blank line ending the head).
uvicorn's keep-alive timer stops as soon as any byte arrives, so a client sending a head byte by
byte (slowloris) or one that opens a connection and sends nothing past its first line would hold a
connection and its file descriptor forever. Past the bound the connection is closed without an
answer, as nginx's ``client_header_timeout`` does: a client that has not finished its head is not
reading either. ``tests/web/test_request_bounds_on_the_wire.py`` holds a partial head open.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from tessera.core.errors import FieldError, HeaderFieldsTooLarge, ServiceError, UriTooLong, ValidationFailed
from tessera.core.i18n import N_
from tessera.web.context import MAX_HEADER_BYTES, MAX_URL_BYTES
from tessera.web.envelopes import render_error
from tessera.web.surface import surface_of

log = logging.getLogger("tessera.http")

# The uvicorn whose HttpToolsProtocol this subclasses, the methods it overrides and the attributes of
# uvicorn's it reads (``tests/web/test_protocol_fence.py`` holds them to the installed uvicorn).
UVICORN_VERSION = "0.54.0"
OVERRIDDEN = ("connection_made", "connection_lost", "data_received", "on_message_begin", "on_headers_complete",
              "on_url", "on_header", "send_400_response")
READ_ATTRIBUTES = ("transport", "loop", "url", "cycle")

_REASONS = {414: b"URI Too Long", 431: b"Request Header Fields Too Large"}
# How long the rest of a refused request is read and dropped before the connection closes: closing
# with unread bytes would reset it, and the client would lose the answer it has not read yet.
DRAIN_SECONDS = 5.0


class _BoundPassed(Exception):
    """Raised inside a parser callback: httptools stops and uvicorn calls ``send_400_response``."""


class BoundedHttpToolsProtocol(HttpToolsProtocol):
    # Set once per process from the settings (``configure``): uvicorn builds the protocol itself,
    # from the class alone, in every process it starts.
    head_timeout_seconds: float = 10.0
    _passed: ServiceError | None = None
    _header_bytes = 0
    _draining = False
    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_head_timer()  # a connection that never sends a complete head is closed too

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._draining:
            return  # the rest of a refused request: read and dropped, never parsed
        super().data_received(data)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._passed, self._header_bytes = None, 0
        self._start_head_timer()

    def on_headers_complete(self) -> None:
        self._stop_head_timer()
        super().on_headers_complete()

    def _start_head_timer(self) -> None:
        self._stop_head_timer()
        self._head_timer = self.loop.call_later(self.head_timeout_seconds, self._head_timed_out)

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self.cycle is not None and not self.cycle.response_complete:
            self._start_head_timer()  # an earlier request is still being answered: wait for it
            return
        log.info("http.head_timeout", extra={"seconds": self.head_timeout_seconds})
        self.transport.close()

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        if len(self.url) > MAX_URL_BYTES:
            self._passed = UriTooLong()
            raise _BoundPassed

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_bytes += len(name) + len(value)
        if self._header_bytes > MAX_HEADER_BYTES:
            self._passed = HeaderFieldsTooLarge()
            raise _BoundPassed
        super().on_header(name, value)

    def send_400_response(self, msg: str) -> None:
        if self._passed is None:  # not HTTP llhttp can parse (a Content-Length of "+XK"...)
            log.info("http.unparsable_request", extra={"reason": msg})
            self._passed = ValidationFailed({"request": FieldError(N_("Is not valid."))})
        path = self.url.split(b"?", 1)[0].decode("latin-1")
        request_id = str(uuid.uuid4())
        status, body, headers = render_error(self._passed, surface_of(path), request_id)
        content = json.dumps(body, separators=(",", ":")).encode()
        lines = [b"HTTP/1.1 %d %s\r\n" % (status, _REASONS.get(status, b"Bad Request"))]
        fields: dict[str, Any] = {**headers, "Content-Type": "application/json", "Content-Length": str(len(content)),
                                  "X-Request-Id": request_id, "Connection": "close"}
        lines += [f"{name}: {value}\r\n".encode("latin-1") for name, value in fields.items()]
        self.transport.write(b"".join([*lines, b"\r\n", content]))
        self._draining = True
        if self.transport.can_write_eof():
            self.transport.write_eof()  # the answer is complete; the client may still be sending
        self.loop.call_later(DRAIN_SECONDS, self.transport.close)


def configure(head_timeout_seconds: float) -> None:
    """The head timeout of every connection this process serves (``tessera serve``, and each
    process of ``--workers N``, call it with ``TESSERA_HEADER_TIMEOUT_SECONDS``)."""
    BoundedHttpToolsProtocol.head_timeout_seconds = head_timeout_seconds
