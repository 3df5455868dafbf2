"""A webhook worker killed with ``kill -9`` while it holds leased deliveries: what recovery costs.

    .venv/bin/python benchmarks/worker_kill.py [--backend postgresql|sqlite] [--deliveries 100]
        [--answer-first 0.1] [--timeout 5] [--concurrency 200] [--poll 0.2] [--lease-margin 30] [--keep-db]
        [--results-file benchmarks/results/worker_kill.json]

What happens, on a fresh database (``harness.databases.fresh``) with ``TESSERA_WEBHOOK_ALLOW_LOOPBACK=true``:

1. Through the services: a tenant, its administrator, an application installed into it and one
   endpoint subscribed to ``assets.assignment.changed`` on a receiver on 127.0.0.1 (in this process,
   a threaded HTTP server). ``--deliveries`` events are appended to the outbox (``storage.outbox.append``)
   and fanned out (``sending.dispatch``): that many deliveries, due now.
2. A real ``tessera worker`` process (``harness.servers.worker``) leases them (``deliver_due``: up to 200,
   until now + ``TESSERA_WEBHOOK_TIMEOUT_SECONDS`` x waves + ``sending.LEASE_MARGIN_SECONDS`` (30 s),
   waves = 200 / the concurrency rounded up) and sends them. The receiver answers the first
   ``--answer-first`` fraction 200 at once and holds every later request open, without answering: the
   worker waits for answers it will never record. Once the database shows every delivery leased and
   the receiver has every request the worker can have in flight (min(deliveries, concurrency +
   answered)), the process gets SIGKILL.
3. The receiver now answers every request 200 at once, and a second ``tessera worker`` process starts
   with the same settings. The lease is NOT shortened or expired by SQL: the run waits for the
   real lease to lapse (with the defaults, timeout 5 s x 1 wave + 30 s = 35 s), printing progress, and
   the second worker claims the deliveries on its first poll (``--poll``) after that.

``--lease-margin`` sets ``sending.LEASE_MARGIN_SECONDS`` in both worker processes (a constant of the
service, not a setting), for runs that must be short, such as the test command's smoke run: the
lease is still the real one the worker took, waited for and checked the same way, only shorter.

Printed: deliveries leased at the kill; deliveries delivered after the restart (database status and
distinct delivery ids received after the kill); lost (never answered 200 by the receiver, or not
``delivered`` in the database; must be 0); duplicates (delivery ids received more than once: the
requests the killed worker had made, answered or not, are sent again); the attempt rows recorded
(one per request received: the killed worker's are written before they are sent); seconds from
the kill to the lease's end, to the last request and to every delivery ``delivered`` in the
database.

Checks (exit status 1 when one fails): every delivery leased at the kill, none lost, every one
``delivered``, no request from the second worker before the lease ended, the duplicates exactly
the deliveries the killed worker had sent, and one attempt row per request received.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from harness import cli, log, seeding
from harness.databases import Workspace, fresh
from harness.servers import HOST, Server, Target, launch, stop_all, wait_ready, worker
from sqlalchemy import Engine, func, select

from storage import outbox
from storage.schema.tables import deliveries, delivery_attempts, webhook_endpoints
from tessera.runtime import Runtime
from tessera.webhooks import endpoints as webhook_admin
from tessera.webhooks import sending

EVENT = "assets.assignment.changed"
TENANT = "killbench"
PROGRESS_SECONDS = 5.0
LEASE_WAIT_SECONDS = 30.0  # from the first worker's start until it holds every lease


# -- the receiver ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Request:
    at: float  # wall clock, seconds, when its headers arrived
    delivery: str  # X-Webhook-Delivery
    after_kill: bool


@dataclass
class HoldingReceiver:
    """Answers the first ``answer_first`` requests 200 and holds later ones open until ``answer_all``;
    from then on answers every request 200 at once. Keeps every request."""

    answer_first: int
    url: str = ""
    requests: list[Request] = field(default_factory=list)
    released: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, delivery: str) -> bool:
        """Keep the request; whether to hold it open."""
        with self.lock:
            after = self.released.is_set()
            self.requests.append(Request(time.time(), delivery, after))
            return not after and len(self.requests) > self.answer_first

    def answer_all(self) -> None:
        self.released.set()

    def received(self, after_kill: bool) -> list[Request]:
        with self.lock:
            return [r for r in self.requests if r.after_kill == after_kill]


class _Server(ThreadingHTTPServer):
    request_queue_size = 1024  # every request of a batch connects at once

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A held request answered after its worker died finds its socket closed: expected."""


@contextmanager
def holding_receiver(answer_first: int) -> Iterator[HoldingReceiver]:
    state = HoldingReceiver(answer_first)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if state.record(self.headers.get("X-Webhook-Delivery", "")):
                state.released.wait(600)
            with suppress(OSError):
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

        def log_message(self, *_args: object) -> None:
            return

    server = _Server((HOST, 0), Handler)
    state.url = f"http://{HOST}:{server.server_address[1]}/hooks"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        state.answer_all()
        server.shutdown()
        server.server_close()


# -- setup -----------------------------------------------------------------------------------------------

async def due_deliveries(rt: Runtime, url: str, count: int) -> str:
    """A tenant, an installation, one endpoint to ``url`` and ``count`` deliveries to it, due now; the
    endpoint's pid."""
    admin = await seeding.tenant_admin(rt, TENANT, f"admin@{TENANT}.example")
    inst = await seeding.install(rt, admin, "Kill benchmark", TENANT, ["assets.read"], 0)
    made = await webhook_admin.create_endpoint(rt, admin.actor, inst.installation_pid,
                                               {"url": url, "eventTypes": [EVENT]}, seeding.REQUEST_ID)
    async with rt.db.write() as conn:
        now = rt.clock.now()
        for i in range(count):
            await outbox.append(conn, tenant_id=admin.tenant_ids[TENANT], event_type=EVENT, now=now,
                                request_id=f"bench-kill-{i:06d}",
                                payload={"pid": f"ast_{i:026d}", "assignee": f"bench-{i:06d}", "status": "assigned",
                                         "previousAssignee": None})
    while await sending.dispatch(rt):
        pass
    return str(made["endpointId"])


@dataclass(frozen=True)
class Deliveries:
    """The endpoint's deliveries, read from the database."""

    engine: Engine
    endpoint_id: int

    def rows(self) -> list[Any]:
        with self.engine.connect() as conn:
            return list(conn.execute(select(deliveries.c.pid, deliveries.c.status, deliveries.c.locked_until)
                                     .where(deliveries.c.endpoint_id == self.endpoint_id)))

    def leased(self) -> tuple[int, datetime | None]:
        """How many are leased now, and the latest lease's end."""
        now = datetime.now(UTC)
        ends = [r.locked_until for r in self.rows() if r.locked_until is not None and r.locked_until > now]
        return len(ends), max(ends, default=None)

    def delivered(self) -> int:
        return sum(1 for r in self.rows() if r.status == "delivered")

    def attempt_rows(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(
                select(func.count()).select_from(delivery_attempts.join(deliveries))
                .where(deliveries.c.endpoint_id == self.endpoint_id)).scalar_one())


def endpoint_row_id(engine: Engine, pid: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(webhook_endpoints.c.id).where(webhook_endpoints.c.pid == pid)).scalar_one())


# -- the run ----------------------------------------------------------------------------------------------

def worker_with(name: str, lease_margin: float | None) -> Target:
    """A ``tessera worker`` process; with ``lease_margin``, one whose leases end that many seconds after the
    attempts' deadline instead of the service's ``sending.LEASE_MARGIN_SECONDS``."""
    target = worker(name)
    if lease_margin is None:
        return target
    *head, code = target.command
    patch = f"from tessera.webhooks import sending; sending.LEASE_MARGIN_SECONDS = {lease_margin!r}; "
    return dataclasses.replace(target, command=(*head, patch + code))


@dataclass
class Figures:
    backend: str
    deliveries: int
    answered_before_kill: int
    sent_before_kill: int
    leased_at_kill: int
    lease_seconds_after_kill: float
    delivered_after_restart: int
    received_after_restart: int
    lost: int
    not_delivered_in_db: int
    duplicates: int
    sent_while_leased: int
    requests_received: int
    attempt_rows: int
    seconds_kill_to_last_request: float | None
    seconds_kill_to_all_delivered: float | None
    duplicates_are_the_killed_workers: bool


def wait_for_leases(hook: HoldingReceiver, store: Deliveries, first: Server, total: int,
                    expected: int) -> tuple[int, datetime]:
    """Until all ``total`` deliveries are leased and ``expected`` requests arrived; (leased, the lease's end)."""
    started = time.monotonic()
    while True:
        leased, until = store.leased()
        sent = len(hook.received(after_kill=False))
        if leased == total and sent >= expected and until is not None:
            log(f"  {leased} leased, {sent} requests received ({time.monotonic() - started:.1f} s): killing")
            return leased, until
        if (why := first.died()) is not None:
            raise RuntimeError(why)
        if time.monotonic() - started > LEASE_WAIT_SECONDS:
            raise RuntimeError(f"after {LEASE_WAIT_SECONDS:g} s, {leased} of {total} leased and {sent} of {expected} "
                               "requests received (an attempt deadline that passed ends the batch: raise --timeout)")
        time.sleep(0.01)


def kill(first: Server) -> float:
    """SIGKILL; the wall-clock time it was sent."""
    at = time.time()
    os.kill(first.pid, signal.SIGKILL)
    first.process.wait(10)
    log(f"worker 1 (pid {first.pid}) killed with SIGKILL: exit {first.process.returncode}")
    return at


def wait_delivered(hook: HoldingReceiver, store: Deliveries, total: int, killed_at: float, lease_end: float,
                   second: Server) -> float | None:
    """Until every delivery is ``delivered`` (or the lease's end + 60 s), with progress; seconds from the kill."""
    last = time.monotonic()
    while True:
        done, now = store.delivered(), time.time()
        if done == total:
            return now - killed_at
        if now > lease_end + 60 or (why := second.died()) is not None:
            log(f"  gave up: {done} of {total} delivered" + ("" if now > lease_end + 60 else f"; {why}"))
            return None
        if time.monotonic() - last >= PROGRESS_SECONDS:
            last = time.monotonic()
            left = f"lease ends in {lease_end - now:.0f} s" if now < lease_end else "lease over"
            log(f"  {now - killed_at:5.1f} s since the kill, {left}: {len(hook.received(after_kill=True))} "
                f"requests received again, {done} of {total} delivered")
        time.sleep(0.05)


def run(ws: Workspace, args: argparse.Namespace, hook: HoldingReceiver) -> Figures:
    engine = ws.backend.engine()
    try:
        with seeding.runtime(ws.env) as rt:
            pid = seeding.run(rt, due_deliveries(rt, hook.url, args.deliveries))
        store = Deliveries(engine, endpoint_row_id(engine, pid))
        total = len(store.rows())
        log(f"{total} deliveries due for endpoint {pid} on {hook.url}")
        expected = min(total, args.concurrency + hook.answer_first)
        first = wait_ready(launch(worker_with("worker-1", args.lease_margin), ws.env, ws.tmp))
        log(f"worker 1 running (pid {first.pid}); waiting until it holds every lease")
        try:
            leased, until = wait_for_leases(hook, store, first, total, expected)
            killed_at = kill(first)
        finally:
            stop_all([first])
        hook.answer_all()
        lease_end = until.timestamp()
        second = launch(worker_with("worker-2", args.lease_margin), ws.env, ws.tmp)
        log(f"worker 2 started (pid {second.pid}); the lease ends {lease_end - killed_at:.1f} s after the kill "
            "(waiting for it, not expiring it)")
        try:
            seconds = wait_delivered(hook, store, total, killed_at, lease_end, second)
        finally:
            stop_all([second])
        return figures(ws.backend.name, hook, store, total, leased, killed_at, lease_end, seconds)
    finally:
        engine.dispose()


def figures(backend: str, hook: HoldingReceiver, store: Deliveries, total: int, leased: int, killed_at: float,
            lease_end: float, seconds: float | None) -> Figures:
    before, after = hook.received(after_kill=False), hook.received(after_kill=True)
    ids = {r.pid for r in store.rows()}
    answered = {r.delivery for r in before[:hook.answer_first]} | {r.delivery for r in after}
    counts = Counter(r.delivery for r in [*before, *after])
    duplicates = {d for d, n in counts.items() if n > 1}
    delivered = store.delivered()
    return Figures(
        backend=backend, deliveries=total, answered_before_kill=min(len(before), hook.answer_first),
        sent_before_kill=len(before), leased_at_kill=leased, lease_seconds_after_kill=round(lease_end - killed_at, 1),
        delivered_after_restart=delivered, received_after_restart=len({r.delivery for r in after}),
        lost=len(ids - answered), not_delivered_in_db=total - delivered, duplicates=len(duplicates),
        sent_while_leased=sum(1 for r in after if r.at < lease_end), requests_received=len(before) + len(after),
        attempt_rows=store.attempt_rows(),
        seconds_kill_to_last_request=round(max(r.at for r in after) - killed_at, 2) if after else None,
        seconds_kill_to_all_delivered=None if seconds is None else round(seconds, 2),
        duplicates_are_the_killed_workers=duplicates == {r.delivery for r in before})


def problems_of(f: Figures) -> list[str]:
    checks = [
        (f.leased_at_kill == f.deliveries, f"{f.leased_at_kill} of {f.deliveries} leased at the kill"),
        (f.lost == 0, f"{f.lost} deliveries lost (never answered 200)"),
        (f.not_delivered_in_db == 0, f"{f.not_delivered_in_db} deliveries not delivered in the database"),
        (f.sent_while_leased == 0, f"{f.sent_while_leased} requests sent again before the lease ended"),
        (f.duplicates_are_the_killed_workers, "the duplicates are not exactly what the killed worker had sent"),
        (f.attempt_rows == f.requests_received,
         f"{f.attempt_rows} attempt rows for {f.requests_received} requests received"),
    ]
    return [message for ok, message in checks if not ok]


def report_lines(f: Figures, args: argparse.Namespace) -> list[str]:
    def seconds(value: float | None) -> str:
        return "never" if value is None else f"{value:.2f} s"

    default = float(sending.LEASE_MARGIN_SECONDS)
    margin = default if args.lease_margin is None else args.lease_margin

    return [
        f"=== kill -9 of a webhook worker holding leased deliveries ({f.backend}) ===",
        f"settings: TESSERA_WEBHOOK_TIMEOUT_SECONDS={args.timeout:g} TESSERA_WEBHOOK_CONCURRENCY={args.concurrency} "
        f"TESSERA_WORKER_POLL_SECONDS={args.poll:g}; lease margin {margin:g} s"
        f"{'' if args.lease_margin is None else ' (--lease-margin; the service: ' + format(default, 'g') + ' s)'}; "
        "lease lapse: real wait (not expired by SQL)",
        f"leased at kill:            {f.leased_at_kill} of {f.deliveries} ({f.sent_before_kill} requests made, "
        f"{f.answered_before_kill} answered 200, the rest held open)",
        f"delivered after restart:   {f.delivered_after_restart} (database), {f.received_after_restart} distinct "
        "delivery ids received after the kill",
        f"lost:                      {f.lost}",
        f"duplicates:                {f.duplicates} (delivery ids received twice)",
        f"sent before the lease end: {f.sent_while_leased}",
        f"attempt rows recorded:     {f.attempt_rows} for {f.requests_received} requests received "
        f"(the killed worker's {f.sent_before_kill} listed as unknown)",
        f"seconds from kill:         lease end {f.lease_seconds_after_kill:.1f} s, last request "
        f"{seconds(f.seconds_kill_to_last_request)}, all delivered {seconds(f.seconds_kill_to_all_delivered)}",
    ]


def main() -> int:
    args = (cli.Arguments(__doc__, "worker_kill").backend()
            .records(100, 1, "--deliveries", "deliveries leased when the worker dies (at most 200: one lease)")
            .check(lambda a: a.deliveries <= 200, "--deliveries must be at most 200 (one lease)")
            .add("--answer-first", type=float, default=0.1,
                 help="fraction of the deliveries the receiver answers 200 before holding (default 0.1)")
            .check(lambda a: 0 <= a.answer_first < 1, "--answer-first must be in [0, 1)")
            .add("--timeout", type=float, default=5.0, help="TESSERA_WEBHOOK_TIMEOUT_SECONDS (default 5)")
            .add("--concurrency", type=int, default=200, help="TESSERA_WEBHOOK_CONCURRENCY (default 200)")
            .at_least("--concurrency", 1)
            .add("--poll", type=float, default=0.2, help="TESSERA_WORKER_POLL_SECONDS (default 0.2)")
            .add("--lease-margin", type=float, default=None,
                 help="seconds a lease outlasts the attempts' deadline, set in the worker processes "
                      f"(default the service's sending.LEASE_MARGIN_SECONDS, {sending.LEASE_MARGIN_SECONDS})")
            .at_least("--timeout", 1).at_least("--poll", 0.01)
            .check(lambda a: a.lease_margin is None or a.lease_margin >= 1, "--lease-margin must be at least 1")
            .keep_db()).parse()

    started = time.perf_counter()
    env = {"TESSERA_WEBHOOK_ALLOW_LOOPBACK": "true", "TESSERA_WEBHOOK_TIMEOUT_SECONDS": str(args.timeout),
           "TESSERA_WEBHOOK_CONCURRENCY": str(args.concurrency), "TESSERA_WORKER_POLL_SECONDS": str(args.poll)}
    with fresh(args.backend, "worker_kill", args.keep_db, **env) as ws, \
            holding_receiver(round(args.deliveries * args.answer_first)) as hook:
        found = run(ws, args, hook)
    return cli.conclude(args, {"figures": asdict(found)}, report_lines(found, args), problems_of(found), started)


if __name__ == "__main__":
    sys.exit(main())
