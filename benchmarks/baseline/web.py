"""The HTTP side of the baseline, on ASGI itself: a request read whole, a response sent in one body.

Why no framework: the baseline is the least a Python service on uvicorn can do, so between uvicorn
and the handlers there is only what every answer needs: the body read, headers and query string
decoded (first header wins, last query parameter wins, as Starlette's ``Headers`` and
``QueryParams`` do), and a JSON body sent with its length.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from baseline.refusals import encode

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


@dataclass
class Request:
    """One request: method, path (decoded), query string, headers (lower-case names), body."""

    method: str
    path: str
    query_string: bytes
    headers: dict[str, str]
    body: bytes
    params: dict[str, str]  # path parameters the route matched

    def header(self, name: str) -> str | None:
        return self.headers.get(name)

    def query(self) -> dict[str, str]:
        return dict(parse_qsl(self.query_string.decode("latin-1"), keep_blank_values=True))

    def form(self) -> dict[str, str]:
        """An ``application/x-www-form-urlencoded`` body as a dict (empty for any other content type)."""
        kind = (self.header("content-type") or "").partition(";")[0].strip().lower()
        if kind != "application/x-www-form-urlencoded":
            return {}
        return dict(parse_qsl(self.body.decode("latin-1"), keep_blank_values=True))


@dataclass
class Reply:
    status: int
    body: bytes
    headers: dict[str, str]
    content_type: bytes = b"application/json"


def json_reply(status: int, body: Any, headers: dict[str, str]) -> Reply:
    return Reply(status, encode(body), headers)


def text_reply(status: int, text: str) -> Reply:
    """What Starlette answers for an unknown route or method (plain text)."""
    return Reply(status, text.encode(), {}, b"text/plain; charset=utf-8")


async def read(scope: Scope, receive: Receive, params: dict[str, str]) -> Request:
    """The whole request: the body read to its end."""
    headers: dict[str, str] = {}
    for name, value in scope["headers"]:
        headers.setdefault(name.decode("latin-1"), value.decode("latin-1"))
    chunks = []
    while True:
        message = await receive()
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            break
    return Request(scope["method"], scope["path"], scope["query_string"], headers, b"".join(chunks), params)


async def send_reply(send: Send, reply: Reply) -> None:
    raw = [(b"content-type", reply.content_type), (b"content-length", str(len(reply.body)).encode())]
    raw += [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in reply.headers.items()]
    await send({"type": "http.response.start", "status": reply.status, "headers": raw})
    await send({"type": "http.response.body", "body": reply.body})
