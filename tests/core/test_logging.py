"""Secrets never reach the logs, and every log line of a request carries its request id."""

from __future__ import annotations

import json
import logging

import pytest

from tessera.core.logs import JsonFormatter
from tests.conftest import USER_PASSWORD, Env, TenantUsers


def _formatted(caplog: pytest.LogCaptureFixture) -> str:
    formatter = JsonFormatter()
    return "\n".join(formatter.format(record) for record in caplog.records)


def test_passwords_and_jwts_never_appear_in_logs(
    env: Env, tenant: TenantUsers, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG):
        login = env.client.post("/api/auth/login", json={"email": tenant.emails["admin"], "password": USER_PASSWORD})
        token = login.json()["data"]["jwt"]
        env.client.get("/api/dynamic/assets/list?keyword=x", headers={"Authorization": f"Bearer {token}"})
        env.client.post("/api/auth/login", json={"email": tenant.emails["admin"], "password": "wrong-" + USER_PASSWORD})
    text = _formatted(caplog)
    assert USER_PASSWORD not in text
    assert token not in text
    assert token.split(".")[2] not in text


def test_access_log_lines_carry_the_request_id_and_no_query_string(
    env: Env, tenant: TenantUsers, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="tessera.access"):
        env.client.get("/api/dynamic/assets/list?keyword=findme", headers={**tenant.headers(), "X-Request-Id": "log-1"})
    lines = [json.loads(line) for line in _formatted(caplog).splitlines()]
    access = [line for line in lines if line["logger"] == "tessera.access" and line.get("requestId") == "log-1"]
    assert access, lines
    assert access[0]["path"] == "/api/dynamic/assets/list"
    assert access[0]["status"] == 200
    assert "findme" not in json.dumps(access)
