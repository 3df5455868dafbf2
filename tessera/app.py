"""The app factory: settings in, ASGI app out. No module-level state."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import connexion
import yaml
from connexion.exceptions import ProblemException
from connexion.middleware import ConnexionMiddleware
from connexion.middleware.request_validation import RequestValidationMiddleware
from connexion.middleware.routing import RoutingMiddleware
from connexion.middleware.server_error import ServerErrorMiddleware
from connexion.middleware.swagger_ui import SwaggerUIMiddleware
from connexion.options import SwaggerUIOptions
from connexion.resolver import Resolver
from starlette.exceptions import HTTPException

from handlers.open.published import operations
from tessera.core.errors import ServiceError
from tessera.core.logs import install_request_id_factory
from tessera.core.settings import Settings, load_settings
from tessera.registry.document import build_document
from tessera.runtime import Runtime, build_runtime
from tessera.web.connexion.operations import CachedAsyncApi
from tessera.web.connexion.security import SECURITY_MAP
from tessera.web.connexion.validation import CachedRequestValidationMiddleware
from tessera.web.connexion.validators import validator_map
from tessera.web.console import ConsoleMiddleware
from tessera.web.context import RequestContextMiddleware
from tessera.web.envelopes import handle_error
from tessera.web.methods import MethodGuardMiddleware, MethodIndex
from tessera.web.reference import ApiReferenceMiddleware, Surface

# Connexion's Swagger UI can serve only one of two APIs rooted at "/"; api_reference.py serves both.
NO_CONNEXION_UI = SwaggerUIOptions(swagger_ui=False, serve_spec=False)


def create_app(settings: Settings | None = None, runtime: Runtime | None = None) -> connexion.AsyncApp:
    settings = settings or load_settings()
    rt = runtime or build_runtime(settings)
    install_request_id_factory()

    @contextlib.asynccontextmanager
    async def lifespan(_app: Any) -> AsyncIterator[None]:
        yield
        rt.close()

    # Connexion's Swagger UI middleware is left out: api_reference.py serves both references, and
    # the unused middleware would still route every request through its mounts.
    middlewares = [m for m in ConnexionMiddleware.default_middlewares if m is not SwaggerUIMiddleware]
    # Same validation, validators built once per operation instead of on every request.
    middlewares[middlewares.index(RequestValidationMiddleware)] = CachedRequestValidationMiddleware
    # Outermost after the last-resort server error handler: every response gets a request id.
    middlewares.insert(middlewares.index(ServerErrorMiddleware) + 1, _bind(RequestContextMiddleware, rt))
    # Inside the exception handling, before routing: wrong methods get 405 (or the Open Platform's
    # 404) with the documented Allow, whatever template Connexion would have matched.
    session_doc = yaml.safe_load((settings.openapi_dir / "session-api.yaml").read_text(encoding="utf-8"))
    # The published document is built from the skeleton and the registry at start, so what is
    # routed is exactly what is documented; generated/open-platform.yaml is the same document.
    open_doc = build_document(settings.openapi_dir / "open-platform.yaml", rt.capabilities)
    guard = _bind(MethodGuardMiddleware, MethodIndex.from_documents([session_doc, open_doc]))
    middlewares.insert(middlewares.index(RoutingMiddleware), guard)
    # Interactive reference per surface and the documents as written (see api_reference.py for
    # why not Connexion's Swagger UI).
    reference = _bind(ApiReferenceMiddleware, [
        Surface("Session REST API", "/api/docs", "/api/openapi.json", session_doc),
        Surface("Open Platform", "/api/open/v1/docs", "/api/open/v1/openapi.json", open_doc),
    ])
    middlewares.insert(middlewares.index(guard), reference)
    # The admin console (static files over the session API; see console.py).
    middlewares.insert(middlewares.index(guard), ConsoleMiddleware)
    app = connexion.AsyncApp(
        __name__,
        specification_dir=str(settings.openapi_dir),
        middlewares=middlewares,
        validator_map=validator_map(),
        security_map=SECURITY_MAP,
        strict_validation=True,
        validate_responses=settings.response_validation,
        lifespan=lifespan,
    )
    # Handlers' decorator stacks built once per operation (see operations.py); set before add_api,
    # which instantiates the API class.
    app._middleware_app.api_cls = CachedAsyncApi
    # Both documents are rooted at "/" (their paths carry /api and /oauth2): Connexion routes two
    # APIs with overlapping base paths (/api and /api/open/v1) wrongly, one shadowing the other.
    app.add_api(
        session_doc,
        name="session",
        swagger_ui_options=NO_CONNEXION_UI,
    )
    app.add_api(
        open_doc,
        name="open-platform",
        resolver=CapabilityResolver(operations(rt.capabilities)),
        swagger_ui_options=NO_CONNEXION_UI,
    )
    for exc_class in (ServiceError, ProblemException, HTTPException, Exception):
        app.add_error_handler(exc_class, handle_error)
    app.runtime = rt  # type: ignore[attr-defined]  # for tests and the CLI
    return app


class CapabilityResolver(Resolver):
    """Generated operations resolve to the registry's handlers; the others by router controller."""

    def __init__(self, generated: dict[str, Callable[..., Any]]) -> None:
        super().__init__()
        self.generated = generated

    def resolve_operation_id(self, operation: Any) -> str:
        if operation.operation_id in self.generated:
            return str(operation.operation_id)
        return str(super().resolve_operation_id(operation))

    def resolve_function_from_operation_id(self, operation_id: str) -> Any:
        if operation_id in self.generated:
            return self.generated[operation_id]
        return super().resolve_function_from_operation_id(operation_id)


def _bind(cls: type, dependency: Any) -> Any:
    """Connexion builds middlewares as ``cls(app)``; this closes over their dependency."""

    class Bound(cls):  # type: ignore[misc, valid-type]
        def __init__(self, app: Any) -> None:
            super().__init__(app, dependency)

    Bound.__name__ = cls.__name__
    return Bound
