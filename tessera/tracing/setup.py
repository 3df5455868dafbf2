"""Tracing set up from the standard ``OTEL_*`` variables, or left off.

Off by default, and off means the SDK is never imported (``tessera.tracing``). It is on only when
``OTEL_TRACES_EXPORTER`` names an exporter (``otlp`` or ``console``) and ``OTEL_SDK_DISABLED`` is
not ``true``. The OpenTelemetry specification makes ``otlp`` the default exporter; here an unset
variable means no tracing, so a deployment that never heard of tracing exports nothing and pays
nothing.

- ``OTEL_EXPORTER_OTLP_PROTOCOL`` (or ``..._TRACES_PROTOCOL``): ``http/protobuf`` (the default) or
  ``grpc``; the endpoint, headers, certificates, compression and timeout are the exporters' own
  ``OTEL_EXPORTER_OTLP_*`` variables.
- ``OTEL_TRACES_SAMPLER`` / ``OTEL_TRACES_SAMPLER_ARG``: the SDK's samplers; the default is
  ``parentbased_traceidratio`` with ratio 1, so an incoming ``traceparent``'s sampled flag decides.
- ``OTEL_BSP_*``: the batch processor; its queue is bounded (``OTEL_BSP_MAX_QUEUE_SIZE``, 2048 by
  default): spans past it are dropped, never waited for, and exports run on the processor's thread.
- ``OTEL_SERVICE_NAME`` / ``OTEL_RESOURCE_ATTRIBUTES``: the resource (``service.name`` is
  ``tessera`` unless set).
"""

from __future__ import annotations

import atexit
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from tessera import tracing

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SpanExporter
    from opentelemetry.sdk.trace.sampling import Sampler

EXPORTERS = ("otlp", "console")
PROTOCOLS = ("http/protobuf", "grpc")
DEFAULT_QUEUE_SIZE = 2048


class TracingMisconfigured(ValueError):
    """An ``OTEL_*`` value this service cannot honour: the process refuses to start with it."""


def enabled(environ: Mapping[str, str]) -> bool:
    """Whether ``environ`` asks for traces (see the module docstring)."""
    if environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    exporter = environ.get("OTEL_TRACES_EXPORTER", "").strip().lower()
    return exporter not in ("", "none")


def from_environment(environ: Mapping[str, str]) -> TracerProvider | None:
    """The provider ``environ`` asks for, with its batch processor and exporter; None when off."""
    if not enabled(environ):
        return None
    exporter_name = environ["OTEL_TRACES_EXPORTER"].strip().lower()
    if exporter_name not in EXPORTERS:
        raise TracingMisconfigured(f"OTEL_TRACES_EXPORTER={exporter_name!r}: expected one of {', '.join(EXPORTERS)}")
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    resource = Resource.create({"service.name": environ.get("OTEL_SERVICE_NAME") or "tessera"})
    provider = TracerProvider(sampler=sampler(environ), resource=resource, shutdown_on_exit=False)
    queue = int(environ.get("OTEL_BSP_MAX_QUEUE_SIZE") or DEFAULT_QUEUE_SIZE)
    provider.add_span_processor(BatchSpanProcessor(exporter(exporter_name, environ), max_queue_size=queue))
    return provider


def sampler(environ: Mapping[str, str]) -> Sampler:
    """``OTEL_TRACES_SAMPLER`` with its ``..._ARG`` (a ratio for the ``traceidratio`` ones)."""
    from opentelemetry.sdk.trace import sampling

    name = (environ.get("OTEL_TRACES_SAMPLER") or "parentbased_traceidratio").strip().lower()
    arg = environ.get("OTEL_TRACES_SAMPLER_ARG")
    try:
        ratio = 1.0 if not arg else float(arg)
    except ValueError:
        raise TracingMisconfigured(f"OTEL_TRACES_SAMPLER_ARG={arg!r}: expected a ratio from 0 to 1") from None
    if not 0.0 <= ratio <= 1.0:
        raise TracingMisconfigured(f"OTEL_TRACES_SAMPLER_ARG={arg!r}: expected a ratio from 0 to 1")
    samplers: dict[str, Sampler] = {
        "always_on": sampling.ALWAYS_ON, "always_off": sampling.ALWAYS_OFF,
        "traceidratio": sampling.TraceIdRatioBased(ratio),
        "parentbased_always_on": sampling.ParentBased(sampling.ALWAYS_ON),
        "parentbased_always_off": sampling.ParentBased(sampling.ALWAYS_OFF),
        "parentbased_traceidratio": sampling.ParentBased(sampling.TraceIdRatioBased(ratio)),
    }
    if name not in samplers:
        raise TracingMisconfigured(f"OTEL_TRACES_SAMPLER={name!r}: expected one of {', '.join(samplers)}")
    return samplers[name]


def exporter(name: str, environ: Mapping[str, str]) -> SpanExporter:
    """The console exporter, or OTLP over the protocol asked for; an endpoint given in ``environ``
    is passed on, anything else the exporter reads from the process environment itself."""
    if name == "console":
        from opentelemetry.sdk.trace.export import ConsoleSpanExporter

        return ConsoleSpanExporter()
    protocol = (environ.get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") or environ.get("OTEL_EXPORTER_OTLP_PROTOCOL")
                or "http/protobuf").strip().lower()
    if protocol not in PROTOCOLS:
        raise TracingMisconfigured(f"OTEL_EXPORTER_OTLP_PROTOCOL={protocol!r}: expected one of {', '.join(PROTOCOLS)}")
    endpoint = environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
    base = environ.get("OTEL_EXPORTER_OTLP_ENDPOINT")
    if protocol == "grpc":
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter as GrpcExporter

        return GrpcExporter(endpoint=endpoint or base)
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter as HttpExporter

    if endpoint is None and base:
        endpoint = base.rstrip("/") + "/v1/traces"  # the specification's rule for the signal's path
    return HttpExporter(endpoint=endpoint)


def configure(environ: Mapping[str, str] | None = None) -> bool:
    """Set this process up for tracing if its environment asks for it; True when it did. The
    provider is flushed and shut down at exit (spans still queued are exported then)."""
    provider = from_environment(os.environ if environ is None else environ)
    if provider is None:
        return False
    from opentelemetry import trace

    tracing.install(provider)
    trace.set_tracer_provider(provider)  # for any library instrumented with the OpenTelemetry API
    atexit.register(provider.shutdown)
    return True
