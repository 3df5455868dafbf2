"""The two envelopes, and the one place errors become responses.

- Session API: ``{code, message, data}`` on every response; ``code`` is ``"0"`` on success.
- Open Platform: ``{code, message, requestId, details}`` on errors, lower-case codes; the token
  endpoint adds RFC 6749's ``error`` and ``error_description``.

Services raise ``ServiceError``s carrying a machine code and what the client may act on
(``retry_after``, the scope that was missing...); they never set HTTP headers. ``render_error``
turns an error into the status, body and headers of the request's surface: ``WWW-Authenticate``
challenges, ``Retry-After``, ``Cache-Control`` on the token endpoint. Errors of the shared
machinery (not found, wrong method, bad input) are translated into the Open Platform's codes there.
"""

from __future__ import annotations

import logging
from typing import Any

from tessera.core import errors
from tessera.core.errors import FieldError, ServiceError
from tessera.core.i18n import N_, translate
from tessera.core.schema import REQUIRED
from tessera.web.surface import Surface

log = logging.getLogger("tessera.errors")

OK_MESSAGE = N_("OK")
REPLAY_MESSAGE = N_("This request was already executed; the original result is returned.")

# The ``error`` values of the OAuth endpoints: the RFC 6749 section 5.2 codes they answer, and the
# two extension codes the service documents there (429, and plain HTTP refused). Any other refusal
# is ``invalid_request``, a fault ``server_error`` (see ``oauth_error``).
OAUTH_ERRORS = frozenset({
    "invalid_request", "invalid_client", "invalid_scope", "unsupported_grant_type", "rate_limit_exceeded",
    "tls_required",
})

# A rendered error: status, body, headers.
Rendered = tuple[int, dict[str, Any], dict[str, str]]
# A handler's return value as Connexion takes it: body, status, headers.
Reply = tuple[dict[str, Any], int, dict[str, str]]


def ok(data: Any, headers: dict[str, str] | None = None, *, replay: bool = False) -> Reply:
    """A session success envelope as a handler's return value."""
    if replay:
        return {"code": "IDEMPOTENT_REPLAY", "message": translate(REPLAY_MESSAGE), "data": data}, 200, headers or {}
    return {"code": "0", "message": translate(OK_MESSAGE), "data": data}, 200, headers or {}


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


def internal_error(exc: BaseException, request_id: str) -> ServiceError:
    """What a fault becomes: logged with its traceback, answered with the request id only."""
    log.error("request.unhandled_error", exc_info=exc, extra={"error": type(exc).__name__})
    return errors.InternalError(data={"traceId": request_id})


def render_error(error: ServiceError, surface: Surface, request_id: str, *, basic_auth: bool = False,
                 bearer_token: bool = True) -> Rendered:
    """Status, body and headers of ``error`` in the envelope of ``surface``.

    ``basic_auth``: the request tried client authentication in the Authorization header (Basic, or
    a scheme the OAuth endpoints do not accept), so an OAuth endpoint's 401 challenges Basic.
    ``bearer_token``: the request presented a bearer token. A business call's 401 without one
    challenges with no error code (RFC 6750 section 3.1), with one ``error="invalid_token"``.
    """
    if surface is Surface.SESSION:
        return _session(error)
    return _open_platform(open_platform_error(error, surface), surface, request_id, basic_auth, bearer_token)


def _common_headers(error: ServiceError) -> dict[str, str]:
    headers = dict(error.headers)
    if error.retry_after is not None:
        headers.setdefault("Retry-After", str(error.retry_after))
    return headers


def _session(error: ServiceError) -> Rendered:
    body = {"code": error.code, "message": translate(error.message, **error.params),
            "data": translate_data(error.data)}
    headers = _common_headers(error)
    if error.status == 401:
        headers.setdefault("WWW-Authenticate", 'Bearer realm="tessera"')
    return error.status, body, headers


def open_platform_error(error: ServiceError, surface: Surface) -> ServiceError:
    """The Open Platform's code for an error raised by shared machinery (routing, validation...)."""
    if isinstance(error, errors.OpenPlatformError):
        return error
    own = _surface_error(error, surface)
    if own is not None:
        return own
    if error.status in _OPEN_BY_STATUS:
        return _OPEN_BY_STATUS[error.status](data=error.data, headers=error.headers, retry_after=error.retry_after)
    generic = errors.OpenPlatformError(error.message, data=error.data, headers=error.headers,
                                       retry_after=error.retry_after)
    generic.status = error.status
    generic.code = error.code.lower()
    return generic


# The Open Platform's code for a status that has none of its surface's own (``_surface_error``).
_OPEN_BY_STATUS: dict[int, type[errors.OpenPlatformError]] = {
    400: errors.InvalidRequest, 401: errors.InvalidToken, 429: errors.OpenRateLimited,
    503: errors.OpenServiceUnavailable,
}


def _surface_error(error: ServiceError, surface: Surface) -> ServiceError | None:
    """The codes one surface gives a status: the API's for a route it does not publish, the token endpoint's
    (RFC 6749 section 5.2) for a client it refuses and a grant type it does not support; None elsewhere."""
    status = error.status
    if surface is Surface.OPEN_PLATFORM:
        if status == 404:
            # Only published capabilities exist: an unpublished route is simply not there.
            return errors.CapabilityNotFound()
        if status == 405:
            # A published path with a method nothing publishes on it: same code, HTTP's 405 and Allow.
            return errors.CapabilityMethodNotAllowed(headers=error.headers)
    elif surface is Surface.OAUTH:
        if status == 401:
            return errors.InvalidClient(headers=error.headers)
        if status == 400 and _only_the_grant_type_is_wrong(error):
            return errors.UnsupportedGrantType(headers=error.headers)
    return None


def _only_the_grant_type_is_wrong(error: ServiceError) -> bool:
    """A token request whose one fault is a ``grant_type`` other than the one the document's enum
    names. RFC 6749 section 5.2 answers that ``unsupported_grant_type``; the request validator
    refuses it before the grant is looked at, as a field error (a missing one stays
    ``invalid_request``, the RFC's code for a missing parameter)."""
    fields = error.data.get("fieldErrors") if isinstance(error.data, dict) else None
    if not isinstance(fields, dict) or list(fields) != ["grant_type"]:
        return False
    return bool(fields["grant_type"] != FieldError(REQUIRED))


def _open_platform(error: ServiceError, surface: Surface, request_id: str, basic_auth: bool,
                   bearer_token: bool) -> Rendered:
    message = translate(error.message, **error.params)
    body: dict[str, Any] = {
        "code": error.code,
        "message": message,
        "requestId": request_id,
        "details": translate_data(error.data) if error.data is not None else {},
    }
    headers = _common_headers(error)
    if surface is Surface.OAUTH:
        body["error"] = oauth_error(error)
        body["error_description"] = message
        headers.setdefault("Cache-Control", "no-store")
        if error.status == 401 and basic_auth:
            # RFC 6749 section 5.2: a client that tried the Authorization header is challenged with Basic.
            headers.setdefault("WWW-Authenticate", 'Basic realm="tessera"')
    elif error.status == 401 and not bearer_token:
        # RFC 6750 section 3.1: a request without authentication information (no Authorization
        # header, or another scheme than Bearer) is challenged without an error code.
        headers.setdefault("WWW-Authenticate", 'Bearer realm="tessera"')
    elif error.status == 401:
        headers.setdefault("WWW-Authenticate", f'Bearer realm="tessera", error="{error.code}"')
    elif isinstance(error, errors.InsufficientScope):
        # RFC 6750 section 3.1: the challenge names the scopes the call needs.
        scopes = " ".join(error.scopes)
        headers.setdefault("WWW-Authenticate", f'Bearer realm="tessera", error="{error.code}", scope="{scopes}"')
    return error.status, body, headers


def oauth_error(error: ServiceError) -> str:
    """The RFC 6749 ``error`` of a refusal under /oauth2: its code when that is one of the OAuth
    codes the endpoints answer (``OAUTH_ERRORS``), ``server_error`` for a fault, else
    ``invalid_request`` (a wrong method or media type, a body too large...). ``code`` keeps the precise one."""
    if error.code in OAUTH_ERRORS:
        return error.code
    return "server_error" if error.status >= 500 else "invalid_request"
