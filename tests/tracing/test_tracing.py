"""Tracing with OpenTelemetry against a real OTLP/HTTP receiver started here: the service's spans as
the receiver decoded them (``opentelemetry-proto``), on SQLite and PostgreSQL.

The traced app is a second app on the backend's database, built while tracing was installed;
each test that wants traces installs the provider for its own duration (``tracing_on``), so the
other tests of the process, and the test of tracing off, run with it off. Exports are awaited with
the provider's ``force_flush``, never by sleeping.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.sampling import ParentBased, TraceIdRatioBased
from sqlalchemy import insert, select
from starlette.testclient import TestClient

from storage.drivers.engine import IntegrityError
from storage.schema.tables import outbox_events, tenants
from tessera import tracing
from tessera.app import create_app
from tessera.runtime import build_runtime
from tessera.tracing.setup import TracingMisconfigured, exporter, from_environment, sampler
from tessera.webhooks.verify import verify
from tests.conftest import Env, TenantUsers, bearer, issue_token, make_settings
from tests.support.openplatform import EVENTS, Integration
from tests.support.otlp import OtlpReceiver, ReceivedSpan, otlp_receiver
from tests.support.receivers import receiver
from tests.support.webhooks import Hooked, drain

ROBOT_SCOPES = ["events.robot-fleet.publish", "inventory.stockins.read"]


@pytest.fixture(scope="module")
def collector() -> Iterator[OtlpReceiver]:
    with otlp_receiver() as found:
        yield found


@pytest.fixture(scope="module")
def provider(collector: OtlpReceiver) -> Iterator[TracerProvider]:
    """The provider the service builds from the standard variables, exporting to ``collector``."""
    built = from_environment({"OTEL_TRACES_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
                              "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": collector.url})
    assert built is not None
    yield built
    built.shutdown()


@pytest.fixture(scope="module")
def traced_app(env: Env, provider: TracerProvider, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Env]:
    """The backend's database served by an app and runtime built with tracing on."""
    settings = make_settings(tmp_path_factory.mktemp("traced"), env.database_url)
    tracing.install(provider)
    try:
        runtime = build_runtime(settings, clock=env.runtime.clock)
        app = create_app(settings, runtime)
    finally:
        tracing.uninstall()
    with TestClient(app, raise_server_exceptions=False) as client:
        yield dataclasses.replace(env, runtime=runtime, client=client)
    runtime.close()


@pytest.fixture
def traced(traced_app: Env, provider: TracerProvider) -> Iterator[Env]:
    """The traced app, with tracing on for this test only."""
    tracing.install(provider)
    try:
        yield traced_app
    finally:
        tracing.uninstall()


def _ancestors(span: ReceivedSpan, spans: dict[str, ReceivedSpan]) -> list[ReceivedSpan]:
    chain = []
    while span.parent_id in spans:
        span = spans[span.parent_id]
        chain.append(span)
    return chain


def _attribute_values(spans: list[ReceivedSpan]) -> str:
    return json.dumps([s.attributes for s in spans])


@pytest.mark.parametrize("signature_format", ["tessera", "standard-webhooks"])
def test_one_trace_runs_from_the_command_to_the_receivers_delivery(
    traced: Env, tenant: TenantUsers, collector: OtlpReceiver, provider: TracerProvider, signature_format: str
) -> None:
    with receiver(200) as hook:
        hooked = Hooked(traced, tenant, hook, signatureFormat=signature_format)
        hooked.change("dana")
        drain(traced, tenant, lambda: len(hook.requests) == 1)
    provider.force_flush()
    got = hook.requests[0]
    version, trace_id, attempt_id, flags = got.headers["traceparent"].split("-")
    assert version == "00" and int(flags, 16) & 1  # sampled (the SDK may set W3C's "random" bit too)
    spans = {s.span_id: s for s in collector.trace(trace_id)}
    print(f"\ntrace {trace_id} ({signature_format}), as the OTLP receiver decoded it; the webhook receiver got "
          f"traceparent: {got.headers['traceparent']}")
    for span in spans.values():
        print("  " + span.line())

    attempt = spans[attempt_id]
    assert (attempt.name, attempt.kind) == ("webhook.deliver", "CLIENT")
    assert attempt.attributes["http.response.status_code"] == 200
    assert attempt.attributes["tessera.webhook.attempt"] == 1
    assert attempt.attributes["tessera.webhook.latency_ms"] >= 0
    assert attempt.attributes["tessera.webhook.signature_format"] == signature_format
    assert attempt.attributes["tessera.webhook.traceparent_signed"] is False
    hand_off = spans[attempt.parent_id]
    assert (hand_off.name, hand_off.kind) == ("outbox.append", "PRODUCER")
    assert hand_off.attributes["tessera.event.id"] == attempt.attributes["tessera.event.id"]
    request = _ancestors(hand_off, spans)[-1]
    assert request.parent_id == "" and request.kind == "SERVER"
    operation = request.attributes["tessera.operation_id"]
    assert request.name == f"POST {operation}"
    assert request.attributes["tessera.surface"] == "open-platform"
    assert request.attributes["http.response.status_code"] == 200
    assert request.attributes["tessera.tenant"] == tenant.code
    assert request.attributes["tessera.installation"] == hooked._installation_id()

    [fanned] = [s for s in spans.values() if s.name == "webhook.fanout.event"]
    assert fanned.parent_id == hand_off.span_id and fanned.attributes["tessera.webhook.deliveries"] == 1
    [(_, batch_id)] = fanned.links
    assert [s.name for s in collector.named("webhook.fanout") if s.span_id == batch_id] == ["webhook.fanout"]

    statements = [s for s in spans.values() if "db.statement" in s.attributes and request in _ancestors(s, spans)]
    assert statements and all(s.attributes["db.system"] == traced.backend for s in statements)
    assert any(s.attributes["db.operation"] == "INSERT" for s in statements)
    written = _attribute_values(list(spans.values()))
    assert "dana" not in written  # parameter values never travel, only the SQL's placeholders
    assert hooked.auth["Authorization"].removeprefix("Bearer ") not in written and hooked.secret not in written
    verify(got.body, got.headers, hooked.secret, signature_format=signature_format)  # the header is not signed


def test_each_retry_is_an_attempt_span_of_the_same_trace(
    traced: Env, tenant: TenantUsers, collector: OtlpReceiver, provider: TracerProvider
) -> None:
    with receiver(500, 200) as hook:
        hooked = Hooked(traced, tenant, hook)
        hooked.change("dana")
        drain(traced, tenant, lambda: len(hook.requests) == 2)
    provider.force_flush()
    parents = [r.headers["traceparent"].split("-") for r in hook.requests]
    assert len({p[1] for p in parents}) == 1 and len({p[2] for p in parents}) == 2
    spans = {s.span_id: s for s in collector.trace(parents[0][1])}
    attempts = [spans[p[2]] for p in parents]
    assert [(a.attributes["tessera.webhook.attempt"], a.attributes["http.response.status_code"], a.error)
            for a in attempts] == [(1, 500, True), (2, 200, False)]
    assert attempts[0].parent_id == attempts[1].parent_id  # both continue the event's hand-off


def test_an_incoming_traceparent_is_the_request_spans_parent(
    traced: Env, tenant: TenantUsers, collector: OtlpReceiver, provider: TracerProvider
) -> None:
    integration = Integration(traced, tenant)
    trace_id, parent_id = uuid.uuid4().hex, uuid.uuid4().hex[:16]
    response = traced.client.get("/api/open/v1/whoami",
                                 headers={**integration.auth, "traceparent": f"00-{trace_id}-{parent_id}-01"})
    assert response.status_code == 200
    provider.force_flush()
    [span] = [s for s in collector.trace(trace_id) if s.kind == "SERVER"]
    assert span.parent_id == parent_id
    assert span.attributes["http.response.status_code"] == 200 and span.attributes["tessera.operation_id"]


def test_an_unsampled_incoming_traceparent_exports_nothing(
    traced: Env, tenant: TenantUsers, collector: OtlpReceiver, provider: TracerProvider
) -> None:
    integration = Integration(traced, tenant)
    trace_id = uuid.uuid4().hex
    unsampled = f"00-{trace_id}-{uuid.uuid4().hex[:16]}-00"
    response = traced.client.get("/api/open/v1/whoami", headers={**integration.auth, "traceparent": unsampled})
    assert response.status_code == 200
    provider.force_flush()
    assert collector.trace(trace_id) == []


@pytest.mark.rule("session.error.internal")
def test_the_access_log_line_carries_the_trace_id_beside_the_request_id(
    traced: Env, tenant: TenantUsers, collector: OtlpReceiver, provider: TracerProvider
) -> None:
    integration = Integration(traced, tenant)
    lines: list[logging.LogRecord] = []
    handler = _Kept(lines)
    access = logging.getLogger("tessera.access")
    access.addHandler(handler)
    try:
        response = traced.client.get("/api/open/v1/whoami", headers={**integration.auth, "X-Request-Id": "req-traced"})
    finally:
        access.removeHandler(handler)
    assert response.status_code == 200
    [line] = [r for r in lines if r.getMessage() == "request" and getattr(r, "requestId", None) == "req-traced"]
    provider.force_flush()
    [span] = [s for s in collector.trace(line.__dict__["otelTraceId"]) if s.kind == "SERVER"]
    assert span.attributes["tessera.request_id"] == "req-traced"
    assert "traceId" not in line.__dict__  # the name of the request id (an INTERNAL_ERROR's data.traceId)


class _Kept(logging.Handler):
    """Keeps the records it is given, as they were created."""

    def __init__(self, kept: list[logging.LogRecord]) -> None:
        super().__init__()
        self.kept = kept

    def emit(self, record: logging.LogRecord) -> None:
        self.kept.append(record)


def test_an_inbound_event_and_the_automation_run_it_starts_share_a_trace(
    traced: Env, tenant: TenantUsers, collector: OtlpReceiver, provider: TracerProvider
) -> None:
    created = tenant.admin_call("POST", "/automations", json={
        "name": "Receipts", "trigger": {"source": "robot-fleet", "eventType": "inventory.received"},
        "actions": [{"kind": "sessionCommand", "command": "stock-ins:create",
                     "payload": {"sku": "$.data.sku", "quantity": "$.data.quantity"}}]})
    assert created.status_code == 200, created.text
    auth = _robot(traced, tenant)
    sku = f"TRACED-{time.time_ns()}"
    posted = traced.client.post(EVENTS, headers={**auth, "Idempotency-Key": sku}, json={
        "type": "inventory.received", "schemaVersion": 1, "occurredAt": "2026-11-22T08:00:00Z",
        "data": {"sku": sku, "quantity": 5, "warehouse": "W9"}})
    assert posted.status_code == 202, posted.text
    runs = f"/automations/{created.json()['data']['automationId']}/runs/list"
    drain(traced, tenant, lambda: [r["status"] for r in tenant.admin_call("GET", runs).json()["data"]["records"]]
          == ["succeeded"])
    provider.force_flush()
    event_id = posted.json()["eventId"]
    [run] = [s for s in collector.named("automation.run") if s.attributes["tessera.event.id"] == event_id]
    spans = {s.span_id: s for s in collector.trace(run.trace_id)}
    request = spans[run.parent_id]
    assert request.kind == "SERVER" and request.attributes["http.response.status_code"] == 202
    assert run.kind == "CONSUMER" and run.attributes["tessera.automation.attempt"] == 1
    assert any(s.attributes.get("db.operation") == "INSERT" and run in _ancestors(s, spans) for s in spans.values())


def _robot(env: Env, tenant: TenantUsers) -> dict[str, str]:
    app = tenant.admin_call("POST", "/applications", json={"name": "Robot fleet"}).json()["data"]
    inst = tenant.admin_call("POST", f"/applications/{app['appId']}/installations", json={
        "tenantId": tenant.code, "environment": "production", "scopes": ROBOT_SCOPES}).json()["data"]
    cred = tenant.admin_call("POST", f"/installations/{inst['installationId']}/credentials").json()["data"]
    return bearer(issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"])


def test_with_tracing_off_nothing_is_exported_and_no_traceparent_is_sent(
    env: Env, tenant: TenantUsers, collector: OtlpReceiver, provider: TracerProvider
) -> None:
    provider.force_flush()
    before = len(collector.spans)
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook)
        hooked.change("dana")
        drain(env, tenant, lambda: len(hook.requests) == 1)
    provider.force_flush()
    assert "traceparent" not in hook.requests[0].headers
    assert len(collector.spans) == before
    with env.sql.connect() as conn:
        stored = conn.execute(select(outbox_events.c.traceparent).where(outbox_events.c.tenant_id == tenant.tenant_id))
        assert [row.traceparent for row in stored] == [None]


def test_a_failed_statements_span_names_the_error_type_never_the_values(
    traced: Env, tenant: TenantUsers, collector: OtlpReceiver, provider: TracerProvider
) -> None:
    rt = traced.runtime
    duplicate = insert(tenants).values(code=tenant.code, name="again", status="active", created_at=rt.clock.now())
    name = f"test.duplicate.{uuid.uuid4().hex}"  # the receiver serves both backends' tests of a process

    async def insert_twice() -> bool:
        assert tracing.tracer is not None
        with tracing.tracer.start_as_current_span(name):
            try:
                await rt.db.execute(duplicate)
            except IntegrityError:
                return True
        return False

    assert traced.run(insert_twice)
    provider.force_flush()
    [outer] = collector.named(name)
    [statement] = [s for s in collector.trace(outer.trace_id) if s.parent_id == outer.span_id]
    assert statement.attributes["db.operation"] == "INSERT" and statement.error
    assert statement.attributes["error.type"] == "IntegrityError"
    assert statement.events == () and statement.status_message == ""
    assert tenant.code not in json.dumps([statement.attributes, statement.events])


# -- configuration: the standard variables --------------------------------------------------------------


def test_tracing_is_off_unless_an_exporter_is_named() -> None:
    assert from_environment({}) is None
    assert from_environment({"OTEL_TRACES_EXPORTER": "none"}) is None
    assert from_environment({"OTEL_TRACES_EXPORTER": "otlp", "OTEL_SDK_DISABLED": "true"}) is None


def test_an_exporter_or_protocol_the_service_cannot_use_is_refused() -> None:
    with pytest.raises(TracingMisconfigured, match="OTEL_TRACES_EXPORTER"):
        from_environment({"OTEL_TRACES_EXPORTER": "zipkin"})
    with pytest.raises(TracingMisconfigured, match="OTEL_EXPORTER_OTLP_PROTOCOL"):
        from_environment({"OTEL_TRACES_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"})


def test_the_sample_ratio_is_parent_based_and_read_from_the_environment() -> None:
    chosen: Any = sampler({"OTEL_TRACES_SAMPLER_ARG": "0.1"})
    assert isinstance(chosen, ParentBased) and "0.1" in str(chosen.get_description())  # type: ignore[no-untyped-call]
    ratio = sampler({"OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0.25"})
    assert isinstance(ratio, TraceIdRatioBased) and ratio.rate == 0.25
    with pytest.raises(TracingMisconfigured, match="OTEL_TRACES_SAMPLER_ARG"):
        sampler({"OTEL_TRACES_SAMPLER_ARG": "2"})


def test_the_base_endpoint_gets_the_traces_path_over_http(collector: OtlpReceiver) -> None:
    base = collector.url.removesuffix("/v1/traces")
    built = from_environment({"OTEL_TRACES_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_ENDPOINT": base})
    assert built is not None
    name = f"test.base-endpoint.{uuid.uuid4().hex}"
    try:
        built.get_tracer("test").start_span(name).end()
        built.force_flush()
    finally:
        built.shutdown()
    assert [s.name for s in collector.named(name)] == [name]


def test_grpc_is_the_other_protocol() -> None:
    from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter

    chosen = exporter("otlp", {"OTEL_EXPORTER_OTLP_PROTOCOL": "grpc", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317"})
    try:
        assert isinstance(chosen, OTLPSpanExporter)
    finally:
        chosen.shutdown()
