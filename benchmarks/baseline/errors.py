"""The refusals of ``refusals`` as Starlette responses: the baseline's side of the envelopes.

Why split: ``refusals`` holds the rules (codes, messages, envelopes) and no web framework, so the
limit (``benchmarks/limit``) shares them without Starlette; this module only wraps them in Starlette
``Response`` objects and re-exports them, so the baseline's endpoints read ``errors.<refusal>()``.
"""

from __future__ import annotations

from typing import Any

from starlette.responses import Response

from baseline.refusals import (
    NO_STORE,
    Refusal,
    encode,
    forbidden,
    in_progress,
    insufficient_scope,
    invalid_client,
    invalid_cursor,
    invalid_request,
    invalid_token,
    key_conflict,
    not_found,
    not_published,
    open_envelope,
    record_not_found,
    session_envelope,
    session_key_conflict,
    tenant_forbidden,
    unauthorized,
    validation_failed,
)

__all__ = ["NO_STORE", "Refusal", "encode", "forbidden", "in_progress", "insufficient_scope", "invalid_client",
           "invalid_cursor", "invalid_request", "invalid_token", "key_conflict", "not_found", "not_published",
           "open_error", "record_not_found", "respond", "session_error", "session_key_conflict", "tenant_forbidden",
           "unauthorized", "validation_failed"]


def respond(status: int, body: Any, headers: dict[str, str]) -> Response:
    return Response(encode(body), status_code=status, headers=headers, media_type="application/json")


def open_error(refusal: Refusal, request_id: str, oauth: bool = False) -> Response:
    """``{code, message, requestId, details}``; the token endpoint adds RFC 6749's fields and no-store."""
    return respond(*open_envelope(refusal, request_id, oauth))


def session_error(refusal: Refusal, request_id: str) -> Response:
    """``{code, message, data}``; a 401 challenges for a bearer token."""
    return respond(*session_envelope(refusal, request_id))
