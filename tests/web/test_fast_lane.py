"""The fast lane serves documented operations without the middleware stack below it, and leaves
every other path to that stack (what it answers is compared with stock Connexion in
``test_fast_path.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.types import Receive, Scope, Send

from tessera.app import create_app
from tessera.web.connexion.fastlane import FastLane
from tests.conftest import Env, TenantUsers, bearer, issue_token

STACK = 299  # what the stand-in for the stack below the lane answers


async def _refuse(scope: Scope, receive: Receive, send: Send) -> None:  # noqa: ARG001 - an ASGI app
    await send({"type": "http.response.start", "status": STACK, "headers": []})
    await send({"type": "http.response.body", "body": b""})


@pytest.fixture
def client(env: Env) -> Iterator[TestClient]:
    with TestClient(create_app(env.runtime.settings, env.runtime), raise_server_exceptions=False) as client:
        client.get("/api/health")  # Connexion builds its stack, and the lane its routes, on the first call
        yield client


def _lane(client: TestClient) -> FastLane:
    layer: Any = client.app.middleware.app
    while not isinstance(layer, FastLane):
        layer = layer.app
    return layer


def test_documented_operations_are_served_without_the_stack_below_the_lane(
        env: Env, tenant: TenantUsers, client: TestClient) -> None:
    cred = tenant.install(scopes=("assets.read",))
    token = bearer(issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"])
    lane = _lane(client)
    lane.app = _refuse
    assert client.get("/api/health").status_code == 200
    assert client.get("/api/open/v1/whoami", headers=token).status_code == 200
    assert client.get("/api/open/v1/resources/assets", headers=token, params={"limit": "1"}).status_code == 200
    # a path parameter the document refuses (not a pid) is still the operation's 400
    assert client.get("/api/open/v1/resources/assets/ast_missing", headers=token).status_code == 400
    assert client.get("/api/dynamic/assets/list", headers=tenant.headers()).status_code == 200
    # a documented operation refusing bad input is still the operation's answer
    assert client.get("/api/dynamic/assets/list", headers=tenant.headers(), params={"pageSize": "0"}).status_code == 400
    # a method the more specific template lacks: the method guard's 405, from the lane
    assert client.put("/api/open-platform/automations/list", headers=tenant.headers(), json={}).status_code == 405


@pytest.mark.parametrize("path", ["/metrics", "/api/openapi.json", "/api/open/v1/docs/", "/console/",
                                  "/api/nowhere", "/api/health/"])
def test_paths_the_documents_do_not_route_go_down_the_stack(client: TestClient, path: str) -> None:
    _lane(client).app = _refuse
    assert client.get(path).status_code == STACK


def test_a_method_no_route_takes_goes_down_the_stack(client: TestClient) -> None:
    _lane(client).app = _refuse
    assert client.delete("/api/health").status_code == STACK


def test_each_operations_chain_reaches_its_handler_without_a_middleware(client: TestClient) -> None:
    """The chain is the operation's own objects, each calling the next: no middleware's lookup on the way."""
    lane = _lane(client)
    assert lane._static is not None
    routes = {id(r): r for r in [*lane._static.values(), *(r for rs in lane._templated.values() for r in rs)]}.values()
    assert len(routes) > 50
    for route in routes:
        step: Any = route.chain
        kinds = []
        while step is not None:
            kinds.append(type(step).__name__)
            step = getattr(step, "next_app", None)
        assert all(not kind.endswith("Middleware") for kind in kinds), (route.template, kinds)
        assert kinds[-1] == "CachedAsyncOperation", (route.template, kinds)
