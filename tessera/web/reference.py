"""Interactive API reference: one Swagger UI page per surface, and each document as published.

Connexion's own Swagger UI middleware mounts every API at its base path, and both of our
documents are rooted at ``/`` (their paths carry ``/api`` and ``/oauth2``), so the first API's
mount shadows the second's: only one surface could have a reference. This middleware serves both,
from the ``swagger-ui-bundle`` assets Connexion already depends on, with a Content-Security-Policy
that allows no inline script (the page starts Swagger UI from a static file). The documents are
served as written, ``$ref``s kept, the same bytes an SDK generator reads from the repository.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send
from swagger_ui_bundle import swagger_ui_path

CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
ASSETS = {
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
    "index.css": "text/css; charset=utf-8",
    "favicon-32x32.png": "image/png",
    "favicon-16x16.png": "image/png",
}
PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title}: API reference</title>
  <link rel="stylesheet" href="swagger-ui.css">
  <link rel="stylesheet" href="index.css">
  <link rel="icon" type="image/png" href="favicon-32x32.png" sizes="32x32">
</head>
<body data-spec="{spec}">
  <div id="swagger-ui"></div>
  <script src="swagger-ui-bundle.js"></script>
  <script src="swagger-ui-standalone-preset.js"></script>
  <script src="api-reference.js"></script>
</body>
</html>
"""


@dataclass(frozen=True)
class Surface:
    """One documented surface: where its reference page and its document are served."""

    title: str
    docs_path: str  # the reference page lives at docs_path + "/"
    spec_path: str  # JSON; the same path ending in .yaml serves YAML
    document: dict[str, Any]


class ApiReferenceMiddleware:
    """Answers GET/HEAD for the reference pages, their assets and the documents; passes the rest on."""

    def __init__(self, app: ASGIApp, surfaces: list[Surface]) -> None:
        self.app = app
        self.routes: dict[str, Response] = {}
        self.redirects: dict[str, str] = {}
        assets = Path(swagger_ui_path)
        own_script = resources.files("tessera.web").joinpath("static/api-reference.js").read_bytes()
        for surface in surfaces:
            base = surface.docs_path
            self.redirects[base] = base + "/"
            page = PAGE.format(title=surface.document["info"]["title"], spec=surface.spec_path)
            self.routes[base + "/"] = _static(page.encode(), "text/html; charset=utf-8", csp=True)
            for name, media_type in ASSETS.items():
                self.routes[f"{base}/{name}"] = _static((assets / name).read_bytes(), media_type)
            self.routes[f"{base}/api-reference.js"] = _static(own_script, "text/javascript; charset=utf-8")
            as_json = json.dumps(surface.document, ensure_ascii=False, indent=2).encode()
            self.routes[surface.spec_path] = _static(as_json, "application/json")
            as_yaml = yaml.safe_dump(surface.document, sort_keys=False, allow_unicode=True).encode()
            self.routes[surface.spec_path.removesuffix(".json") + ".yaml"] = _static(as_yaml, "application/yaml")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if path in self.routes or path in self.redirects:
            if scope.get("method") not in ("GET", "HEAD"):
                response: Response = PlainTextResponse("Method Not Allowed", 405, headers={"Allow": "GET, HEAD"})
            elif path in self.redirects:
                response = RedirectResponse(self.redirects[path], status_code=308)
            else:
                response = self.routes[path]
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _static(body: bytes, media_type: str, *, csp: bool = False) -> Response:
    headers = {"X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache"}
    if csp:
        headers["Content-Security-Policy"] = CSP
        headers["Referrer-Policy"] = "no-referrer"
    return Response(body, media_type=media_type, headers=headers)
