"""Method guard: 405 with a correct ``Allow`` for every documented path, before routing.

Connexion routes on path templates without their parameter patterns, so ``PUT .../members/list``
would reach the ``.../members/{userPid}`` operation, and Starlette's 405 lists only the first
route's method when a path has several. Matching the request against the documents' templates,
most specific first (fewest parameters), gives the right answer for both.
"""

from __future__ import annotations

import re
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from tessera.core.errors import MethodNotAllowed

HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


class MethodIndex:
    def __init__(self, routes: list[tuple[re.Pattern[str], frozenset[str], str]]) -> None:
        self._routes = routes

    @classmethod
    def from_documents(cls, documents: list[dict[str, Any]]) -> MethodIndex:
        templates: dict[str, set[str]] = {}
        for spec in documents:
            for template, item in (spec.get("paths") or {}).items():
                templates.setdefault(template, set()).update(m.upper() for m in item if m in HTTP_METHODS)
        ordered = sorted(templates.items(), key=lambda kv: (kv[0].count("{"), -len(kv[0])))
        routes = []
        for template, methods in ordered:
            pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template))
            routes.append((re.compile(f"^{pattern}$"), frozenset(methods), template))
        return cls(routes)

    def entries(self) -> list[tuple[re.Pattern[str], frozenset[str], str]]:
        """Every template's pattern, methods and template, most specific first (the guard's order)."""
        return list(self._routes)

    def allowed(self, request_path: str) -> frozenset[str] | None:
        """Methods of the most specific documented template matching the path, or None."""
        for pattern, methods, _template in self._routes:
            if pattern.match(request_path):
                return methods
        return None


class MethodGuardMiddleware:
    def __init__(self, app: ASGIApp, index: MethodIndex) -> None:
        self.app = app
        self.index = index

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            methods = self.index.allowed(scope.get("path", ""))
            if methods is not None and scope.get("method", "GET") not in methods:
                raise MethodNotAllowed(headers={"Allow": ", ".join(sorted(methods))})
        await self.app(scope, receive, send)
