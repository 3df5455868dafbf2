"""The app factory: settings in, ASGI app out; it keeps nothing at module level.

It is the composition root: it builds the runtime, the two documents (the Open Platform's from the
skeleton and the registry, so what is routed is exactly what is documented), our middlewares and
the registry's handlers, and hands them to the Connexion assembly.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator
from functools import partial
from typing import Any

from handlers.open.published import operations
from handlers.session import commands as session_commands
from handlers.session import queries as session_queries
from handlers.session import records as session_records
from tessera import tracing
from tessera.core.logs import install_request_id_factory
from tessera.core.settings import Settings, load_settings
from tessera.registry.document import build_document
from tessera.registry.session_document import build_session_document
from tessera.runtime import Runtime, build_runtime
from tessera.web import transport
from tessera.web.connexion import assembly
from tessera.web.connexion.fastlane import FastLane
from tessera.web.console import ConsoleMiddleware
from tessera.web.console import claims as console_claims
from tessera.web.context import RequestContextMiddleware
from tessera.web.methods import MethodGuardMiddleware, MethodIndex
from tessera.web.metrics import MetricsMiddleware, start_listener
from tessera.web.metrics import claims as metrics_claims
from tessera.web.reference import ApiReferenceMiddleware, Surface
from tessera.web.tracing import TracingMiddleware


@contextlib.asynccontextmanager
async def _lifespan(rt: Runtime, workers: int, metrics_listener: bool) -> AsyncIterator[None]:
    """The process's life on its event loop: in-process worker tasks (and the metrics listener,
    when asked for and configured) start with it and stop (after their current pass) before the
    pools, the call-audit flusher and Redis close."""
    from tessera.background.worker import Worker

    port = rt.settings.metrics_port
    listener = await start_listener(rt.metrics, rt.settings.metrics_host, port) if metrics_listener and port else None
    running = [Worker(rt) for _ in range(workers)]
    tasks = [asyncio.get_running_loop().create_task(w.run_forever(), name="tessera-worker") for w in running]
    try:
        yield
    finally:
        if listener is not None:
            listener.close()
        for worker in running:
            worker.stop()
        if tasks:
            await asyncio.wait(tasks, timeout=rt.settings.webhook_timeout_seconds + 5)
        await rt.aclose()


def create_app(settings: Settings | None = None, runtime: Runtime | None = None, *, fast_path: bool = True,
               workers: int = 0, metrics_listener: bool = False) -> Any:
    """The ASGI app; ``workers`` delivery and automation workers run as tasks on its loop; with
    ``metrics_listener`` (one process serving alone) ``TESSERA_METRICS_PORT`` is listened on too."""
    settings = settings or load_settings()
    rt = runtime or build_runtime(settings)
    install_request_id_factory()
    session_doc = build_session_document(settings.openapi_dir / "session-api.yaml", rt.declarations,
                                         rt.capabilities)
    open_doc = build_document(settings.openapi_dir / "open-platform.yaml", rt.capabilities)
    surfaces = [Surface("Session REST API", "/api/docs", "/api/openapi.json", session_doc),
                Surface("Open Platform", "/api/open/v1/docs", "/api/open/v1/openapi.json", open_doc)]
    methods = MethodIndex.from_documents([session_doc, open_doc])
    # Requests Connexion routes to an operation go straight to it (see web/connexion/fastlane.py),
    # past the middlewares below that answer only paths of their own.
    fast_lane = [partial(FastLane, index=methods, claims=[metrics_claims, *(s.claims for s in surfaces),
                                                          console_claims])] if fast_path else []
    app = assembly.build(
        specification_dir=settings.openapi_dir,
        session_doc=session_doc,
        open_doc=open_doc,
        generated_handlers=operations(rt.capabilities),
        session_handlers={**session_records.operations(rt.declarations),
                          **session_commands.operations(rt.declarations),
                          **session_queries.operations(session_doc)},
        # Behind ForwardedMiddleware (a trusted proxy's scheme and client address, HSTS), when configured.
        # With tracing on, a server span per request just inside it, outside Connexion's exception
        # handling, so the span sees the status of every answer (see web/tracing.py).
        outermost=transport.outermost(settings, _traced(partial(RequestContextMiddleware, runtime=rt))),
        before_routing=[
            # Plain HTTP refused, before anything reads a body or a credential (see web/transport.py).
            *transport.before_routing(settings),
            *fast_lane,
            # /metrics for a scraper holding TESSERA_METRICS_TOKEN (see web/metrics.py).
            partial(MetricsMiddleware, token=settings.metrics_token),
            # Interactive reference per surface and the documents as written (see reference.py).
            partial(ApiReferenceMiddleware, surfaces=surfaces),
            # The admin console (static files over the session API; see console.py).
            ConsoleMiddleware,
            # Wrong methods get 405 (or the Open Platform's 404) with the documented Allow,
            # whatever template Connexion would have matched.
            partial(MethodGuardMiddleware, index=methods),
        ],
        validate_responses=settings.response_validation,
        lifespan=partial(_lifespan, rt, workers, metrics_listener),
        fast_path=fast_path,
    )
    app.runtime = rt  # for tests and the CLI
    return app


def _traced(context: Any) -> Any:
    """The request context's factory, with the tracing middleware inside it when tracing is on;
    as it is when off, so an untraced request passes through nothing more."""
    if tracing.tracer is None:
        return context
    return lambda app: context(TracingMiddleware(app))


def tune_gc() -> None:
    """For a serving process, once its app is built: everything built at start (documents,
    validators, tables, statements) is frozen out of the garbage collector's scans, and young
    collections run less often. Measured on whoami (PostgreSQL, 16 connections): a full collection
    over the startup objects stalled requests (p99 88 ms at p50 9 ms); frozen alone, the now
    frequent full collections cost a quarter of the throughput; both: p99 15 ms at 1,620 req/s."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


def serve_app() -> Any:
    """The app of one ``tessera serve --workers N`` process (uvicorn calls this factory in each).

    The delivery and automation workers never run here: the serving command starts one worker
    process for all of them, so they start once however many HTTP processes there are.
    """
    from tessera.core.logs import configure_logging
    from tessera.tracing.setup import configure as configure_tracing
    from tessera.web.protocol import configure as configure_protocol

    settings = load_settings()
    configure_logging(settings.log_level, settings.log_json)
    configure_protocol(settings.header_timeout_seconds)  # the class uvicorn builds in this process
    configure_tracing()  # in each process: the exporter's thread and queue are per process
    app = create_app(settings)
    tune_gc()
    return app
