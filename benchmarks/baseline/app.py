"""The baseline's ASGI app: bare Starlette routes over the store, built from the two registries.

Routes are made from the registries the way Tessera's published document is (one list and one read
per published resource, one endpoint per create command and per event source); the store is
opened, its pool full, before the first request, and closed (the call audit flushed first) at
shutdown.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from baseline import registry as registries
from baseline.calls import CallAudit
from baseline.config import Config, Keys
from baseline.errors import respond
from baseline.lite import SqliteStore
from baseline.open_api import OpenPlatform
from baseline.pg import PostgresStore
from baseline.session_api import SessionApi
from baseline.store import Store


async def health(_request: Request) -> Response:
    return respond(200, {"code": "0", "message": "OK", "data": {"status": "up"}}, {})


def build(config: Config) -> Starlette:
    registry = registries.load(config.models_file, config.capabilities_file)
    store: Store = (PostgresStore(config.dsn, config.pool_size) if config.dialect == "postgresql"
                    else SqliteStore(config.dsn, config.pool_size))
    keys = Keys(config.secret_key)
    calls = CallAudit(store)
    open_api = OpenPlatform(store, keys, registry, config, calls)
    session = SessionApi(store, keys, registry, config)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        await store.open()
        try:
            yield
        finally:
            await calls.close()
            await store.close()

    resources = registry.resources.values()
    return Starlette(lifespan=lifespan, routes=[
        Route("/api/health", health),
        Route("/oauth2/token", open_api.issue_token, methods=["POST"]),
        Route("/api/open/v1/whoami", open_api.whoami),
        *(Route(f"/api/open/v1/resources/{r.name}", open_api.lister(r)) for r in resources),
        *(Route(f"/api/open/v1/resources/{r.name}/{{pid}}", open_api.reader(r)) for r in resources),
        *(Route(f"/api/open/v1/commands/{c.code}:execute", open_api.executor(c), methods=["POST"])
          for c in registry.open_commands.values() if c.action == "create"),
        *(Route(f"/api/open/v1/event-sources/{code}/events", open_api.event_receiver(code), methods=["POST"])
          for code in registry.event_sources),
        Route("/api/dynamic/{pageKey}/list", session.list_records),
        Route("/api/meta/commands/execute/{commandCode}", session.execute, methods=["POST"]),
    ])
