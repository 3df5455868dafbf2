"""Rendering: every response of the session API is ``{code, message, data}``.

Errors from our services, from Connexion (validation, security, routing) and from Starlette all
end here, so a client never sees problem+json, an HTML page or a stack trace.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from connexion.exceptions import (
    ExtraParameterProblem,
    OAuthProblem,
    ProblemException,
    UnsupportedMediaTypeProblem,
)
from connexion.lifecycle import ConnexionRequest, ConnexionResponse
from starlette.exceptions import HTTPException

from tessera.core import errors
from tessera.core.errors import FieldError, ServiceError
from tessera.core.i18n import N_, translate
from tessera.core.logs import request_id_var
from tessera.web.connexion.validators import RequestInvalid

log = logging.getLogger("tessera.core.errors")

OK_MESSAGE = N_("OK")
REPLAY_MESSAGE = N_("This request was already executed; the original result is returned.")


def json_response(status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> ConnexionResponse:
    return ConnexionResponse(
        status_code=status,
        mimetype="application/json",
        content_type="application/json",
        body=_encode(body),
        headers=headers or {},
    )


def _encode(body: dict[str, Any]) -> bytes:
    """Readable UTF-8 JSON; ASCII escapes when the body holds text UTF-8 cannot carry."""
    try:
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    except UnicodeEncodeError:  # a lone surrogate echoed back from the request, e.g. in a field name
        return json.dumps(body, ensure_ascii=True, separators=(",", ":")).encode()


def translate_data(data: Any) -> Any:
    """Translate the messages inside ``data.fieldErrors``."""
    if isinstance(data, dict) and isinstance(data.get("fieldErrors"), dict):
        return {
            **data,
            "fieldErrors": {
                key: translate(value.message, **value.params) if isinstance(value, FieldError) else str(value)
                for key, value in data["fieldErrors"].items()
            },
        }
    return data


def session_error(exc: ServiceError) -> ConnexionResponse:
    body = {"code": exc.code, "message": translate(exc.message, **exc.params), "data": translate_data(exc.data)}
    headers = dict(exc.headers)
    if exc.status == 401:
        headers.setdefault("WWW-Authenticate", 'Bearer realm="tessera"')
    return json_response(exc.status, body, headers)


def to_service_error(exc: Exception) -> ServiceError:
    """Map framework exceptions onto our hierarchy."""
    if isinstance(exc, ServiceError):
        return exc
    if isinstance(exc, RequestInvalid):
        return errors.ValidationFailed(exc.field_errors)
    if isinstance(exc, ExtraParameterProblem):
        names = exc.extra_params if hasattr(exc, "extra_params") else []
        return errors.ValidationFailed({str(n): FieldError(N_("Unknown parameter.")) for n in names})
    if isinstance(exc, UnsupportedMediaTypeProblem):
        return errors.UnsupportedMediaType()
    if isinstance(exc, OAuthProblem):
        return errors.Unauthorized()
    status = getattr(exc, "status", None) or getattr(exc, "status_code", None)
    if isinstance(exc, ProblemException | HTTPException) and isinstance(status, int):
        mapping: dict[int, type[ServiceError]] = {
            401: errors.Unauthorized,
            404: errors.NotFound,
            405: errors.MethodNotAllowed,
            406: errors.NotAcceptable,
            415: errors.UnsupportedMediaType,
        }
        if status in mapping:
            return mapping[status]()
        if 400 <= status < 500:
            if getattr(exc, "detail", None) == "RequestBody is required":
                return errors.ValidationFailed({"body": FieldError(N_("A request body is required."))})
            return errors.ValidationFailed({"request": FieldError(N_("Is not valid."))})
    return internal_error(exc)


def internal_error(exc: Exception) -> ServiceError:
    trace_id = request_id_var.get() or "-"
    log.error("request.unhandled_error", exc_info=exc, extra={"error": type(exc).__name__})
    return errors.InternalError(data={"traceId": trace_id})


OPEN_PLATFORM_PREFIXES = ("/api/open/", "/oauth2/")
OAUTH_ENDPOINT = "/oauth2/token"


def is_open_platform(path: str) -> bool:
    return path.startswith(OPEN_PLATFORM_PREFIXES)


def to_open_platform_error(error: ServiceError, path: str) -> ServiceError:
    """The Open Platform's code for an error raised by shared machinery."""
    if isinstance(error, errors.OpenPlatformError):
        return error
    status = error.status
    if status == 404 and path.startswith("/api/open/"):
        # Only published capabilities exist: an unpublished route is simply not there.
        return errors.CapabilityNotFound()
    if status == 405 and path.startswith("/api/open/"):
        # A published path with a method nothing publishes on it: same code, HTTP's 405 and Allow.
        return errors.CapabilityMethodNotAllowed(headers=error.headers)
    mapping: dict[int, type[errors.OpenPlatformError]] = {
        400: errors.InvalidRequest, 401: errors.InvalidToken, 429: errors.OpenRateLimited,
    }
    if status in mapping:
        converted = mapping[status](data=error.data, headers=error.headers)
        if path == OAUTH_ENDPOINT and status == 401:
            converted = errors.InvalidClient(headers=error.headers)
        return converted
    generic = errors.OpenPlatformError(error.message, data=error.data, headers=error.headers)
    generic.status = status
    generic.code = error.code.lower()
    return generic


def open_platform_error(error: ServiceError, path: str) -> ConnexionResponse:
    """``{code, message, requestId, details}``; the token endpoint adds RFC 6749's ``error`` fields."""
    message = translate(error.message, **error.params)
    body: dict[str, Any] = {
        "code": error.code,
        "message": message,
        "requestId": request_id_var.get() or "",
        "details": translate_data(error.data) if error.data is not None else {},
    }
    if path.startswith("/oauth2/"):
        body["error"] = error.code
        body["error_description"] = message
    headers = dict(error.headers)
    if error.status == 401 and path.startswith("/api/open/"):
        headers.setdefault("WWW-Authenticate", f'Bearer realm="tessera", error="{error.code}"')
    if path.startswith("/oauth2/"):
        headers.setdefault("Cache-Control", "no-store")
    return json_response(error.status, body, headers)


def handle_error(request: ConnexionRequest, exc: Exception) -> ConnexionResponse:
    """The Connexion error handler for every exception class, on both surfaces."""
    error = to_service_error(exc)
    if error.status >= 500 and not isinstance(exc, errors.InternalError) and error.data is None:
        error = internal_error(exc)
    path = request.url.path
    if is_open_platform(path):
        return open_platform_error(to_open_platform_error(error, path), path)
    return session_error(error)


def ok(
    data: Any, headers: dict[str, str] | None = None, *, replay: bool = False
) -> tuple[dict[str, Any], int, dict[str, str]]:
    """A success envelope as a Connexion handler return value."""
    if replay:
        return {"code": "IDEMPOTENT_REPLAY", "message": translate(REPLAY_MESSAGE), "data": data}, 200, headers or {}
    return {"code": "0", "message": translate(OK_MESSAGE), "data": data}, 200, headers or {}
