"""The spans of webhook delivery, when tracing is on (``tessera.tracing``); nothing when it is off.

- ``webhook.fanout``: one fan-out batch that found events, a new trace linked to each event's
  outbox hand-off (a batch serves many commands' traces, so it is no one's child);
- ``webhook.fanout.event``: one event's share of the batch, a child of the event's hand-off (so in
  the command's trace) linked to the batch, with the number of deliveries it made;
- ``webhook.deliver``: one delivery attempt, a child of the event's hand-off (kind CLIENT), with the
  delivery and event ids, the attempt number, the receiver's host and port (never the URL's path or
  query, which may hold a receiver's token), the HTTP status, the latency and the error. Its
  ``traceparent`` is the header the receiver gets.

No span records an exception's message (a database's may quote the values of a row).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from urllib.parse import urlsplit

from opentelemetry.trace import Link, Span, Status, StatusCode

from storage import outbox
from storage import webhooks as store
from tessera import tracing
from tessera.webhooks.sending.outcomes import AttemptResult


@contextmanager
def batch(events: Sequence[outbox.OutboxEventRow]) -> Iterator[None]:
    """The fan-out batch's span, current while it runs; none for an empty batch (an idle poll)."""
    tracer = tracing.tracer
    if tracer is None or not events:
        yield
        return
    links = [link for link in (tracing.link_to(e.traceparent) for e in events) if link is not None]
    with tracer.start_as_current_span("webhook.fanout", context=_ROOT, links=links,
                                      attributes={"tessera.webhook.events": len(events)},
                                      record_exception=False, set_status_on_exception=False):
        yield


@contextmanager
def event(row: outbox.OutboxEventRow) -> Iterator[Span | None]:
    """One event's fan-out, continuing the event's trace and linked to the batch."""
    tracer = tracing.tracer
    if tracer is None:
        yield None
        return
    stored = tracing.context_of(row.traceparent)
    # An event written while tracing was off has no trace to continue: its span is the batch's child.
    links = [] if stored is None else [Link(tracing.current_span().get_span_context())]
    with tracer.start_as_current_span(
            "webhook.fanout.event", context=stored, kind=tracing.SpanKind.CONSUMER, links=links,
            attributes={"tessera.event.id": row.event_id, "tessera.event.type": row.event_type},
            record_exception=False, set_status_on_exception=False) as span:
        yield span


@contextmanager
def attempt(row: store.ClaimedDeliveryRow) -> Iterator[Span | None]:
    """One delivery attempt's span, a child of the event's hand-off; current while it is sent."""
    tracer = tracing.tracer
    if tracer is None:
        yield None
        return
    target = urlsplit(row.url)
    attributes: dict[str, str | int] = {
        "http.request.method": "POST", "server.address": target.hostname or "",
        "server.port": target.port or (443 if target.scheme == "https" else 80),
        "tessera.delivery.id": row.pid, "tessera.event.id": row.event_pid, "tessera.event.type": row.event_type,
        "tessera.webhook.attempt": row.attempts + 1, "tessera.webhook.endpoint": row.endpoint_pid,
        "tessera.webhook.signature_format": row.signature_format,
        "tessera.webhook.traceparent_signed": False}
    with tracer.start_as_current_span("webhook.deliver", context=tracing.context_of(row.traceparent) or _ROOT,
                                      kind=tracing.SpanKind.CLIENT, attributes=attributes,
                                      record_exception=False, set_status_on_exception=False) as span:
        yield span


def record(span: Span | None, result: AttemptResult) -> None:
    """What the attempt came to: status, latency, error."""
    if span is None:
        return
    if result.http_status is not None:
        span.set_attribute("http.response.status_code", result.http_status)
    span.set_attribute("tessera.webhook.latency_ms", result.latency_ms)
    if result.error is not None:
        span.set_attribute("error.type", result.error[:100])
    if result.error is not None or result.http_status is None or result.http_status >= 400:
        span.set_status(Status(StatusCode.ERROR))


_ROOT = tracing.ROOT
