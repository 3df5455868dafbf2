"""A server span per request, when tracing is on (``tessera.tracing``).

``create_app`` puts this middleware just inside ``RequestContextMiddleware`` only when tracing is on,
so with tracing off no request passes through it. Inside, the request's state is known (its id,
surface, and later its routed operation and verified caller), and the span is current while the
handler runs, so the database statements and the outbox hand-off are its children.

An incoming W3C ``traceparent`` (with its ``tracestate``) is the span's parent; the sampler,
parent-based by default, honours its sampled flag. The span's attributes are the method, path
(never the query string), status, surface, operationId, request id, and who called: the Open
Platform's tenant, installation and application, or the session's tenant and user (public ids,
never a token, secret or header value). The trace id goes into the access log line beside the
request id (``RequestState.trace_id``).
"""

from __future__ import annotations

from opentelemetry.trace import Span, SpanKind, Status, StatusCode
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator
from starlette.types import ASGIApp, Receive, Scope, Send

from tessera import tracing
from tessera.web.connexion.routing import routed_operation_id
from tessera.web.context import RequestState, current, header

_W3C = TraceContextTextMapPropagator()


class TracingMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        tracer = tracing.tracer
        if scope["type"] != "http" or tracer is None:
            await self.app(scope, receive, send)
            return
        state = current()
        carrier = {name: value for name, value in (("traceparent", header(scope, b"traceparent")),
                                                   ("tracestate", header(scope, b"tracestate"))) if value}
        parent = _W3C.extract(carrier) if carrier else None
        method = str(scope.get("method", ""))
        with tracer.start_as_current_span(method, context=parent, kind=SpanKind.SERVER, attributes={
                "http.request.method": method, "url.path": str(scope.get("path", "")),
                "tessera.surface": state.surface.value, "tessera.request_id": state.request_id},
                record_exception=False, set_status_on_exception=False) as span:
            state.trace_id = tracing.trace_id_of(span)
            try:
                await self.app(scope, receive, send)
            finally:
                if span.is_recording():  # an unsampled request's span keeps nothing: nothing to add
                    _finish(span, scope, state, method)


def _finish(span: Span, scope: Scope, state: RequestState, method: str) -> None:
    """What is known once the answer went: the routed operation, the status and the caller."""
    status = state.status or 500
    operation = routed_operation_id(scope)
    if operation:
        span.update_name(f"{method} {operation}")
        span.set_attribute("tessera.operation_id", operation)
    span.set_attribute("http.response.status_code", status)
    span.set_attributes(_caller(state))
    if status >= 500:
        span.set_status(Status(StatusCode.ERROR))


def _caller(state: RequestState) -> dict[str, str]:
    """Who called, by public ids: the Open Platform's installation or the session's user."""
    caller = state.caller
    if caller is not None and hasattr(caller, "installation_pid"):
        return {"tessera.tenant": caller.tenant_code, "tessera.installation": caller.installation_pid,
                "tessera.application": caller.application_pid}
    if state.session is not None:
        return {"tessera.tenant": state.session.tenant_code, "enduser.id": state.session.user_pid}
    return {}
