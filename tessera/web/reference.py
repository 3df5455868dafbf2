"""Interactive API reference: one Swagger UI page per surface, and each document as published.

Connexion's own Swagger UI middleware mounts every API at its base path, and both of our
documents are rooted at ``/`` (their paths carry ``/api`` and ``/oauth2``), so the first API's
mount shadows the second's: only one surface could have a reference. This middleware serves both,
from the ``swagger-ui-bundle`` assets Connexion already depends on, with a Content-Security-Policy
that allows no inline script (the page starts Swagger UI from a static file). The documents are
served as written, ``$ref``s kept, with one change: the files keep their server URL relative (or a
variable), and a served document names the origin it was asked on instead, in ``servers`` and in
each OAuth flow's URLs, so that importers (Postman, Swagger UI's "Try it out") get absolute URLs.
The origin is the one every absolute URL of the service uses (``origin.py``: ``TESSERA_PUBLIC_URL``,
else the request's scheme and plain ``Host``); without one the document is served as written.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send
from swagger_ui_bundle import swagger_ui_path

from tessera.web.context import current_or_none
from tessera.web.origin import origin

CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
_FLOW_URLS = ("authorizationUrl", "tokenUrl", "refreshUrl")
_ORIGINS_CACHED = 8  # per document; the origins a service is reached under are few
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

    def claims(self, path: str) -> bool:
        """Whether the reference may answer ``path`` itself: its page and assets, its documents."""
        return path.startswith(self.docs_path) or path.startswith(self.spec_path.removesuffix(".json"))


class ApiReferenceMiddleware:
    """Answers GET/HEAD for the reference pages, their assets and the documents; passes the rest on."""

    def __init__(self, app: ASGIApp, surfaces: list[Surface]) -> None:
        self.app = app
        self.routes: dict[str, Response] = {}
        self.redirects: dict[str, str] = {}
        self.documents: dict[str, ServedDocument] = {}
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
            self.documents[surface.spec_path] = ServedDocument(surface.document, yaml_form=False)
            self.documents[surface.spec_path.removesuffix(".json") + ".yaml"] = ServedDocument(
                surface.document, yaml_form=True)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if path in self.routes or path in self.redirects or path in self.documents:
            if scope.get("method") not in ("GET", "HEAD"):
                response: Response = PlainTextResponse("Method Not Allowed", 405, headers={"Allow": "GET, HEAD"})
            elif path in self.redirects:
                response = RedirectResponse(self.redirects[path], status_code=308)
            elif path in self.documents:
                state = current_or_none()
                public_url = state.runtime.settings.public_url if state is not None else None
                response = self.documents[path].response(origin(scope, public_url))
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


def with_origin(document: dict[str, Any], origin: str) -> dict[str, Any]:
    """The document with its relative (or templated) server URLs and OAuth flow URLs made absolute."""
    served = dict(document)
    served["servers"] = [_served_server(server, origin) for server in document.get("servers") or [{"url": "/"}]]
    schemes = (document.get("components") or {}).get("securitySchemes") or {}
    if any(scheme.get("type") == "oauth2" for scheme in schemes.values()):
        served["components"] = {**document["components"],
                                "securitySchemes": {name: _served_scheme(scheme, origin)
                                                    for name, scheme in schemes.items()}}
    return served


def _served_server(server: dict[str, Any], origin: str) -> dict[str, Any]:
    """A server entry at ``origin``: its URL's variables filled with their defaults, then only its path kept
    (a server is where this service is, whatever host the file names), and the variables dropped."""
    defaults = {name: var.get("default", "") for name, var in (server.get("variables") or {}).items()}
    url = server["url"].format(**defaults) if defaults else server["url"]
    path = urlsplit(url).path.rstrip("/")
    return {**{k: v for k, v in server.items() if k != "variables"}, "url": origin + path}


def _served_scheme(scheme: dict[str, Any], origin: str) -> dict[str, Any]:
    """An OAuth 2.0 scheme with its flows' relative URLs under ``origin`` (an absolute one is kept as written);
    any other scheme as it is."""
    if scheme.get("type") != "oauth2":
        return scheme
    flows = {flow_name: {key: (origin + value if key in _FLOW_URLS and value.startswith("/") else value)
                         for key, value in flow.items()}
             for flow_name, flow in scheme.get("flows", {}).items()}
    return {**scheme, "flows": flows}


# libyaml's emitter where PyYAML has it: the same document, in a tenth of the pure-Python emitter's time.
_DUMPER: type[yaml.SafeDumper] = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class ServedDocument:
    """One document in one form (JSON or YAML): as written, or with a request's origin (cached per origin).

    Rendered when first asked for, not when the app is built: most processes never serve their
    documents, and rendering both in both forms costs more than the rest of an app's build."""

    def __init__(self, document: dict[str, Any], *, yaml_form: bool) -> None:
        self.document = document
        self.yaml_form = yaml_form
        self.as_written: Response | None = None
        self.by_origin: OrderedDict[str, Response] = OrderedDict()

    def _render(self, document: dict[str, Any]) -> Response:
        if self.yaml_form:
            text = yaml.dump(document, Dumper=_DUMPER, sort_keys=False, allow_unicode=True)
            return _static(text.encode(), "application/yaml")
        return _static(json.dumps(document, ensure_ascii=False, indent=2).encode(), "application/json")

    def response(self, origin: str | None) -> Response:
        if origin is None:
            if self.as_written is None:
                self.as_written = self._render(self.document)
            return self.as_written
        found = self.by_origin.get(origin)
        if found is None:
            found = self.by_origin[origin] = self._render(with_origin(self.document, origin))
            if len(self.by_origin) > _ORIGINS_CACHED:
                self.by_origin.popitem(last=False)
        return found
