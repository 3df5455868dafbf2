"""A real OTLP/HTTP trace receiver on 127.0.0.1 for the tests: it decodes each export with the
OpenTelemetry protobuf package and keeps the spans as plain values."""

from __future__ import annotations

import gzip
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import AnyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Span as ProtoSpan


@dataclass(frozen=True)
class ReceivedSpan:
    """One span as the receiver decoded it: ids in hex, as logs and ``traceparent`` show them."""

    trace_id: str
    span_id: str
    parent_id: str  # "" for a root span
    name: str
    kind: str  # SERVER, CLIENT, INTERNAL, PRODUCER, CONSUMER
    attributes: dict[str, Any]
    links: tuple[tuple[str, str], ...]  # (trace id, span id) of each linked span
    error: bool
    status_message: str
    events: tuple[tuple[str, dict[str, Any]], ...]  # (name, attributes) of each event (a recorded exception)

    def line(self) -> str:
        """The span in one line, for the closing note and failure messages."""
        keep = {k: v for k, v in self.attributes.items() if k != "db.statement"}
        sql = self.attributes.get("db.statement")
        return (f"{self.name} [{self.kind}] span={self.span_id} parent={self.parent_id or '-'} {keep}"
                + (f" sql={str(sql)[:80]!r}" if sql else "") + (f" links={list(self.links)}" if self.links else ""))


@dataclass
class OtlpReceiver:
    url: str
    spans: list[ReceivedSpan] = field(default_factory=list)
    exports: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def trace(self, trace_id: str) -> list[ReceivedSpan]:
        with self.lock:
            return [s for s in self.spans if s.trace_id == trace_id]

    def named(self, name: str) -> list[ReceivedSpan]:
        with self.lock:
            return [s for s in self.spans if s.name == name]


def _value(value: AnyValue) -> Any:
    kind = value.WhichOneof("value")
    if kind == "array_value":
        return [_value(v) for v in value.array_value.values]
    return getattr(value, kind) if kind else None


def _decode(body: bytes) -> list[ReceivedSpan]:
    request = ExportTraceServiceRequest()
    request.ParseFromString(body)
    found = []
    for resource in request.resource_spans:
        for scope in resource.scope_spans:
            for span in scope.spans:
                found.append(ReceivedSpan(
                    trace_id=span.trace_id.hex(), span_id=span.span_id.hex(), parent_id=span.parent_span_id.hex(),
                    name=span.name, kind=ProtoSpan.SpanKind.Name(span.kind).removeprefix("SPAN_KIND_"),
                    attributes={a.key: _value(a.value) for a in span.attributes},
                    links=tuple((link.trace_id.hex(), link.span_id.hex()) for link in span.links),
                    error=span.status.code == span.status.STATUS_CODE_ERROR, status_message=span.status.message,
                    events=tuple((e.name, {a.key: _value(a.value) for a in e.attributes}) for e in span.events)))
    return found


@contextmanager
def otlp_receiver() -> Iterator[OtlpReceiver]:
    """An OTLP/HTTP receiver answering ``POST /v1/traces`` as a collector does."""
    state: OtlpReceiver | None = None

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            assert state is not None
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if self.headers.get("Content-Encoding") == "gzip":
                body = gzip.decompress(body)
            if self.path != "/v1/traces":
                self.send_response(404)
                self.end_headers()
                return
            spans = _decode(body)
            with state.lock:
                state.spans.extend(spans)
                state.exports += 1
            answer = ExportTraceServiceResponse().SerializeToString()
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        def log_message(self, *_args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state = OtlpReceiver(f"http://127.0.0.1:{server.server_address[1]}/v1/traces")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
