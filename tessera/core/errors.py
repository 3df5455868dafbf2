"""One exception hierarchy for every business error.

Each error carries a machine code, an HTTP status, a translatable message and optional data; the
envelope renderers turn it into the session envelope (``code``, ``message``, ``data``) or, later,
the Open Platform envelope. Services raise these and never build HTTP responses themselves.
"""

from __future__ import annotations

from typing import Any

from tessera.core.i18n import N_


class ServiceError(Exception):
    """Base of every error the service answers deliberately.

    What a client may act on travels as data, not as HTTP: ``retry_after`` (seconds) is rendered as
    ``Retry-After`` by the web layer. ``headers`` is for errors the web layer raises itself (an
    ``Allow`` list, rate-limit fields); services never set it.
    """

    status: int = 400
    code: str = "VALIDATION_ERROR"
    message: str = N_("The request is not valid.")

    def __init__(
        self,
        message: str | None = None,
        *,
        data: Any = None,
        headers: dict[str, str] | None = None,
        params: dict[str, Any] | None = None,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(message or self.message)
        if message is not None:
            self.message = message
        self.data = data
        self.headers = headers or {}
        self.params = params or {}
        self.retry_after = retry_after


class ValidationFailed(ServiceError):
    """Field-level errors; ``data.fieldErrors`` maps each bad field to a message key."""

    status = 400
    code = "VALIDATION_ERROR"
    message = N_("Validation failed.")

    def __init__(self, field_errors: dict[str, FieldError], message: str | None = None) -> None:
        super().__init__(message, data={"fieldErrors": field_errors})
        self.field_errors = field_errors


class FieldError:
    """A translatable field message with its interpolation parameters."""

    __slots__ = ("message", "params")

    def __init__(self, message: str, **params: Any) -> None:
        self.message = message
        self.params = params

    def __repr__(self) -> str:
        return f"FieldError({self.message!r}, {self.params!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FieldError) and (self.message, self.params) == (other.message, other.params)

    def __hash__(self) -> int:
        return hash(self.message)


class Unauthorized(ServiceError):
    status = 401
    code = "UNAUTHORIZED"
    message = N_("Authentication is required.")


class Forbidden(ServiceError):
    status = 403
    code = "FORBIDDEN"
    message = N_("You do not have permission to do this.")

    def __init__(self, permission: str, message: str | None = None) -> None:
        super().__init__(message, data={"permission": permission})
        self.permission = permission


class TenantForbidden(ServiceError):
    status = 403
    code = "TENANT_FORBIDDEN"
    message = N_("You are not a member of this tenant.")


class TlsRequired(ServiceError):
    """A request that did not come over HTTPS while TLS is required (``tessera/web/transport.py``)."""

    status = 403
    code = "TLS_REQUIRED"
    message = N_("HTTPS is required: send the request again over https://. Any secret this request "
                 "carried travelled unencrypted; replace it.")


class NotFound(ServiceError):
    status = 404
    code = "NOT_FOUND"
    message = N_("The resource was not found.")


class MethodNotAllowed(ServiceError):
    status = 405
    code = "METHOD_NOT_ALLOWED"
    message = N_("This method is not allowed on this resource.")


class NotAcceptable(ServiceError):
    status = 406
    code = "NOT_ACCEPTABLE"
    message = N_("The service cannot produce the requested media type.")


class Conflict(ServiceError):
    status = 409
    code = "CONFLICT"
    message = N_("The request conflicts with the current state.")


class DuplicateValue(Conflict):
    """A unique field's value is held by another record of the tenant. The request itself is well
    formed (a schema cannot know which values are taken), so it conflicts with the current state
    rather than being invalid; ``data.fieldErrors`` names each such field, as a validation error does."""

    code = "DUPLICATE_VALUE"
    message = N_("A value that must be unique is already used.")

    def __init__(self, field_errors: dict[str, FieldError]) -> None:
        super().__init__(data={"fieldErrors": field_errors})
        self.field_errors = field_errors


class IdempotencyKeyConflict(Conflict):
    code = "IDEMPOTENCY_KEY_CONFLICT"
    message = N_("This idempotency key was already used with a different request.")


class PayloadTooLarge(ServiceError):
    status = 413
    code = "PAYLOAD_TOO_LARGE"
    message = N_("The request body is too large.")


class UriTooLong(ServiceError):
    status = 414
    code = "URI_TOO_LONG"
    message = N_("The request URL is too long.")


class HeaderFieldsTooLarge(ServiceError):
    status = 431
    code = "REQUEST_HEADER_FIELDS_TOO_LARGE"
    message = N_("The request's header fields are too many or too large.")


class UnsupportedMediaType(ServiceError):
    status = 415
    code = "UNSUPPORTED_MEDIA_TYPE"
    message = N_("This operation does not accept the request's Content-Type.")


class RateLimited(ServiceError):
    status = 429
    code = "RATE_LIMITED"
    message = N_("Too many requests. Try again later.")


class InternalError(ServiceError):
    status = 500
    code = "INTERNAL_ERROR"
    message = N_("An internal error occurred.")


class ServiceUnavailable(ServiceError):
    """A dependency the request needs (the database) cannot serve now; retry after ``retry_after``."""

    status = 503
    code = "SERVICE_UNAVAILABLE"
    message = N_("The service is temporarily unavailable. Retry after the time in Retry-After.")


class LastOwner(Conflict):
    code = "LAST_OWNER"
    message = N_("An application must keep at least one owner.")


# --- Open Platform errors: rendered as {code, message, requestId, details} ---------------------


class OpenPlatformError(ServiceError):
    """An error of the Open Platform surface; ``code`` is the lower-case machine code."""


class InvalidRequest(OpenPlatformError):
    status = 400
    code = "invalid_request"
    message = N_("The request is malformed.")


class InvalidScope(OpenPlatformError):
    status = 400
    code = "invalid_scope"
    message = N_("The requested scope is not granted to this installation.")


class UnsupportedGrantType(OpenPlatformError):
    status = 400
    code = "unsupported_grant_type"
    message = N_("Only the client_credentials grant is supported.")


class InvalidClient(OpenPlatformError):
    status = 401
    code = "invalid_client"
    message = N_("Client authentication failed.")


class InvalidToken(OpenPlatformError):
    status = 401
    code = "invalid_token"
    message = N_("The access token is missing, expired or revoked.")


class InsufficientScope(OpenPlatformError):
    """``scopes``: what the call needs, named in the ``WWW-Authenticate`` challenge (RFC 6750 section 3)."""

    status = 403
    code = "insufficient_scope"
    message = N_("The access token lacks the scope this call needs.")

    def __init__(self, *scopes: str, data: Any = None) -> None:
        super().__init__(data=data)
        self.scopes = scopes


class CapabilityNotFound(OpenPlatformError):
    status = 404
    code = "open_api_capability_not_found"
    message = N_("No published capability answers this route.")


class CapabilityMethodNotAllowed(CapabilityNotFound):
    """A published path asked with a method no capability publishes on it.

    The route (method and path) is not published, so the code is the invariant's
    ``open_api_capability_not_found``; the status is HTTP's 405 with ``Allow`` naming the published
    methods (RFC 9110 section 15.5.6), which generic HTTP clients and conformance tools rely on.
    """

    status = 405


class OpenRateLimited(OpenPlatformError):
    status = 429
    code = "rate_limit_exceeded"
    message = N_("Too many requests. Back off and retry later.")


class OpenServiceUnavailable(OpenPlatformError):
    status = 503
    code = "service_unavailable"
    message = N_("The service is temporarily unavailable. Retry after the time in Retry-After.")


class InvalidCursor(OpenPlatformError):
    """A well-formed cursor that names no page: never issued (forged or tampered with), issued for
    another resource or installation, or expired. The page is part of what the URL names, so, like
    a pid that names no record, it is not found (404); a cursor not even shaped like one is refused
    by validation (400 ``invalid_request``)."""

    status = 404
    code = "invalid_cursor"
    message = N_("The cursor is not valid for this list; start again without it.")


class ResourceNotFound(OpenPlatformError):
    status = 404
    code = "resource_not_found"
    message = N_("The record was not found.")


class EventNotFound(OpenPlatformError):
    """An event id the installation cannot read: unknown, another tenant's or application's, of a
    type its grant does not read, or past the events retention period."""

    status = 404
    code = "event_not_found"
    message = N_("The event was not found.")


class OpenIdempotencyKeyConflict(OpenPlatformError):
    status = 409
    code = "idempotency_key_conflict"
    message = N_("This idempotency key was already used with a different request.")


class IdempotencyInProgress(OpenPlatformError):
    status = 409
    code = "idempotency_in_progress"
    message = N_("A request with this idempotency key is still running; retry shortly.")


class PreconditionFailed(OpenPlatformError):
    status = 412
    code = "precondition_failed"
    message = N_("The record changed since you read it (If-Match does not match).")
