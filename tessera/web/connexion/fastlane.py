"""Route once, then run Connexion's own per-operation objects back to back.

Connexion 3.3 answers a request through a chain of middlewares (``connexion.middleware``): the
routing middleware matches the path with a Starlette router over each API's routes (the session
API's, then the Open Platform's, since both are rooted at "/", so an Open Platform call first fails
every session route), then the security, request validation, response validation, lifespan and
context middlewares and the app each look the routed operation up again by its operationId and call
that operation's object (``SecurityOperation``, ``RequestValidationOperation``, ...), whose
``next_app`` is the next *middleware*. Before routing, our own middlewares (metrics, the API
reference, the console, the method guard) each look at the path and pass it on.

``FastLane`` sits before those middlewares of ours and, for a request Connexion would route to an
operation, does that work once:

- it matches the request against Connexion's own routes (the same regular expressions and
  converters, in the same order: the first route matching both path and method), with a dictionary
  for the routes without parameters;
- it applies the method guard's rule (``tessera.web.methods``) with only the templates that can
  match the same paths (found at start), so a method the most specific template lacks still gets 405;
- it leaves the scope as Connexion's routing does (the operationId and the API's base path under
  ``extensions["connexion_routing"]``, the converted ``path_params``);
- it runs the operation's chain: a copy of each routed middleware's object for that operation,
  with ``next_app`` pointing at the next object of the same operation instead of the next
  middleware. The objects are Connexion's, built by Connexion from the documents: the same security
  checks, validators, context and handler, in the same order.

Anything else (paths our middlewares serve, unknown paths, a method no route takes) goes down the
full stack unchanged. The chains are built on the first request, once Connexion has built its
middleware stack and registered the APIs (it does both lazily, on its first call).
``tests/web/test_fast_path.py`` sends the same requests to an app without this lane and compares
every answer.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from connexion.middleware.abstract import ROUTING_CONTEXT, RoutedMiddleware
from connexion.middleware.routing import RoutingMiddleware
from starlette.routing import Mount, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from tessera.core.errors import MethodNotAllowed
from tessera.web.methods import MethodIndex


@dataclass(frozen=True)
class _Route:
    """One of Connexion's routes: a path pattern, its converters and what it leads to."""

    regex: re.Pattern[str]
    convertors: dict[str, Any]
    methods: frozenset[str]
    template: str
    base_path: str
    operation_id: str
    chain: ASGIApp
    # Documented templates that may also match this route's paths and rank before it in the method
    # guard's order, with their methods: the guard's answer is the first of them that matches.
    guards: tuple[tuple[re.Pattern[str], frozenset[str]], ...]


class FastLane:
    """ASGI middleware: requests Connexion would route to an operation skip straight to its chain.

    ``claims`` are the predicates of the middlewares this lane jumps over that answer some paths
    themselves (the metrics endpoint, the API reference, the console): such a path is never taken.
    """

    def __init__(self, app: ASGIApp, index: MethodIndex, claims: Iterable[Callable[[str], bool]]) -> None:
        self.app = app
        self.index = index
        self.claims = tuple(claims)
        self._static: dict[tuple[str, str], _Route] | None = None
        self._templated: dict[str, list[_Route]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        # A path another middleware answers is theirs before any route or method rule applies.
        found = None if any(claim(path) for claim in self.claims) else self._route(scope["method"], path)
        if found is None:
            await self.app(scope, receive, send)
            return
        route, params = found
        scope.setdefault("extensions", {})[ROUTING_CONTEXT] = {"api_base_path": route.base_path,
                                                               "operation_id": route.operation_id}
        if params:
            scope.setdefault("path_params", {}).update(params)
        await route.chain(scope, receive, send)

    def _route(self, method: str, path: str) -> tuple[_Route, dict[str, Any] | None] | None:
        """The route Connexion would take and its converted parameters; 405 where the method guard
        would refuse the method; None where Connexion's router finds no route for both."""
        if self._static is None:
            self._compile()
        route = self._static.get((method, path)) if self._static is not None else None
        params: dict[str, Any] | None = None
        if route is None:
            found = self._templated_route(method, path)
            if found is None:
                return None
            route, params = found
        for regex, methods in route.guards:
            if regex.match(path):
                if method not in methods:
                    raise MethodNotAllowed(headers={"Allow": ", ".join(sorted(methods))})
                break
        return route, params

    def _templated_route(self, method: str, path: str) -> tuple[_Route, dict[str, Any]] | None:
        for route in self._templated.get(method, ()):
            matched = route.regex.match(path)
            if matched is not None:
                values = matched.groupdict()
                return route, {name: route.convertors[name].convert(value) for name, value in values.items()}
        return None

    def _compile(self) -> None:
        """The routes and chains, from the middlewares Connexion built below this one."""
        routing, routed = _middlewares_below(self.app)
        ordered = list(_routes(routing))
        static: dict[tuple[str, str], _Route] = {}
        in_order: dict[str, list[_Route]] = {}
        for position, (route, base_path, operation_id) in enumerate(ordered):
            chain = _chain(routed, base_path, operation_id)
            if chain is None:
                continue
            compiled = _Route(route.path_regex, dict(route.param_convertors), frozenset(route.methods or ()),
                              route.path, base_path, operation_id, chain, self._guards(route.path))
            for method in compiled.methods:
                in_order.setdefault(method, []).append(compiled)
                if not route.param_convertors and not _taken_before(ordered[:position], method, route.path):
                    static.setdefault((method, route.path), compiled)
        self._templated = {method: [r for r in routes if r.convertors] for method, routes in in_order.items()}
        self._static = static

    def _guards(self, template: str) -> tuple[tuple[re.Pattern[str], frozenset[str]], ...]:
        """The method index's entries that can match a path of ``template``, in the index's order,
        up to and including the template's own (the index answers with the first that matches)."""
        found = []
        for regex, methods, other in self.index.entries():
            if other == template:
                found.append((regex, methods))
                break
            if _may_overlap(other, template):
                found.append((regex, methods))
        return tuple(found)


def _taken_before(earlier: list[tuple[Route, str, str]], method: str, path: str) -> bool:
    """Whether an earlier route takes ``path`` (a path without parameters) for ``method``."""
    return any(method in (route.methods or ()) and route.path_regex.match(path) is not None
               for route, _, _ in earlier)


def _may_overlap(one: str, other: str) -> bool:
    """Whether two path templates can match one path: as many segments, each pair equal or one a
    parameter (a parameter matches one segment, ``[^/]+``)."""
    first, second = one.split("/"), other.split("/")
    return len(first) == len(second) and all(
        a == b or a.startswith("{") or b.startswith("{") for a, b in zip(first, second, strict=True))


def _middlewares_below(app: ASGIApp) -> tuple[RoutingMiddleware, list[RoutedMiddleware[Any]]]:
    """Connexion's routing middleware and, in call order, the routed middlewares after it (the
    security, validation and context middlewares and the app)."""
    routing: RoutingMiddleware | None = None
    routed: list[RoutedMiddleware[Any]] = []
    seen = 0
    current: Any = app
    while current is not None and seen < 64:
        seen += 1
        if isinstance(current, RoutingMiddleware):
            routing = current
        elif routing is not None and isinstance(current, RoutedMiddleware):
            routed.append(current)
        # Connexion's lifespan middleware calls its inner app ``next_app``; the others ``app``.
        current = getattr(current, "app", None) or getattr(current, "next_app", None)
    if routing is None or not routed:
        raise RuntimeError("FastLane must sit above Connexion's routing middleware")
    return routing, routed


def _routes(routing: RoutingMiddleware) -> Iterable[tuple[Route, str, str]]:
    """Connexion's routes in the order its router tries them: each API mounted at its base path,
    an API registered on a base path already mounted being tried after the first one's routes
    (Connexion mounts that API again too; a route reached twice keeps its first place)."""
    seen: set[int] = set()
    for mount in routing.router.routes:
        if not isinstance(mount, Mount):
            continue
        router: Any = mount.app
        while router is not None:
            for route in router.routes:
                operation_id = getattr(route.endpoint, "operation_id", None)
                if isinstance(route, Route) and operation_id and id(route) not in seen:
                    seen.add(id(route))
                    yield route, mount.path, operation_id
            router = getattr(router, "default", None)
            if router is not None and not hasattr(router, "routes"):
                router = None


def _chain(routed: list[RoutedMiddleware[Any]], base_path: str, operation_id: str) -> ASGIApp | None:
    """The operation's objects of every routed middleware, each calling the next one directly."""
    steps: list[Any] = []
    for middleware in routed:
        operation = None
        for api in middleware.apis.get(base_path, ()):
            operation = api.operations.get(operation_id)
            if operation is not None:
                break
        if operation is None:
            return None  # a middleware without the operation passes it on: leave it to the stack
        if operation is getattr(api, "next_app", None):
            # The middleware has nothing to do for it (response validation, when off, registers
            # the next middleware itself as the operation): the chain goes straight on.
            continue
        steps.append(operation)
    chain: Any = None
    for step in reversed(steps):
        if chain is not None:
            step = copy.copy(step)
            step.next_app = chain
        chain = step
    return chain
