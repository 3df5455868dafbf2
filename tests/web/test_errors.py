"""Error envelopes: routing errors, internal errors without leaks, request ids, translations."""

from __future__ import annotations

import json
import logging

import pytest

from tessera.session.records import reads as records
from tests.conftest import Env, TenantUsers


@pytest.mark.rule("session.envelope.every-response", "session.envelope.fields")
def test_an_unknown_path_is_not_found_in_the_envelope(env: Env) -> None:
    response = env.client.get("/api/no/such/path")
    assert response.status_code == 404
    assert response.json() == {"code": "NOT_FOUND", "message": "The resource was not found.", "data": None}


def test_a_wrong_method_is_method_not_allowed_in_the_envelope(env: Env) -> None:
    response = env.client.delete("/api/health")
    assert response.status_code == 405
    assert response.json()["code"] == "METHOD_NOT_ALLOWED"


@pytest.mark.allows_5xx
@pytest.mark.rule("session.error.internal")
def test_an_internal_fault_answers_internal_error_with_a_trace_id_and_no_internals(
    env: Env, tenant: TenantUsers, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def explode(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("secret internal detail: connection string postgres://x")

    monkeypatch.setattr(records, "list_records", explode)
    with caplog.at_level(logging.ERROR):
        headers = {**tenant.headers(), "X-Request-Id": "trace-me-1"}
        response = env.client.get("/api/dynamic/assets/list", headers=headers)
    assert response.status_code == 500
    body = response.json()
    assert body["code"] == "INTERNAL_ERROR"
    assert body["data"] == {"traceId": "trace-me-1"}
    assert "secret internal detail" not in response.text
    assert "Traceback" not in response.text
    assert any("secret internal detail" in (r.exc_text or "") or r.exc_info for r in caplog.records)


@pytest.mark.rule("op.request-id.echo")
def test_the_request_id_is_echoed(env: Env) -> None:
    response = env.client.get("/api/health", headers={"X-Request-Id": "abc-123"})
    assert response.headers["X-Request-Id"] == "abc-123"


@pytest.mark.rule("op.request-id.echo")
def test_a_request_id_is_generated_when_absent(env: Env) -> None:
    assert len(env.client.get("/api/health").headers["X-Request-Id"]) == 36


def test_an_unsafe_request_id_is_replaced(env: Env) -> None:
    response = env.client.get("/api/health", headers={"X-Request-Id": "bad id\twith<script>"})
    assert response.headers["X-Request-Id"] != "bad id\twith<script>"
    assert len(response.headers["X-Request-Id"]) == 36


@pytest.mark.rule("session.envelope.fields", "session.i18n.accept-language")
def test_error_messages_follow_accept_language(env: Env) -> None:
    response = env.client.get("/api/no/such/path", headers={"Accept-Language": "zh-CN"})
    assert response.json()["code"] == "NOT_FOUND"
    assert response.json()["message"] != "The resource was not found."


@pytest.mark.rule("session.i18n.accept-language")
def test_field_errors_are_translated_too(env: Env, tenant: TenantUsers) -> None:
    headers = {**tenant.headers(), "Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8"}
    response = env.client.post("/api/meta/commands/execute/assets:create", json={"payload": {}}, headers=headers)
    errors = response.json()["data"]["fieldErrors"]
    assert errors["name"] != "This field is required."
    assert all(not message.isascii() for message in errors.values())


def test_an_unsupported_language_falls_back_to_english(env: Env) -> None:
    response = env.client.get("/api/no/such/path", headers={"Accept-Language": "fr-FR"})
    assert response.json()["message"] == "The resource was not found."


def test_method_not_allowed_lists_the_allowed_methods(env: Env) -> None:
    response = env.client.request("TRACE", "/api/auth/login")
    assert response.status_code == 405
    assert "POST" in response.headers["Allow"]


def test_a_body_over_one_mebibyte_is_refused(env: Env, tenant: TenantUsers) -> None:
    big = b'{"payload":{"name":"' + b"x" * (1024 * 1024) + b'"}}'
    response = env.client.post(
        "/api/meta/commands/execute/assets:create", content=big,
        headers={**tenant.headers(), "Content-Type": "application/json"},
    )
    assert response.status_code == 413
    assert response.json()["code"] == "PAYLOAD_TOO_LARGE"


def test_a_chunked_body_is_refused_unread(env: Env, tenant: TenantUsers) -> None:
    def chunks():  # no Content-Length: the body arrives in pieces
        yield b'{"payload":{"name":"'
        for _ in range(20):
            yield b"x" * 65536
        yield b'"}}'

    response = env.client.post(
        "/api/meta/commands/execute/assets:create", content=chunks(),
        headers={**tenant.headers(), "Content-Type": "application/json"},
    )
    assert response.status_code == 400
    assert response.json()["data"]["fieldErrors"] == {"body": "A request body is required."}



@pytest.mark.parametrize("text", ["nul\x00byte", "lone \ud83d surrogate"])
def test_text_the_database_cannot_store_is_a_validation_error(env: Env, tenant: TenantUsers, text: str) -> None:
    body = json.dumps({"payload": {"name": text, "serialNo": "BAD-TEXT"}}).encode()
    response = env.client.post(
        "/api/meta/commands/execute/assets:create", content=body,
        headers={**tenant.headers(), "Content-Type": "application/json"},
    )
    assert response.status_code == 400
    # The payload's checks name the model's field code, as the specification's fieldErrors does.
    assert response.json()["data"]["fieldErrors"] == {"name": "Must not contain NUL characters or invalid Unicode."}
    listing = env.client.get("/api/dynamic/assets/list", params={"keyword": "nul\x00"}, headers=tenant.headers())
    assert listing.status_code == 400


def test_allow_lists_every_method_of_a_path_with_several(env: Env) -> None:
    member = "/api/open-platform/applications/app_00000000000000000000000000/members/usr_00000000000000000000000000"
    response = env.client.request("OPTIONS", member)
    assert response.status_code == 405
    assert response.headers["Allow"] == "DELETE, PUT"


def test_a_write_method_on_a_list_path_is_method_not_allowed(env: Env) -> None:
    response = env.client.put("/api/open-platform/applications/app_00000000000000000000000000/members/list", json={})
    assert response.status_code == 405
    assert response.headers["Allow"] == "GET"
