"""The app factory: settings in, ASGI app out. No module-level state.

It is the composition root: it builds the runtime, the two documents (the Open Platform's from the
skeleton and the registry, so what is routed is exactly what is documented), our middlewares and
the registry's handlers, and hands them to the Connexion assembly.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import yaml

from handlers.open.published import operations
from tessera.core.logs import install_request_id_factory
from tessera.core.settings import Settings, load_settings
from tessera.registry.document import build_document
from tessera.runtime import Runtime, build_runtime
from tessera.web.connexion import assembly
from tessera.web.console import ConsoleMiddleware
from tessera.web.context import RequestContextMiddleware
from tessera.web.methods import MethodGuardMiddleware, MethodIndex
from tessera.web.reference import ApiReferenceMiddleware, Surface


def create_app(settings: Settings | None = None, runtime: Runtime | None = None, *, fast_path: bool = True) -> Any:
    settings = settings or load_settings()
    rt = runtime or build_runtime(settings)
    install_request_id_factory()
    session_doc = yaml.safe_load((settings.openapi_dir / "session-api.yaml").read_text(encoding="utf-8"))
    open_doc = build_document(settings.openapi_dir / "open-platform.yaml", rt.capabilities)
    app = assembly.build(
        specification_dir=settings.openapi_dir,
        session_doc=session_doc,
        open_doc=open_doc,
        generated_handlers=operations(rt.capabilities),
        outermost=partial(RequestContextMiddleware, runtime=rt),
        before_routing=[
            # Interactive reference per surface and the documents as written (see reference.py).
            partial(ApiReferenceMiddleware, surfaces=[
                Surface("Session REST API", "/api/docs", "/api/openapi.json", session_doc),
                Surface("Open Platform", "/api/open/v1/docs", "/api/open/v1/openapi.json", open_doc),
            ]),
            # The admin console (static files over the session API; see console.py).
            ConsoleMiddleware,
            # Wrong methods get 405 (or the Open Platform's 404) with the documented Allow,
            # whatever template Connexion would have matched.
            partial(MethodGuardMiddleware, index=MethodIndex.from_documents([session_doc, open_doc])),
        ],
        validate_responses=settings.response_validation,
        on_shutdown=rt.close,
        fast_path=fast_path,
    )
    app.runtime = rt  # for tests and the CLI
    return app
