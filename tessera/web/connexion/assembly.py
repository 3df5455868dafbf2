"""The Connexion application: both documents, our middlewares in their places, our patches in use.

Everything that names a Connexion class is here or in a sibling module; the app factory
(``tessera/app.py``) hands in documents, handlers and middlewares and gets an ASGI app back.
The patches (each module names the upstream code it replaces, for Connexion 3.3.0):

Behaviour (what clients see):

- ``validation.StrictRequestValidationMiddleware`` for Connexion's ``RequestValidationMiddleware``:
  a body needs a Content-Type, bodies are UTF-8, the checked media type is passed on.
- ``validators``: validators that report every bad field, with our messages.
- ``resolver.CapabilityResolver``: the generated operations resolve to the registry's handlers.
- ``errors.handle_error``: every exception in our envelopes (never problem+json).

Fast path (no behaviour change; ``fast_path=False`` leaves them out, and
``tests/web/test_fast_path.py`` sends both apps the same requests and compares the answers):

- ``validation.CachedRequestValidationMiddleware``: validators built once per operation.
- ``operations.CachedAsyncApi``: handler decorator stacks built once per operation.
- ``security.SECURITY_MAP``: security handlers that inspect the token function once.
- ``security.FlatSecurityMiddleware``: one bearer scheme checked in one function, not five closures.
- ``specification``: each document checked against the OpenAPI schema once per process, not once
  per app built from it (process-wide, whatever ``fast_path`` says: the first build still checks).

Connexion's Swagger UI middleware is left out: ``tessera.web.reference`` serves both references
(Connexion's can serve only one of two APIs rooted at "/"), and the unused middleware would still
route every request through its mounts.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import connexion
from connexion.exceptions import ProblemException
from connexion.middleware import ConnexionMiddleware
from connexion.middleware.request_validation import RequestValidationMiddleware
from connexion.middleware.routing import RoutingMiddleware
from connexion.middleware.security import SecurityMiddleware
from connexion.middleware.server_error import ServerErrorMiddleware
from connexion.middleware.swagger_ui import SwaggerUIMiddleware
from connexion.options import SwaggerUIOptions
from starlette.exceptions import HTTPException

from tessera.core.errors import ServiceError
from tessera.web.connexion.errors import handle_error
from tessera.web.connexion.operations import CachedAsyncApi
from tessera.web.connexion.resolver import CapabilityResolver
from tessera.web.connexion.security import SECURITY_MAP, FlatSecurityMiddleware
from tessera.web.connexion.specification import install as check_documents_once
from tessera.web.connexion.validation import CachedRequestValidationMiddleware, StrictRequestValidationMiddleware
from tessera.web.connexion.validators import validator_map

NO_CONNEXION_UI = SwaggerUIOptions(swagger_ui=False, serve_spec=False)

# A middleware as Connexion builds it: ``factory(app)``.
MiddlewareFactory = Callable[[Any], Any]


def build(*, specification_dir: Path, session_doc: dict[str, Any], open_doc: dict[str, Any],
          generated_handlers: dict[str, Callable[..., Any]], session_handlers: dict[str, Callable[..., Any]],
          outermost: MiddlewareFactory,
          before_routing: list[MiddlewareFactory], validate_responses: bool,
          lifespan: Callable[[], contextlib.AbstractAsyncContextManager[None]], fast_path: bool = True) -> Any:
    """The ASGI app serving both documents.

    ``outermost`` runs right inside Connexion's last-resort error handler (so every response,
    errors included, passes through it); ``before_routing`` run, in order, inside the exception
    handling and before routing (the reference, the console, the method guard). With
    ``fast_path=False`` the patches that only save work (validators, decorator stacks and signature
    inspection built once) are left out, so a test can check that they change no answer.
    """

    @contextlib.asynccontextmanager
    async def app_lifespan(_app: Any) -> AsyncIterator[None]:
        async with lifespan():
            yield

    clashes = _operation_ids(session_doc) & _operation_ids(open_doc)
    if clashes:
        # Both APIs share the base path "/", so Connexion's middlewares find an operation by its
        # operationId alone: a name in both documents would run one surface's checks on the other.
        raise ValueError(f"operationIds in both documents: {', '.join(sorted(clashes))}")
    check_documents_once()
    middlewares = [m for m in ConnexionMiddleware.default_middlewares if m is not SwaggerUIMiddleware]
    middlewares[middlewares.index(RequestValidationMiddleware)] = (
        CachedRequestValidationMiddleware if fast_path else StrictRequestValidationMiddleware)
    if fast_path:
        middlewares[middlewares.index(SecurityMiddleware)] = FlatSecurityMiddleware
    middlewares.insert(middlewares.index(ServerErrorMiddleware) + 1, outermost)
    routing = middlewares.index(RoutingMiddleware)
    middlewares[routing:routing] = before_routing
    app = connexion.AsyncApp(
        __name__,
        specification_dir=str(specification_dir),
        middlewares=middlewares,
        validator_map=validator_map(),
        security_map=SECURITY_MAP if fast_path else None,
        strict_validation=True,
        validate_responses=validate_responses,
        lifespan=app_lifespan,
    )
    if fast_path:  # set before add_api, which instantiates the API class
        app._middleware_app.api_cls = CachedAsyncApi
    # Both documents are rooted at "/" (their paths carry /api and /oauth2): Connexion routes two
    # APIs with overlapping base paths (/api and /api/open/v1) wrongly, one shadowing the other.
    app.add_api(session_doc, name="session", resolver=CapabilityResolver(session_handlers),
                swagger_ui_options=NO_CONNEXION_UI)
    app.add_api(open_doc, name="open-platform", resolver=CapabilityResolver(generated_handlers),
                swagger_ui_options=NO_CONNEXION_UI)
    for exc_class in (ServiceError, ProblemException, HTTPException, Exception):
        app.add_error_handler(exc_class, handle_error)
    return app


def _operation_ids(doc: dict[str, Any]) -> set[str]:
    return {operation["operationId"] for item in doc["paths"].values() for operation in item.values()
            if isinstance(operation, dict) and "operationId" in operation}
