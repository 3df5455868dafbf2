"""Per-operation work is done once, not on every request (the performance issue's first lever)."""

from __future__ import annotations

from typing import Any

import pytest

from tessera.web.connexion.operations import CachedAsyncApi, CachedAsyncOperation
from tests.conftest import Env, TenantUsers, bearer, issue_token


def _handler_operations(env: Env) -> list[Any]:
    apis = [api for group in env.client.app._middleware_app.apis.values() for api in group]
    assert apis and all(isinstance(api, CachedAsyncApi) for api in apis)
    return [op for api in apis for op in api.operations.values()]


def test_handler_decorator_stacks_are_built_once_per_operation(env: Env) -> None:
    env.client.get("/api/health")
    health = next(op for op in _handler_operations(env) if op.operation_id.endswith(".health"))
    assert isinstance(health, CachedAsyncOperation)
    first = health.fn
    env.client.get("/api/health")
    assert health.fn is first


def test_request_validators_are_built_once_per_operation(env: Env) -> None:
    from tessera.web.connexion.validation import CachedRequestValidationOperation

    env.client.get("/api/health")
    middleware = next(m for m in env.client.app.middleware.middleware_stack
                      if type(m).__name__ == "CachedRequestValidationMiddleware")
    operations = [op for group in middleware.apis.values() for api in group for op in api.operations.values()]
    health = next(op for op in operations if op._operation.operation_id.endswith(".health"))
    assert isinstance(health, CachedRequestValidationOperation)
    validator = health._parameters()
    env.client.get("/api/health")
    assert health._parameters() is validator


def test_security_checks_inspect_the_token_function_once_not_per_request(
        env: Env, tenant: TenantUsers, monkeypatch: pytest.MonkeyPatch) -> None:
    import connexion.security

    cred = tenant.install()
    token = issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"]
    assert env.client.get("/api/open/v1/whoami", headers=bearer(token)).status_code == 200
    inspected: list[object] = []
    original = connexion.security.inspect_function_arguments

    def counting(func: object) -> object:
        inspected.append(func)
        return original(func)

    monkeypatch.setattr(connexion.security, "inspect_function_arguments", counting)
    for _ in range(3):
        assert env.client.get("/api/open/v1/whoami", headers=bearer(token)).status_code == 200
    assert env.client.get("/api/dynamic/assets/list", headers=env.login("admin@demo.example")).status_code == 200
    assert inspected == []


def test_operations_without_a_request_body_never_look_for_form_files(
        env: Env, tenant: TenantUsers, monkeypatch: pytest.MonkeyPatch) -> None:
    from connexion.lifecycle import ConnexionRequest

    cred = tenant.install()
    token = issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"]
    session = env.login("admin@demo.example")
    looked: list[str] = []
    original = ConnexionRequest.files

    async def counting(self: ConnexionRequest) -> Any:
        looked.append(self.scope["path"])
        return await original(self)

    monkeypatch.setattr(ConnexionRequest, "files", counting)
    assert env.client.get("/api/open/v1/whoami", headers=bearer(token)).status_code == 200
    assert env.client.get("/api/open/v1/resources/assets", headers=bearer(token)).status_code == 200
    assert env.client.get("/api/dynamic/assets/list", headers=session).status_code == 200
    assert looked == []
