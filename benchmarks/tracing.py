"""What tracing costs: the same hot endpoints with tracing off, on (every trace kept) and sampled, in one run.

    cd benchmarks && ../.venv/bin/python tracing.py [--backend postgresql|sqlite] [--duration 6] [--warmup 2]
        [--concurrency 8] [--checkout before=/tmp/before] [--checkout NAME=PATH ...]

Why: tracing must cost nothing when it is off (``tessera.tracing``: no middleware, no database wrapper,
one check per traced site, the SDK never imported), and what it costs when on must be known before
an operator turns it on. So one run serves the same database from several Tessera processes that
differ only in their ``OTEL_*`` variables, and sends each the same load:

* ``off``: no ``OTEL_*`` variable (the default);
* ``on 1.0``: ``OTEL_TRACES_EXPORTER=otlp`` over HTTP to a sink in this process (a real OTLP/HTTP
  receiver: it decodes each export with ``opentelemetry-proto`` and counts the spans), every trace
  sampled;
* ``on 0.1``: the same with ``OTEL_TRACES_SAMPLER_ARG=0.1`` (parent-based ratio sampling);
* each ``--checkout NAME=PATH``: another checkout served from its own tree (its ``benchmarks/_serve.py``,
  ``PYTHONPATH=PATH``) with tracing off: the code before tracing (``git worktree add /tmp/before
  a131e9e``), so ``off`` is compared with the code it changed, on the same database, in the same run;
  or the commit of the change alone, when the working tree holds other uncommitted work.

Endpoints: ``whoami``, a read by pid (``GET /api/open/v1/resources/inventory.stock-ins/{pid}``) and
a command (``POST .../inventory.stock-ins.create:execute``, a fresh ``Idempotency-Key`` each: a record,
its audit row and an outbox event per request; no worker runs, so no deliveries). Each endpoint is
measured on every target in ABBA order (forward, then backward), ``--warmup`` then ``--duration``
seconds from ``--concurrency`` httpx clients (``harness.clients``); the server's CPU per request
(``/proc``, the exporter's thread included), req/s and p50/p99 are printed per pass, and the mean of
both passes per target. The load generator, the servers and the database share the host: read the
differences between targets of one run, not the absolute figures. Results go to
``benchmarks/results/tracing.json`` and ``.txt``; exit status 1 when a request failed or a traced
target exported nothing (or the untraced one exported anything).
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
from harness import cli, log, seeding
from harness.clients import Load, Result, drive, gets, measure
from harness.databases import fresh
from harness.servers import TESSERA, Server, Target, running
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

SCOPES = ["inventory.stockins.read", "inventory.stockins.manage"]
COMMAND = "/api/open/v1/commands/inventory.stock-ins.create:execute"
READ = "/api/open/v1/resources/inventory.stock-ins/{pid}"
WHOAMI = "/api/open/v1/whoami"


@dataclass
class Sink:
    """An OTLP/HTTP receiver: every export decoded, its spans counted by the service name's target."""

    url: str
    spans: dict[str, int] = field(default_factory=dict)  # by the exporting process's service.name
    exports: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


@contextmanager
def sink() -> Iterator[Sink]:
    state: Sink | None = None

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            assert state is not None
            request = ExportTraceServiceRequest()
            request.ParseFromString(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
            with state.lock:
                for spans in request.resource_spans:
                    service = next((a.value.string_value for a in spans.resource.attributes
                                    if a.key == "service.name"), "?")
                    count = sum(len(scope.spans) for scope in spans.scope_spans)
                    state.spans[service] = state.spans.get(service, 0) + count
                state.exports += 1
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state = Sink(f"http://127.0.0.1:{server.server_address[1]}/v1/traces")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()


def checkout(given: str) -> tuple[str, Path]:
    """``NAME=PATH`` of ``--checkout``."""
    name, _, path = given.partition("=")
    if not name or not path or not (Path(path) / "benchmarks" / "_serve.py").is_file():
        raise argparse.ArgumentTypeError(f"{given!r}: expected NAME=PATH of a checkout with benchmarks/_serve.py")
    return name, Path(path)


def targets(sink_url: str, checkouts: list[tuple[str, Path]]) -> list[Target]:
    traced = {"OTEL_TRACES_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
              "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": sink_url}
    # Each target's spans are told apart by their service.name (the sink counts by it).
    found = [Target("off", TESSERA.command, health=TESSERA.health),
             Target("on 1.0", TESSERA.command, env={**traced, "OTEL_TRACES_SAMPLER_ARG": "1.0",
                                                    "OTEL_SERVICE_NAME": "on 1.0"}, health=TESSERA.health),
             Target("on 0.1", TESSERA.command, env={**traced, "OTEL_TRACES_SAMPLER_ARG": "0.1",
                                                    "OTEL_SERVICE_NAME": "on 0.1"}, health=TESSERA.health)]
    for name, path in checkouts:  # tracing off: such a checkout's own _serve.py, on its own code
        found.append(Target(name, (sys.executable, str(path / "benchmarks" / "_serve.py"), "--host", "{host}",
                                   "--port", "{port}"), env={"PYTHONPATH": str(path)}, health=TESSERA.health))
    return found


def commands(url: str, auth: dict[str, str], concurrency: int, tag: str) -> Callable[[float | None, int], Load]:
    """``run(seconds, offset)``: clients executing the create command back to back, each key new."""
    serial = itertools.count()

    def check(response: httpx.Response) -> str | None:
        return None if response.status_code == 200 else f"HTTP {response.status_code}: {response.text[:200]}"

    async def turn(client: httpx.AsyncClient, load: Load, n: int) -> None:
        i = next(serial)
        await load.send(client, "POST", url, check, json={"input": {"sku": f"SKU-{tag}-{n}-{i}", "quantity": 1}},
                        headers={**auth, "Idempotency-Key": f"{tag}-{n}-{i}"})

    return lambda seconds, offset: drive(concurrency, seconds, turn, offset)


def first_pid(server: Server, auth: dict[str, str]) -> str:
    response = httpx.post(server.base_url + COMMAND, json={"input": {"sku": "SKU-READ", "quantity": 1}},
                          headers={**auth, "Idempotency-Key": "read-target"}, timeout=30)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    record = body.get("record") or body.get("result", {}).get("record") or body
    return str(record["pid"])


def load_for(endpoint: str, server: Server, auth: dict[str, str], pid: str, concurrency: int,
             tag: str) -> Callable[[float | None, int], Load]:
    if endpoint == "whoami":
        return gets(server.base_url + WHOAMI, auth, concurrency)
    if endpoint == "read by pid":
        return gets(server.base_url + READ.format(pid=pid), auth, concurrency)
    return commands(server.base_url + COMMAND, auth, concurrency, tag)


def table(found: list[Result], names: list[str], args: argparse.Namespace) -> list[str]:
    """Per endpoint and target, the mean of both passes; CPU per request also relative to ``off``."""
    lines = [f"tracing cost, {args.backend}, {args.concurrency} clients, {args.duration:g} s per pass, "
             f"ABBA (two passes per target); mean of both passes:",
             f"{'endpoint':12} {'target':8} {'req/s':>8} {'CPU ms/req':>11} {'vs off':>8} {'p50 ms':>7} {'p99 ms':>7}"]
    for endpoint in ("whoami", "read by pid", "command"):
        of = {name: [r for r in found if r.scenario == endpoint and r.target == name] for name in names}
        base = statistics.fmean(r.server_cpu_ms or 0 for r in of["off"])
        for name in names:
            cpu_ms = statistics.fmean(r.server_cpu_ms or 0 for r in of[name])
            lines.append(f"{endpoint:12} {name:8} {statistics.fmean(r.rps for r in of[name]):8.1f} {cpu_ms:11.3f} "
                         f"{(cpu_ms / base - 1) * 100 if base else 0:+7.1f}% "
                         f"{statistics.fmean(r.p50_ms or 0 for r in of[name]):7.2f} "
                         f"{statistics.fmean(r.p99_ms or 0 for r in of[name]):7.2f}")
    return lines


def main() -> int:
    args = (cli.Arguments(__doc__, "tracing").backend().duration(6.0).warmup(2.0).concurrency(8)
            .add("--checkout", type=checkout, action="append", default=[], metavar="NAME=PATH",
                 help="another checkout served with tracing off (the code before tracing, say); repeatable")).parse()
    started, failures = time.perf_counter(), []
    found: list[Result] = []
    with fresh(args.backend, "tracing") as ws, seeding.runtime(ws.env) as rt, sink() as spans:
        admin = seeding.run(rt, seeding.tenant_admin(rt, "bench", "bench-admin@example.test"))
        inst = seeding.run(rt, seeding.install(rt, admin, "writer", "bench", SCOPES, 1))
        auth = {"Authorization": f"Bearer {seeding.run(rt, seeding.issue_token(rt, inst.credentials[0]))}"}
        chosen = targets(spans.url, args.checkout)
        with running(chosen, ws.env, ws.tmp) as servers:
            pid = first_pid(servers["off"], auth)
            names = [t.name for t in chosen]
            for endpoint in ("whoami", "read by pid", "command"):
                for rank, name in enumerate(names + names[::-1]):
                    server = servers[name]
                    tag = f"{name.replace(' ', '').replace('.', '')}-{rank}"  # a valid Idempotency-Key part
                    run = load_for(endpoint, server, auth, pid, args.concurrency, tag)
                    result, _, _ = measure(endpoint, server, run, args.duration, args.warmup)
                    found.append(result)
                    log(f"{endpoint:12} {name:8} {result.rps:8.1f} req/s  server CPU {result.server_cpu_ms} ms/req  "
                        f"p50 {result.p50_ms} ms  p99 {result.p99_ms} ms  errors {result.errors}")
                    if result.errors:
                        failures.append(f"{endpoint} on {name}: {result.errors} errors {result.error_samples[:2]}")
        # The servers have stopped, and each traced one flushed its exporter's queue as it exited.
        exported = {name: spans.spans.get(name, 0) for name in names}
        exported["untraced (service.name tessera)"] = spans.spans.get("tessera", 0)
    lines = table(found, names, args)
    lines.append("spans exported to the OTLP sink: " + ", ".join(f"{n} {count:,}" for n, count in exported.items()))
    if exported["untraced (service.name tessera)"]:
        failures.append("an untraced target exported spans")
    if not exported.get("on 1.0") or not exported.get("on 0.1"):
        failures.append("a traced target exported nothing")
    return cli.conclude(args, {"results": [r.__dict__ for r in found], "exported_spans": exported}, lines,
                        failures, started)


if __name__ == "__main__":
    sys.exit(main())
