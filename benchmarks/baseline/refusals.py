"""Refusals and the three envelopes they are answered in, as Tessera answers them.

Why the same envelopes: the suite and the other benchmarks compare answers, refusals included (a
wrong secret is 401 ``invalid_client``, an unknown token 401 ``invalid_token``, another tenant's
record 404 ``resource_not_found``). Messages are Tessera's English ones.
"""

from __future__ import annotations

import json
from typing import Any

NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}


class Refusal(Exception):
    """An answer other than success: status, machine code, message, data."""

    def __init__(self, status: int, code: str, message: str, data: Any = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(code)
        self.status, self.code, self.message, self.data = status, code, message, data
        self.headers = headers or {}


def encode(body: Any) -> bytes:
    """Compact UTF-8 JSON, as Tessera writes its responses."""
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


# -- the Open Platform's refusals ------------------------------------------------------------------

def invalid_request(field_errors: dict[str, str] | None = None) -> Refusal:
    return Refusal(400, "invalid_request", "The request is malformed.",
                   {"fieldErrors": field_errors} if field_errors is not None else None)


def invalid_token() -> Refusal:
    return Refusal(401, "invalid_token", "The access token is missing, expired or revoked.")


def invalid_client() -> Refusal:
    return Refusal(401, "invalid_client", "Client authentication failed.")


def insufficient_scope(scope: str) -> Refusal:
    return Refusal(403, "insufficient_scope", "The access token lacks the scope this call needs.",
                   {"requiredScope": scope})


def record_not_found() -> Refusal:
    return Refusal(404, "resource_not_found", "The record was not found.")


def invalid_cursor() -> Refusal:
    return Refusal(400, "invalid_cursor", "The cursor is not valid for this list; start again without it.")


def key_conflict() -> Refusal:
    return Refusal(409, "idempotency_key_conflict", "This idempotency key was already used with a different request.")


def in_progress() -> Refusal:
    return Refusal(409, "idempotency_in_progress",
                   "A request with this idempotency key is still running; retry shortly.", headers={"Retry-After": "1"})


def open_envelope(refusal: Refusal, request_id: str, oauth: bool = False) -> tuple[int, Any, dict[str, str]]:
    """(status, body, headers): ``{code, message, requestId, details}``; the token endpoint adds RFC 6749's
    fields and no-store."""
    body: dict[str, Any] = {"code": refusal.code, "message": refusal.message, "requestId": request_id,
                            "details": refusal.data if refusal.data is not None else {}}
    headers = {"X-Request-Id": request_id, **refusal.headers}
    if oauth:
        body["error"] = refusal.code
        body["error_description"] = refusal.message
        headers.setdefault("Cache-Control", "no-store")
    elif refusal.status == 401:
        headers.setdefault("WWW-Authenticate", f'Bearer realm="tessera", error="{refusal.code}"')
    return refusal.status, body, headers


# -- the session API's refusals --------------------------------------------------------------------

def unauthorized() -> Refusal:
    return Refusal(401, "UNAUTHORIZED", "Authentication is required.")


def forbidden(permission: str) -> Refusal:
    return Refusal(403, "FORBIDDEN", "You do not have permission to do this.", {"permission": permission})


def tenant_forbidden() -> Refusal:
    return Refusal(403, "TENANT_FORBIDDEN", "You are not a member of this tenant.")


def not_found() -> Refusal:
    return Refusal(404, "NOT_FOUND", "The resource was not found.")


def validation_failed(field_errors: dict[str, str]) -> Refusal:
    return Refusal(400, "VALIDATION_ERROR", "Validation failed.", {"fieldErrors": field_errors})


def session_key_conflict() -> Refusal:
    return Refusal(409, "IDEMPOTENCY_KEY_CONFLICT", "This idempotency key was already used with a different request.")


def session_envelope(refusal: Refusal, request_id: str) -> tuple[int, Any, dict[str, str]]:
    """(status, body, headers): ``{code, message, data}``; a 401 challenges for a bearer token."""
    headers = {"X-Request-Id": request_id, **refusal.headers}
    if refusal.status == 401:
        headers.setdefault("WWW-Authenticate", 'Bearer realm="tessera"')
    return refusal.status, {"code": refusal.code, "message": refusal.message, "data": refusal.data}, headers
