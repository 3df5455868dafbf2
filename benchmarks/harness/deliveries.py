"""Webhook deliveries, end to end: the receiver, the endpoints that point at it, and the checks that
each delivery arrived exactly once, where and as it should, signed.

Why here: ``webhooks.py`` (throughput and latency against a bare sender) and ``scaleout.py`` (two
API processes and two workers) judge deliveries by the same rules, from the database's side
(``deliveries_since``, ``check_deliveries``) and from the receiver's (``check_requests``).
The receiver is ``benchmarks/_webhook_peers.py receive``: a bare ASGI app in a process of its own
that answers 204 and keeps every request with the wall-clock time its headers arrived.
"""

from __future__ import annotations

import base64
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psycopg

from harness import BENCH_DIR, log
from harness.servers import Server, Target, start
from tessera.access.actors import Actor
from tessera.runtime import Runtime
from tessera.webhooks import endpoints as webhook_admin
from tessera.webhooks.sending import USER_AGENT
from tessera.webhooks.verify import WebhookVerificationError, verify

PEERS = BENCH_DIR / "_webhook_peers.py"
RECEIVER = Target("receiver", (sys.executable, str(PEERS), "receive", "--host", "{host}", "--port", "{port}"),
                  health="/_count")
SETTLE_SECONDS = 0.5  # after the last expected request: time for a duplicate to show
PROGRESS_SECONDS = 1.0
UNFINISHED = ("pending", "retrying", "dead")


@dataclass(frozen=True)
class Endpoint:
    pid: str
    url: str
    path: str
    secret: str
    event_types: tuple[str, ...]


async def make_endpoints(rt: Runtime, actor: Actor, installation_pid: str, receiver_url: str, count: int,
                         event: str, control_event: str) -> tuple[list[Endpoint], Endpoint]:
    """``count`` endpoints subscribed to ``event`` and a control endpoint subscribed to ``control_event``
    only (it must receive nothing), through the service (which returns each secret once)."""
    async def endpoint(path: str, types: list[str]) -> Endpoint:
        made = await webhook_admin.create_endpoint(rt, actor, installation_pid,
                                                   {"url": receiver_url + path, "eventTypes": types}, "bench-setup")
        return Endpoint(made["endpointId"], made["url"], path, made["secret"], tuple(made["eventTypes"]))

    return ([await endpoint(f"/hook/{i}", [event]) for i in range(count)],
            await endpoint("/hook/control", [control_event]))


@dataclass(frozen=True)
class Received:
    at: float  # wall clock, seconds
    method: str
    path: str
    headers: dict[str, str]  # lower-case names
    body: bytes


class Receiver:
    """The receiver process and its read-back API (``/_count``, ``/_log``)."""

    def __init__(self, env: dict[str, str], log_dir: Path) -> None:
        self.server: Server = start(RECEIVER, env, log_dir)
        self.client = httpx.Client(base_url=self.server.base_url, timeout=30)
        log(f"receiver listening on {self.server.base_url} (pid {self.server.pid})")

    @property
    def base_url(self) -> str:
        return self.server.base_url

    def _get(self, path: str, params: dict[str, str] | None = None) -> Any:
        """A read-back call; retried once when the receiver closed an idle keep-alive connection
        just as it was reused (uvicorn closes them after 5 s: a race, not a failure)."""
        try:
            return self.client.get(path, params=params).json()
        except httpx.RemoteProtocolError:
            return self.client.get(path, params=params).json()

    def count(self) -> int:
        return int(self._get("/_count")["count"])

    def entries(self, start_at: int, end: int | None = None) -> list[Received]:
        params = {"from": str(start_at)} | ({"to": str(end)} if end is not None else {})
        return [Received(at, method, path, headers, base64.b64decode(body))
                for at, method, path, headers, body in self._get("/_log", params)]

    def wait_for(self, mark: int, expected: int, label: str, timeout: float) -> int:
        """Until ``expected`` requests arrived after ``mark`` (or the timeout), with progress; how many did."""
        started = last = time.monotonic()
        while True:
            got = self.count() - mark
            now = time.monotonic()
            if got >= expected or now - started > timeout or now - last >= PROGRESS_SECONDS:
                log(f"  {label}: {got:,} / {expected:,} requests received ({now - started:.1f} s)")
                last = now
                if got >= expected or now - started > timeout:
                    return got
            time.sleep(0.02)

    def stop(self) -> None:
        self.client.close()
        self.server.stop()


# -- the database's side ---------------------------------------------------------------------------

def scalar(db: psycopg.Connection[Any], query: str, params: tuple[Any, ...] = ()) -> int:
    row = db.execute(query, params).fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def outbox_mark(db: psycopg.Connection[Any]) -> int:
    return scalar(db, "SELECT coalesce(max(id), 0) FROM outbox_events")


def wait_until_finished(db: psycopg.Connection[Any], mark: int, timeout: float = 30.0) -> None:
    """Until every event after ``mark`` is dispatched and none of their deliveries is due or leased (the
    last attempt's row is written after the receiver answered); then ``SETTLE_SECONDS`` more, for a
    duplicate to show."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        left = scalar(db, "SELECT (SELECT count(*) FROM outbox_events WHERE id > %s AND dispatched_at IS NULL) "
                          "+ (SELECT count(*) FROM deliveries d JOIN outbox_events e ON e.id = d.event_id "
                          "WHERE e.id > %s AND (d.status IN ('pending', 'retrying') OR d.locked_until IS NOT NULL))",
                      (mark, mark))
        if left == 0:
            break
        time.sleep(0.05)
    time.sleep(SETTLE_SECONDS)


def unfinished(db: psycopg.Connection[Any]) -> tuple[dict[str, int], int]:
    """Deliveries pending, retrying or dead anywhere, and outbox rows never dispatched."""
    statuses = {str(s): int(n) for s, n in db.execute(
        "SELECT status, count(*) FROM deliveries WHERE status IN ('pending', 'retrying', 'dead') GROUP BY status")}
    return statuses, scalar(db, "SELECT count(*) FROM outbox_events WHERE dispatched_at IS NULL")


@dataclass(frozen=True)
class DeliveryRow:
    pid: str
    event_id: str
    request_id: str | None
    occurred_at: float  # epoch seconds
    endpoint_pid: str
    status: str
    attempts: int
    last_http_status: int | None
    attempt_rows: int
    attempt_ok_rows: int


def deliveries_since(db: psycopg.Connection[Any], mark: int) -> tuple[list[DeliveryRow], dict[str, Any]]:
    """The deliveries of the events after ``mark``, and those events by event id."""
    events = {r[0]: {"request_id": r[1], "occurred_at": r[2].timestamp(), "type": r[3]} for r in db.execute(
        "SELECT event_id, request_id, occurred_at, event_type FROM outbox_events WHERE id > %s", (mark,))}
    rows = [DeliveryRow(r[0], r[1], r[2], r[3].timestamp(), r[4], r[5], r[6], r[7], r[8], r[9]) for r in db.execute(
        "SELECT d.pid, e.event_id, e.request_id, e.occurred_at, w.pid, d.status, d.attempts, d.last_http_status, "
        "(SELECT count(*) FROM delivery_attempts a WHERE a.delivery_id = d.id), "
        "(SELECT count(*) FROM delivery_attempts a WHERE a.delivery_id = d.id AND a.http_status = 204) "
        "FROM deliveries d JOIN outbox_events e ON e.id = d.event_id JOIN webhook_endpoints w ON w.id = d.endpoint_id "
        "WHERE e.id > %s ORDER BY d.id", (mark,))]
    return rows, events


def check_deliveries(rows: list[DeliveryRow], events: dict[str, Any], endpoints: list[Endpoint],
                     control: Endpoint) -> list[str]:
    """Exactly one delivery per event and subscribed endpoint, none for the control endpoint, all
    delivered by one 204 attempt."""
    problems: list[str] = []
    pairs = Counter((r.event_id, r.endpoint_pid) for r in rows)
    want = {(event_id, e.pid) for event_id in events for e in endpoints}
    if set(pairs) != want or any(n != 1 for n in pairs.values()):
        problems.append(f"deliveries: {len(rows)} for {len(pairs)} (event, endpoint) pairs, expected exactly one "
                        f"for each of {len(want)}; missing {len(want - set(pairs))}, extra {len(set(pairs) - want)}")
    misdirected = sum(1 for r in rows if r.endpoint_pid == control.pid)
    if misdirected:
        problems.append(f"{misdirected} deliveries for the control endpoint (subscribed to "
                        f"{', '.join(control.event_types)} only)")
    statuses = Counter(r.status for r in rows)
    if set(statuses) - {"delivered"}:
        problems.append(f"delivery statuses: {dict(statuses)}")
    odd = [r.pid for r in rows if r.attempts != 1 or r.last_http_status != 204 or r.attempt_rows != 1
           or r.attempt_ok_rows != 1]
    if odd:
        problems.append(f"{len(odd)} deliveries not delivered by exactly one 204 attempt, e.g. {odd[:3]}")
    return problems


@dataclass
class Judged:
    """A delivery run, judged from both sides."""

    received: list[Received]
    rows: list[DeliveryRow]
    events: dict[str, Any]
    problems: list[str]
    counts: dict[str, Any]


def judge(db: psycopg.Connection[Any], receiver: Receiver, mark: int, receiver_mark: int, endpoints: list[Endpoint],
          control: Endpoint, event_type: str, arrived: tuple[int, int], events: int | None = None) -> Judged:
    """The deliveries of the events after ``mark`` and the requests after ``receiver_mark``, checked:
    ``arrived`` is (got, expected) requests, ``events`` the outbox rows the run must have written."""
    received = receiver.entries(receiver_mark)
    rows, found = deliveries_since(db, mark)
    problems = [f"only {arrived[0]:,} of {arrived[1]:,} deliveries arrived in time"] if arrived[0] < arrived[1] else []
    if events is not None and len(found) != events:
        problems.append(f"{len(found)} outbox rows, expected {events}")
    problems += check_deliveries(rows, found, endpoints, control)
    by_pid = {e.pid: e for e in [*endpoints, control]}
    request_problems, counts = check_requests(
        received, {r.pid: (by_pid[r.endpoint_pid], r.event_id, r.request_id) for r in rows}, event_type)
    return Judged(received, rows, found, problems + request_problems,
                  {**counts, "deliveries_in_db": len(rows), "events": len(found)})


# -- the receiver's side ---------------------------------------------------------------------------

def _request_problems(request: Received, endpoint: Endpoint, event_id: str, event_type: str, prefix: str) -> list[str]:
    """What is wrong with one delivery as the receiver got it (its signature aside)."""
    wrong = []
    if request.method != "POST" or request.path != prefix + endpoint.path:
        wrong.append(f"{request.method} {request.path} instead of POST {prefix}{endpoint.path}")
    try:
        document = json.loads(request.body)
    except ValueError:
        document = {"id": "body is not JSON"}
    if document.get("id") != event_id or document.get("type") != event_type:
        wrong.append("body of another event")
    if request.headers.get("content-type") != "application/json":
        wrong.append(f"Content-Type {request.headers.get('content-type')!r}")
    if request.headers.get("user-agent") != USER_AGENT:
        wrong.append(f"User-Agent {request.headers.get('user-agent')!r}")
    if "x-request-id" in request.headers:  # the originating call's id stays inside Tessera
        wrong.append("X-Request-Id sent to the receiver")
    return wrong


def check_requests(received: list[Received], expected: dict[str, tuple[Endpoint, str, str | None]], event_type: str,
                   prefix: str = "") -> tuple[list[str], dict[str, Any]]:
    """Each expected delivery arrived exactly once, where and as it should (a body of ``event_type``,
    Tessera's headers, no request id), with a signature that verifies; nothing else arrived.
    Returns (problems, counts)."""
    by_delivery = Counter(r.headers.get("x-webhook-delivery", "") for r in received)
    duplicates = {k: n for k, n in by_delivery.items() if n > 1}
    missing = sorted(set(expected) - set(by_delivery))
    unexpected = sorted(set(by_delivery) - set(expected))
    wrong: Counter[str] = Counter()
    bad_signatures: Counter[str] = Counter()
    for request in received:
        if (found := expected.get(request.headers.get("x-webhook-delivery", ""))) is None:
            continue
        wrong.update(_request_problems(request, found[0], found[1], event_type, prefix))
        try:
            verify(request.body, request.headers, found[0].secret, now=request.at)
        except WebhookVerificationError as exc:
            bad_signatures[exc.reason] += 1
    problems = []
    if duplicates:
        problems.append(f"{len(duplicates)} deliveries received more than once, e.g. {list(duplicates.items())[:3]}")
    if missing:
        problems.append(f"{len(missing)} deliveries never received, e.g. {missing[:3]}")
    if unexpected:
        problems.append(f"{len(unexpected)} unexpected delivery ids received, e.g. {unexpected[:3]}")
    if wrong:
        problems.append(f"requests not as expected: {dict(wrong.most_common(5))}")
    if bad_signatures:
        problems.append(f"{sum(bad_signatures.values())} signatures did not verify: {dict(bad_signatures)}")
    verified = sum(by_delivery[k] for k in expected) - sum(bad_signatures.values())
    return problems, {"received": len(received), "distinct_deliveries": len(by_delivery), "duplicates": len(duplicates),
                      "missing": len(missing), "unexpected": len(unexpected), "signatures_verified": verified}
