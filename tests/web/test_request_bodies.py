"""A request body is parsed once: the handler gets what its validator parsed (``tessera/web/connexion/bodies.py``)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from starlette.formparsers import FormParser
from starlette.requests import Request

from tessera.web.connexion import bodies
from tests.conftest import Env, TenantUsers, issue_token
from tests.inbound.test_inbound_events import GOOD, post, robot_token
from tests.support.openplatform import new_key


def _counting(monkeypatch: pytest.MonkeyPatch, owner: type, name: str) -> list[int]:
    calls: list[int] = []
    original = getattr(owner, name)

    async def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


def test_a_token_requests_form_is_parsed_once(env: Env, tenant: TenantUsers, monkeypatch: pytest.MonkeyPatch) -> None:
    cred = tenant.install()
    parses = _counting(monkeypatch, FormParser, "parse")
    response = issue_token(env, cred["clientId"], cred["clientSecret"])
    assert response.status_code == 200
    assert len(parses) == 1


def test_an_inbound_events_json_reaches_its_handler_without_a_second_read(
        env: Env, tenant: TenantUsers, monkeypatch: pytest.MonkeyPatch) -> None:
    auth = robot_token(env, tenant)
    reads = _counting(monkeypatch, Request, "body")
    response = post(env, auth, GOOD, new_key())
    assert response.status_code == 202
    assert reads == []


def test_json_decoded_from_another_charset_is_left_for_the_handler_to_read() -> None:
    async def kept_then_handed_over() -> Request:
        bodies.keep_json({"a": 1}, "latin-1")
        request = Request({"type": "http", "headers": []})
        bodies.hand_over(request)
        return request

    assert not hasattr(asyncio.run(kept_then_handed_over()), "_json")


def test_a_kept_body_is_handed_over_once() -> None:
    async def twice() -> tuple[Request, Request]:
        bodies.keep_json({"a": 1}, "utf-8")
        first, second = Request({"type": "http", "headers": []}), Request({"type": "http", "headers": []})
        bodies.hand_over(first)
        bodies.hand_over(second)
        return first, second

    first, second = asyncio.run(twice())
    assert first._json == {"a": 1}
    assert not hasattr(second, "_json")
