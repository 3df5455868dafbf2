"""The admin console: a static single-page application at ``/console`` over the session API.

The console is plain files (``tessera/web/static/console/``: one HTML shell, ES modules, a style sheet,
the en and zh-CN message dictionaries), served as they are, with no build step. It talks only to
the documented session API, with the JWT held in the page's memory (never in browser storage or a
cookie, so there is no CSRF surface and nothing survives a reload).

Everything it serves carries a Content-Security-Policy that allows nothing inline: scripts,
styles, images and fetches only from this origin, no framing, no ``<base>``. Like
``api_reference.py`` this is an ASGI middleware answering a fixed set of paths; the files are read
once at start, so a request costs a dictionary lookup.
"""

from __future__ import annotations

import hashlib
from importlib import resources
from importlib.resources.abc import Traversable

from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from tessera.web.context import header

PREFIX = "/console"
ASSETS = f"{PREFIX}/assets/"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
MEDIA_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
}
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}


class ConsoleMiddleware:
    """Answers GET/HEAD for ``/console``, ``/console/`` and ``/console/assets/...``; passes the rest on."""

    def __init__(self, app: ASGIApp, root: Traversable | None = None) -> None:
        self.app = app
        root = root or resources.files("tessera.web").joinpath("static/console")
        shell = root.joinpath("index.html").read_bytes()
        # The shell is never cached: a new release must never run against a stale page.
        shell_response = _response(shell, MEDIA_TYPES[".html"], "no-store")
        self.routes: dict[str, tuple[Response, str | None]] = {PREFIX: (shell_response, None),
                                                                PREFIX + "/": (shell_response, None)}
        for relative, body in _files(root):
            suffix = relative[relative.rfind("."):]
            if relative == "index.html" or suffix not in MEDIA_TYPES:
                continue
            etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
            # Assets revalidate on every load (cheap 304s): file names carry no version.
            response = _response(body, MEDIA_TYPES[suffix], "no-cache", etag)
            self.routes[ASSETS + relative] = (response, etag)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if path != PREFIX and not path.startswith(PREFIX + "/"):
            await self.app(scope, receive, send)
            return
        found = self.routes.get(path)
        response: Response
        if found is None:
            response = PlainTextResponse("Not Found", 404, headers=SECURITY_HEADERS)
        elif scope.get("method") not in ("GET", "HEAD"):
            response = PlainTextResponse("Method Not Allowed", 405, headers={**SECURITY_HEADERS, "Allow": "GET, HEAD"})
        else:
            response, etag = found
            if etag is not None and header(scope, b"if-none-match") == etag:
                response = Response(status_code=304, headers={**SECURITY_HEADERS, "ETag": etag,
                                                              "Cache-Control": "no-cache"})
        await response(scope, receive, send)


def claims(path: str) -> bool:
    """Whether the console answers ``path`` itself (whatever the method)."""
    return path == PREFIX or path.startswith(PREFIX + "/")


def _files(root: Traversable, prefix: str = "") -> list[tuple[str, bytes]]:
    """Every file below ``root`` as (relative path, bytes), depth first."""
    found: list[tuple[str, bytes]] = []
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            found += _files(entry, f"{prefix}{entry.name}/")
        else:
            found.append((prefix + entry.name, entry.read_bytes()))
    return found


def _response(body: bytes, media_type: str, cache_control: str, etag: str | None = None) -> Response:
    headers = {**SECURITY_HEADERS, "Cache-Control": cache_control}
    if etag is not None:
        headers["ETag"] = etag
    return Response(body, media_type=media_type, headers=headers)
