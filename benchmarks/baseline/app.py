"""The baseline's ASGI callable: the lifespan, and a route table looked up by the path itself.

Why a dict and not a router: the measured paths are known at start (one list and one read per
published resource, one path per create command and event source), so a request costs one dict
lookup, or a prefix split for the three paths that carry a parameter (a record's pid, a session
command's code, a dynamic page's key). An unknown path is 404 and a known one with another method
405, in plain text, as Starlette answers them.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial

from baseline import registry as registries
from baseline.calls import CallAudit
from baseline.commands import Commands
from baseline.config import Config, Keys
from baseline.lite import SqliteStore
from baseline.oauth import TokenEndpoint
from baseline.open_api import Call, OpenPlatform
from baseline.session_api import SessionApi
from baseline.store import Store
from baseline.web import Receive, Reply, Request, Scope, Send, json_reply, read, send_reply, text_reply

log = logging.getLogger("baseline.app")

RESOURCES = "/api/open/v1/resources/"
SESSION_COMMANDS = "/api/meta/commands/execute/"
PAGES, LIST = "/api/dynamic/", "/list"
Endpoint = Callable[[Request], Awaitable[Reply]]


@dataclass(frozen=True)
class Route:
    method: str
    endpoint: Endpoint


def store_for(config: Config) -> Store:
    """psycopg 3 on PostgreSQL, or asyncpg with ``BASELINE_DRIVER=asyncpg`` (``pg.driver``: only the chosen
    driver is imported), aiosqlite on SQLite."""
    if config.dialect == "postgresql":
        from baseline.pg import PostgresStore

        return PostgresStore(config.dsn, config.pool_size)
    return SqliteStore(config.dsn, config.pool_size)


async def health(_request: Request) -> Reply:
    return json_reply(200, {"code": "0", "message": "OK", "data": {"status": "up"}}, {})


class Baseline:
    """The app: every measured endpoint of Tessera on one store and one call audit."""

    def __init__(self, config: Config) -> None:
        registry = registries.load(config.models_file, config.capabilities_file)
        self.store = store_for(config)
        keys = Keys(config.secret_key)
        self.calls = CallAudit(self.store)
        open_api = OpenPlatform(self.store, keys, self.calls, registry)
        commands = Commands(self.store, keys, self.calls, registry, config)

        def business(handler: Callable[[Call], Awaitable[Reply]]) -> Endpoint:
            return partial(open_api.run, handler=handler)

        self.routes: dict[str, Route] = {
            "/api/health": Route("GET", health),
            "/oauth2/token": Route("POST", TokenEndpoint(self.store, keys, config)),
            "/api/open/v1/whoami": Route("GET", business(open_api.whoami)),
        }
        for r in registry.resources.values():
            self.routes[RESOURCES + r.name] = Route("GET", business(partial(open_api.page, resource=r)))
        for c in registry.open_commands.values():
            if c.action == "create":
                self.routes[f"/api/open/v1/commands/{c.code}:execute"] = Route(
                    "POST", business(partial(commands.execute, command=c)))
        for code in registry.event_sources:
            self.routes[f"/api/open/v1/event-sources/{code}/events"] = Route(
                "POST", business(partial(open_api.event, source_code=code)))
        self.reads = {r.name: Route("GET", business(partial(open_api.read, resource=r)))
                      for r in registry.resources.values()}
        session = SessionApi(self.store, keys, registry, config)
        self.session = Route("POST", session.execute)
        self.pages = Route("GET", session.list)

    def route(self, path: str) -> tuple[Route | None, dict[str, str]]:
        """The route of a path and its parameters."""
        if (found := self.routes.get(path)) is not None:
            return found, {}
        if path.startswith(RESOURCES):
            name, _, pid = path[len(RESOURCES):].partition("/")
            if pid and "/" not in pid and name in self.reads:
                return self.reads[name], {"pid": pid}
        elif path.startswith(SESSION_COMMANDS):
            code = path[len(SESSION_COMMANDS):]
            if code and "/" not in code:
                return self.session, {"commandCode": code}
        elif path.startswith(PAGES) and path.endswith(LIST):
            key = path[len(PAGES):-len(LIST)]
            if key and "/" not in key:
                return self.pages, {"pageKey": key}
        return None, {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            route, params = self.route(scope["path"])
            if route is None:
                reply = text_reply(404, "Not Found")
            elif route.method != scope["method"]:
                reply = text_reply(405, "Method Not Allowed")
            else:
                reply = await route.endpoint(await read(scope, receive, params))
            await send_reply(send, reply)
        elif scope["type"] == "lifespan":
            await self.lifespan(receive, send)

    async def lifespan(self, receive: Receive, send: Send) -> None:
        """The store opened, its pool full, before the first request; the call audit flushed at the end."""
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                try:
                    await self.store.open()
                except Exception as exc:
                    log.exception("could not open the store")
                    await send({"type": "lifespan.startup.failed", "message": repr(exc)})
                    return
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.calls.close()
                await self.store.close()
                await send({"type": "lifespan.shutdown.complete"})
                return
