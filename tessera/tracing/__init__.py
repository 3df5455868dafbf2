"""Tracing with OpenTelemetry: off unless the process was set up for it, and then one trace per story.

The whole switch is the module attribute ``tracer``: ``None`` (the default) and nothing of this
package runs beyond that one check; the code paths that trace (the request middleware, database
statements, the outbox hand-off, fan-out, delivery attempts, automation runs) read it and go their
usual way when it is ``None``. ``tessera.tracing.setup.configure`` sets it from the standard
``OTEL_*`` variables (see ``docs/operator/tracing.md``); tests ``install`` a provider of their own.
Only the OpenTelemetry API is imported here: the SDK (and its exporters' threads) is loaded by
``setup`` alone, so a process with tracing off never loads it.

A trace is carried across the queues as a W3C ``traceparent`` stored on the row: the outbox event
and the inbound event remember the context of the span that wrote them, and the worker's spans
(fan-out, delivery attempts, automation runs) continue that trace, so one trace runs from a
command's request to the receiver's delivery.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.trace import Link, Span, SpanKind, Status, StatusCode, Tracer
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider

__all__ = ["ROOT", "SpanKind", "context_of", "continued", "current_span", "failed", "hand_off", "install", "link_to",
           "recording", "trace_id_of", "traceparent", "tracer", "uninstall"]

# The switch (see the module docstring); set by ``install``, cleared by ``uninstall``.
tracer: Tracer | None = None
provider: TracerProvider | None = None

_W3C = TraceContextTextMapPropagator()
# The empty context: a span started in it begins a trace of its own, whatever span is current.
ROOT = Context()


def install(given: TracerProvider) -> None:
    """Trace from now on with ``given`` (its processors export what it records)."""
    global tracer, provider
    provider = given
    tracer = given.get_tracer("tessera")


def uninstall() -> None:
    """Stop tracing (the provider is left to its owner: flush or shut it down there)."""
    global tracer, provider
    tracer = provider = None


def traceparent() -> str | None:
    """The W3C ``traceparent`` of the current span, or None (tracing off, or no span current).

    Stored with the outbox and inbound events, and sent with each delivery attempt; an unsampled
    span's context is carried too (flags ``00``), so its descendants stay unsampled as well.
    """
    if tracer is None:
        return None
    context = trace.get_current_span().get_span_context()
    if not context.is_valid:
        return None
    return f"00-{context.trace_id:032x}-{context.span_id:016x}-{context.trace_flags:02x}"


def context_of(stored: str | None) -> Context | None:
    """The context a stored or received ``traceparent`` names, to start a child span in; None when
    there is none or it is malformed (the span then starts a trace of its own)."""
    if not stored:
        return None
    context = _W3C.extract({"traceparent": stored})
    return context if trace.get_current_span(context).get_span_context().is_valid else None


def link_to(stored: str | None) -> Link | None:
    """A link to the span a stored ``traceparent`` names (fan-out links the events of its batch)."""
    context = context_of(stored)
    return None if context is None else Link(trace.get_current_span(context).get_span_context())


def current_span() -> Span:
    return trace.get_current_span()


def recording() -> bool:
    """Whether the current span records: database statements are traced only inside one, so a
    worker's idle polls make no traces of their own."""
    return trace.get_current_span().is_recording()


def hand_off(event_id: str, event_type: str) -> str | None:
    """The outbox hand-off: a short producer span, child of the current one (the request's), whose
    ``traceparent`` is stored with the event; the worker's fan-out and delivery attempts continue it."""
    if tracer is None:
        return None
    with tracer.start_as_current_span("outbox.append", kind=SpanKind.PRODUCER,
                                      attributes={"tessera.event.id": event_id, "tessera.event.type": event_type}):
        return traceparent()


@contextmanager
def continued(name: str, stored: str | None, kind: SpanKind = SpanKind.INTERNAL,
              attributes: dict[str, str | int] | None = None) -> Iterator[Span | None]:
    """A span continuing the trace of a stored ``traceparent`` (a new trace without one); None and
    no span when tracing is off. An exception marks it failed by its type only (``failed``)."""
    if tracer is None:
        yield None
        return
    with tracer.start_as_current_span(name, context=context_of(stored), kind=kind, attributes=attributes,
                                      record_exception=False, set_status_on_exception=False) as span:
        try:
            yield span
        except BaseException as exc:
            failed(span, exc)
            raise


def failed(span: Span, exc: BaseException) -> None:
    """Mark ``span`` failed by the exception's type only: its message may quote data (a driver's
    DETAIL names the duplicate key's values), which a span must never carry."""
    span.set_attribute("error.type", type(exc).__name__)
    span.set_status(Status(StatusCode.ERROR))


def trace_id_of(span: Span) -> str:
    """The span's trace id as the 32 hex digits logs and collectors show."""
    return f"{span.get_span_context().trace_id:032x}"
