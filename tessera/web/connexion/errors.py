"""Connexion's error handler: every exception of a request, ours or the framework's, in our envelopes.

Replaces Connexion 3.3's default problem+json rendering (``connexion.middleware.exceptions``):
registered with ``add_error_handler`` for ``ServiceError``, Connexion's ``ProblemException``,
Starlette's ``HTTPException`` and ``Exception``, so a client never sees problem+json, an HTML page
or a stack trace.
"""

from __future__ import annotations

import logging

from connexion.exceptions import (
    ExtraParameterProblem,
    OAuthProblem,
    ProblemException,
    UnsupportedMediaTypeProblem,
)
from connexion.lifecycle import ConnexionRequest, ConnexionResponse
from starlette.exceptions import HTTPException

from storage.drivers.engine import DatabaseUnavailable
from tessera.core import errors
from tessera.core.errors import FieldError, ServiceError
from tessera.core.i18n import N_
from tessera.web.connexion.responses import json_response
from tessera.web.connexion.validators import RequestInvalid
from tessera.web.context import current_or_none
from tessera.web.envelopes import internal_error, render_error
from tessera.web.surface import surface_of

log = logging.getLogger("tessera.errors")

_BY_STATUS: dict[int, type[ServiceError]] = {
    401: errors.Unauthorized,
    404: errors.NotFound,
    405: errors.MethodNotAllowed,
    406: errors.NotAcceptable,
    415: errors.UnsupportedMediaType,
}


def to_service_error(exc: Exception, request_id: str) -> ServiceError:
    """Map framework exceptions onto our hierarchy; anything unexpected is an internal error."""
    if isinstance(exc, ServiceError):
        return exc
    mapped = _from_connexion_problem(exc)
    if mapped is None:
        mapped = _from_http_status(exc)
    return mapped if mapped is not None else internal_error(exc, request_id)


def _from_connexion_problem(exc: Exception) -> ServiceError | None:
    """Connexion's own problems: a request its validators refused, parameters the operation does not declare,
    a body of a media type it does not take, a missing or refused credential."""
    if isinstance(exc, RequestInvalid):
        return errors.ValidationFailed(exc.field_errors)
    if isinstance(exc, ExtraParameterProblem):
        names = exc.extra_params if hasattr(exc, "extra_params") else []
        return errors.ValidationFailed({str(n): FieldError(N_("Unknown parameter.")) for n in names})
    if isinstance(exc, UnsupportedMediaTypeProblem):
        return errors.UnsupportedMediaType()
    if isinstance(exc, OAuthProblem):
        return errors.Unauthorized()
    return None


def _from_http_status(exc: Exception) -> ServiceError | None:
    """Any other HTTP problem (Connexion's or Starlette's) by its status: ours for the statuses we name, a
    validation failure for any other 4xx (the request is at fault); None for the rest (an internal error)."""
    status = getattr(exc, "status", None) or getattr(exc, "status_code", None)
    if not isinstance(exc, ProblemException | HTTPException) or not isinstance(status, int):
        return None
    if status in _BY_STATUS:
        return _BY_STATUS[status]()
    if not 400 <= status < 500:
        return None
    if getattr(exc, "detail", None) == "RequestBody is required":
        return errors.ValidationFailed({"body": FieldError(N_("A request body is required."))})
    return errors.ValidationFailed({"request": FieldError(N_("Is not valid."))})


def handle_error(request: ConnexionRequest, exc: Exception) -> ConnexionResponse:
    """The Connexion error handler for every exception class, on both surfaces."""
    state = current_or_none()
    request_id = state.request_id if state is not None else "-"
    surface = state.surface if state is not None else surface_of(request.url.path)
    if isinstance(exc, DatabaseUnavailable):  # a fault of the moment, not of the service: 503, retry
        log.warning("request.database_unavailable", extra={"error": str(exc)})
        error: ServiceError = errors.ServiceUnavailable(retry_after=exc.retry_after)
    else:
        error = to_service_error(exc, request_id)
    if error.status >= 500 and not isinstance(error, errors.InternalError | errors.ServiceUnavailable) \
            and error.data is None:
        error = internal_error(exc, request_id)
    authorization = request.headers.get("authorization", "")
    # RFC 6749 section 5.2: a client that tried the Authorization header, whatever its scheme, is
    # challenged on the OAuth endpoints with the scheme they accept there, Basic.
    basic = bool(authorization.strip())
    # A bearer token was presented (even a malformed one) only under the ``Bearer`` scheme, as
    # Connexion's OAuth check reads the header; any other scheme counts as no credentials.
    bearer = authorization.split(None, 1)[0].lower() == "bearer" if authorization.strip() else False
    status, body, headers = render_error(error, surface, request_id, basic_auth=basic, bearer_token=bearer)
    if state is not None:  # the code answered, which a refusal of the OAuth endpoints is audited under
        state.error_code = str(body.get("code", ""))
    return json_response(status, body, headers)
