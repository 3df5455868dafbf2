"""Issue 16, item 3: a burst of 10,000 inbound events from one source is accepted with no loss, and
the tenant's automations keep up.

    .venv/bin/python benchmarks/inbound_burst.py [--backend postgresql|sqlite] [--events 10000]
        [--concurrency 32] [--workers 0] [--http-processes 1] [--keep-up-seconds 5] [--keep-up-ratio 0.8]
        [--drain-timeout 600] [--stall-seconds 120] [--keep-db] [--results-file PATH]

Needs PostgreSQL at ``TESSERA_TEST_PG_URL`` (default ``postgresql://postgres@127.0.0.1:5432/test``; a
fresh database is made next to it and dropped at the end) unless ``--backend sqlite`` (a fresh file in
a temporary directory), and Linux (``/proc``). Every process listens on 127.0.0.1 and every request
goes there.

Setup, through the services: a fresh database, migrated; the demo data (``tessera.demo.seed_demo``:
tenant ``demo`` and its automation "Robot fleet receipts become stock-ins", which turns every
``robot-fleet`` ``inventory.received`` event into a ``stock-ins:create`` session command); an
application installed into ``demo`` with the source's publish scope ``events.robot-fleet.publish``
and one credential. Then the real serving command, ``<venv>/bin/tessera serve --host 127.0.0.1 --port
<free> --workers <--http-processes>`` (in a process group of its own), with every rate limit out of
reach (``harness.databases.server_env``: ``TESSERA_RATE_LIMIT_*`` = 10^9) and logs at WARNING. The
automations run where ``tessera serve`` runs them: by default one worker task on the server's own
event loop (``TESSERA_WORKERS_IN_PROCESS=true``); with ``--workers N`` (N >= 1) the server runs none
(``TESSERA_WORKERS_IN_PROCESS=false``) and N ``tessera worker --tasks 1`` processes run beside it.
Over HTTP: a bearer token from ``POST /oauth2/token`` (client credentials), and through the session
API as ``admin@demo.example`` the tenant's automations are listed
(``GET /api/open-platform/automations/list``): exactly one enabled automation must consume
``robot-fleet`` / ``inventory.received`` and create a stock-in with ``sku: $.data.sku`` (when none
is enabled, the demo's is created through ``POST /api/open-platform/automations``).

The burst: ``--events`` events (``POST /api/open/v1/event-sources/robot-fleet/events``, type
``inventory.received``, schemaVersion 1, a unique ``Idempotency-Key`` and a unique ``data.sku``
each), built before the clock starts and sent as fast as the server takes them by one aiohttp
client with ``--concurrency`` requests in flight, each event sent once (no retries: a refusal is
counted, not hidden). Meanwhile, and after the burst until everything is consumed, this process
reads the database once a second (read-only SQL through SQLAlchemy on the same database) and prints
a progress line: events stored and dispatched, the automation's runs by status, the backlog.

Definitions, as printed:

* accepted: a 202 answer with ``duplicate: false`` and an event id; refused: every other answer (by
  status) or transport error. Acceptance rate: accepted / (first send -> last 202), wall time: first
  send -> last answer.
* consumed: the event is stored (``inbound_events``), its run of the automation
  (``automation_runs``, one per automation and event) has ``status = 'succeeded'``, and exactly the
  stock-in it asked for exists (``records`` of model ``stockIn`` whose ``sku`` is the event's; its
  quantity and warehouse are checked too). lost: accepted but not consumed when the watch ends (with
  the reason: not stored, no run, pending, retrying, parked, no stock-in). Must be 0.
* duplicates: events with more than one run, events with more than one stock-in, and 202 answers
  with ``duplicate: true`` (every key is unique, so there must be none). Must be 0.
* backlog at time t: events stored by t (``received_at``) minus runs succeeded by t (the run's
  ``updated_at``, written in the transaction that finished it). Max backlog: its exact maximum over
  the run from those timestamps (the once-a-second samples are printed beside it).
* drain time: last 202 -> the last run finished. Automation throughput: succeeded runs / (first
  event stored -> last run finished), and split into runs/s during the burst and after it.
* event-to-consumed latency: ``received_at`` -> the run's ``updated_at``, p50/p95/p99/max.
* kept up: no event lost, the drain time at most ``--keep-up-seconds`` (default 5 s) AND the
  automation throughput at least ``--keep-up-ratio`` (default 0.8) x the acceptance rate, i.e. the
  automations consumed events about as fast as they were accepted and were done a few seconds
  after the last one.

CPU (``harness.cpu``, from ``/proc/<pid>/stat``): the serve command's whole process tree (``server``:
with the default, that includes the in-process automation worker), the ``tessera worker`` processes
(``workers``), PostgreSQL (every backend), this process (``bench``: the client and the poller) and
the rest of the host, read before the burst, at its last answer and when the watch saw everything
consumed (up to one poll late); printed as percent of one core per phase and as CPU ms per accepted
event over the whole run (accepting and consuming).

Exit status: 0 when every event was accepted, none was lost or duplicated and the automations kept
up; 1 when an event was refused, lost or duplicated, a stock-in does not match its event or a process
died; 2 when all of that is fine but the automations did not keep up. Everything goes to
``benchmarks/results/inbound_burst-<backend>.json`` and the report to the ``.txt`` beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

import aiohttp
import httpx
import psycopg
from harness import cli, cpu, log, results, seeding, stats, tables
from harness.databases import Workspace, fresh, pg_activity
from harness.servers import Server, launch, launch_group, serve_command, stop_all, stop_group, wait_ready, worker
from sqlalchemy import Engine, and_, func, select

from storage.schema.tables import automation_runs, automations, inbound_events, installations, records, tenants
from tessera.demo import DEMO_AUTOMATION

SOURCE = "robot-fleet"
EVENT_TYPE = "inventory.received"
SCOPE = "events.robot-fleet.publish"
TENANT = "demo"
EVENTS_PATH = f"/api/open/v1/event-sources/{SOURCE}/events"
AUTOMATIONS_PATH = "/api/open-platform/automations"
WAREHOUSES = ("north", "south", "east", "west")
UNFINISHED = ("pending", "retrying")
NOISY_PCT = 20.0  # the rest of the host's share of all CPUs from which the run is flagged
REQUEST_TIMEOUT = 60.0


@dataclass(frozen=True)
class Ids:
    tenant: int
    installation: int
    automation: int
    automation_pid: str


# -- the service -----------------------------------------------------------------------------------

@dataclass
class Service:
    """The serve command (a process group) and the worker processes beside it, if any."""

    serve: Server
    workers: list[Server]
    command: list[str]

    @property
    def base_url(self) -> str:
        return self.serve.base_url

    def sources(self) -> dict[str, cpu.Source]:
        found = {"server": cpu.of_tree(self.serve.pid)}
        if self.workers:
            found["workers"] = cpu.of_processes(w.pid for w in self.workers)
        return found

    def died(self) -> list[str]:
        return [why for s in [self.serve, *self.workers] if (why := s.died()) is not None]

    def stop(self) -> list[str]:
        problems = self.died()
        stop_all(self.workers)
        log(f"serve command {stop_group(self.serve)}")
        return problems


def worker_mode(args: argparse.Namespace) -> str:
    if args.workers:
        return (f"{args.workers} `tessera worker --tasks 1` process(es) beside the server "
                "(TESSERA_WORKERS_IN_PROCESS=false)")
    if args.http_processes > 1:
        return "the one worker process `tessera serve --workers N` starts beside its HTTP processes"
    return "one worker task on the server's own event loop (TESSERA_WORKERS_IN_PROCESS=true)"


def start_service(ws: Workspace, args: argparse.Namespace) -> Service:
    env = {**ws.env, "TESSERA_WORKERS_IN_PROCESS": "false" if args.workers else "true"}
    serve, command = launch_group(serve_command("serve", args.http_processes), env, ws.tmp)
    service = Service(serve, [launch(worker(f"worker-{i}"), env, ws.tmp) for i in range(args.workers)], command)
    try:
        for process in [serve, *service.workers]:
            wait_ready(process)
    except BaseException:
        service.stop()
        raise
    log(f"{' '.join(command)} listening on {serve.base_url} (pid {serve.pid}); automations: {worker_mode(args)}")
    return service


# -- fixtures --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Fixture:
    jwt: str
    installation: seeding.Installation


async def make_fixture(rt: Any) -> Fixture:
    """The demo data (with its automation) and an installation holding the source's publish scope."""
    admin = await seeding.demo_admin(rt)
    return Fixture(admin.jwt, await seeding.install(rt, admin, "Inbound burst benchmark", TENANT, [SCOPE], 1))


def bearer_token(base_url: str, credential: seeding.Credential) -> str:
    response = httpx.post(base_url + "/oauth2/token", content=credential.form(), timeout=30,
                          headers={"Content-Type": "application/x-www-form-urlencoded"})
    if response.status_code != 200:
        raise RuntimeError(f"token request answered {response.status_code}: {response.text[:300]}")
    return str(response.json()["access_token"])


def consuming(client: httpx.Client) -> list[dict[str, Any]]:
    """The tenant's enabled automations triggered by the source's event type (session API)."""
    response = client.get(AUTOMATIONS_PATH + "/list", params={"pageSize": 100})
    if response.status_code != 200:
        raise RuntimeError(f"listing automations answered {response.status_code}: {response.text[:300]}")
    return [a for a in response.json()["data"]["records"]
            if a["enabled"] and a["trigger"] == {"source": SOURCE, "eventType": EVENT_TYPE}]


def makes_stock_in(automation: dict[str, Any]) -> bool:
    """Whether its one action creates a stock-in carrying the event's sku (what the checks count on)."""
    actions = automation["actions"]
    return (len(actions) == 1 and actions[0].get("command") == "stock-ins:create"
            and (actions[0].get("payload") or {}).get("sku") == "$.data.sku")


def ensure_automation(base_url: str, jwt: str) -> str:
    """The pid of the one enabled automation consuming the source's events; the demo's is created
    through the session API when none is enabled."""
    with httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {jwt}"}, timeout=30) as client:
        found = consuming(client)
        if not found:
            body = {"name": DEMO_AUTOMATION["name"], "trigger": {"source": SOURCE, "eventType": EVENT_TYPE},
                    "actions": DEMO_AUTOMATION["actions"]}
            created = client.post(AUTOMATIONS_PATH, json=body)
            if created.status_code != 200:
                raise RuntimeError(f"creating the automation answered {created.status_code}: {created.text[:300]}")
            log(f"no enabled automation consumed {SOURCE}/{EVENT_TYPE}: created one through the session API")
            found = consuming(client)
    if len(found) != 1 or not makes_stock_in(found[0]):
        raise RuntimeError(f"expected one enabled automation on {SOURCE}/{EVENT_TYPE} creating a stock-in with "
                           f"sku $.data.sku, found {json.dumps(found)}")
    log(f"automation {found[0]['automationId']} {found[0]['name']!r} is enabled: {json.dumps(found[0]['actions'])}")
    return str(found[0]["automationId"])


def lookup_ids(engine: Engine, installation_pid: str, automation_pid: str) -> Ids:
    with engine.connect() as conn:
        tenant = conn.execute(select(tenants.c.id).where(tenants.c.code == TENANT)).scalar_one()
        installation = conn.execute(select(installations.c.id)
                                    .where(installations.c.pid == installation_pid)).scalar_one()
        automation = conn.execute(select(automations.c.id).where(automations.c.pid == automation_pid)).scalar_one()
    return Ids(int(tenant), int(installation), int(automation), automation_pid)


def make_events(count: int, tag: str) -> list[tuple[str, bytes]]:
    """(Idempotency-Key, body) of every event: a unique key and a unique sku each."""
    occurred = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return [(f"burst-{tag}-{i:05d}", json.dumps({
        "type": EVENT_TYPE, "schemaVersion": 1, "occurredAt": occurred,
        "data": {"sku": f"BURST-{tag}-{i:05d}", "quantity": 1 + i % 50, "warehouse": WAREHOUSES[i % len(WAREHOUSES)]},
    }).encode()) for i in range(count)]


# -- the burst -------------------------------------------------------------------------------------

@dataclass
class Burst:
    """What the client saw."""

    total: int
    accepted: dict[str, int] = field(default_factory=dict)  # event id -> position in the burst
    accepted_at: list[float] = field(default_factory=list)  # wall clock of each 202
    latencies: list[float] = field(default_factory=list)  # of the accepted requests, seconds
    refused: Counter[str] = field(default_factory=Counter)  # by status, or the transport error's name
    samples: list[str] = field(default_factory=list)  # the first refusals, for the report
    duplicate_answers: int = 0
    started: float = 0.0  # wall clock of the first send
    ended: float = 0.0  # wall clock of the last answer
    done: bool = False

    @property
    def answered(self) -> int:
        return len(self.accepted) + sum(self.refused.values()) + self.duplicate_answers

    def refuse(self, why: str, detail: str) -> None:
        self.refused[why] += 1
        if len(self.samples) < 5:
            self.samples.append(f"{why}: {detail[:200]}")

    def answer(self, position: int, status: int, raw: bytes, took: float) -> None:
        if status != 202:
            self.refuse(str(status), raw.decode(errors="replace"))
            return
        try:
            body = json.loads(raw)
            event_id, duplicate = str(body["eventId"]), body["duplicate"]
        except (ValueError, KeyError, TypeError):
            self.refuse("202 with an unreadable body", raw.decode(errors="replace"))
            return
        if duplicate is not False or event_id in self.accepted:
            self.duplicate_answers += 1
            return
        self.accepted[event_id] = position
        self.accepted_at.append(time.time())
        self.latencies.append(took)


async def post_one(session: aiohttp.ClientSession, url: str, headers: dict[str, str], position: int,
                   event: tuple[str, bytes], burst: Burst) -> None:
    key, body = event
    sent = time.perf_counter()
    try:
        async with session.post(url, data=body, headers={**headers, "Idempotency-Key": key}) as response:
            status, raw = response.status, await response.read()
    except (aiohttp.ClientError, TimeoutError) as exc:
        burst.refuse(type(exc).__name__, str(exc))
        return
    burst.answer(position, status, raw, time.perf_counter() - sent)


async def send_all(url: str, token: str, events: list[tuple[str, bytes]], concurrency: int, burst: Burst) -> None:
    """Every event once, ``concurrency`` requests in flight, each client taking the next event."""
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    connector = aiohttp.TCPConnector(limit=concurrency)
    timeout = aiohttp.ClientTimeout(total=REQUEST_TIMEOUT)
    queue = iter(enumerate(events))
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        async def client() -> None:
            for position, event in queue:
                await post_one(session, url, headers, position, event, burst)

        burst.started = time.time()
        await asyncio.gather(*(client() for _ in range(concurrency)))
        burst.ended = time.time()


# -- watching the database -------------------------------------------------------------------------

@dataclass(frozen=True)
class Snapshot:
    at: float  # wall clock
    stored: int
    dispatched: int
    runs: dict[str, int]  # by status

    @property
    def succeeded(self) -> int:
        return self.runs.get("succeeded", 0)

    @property
    def unfinished(self) -> int:
        return sum(self.runs.get(s, 0) for s in UNFINISHED)

    @property
    def backlog(self) -> int:
        """Stored events not consumed yet."""
        return self.stored - self.succeeded

    @property
    def state(self) -> tuple[int, ...]:
        return self.stored, self.dispatched, self.succeeded, self.runs.get("parked", 0)


def snapshot(engine: Engine, ids: Ids) -> Snapshot:
    with engine.connect() as conn:
        stored, dispatched = conn.execute(
            select(func.count(), func.count(inbound_events.c.dispatched_at))
            .where(inbound_events.c.installation_id == ids.installation)).one()
        runs = conn.execute(select(automation_runs.c.status, func.count())
                            .where(automation_runs.c.automation_id == ids.automation)
                            .group_by(automation_runs.c.status)).all()
    return Snapshot(time.time(), int(stored), int(dispatched), {str(s): int(n) for s, n in runs})


def progress(shot: Snapshot, previous: Snapshot | None, burst: Burst, accepted_before: int) -> str:
    elapsed = shot.at - (burst.started or shot.at)
    span = max(shot.at - previous.at, 1e-6) if previous else 1.0
    accept_rate = (len(burst.accepted) - accepted_before) / span
    run_rate = (shot.succeeded - (previous.succeeded if previous else 0)) / span
    others = "".join(f" {s} {n:,}" for s, n in sorted(shot.runs.items()) if s != "succeeded")
    return (f"  t={elapsed:6.1f} s | answered {burst.answered:>6,} accepted {len(burst.accepted):>6,} "
            f"({accept_rate:>6,.0f}/s) refused {sum(burst.refused.values()):,} | stored {shot.stored:>6,} dispatched "
            f"{shot.dispatched:>6,} | runs succeeded {shot.succeeded:>6,} ({run_rate:>5,.0f}/s){others} | backlog "
            f"{shot.backlog:>6,}")


def verdict(samples: list[Snapshot], burst: Burst, args: argparse.Namespace) -> str | None:
    """Why the watch ends now (None: it goes on)."""
    shot = samples[-1]
    if not burst.done:
        return None
    if shot.dispatched == shot.stored >= len(burst.accepted) and shot.unfinished == 0:
        return "drained"
    if shot.at - burst.ended > args.drain_timeout:
        return f"gave up: not drained {args.drain_timeout:g} s after the burst"
    changed = next((s.at for s in reversed(samples) if s.state != shot.state), samples[0].at)
    if shot.at - max(changed, burst.ended) > args.stall_seconds:
        return f"gave up: no progress for {args.stall_seconds:g} s"
    return None


async def watch(engine: Engine, ids: Ids, burst: Burst, args: argparse.Namespace) -> tuple[list[Snapshot], str]:
    """A snapshot a second, with a progress line, from before the burst until everything is consumed."""
    samples: list[Snapshot] = []
    began = time.monotonic()
    accepted_before = 0
    while True:
        shot = await asyncio.to_thread(snapshot, engine, ids)
        log(progress(shot, samples[-1] if samples else None, burst, accepted_before))
        samples.append(shot)
        accepted_before = len(burst.accepted)
        if (why := verdict(samples, burst, args)) is not None:
            return samples, why
        await asyncio.sleep(1.0 - (time.monotonic() - began) % 1.0)


async def burst_and_watch(base_url: str, token: str, events: list[tuple[str, bytes]], engine: Engine, ids: Ids,
                          meter: cpu.Meter, args: argparse.Namespace) -> tuple[Burst, list[Snapshot], str,
                                                                               list[cpu.Reading]]:
    burst = Burst(len(events))
    readings = [meter.read()]
    watcher = asyncio.create_task(watch(engine, ids, burst, args))
    await asyncio.sleep(0)  # the first snapshot is taken before the first send
    await send_all(base_url + EVENTS_PATH, token, events, args.concurrency, burst)
    readings.append(meter.read())
    burst.done = True
    log(f"burst over: {len(burst.accepted):,} accepted, {sum(burst.refused.values()):,} refused in "
        f"{burst.ended - burst.started:.2f} s; watching the automations")
    samples, why = await watcher
    readings.append(meter.read())
    log(f"watch ended: {why}")
    return burst, samples, why, readings


# -- what happened to every event ------------------------------------------------------------------

@dataclass
class Outcome:
    accepted: int
    stored: int
    consumed: int
    lost: int
    lost_by: dict[str, int]
    stored_not_acknowledged: int  # stored although the client saw no 202 (a timeout, say)
    duplicate_runs: int
    duplicate_stock_ins: int
    duplicate_answers: int
    mismatched_stock_ins: int
    retried_runs: int  # runs that needed more than one attempt
    runs_by_status: dict[str, int]
    received: list[float] = field(repr=False)  # wall clock, every stored event
    finished: list[float] = field(repr=False)  # wall clock, every succeeded run
    consumed_after: list[float] = field(repr=False)  # received -> finished of each succeeded run, seconds

    @property
    def duplicates(self) -> int:
        return self.duplicate_runs + self.duplicate_stock_ins + self.duplicate_answers


def event_rows(engine: Engine, ids: Ids) -> list[Any]:
    joined = inbound_events.outerjoin(automation_runs, and_(
        automation_runs.c.inbound_event_id == inbound_events.c.id, automation_runs.c.automation_id == ids.automation))
    with engine.connect() as conn:
        return list(conn.execute(
            select(inbound_events.c.pid, inbound_events.c.received_at, inbound_events.c.data,
                   automation_runs.c.status, automation_runs.c.attempts, automation_runs.c.updated_at)
            .select_from(joined).where(inbound_events.c.installation_id == ids.installation)))


def stock_ins(engine: Engine, ids: Ids, tag: str) -> dict[str, list[tuple[Any, Any]]]:
    """(quantity, warehouse) of every live stock-in of the burst, by sku."""
    sku = records.c.data["sku"].as_string()
    found: dict[str, list[tuple[Any, Any]]] = {}
    with engine.connect() as conn:
        for code, quantity, warehouse in conn.execute(
                select(sku, records.c.data["quantity"].as_integer(), records.c.data["warehouse"].as_string())
                .where(records.c.tenant_id == ids.tenant, records.c.model == "stockIn",
                       records.c.deleted_at.is_(None), sku.like(f"BURST-{tag}-%"))):
            found.setdefault(str(code), []).append((quantity, warehouse))
    return found


def fate(row: Any, made: list[tuple[Any, Any]]) -> str:
    """What became of one stored event: ``consumed``, or why it was not."""
    if row is None:
        return "not stored"
    if row.status is None:
        return "no run"
    if row.status != "succeeded":
        return f"run {row.status}"
    return "consumed" if made else "succeeded without a stock-in"


def analyse(engine: Engine, ids: Ids, burst: Burst, tag: str) -> Outcome:
    rows = event_rows(engine, ids)
    made = stock_ins(engine, ids, tag)
    by_pid = {r.pid: r for r in rows}
    fates = Counter(fate(by_pid.get(pid), made.get(by_pid[pid].data["sku"], []) if pid in by_pid else [])
                    for pid in burst.accepted)
    mismatched = sum(1 for r in rows for q, w in made.get(r.data["sku"], [])
                     if (q, w) != (r.data["quantity"], r.data["warehouse"]))
    succeeded = [r for r in rows if r.status == "succeeded"]
    return Outcome(
        accepted=len(burst.accepted), stored=len(by_pid), consumed=fates["consumed"],
        lost=len(burst.accepted) - fates["consumed"], lost_by={k: v for k, v in fates.items() if k != "consumed"},
        stored_not_acknowledged=len(set(by_pid) - set(burst.accepted)),
        duplicate_runs=len(rows) - len(by_pid), duplicate_stock_ins=sum(1 for v in made.values() if len(v) > 1),
        duplicate_answers=burst.duplicate_answers, mismatched_stock_ins=mismatched,
        retried_runs=sum(1 for r in rows if (r.attempts or 0) > 1),
        runs_by_status=dict(Counter(str(r.status) for r in rows if r.status is not None)),
        received=sorted(r.received_at.timestamp() for r in rows),
        finished=sorted(r.updated_at.timestamp() for r in succeeded),
        consumed_after=[r.updated_at.timestamp() - r.received_at.timestamp() for r in succeeded])


# -- figures ---------------------------------------------------------------------------------------

def max_backlog(received: list[float], finished: list[float]) -> tuple[int, float]:
    """The most events stored and not yet consumed at once, and when (wall clock)."""
    moments = sorted([(t, 1) for t in received] + [(t, -1) for t in finished])  # at a tie, a finish first
    level = best = 0
    when = received[0] if received else 0.0
    for at, step in moments:
        level += step
        if level > best:
            best, when = level, at
    return best, when


@dataclass
class Figures:
    accepted: int
    refused: dict[str, int]
    wall_seconds: float  # first send -> last answer
    accept_seconds: float  # first send -> last 202
    accept_rate: float  # events/s
    request_ms: dict[str, float]
    drain_seconds: float | None  # last 202 -> last run finished
    runs_per_second: float | None  # first event stored -> last run finished
    runs_per_second_during_burst: float | None
    runs_per_second_after_burst: float | None
    max_backlog: int
    max_backlog_at_seconds: float  # after the first send
    max_backlog_sampled: int
    consumed_after_ms: dict[str, float]
    kept_up: bool
    keep_up_rule: str


def rate(count: int, seconds: float) -> float | None:
    return round(count / seconds, 1) if seconds > 0 else None


def figures(burst: Burst, outcome: Outcome, samples: list[Snapshot], args: argparse.Namespace) -> Figures:
    last_accept = max(burst.accepted_at, default=burst.started)
    accept_seconds = max(last_accept - burst.started, 1e-6)
    accept_rate = round(len(burst.accepted) / accept_seconds, 1)
    drained = outcome.finished[-1] if outcome.finished else None
    first = outcome.received[0] if outcome.received else burst.started
    during = sum(1 for t in outcome.finished if t <= last_accept)
    drain = None if drained is None else round(drained - last_accept, 3)
    throughput = None if drained is None else rate(len(outcome.finished), drained - first)
    backlog, backlog_at = max_backlog(outcome.received, outcome.finished)
    rule = (f"no event lost, drain time <= {args.keep_up_seconds:g} s and automation runs/s >= "
            f"{args.keep_up_ratio:g} x acceptance rate")
    kept = (outcome.lost == 0 and drain is not None and drain <= args.keep_up_seconds and throughput is not None
            and throughput >= args.keep_up_ratio * accept_rate)
    return Figures(
        accepted=len(burst.accepted), refused=dict(burst.refused), wall_seconds=round(burst.ended - burst.started, 3),
        accept_seconds=round(accept_seconds, 3), accept_rate=accept_rate,
        request_ms=stats.summary_ms(burst.latencies), drain_seconds=drain, runs_per_second=throughput,
        runs_per_second_during_burst=rate(during, last_accept - first),
        runs_per_second_after_burst=None if drained is None else rate(len(outcome.finished) - during,
                                                                      drained - last_accept),
        max_backlog=backlog, max_backlog_at_seconds=round(backlog_at - burst.started, 2),
        max_backlog_sampled=max((s.backlog for s in samples), default=0),
        consumed_after_ms=stats.summary_ms(outcome.consumed_after), kept_up=kept, keep_up_rule=rule)


# -- report ----------------------------------------------------------------------------------------

def cpu_lines(readings: list[cpu.Reading], events: int) -> tuple[list[str], dict[str, Any]]:
    """Percent of one core per phase, and CPU ms per accepted event over the whole run."""
    phases = {"burst (accepting)": cpu.Usage.between(readings[0], readings[1]),
              "after the burst (draining)": cpu.Usage.between(readings[1], readings[2]),
              "whole run": cpu.Usage.between(readings[0], readings[2])}
    names = [*readings[0].values, "other"]
    rows = [{"phase": phase, "wall": u.wall, **u.pct_of_core(), "host": u.host_pct()} for phase, u in phases.items()]
    columns: list[tables.Column | str] = [
        tables.Column("phase", "phase", str, "<"), tables.Column("wall s", "wall", lambda v: tables.fixed(v, 1)),
        tables.SEP, *(tables.Column(f"{n} %core" if i == 0 else n, n, lambda v: tables.fixed(v, 0))
                      for i, n in enumerate(names)),
        tables.SEP, tables.Column("host CPU", "host", tables.pct)]
    whole, burst = phases["whole run"].ms_per(events, 3), phases["burst (accepting)"].ms_per(events, 3)
    total = sum(v for k, v in whole.items() if v is not None and k != "other")
    lines = ["CPU, percent of one core (server: the serve command's process tree; bench: this process, client and "
             "poller):", *tables.render(columns, rows),
             "CPU ms per accepted event, whole run (accept + consume): " + ", ".join(
                 f"{k} {tables.fixed(v, 3)}" for k, v in whole.items()) + f"; measured processes {total:.3f}",
             f"server CPU per event: {tables.fixed(whole.get('server'), 3)} ms over the whole run, "
             f"{tables.fixed(burst.get('server'), 3)} ms of it during the burst"]
    return lines, {"ms_per_event_whole_run": whole, "ms_per_event_burst": burst,
                   "pct_of_core": {p: u.pct_of_core() for p, u in phases.items()},
                   "host_pct": {p: u.host_pct() for p, u in phases.items()},
                   "cpu_seconds": {p: u.raw() for p, u in phases.items()}}


def outcome_lines(outcome: Outcome, burst: Burst) -> list[str]:
    lost_by = ", ".join(f"{k} {v:,}" for k, v in sorted(outcome.lost_by.items())) or "none"
    return [
        f"stored {outcome.stored:,} events; runs by status {outcome.runs_by_status}; runs retried "
        f"{outcome.retried_runs:,}; stored without a 202 reaching the client {outcome.stored_not_acknowledged:,}",
        f"consumed {outcome.consumed:,} of {outcome.accepted:,} accepted",
        f"LOST (accepted, never consumed): {outcome.lost:,}  ({lost_by})",
        f"DUPLICATES: {outcome.duplicates:,}  (events with two runs {outcome.duplicate_runs:,}, events with two "
        f"stock-ins {outcome.duplicate_stock_ins:,}, 202 answers with duplicate: true {outcome.duplicate_answers:,}); "
        f"stock-ins not matching their event {outcome.mismatched_stock_ins:,}",
        *(f"refusal sample: {s}" for s in burst.samples)]


def figure_lines(f: Figures, args: argparse.Namespace) -> list[str]:
    refused = sum(f.refused.values())
    by_status = ", ".join(f"{k}: {v:,}" for k, v in sorted(f.refused.items())) or "none"
    req = f.request_ms
    return [
        f"ACCEPTED: {f.accepted:,} of {args.events:,}   REFUSED: {refused:,} ({by_status})",
        f"acceptance rate: {f.accept_rate:,.1f} events/s (first send -> last 202: {f.accept_seconds:.2f} s); wall "
        f"time of the burst {f.wall_seconds:.2f} s; request latency p50 {req['p50']:.1f} ms p95 {req['p95']:.1f} ms "
        f"p99 {req['p99']:.1f} ms max {req['max']:.1f} ms ({args.concurrency} in flight)",
        f"automation drain time after the last accept: {tables.fixed(f.drain_seconds, 2)} s",
        f"automation throughput: {tables.fixed(f.runs_per_second, 1)} runs/s (first event stored -> last run "
        f"finished); {tables.fixed(f.runs_per_second_during_burst, 1)} runs/s during the burst, "
        f"{tables.fixed(f.runs_per_second_after_burst, 1)} runs/s after it",
        f"max backlog (stored, not yet consumed): {f.max_backlog:,} events, {f.max_backlog_at_seconds:.1f} s after "
        f"the first send (sampled once a second: {f.max_backlog_sampled:,})",
        f"event stored -> consumed: p50 {f.consumed_after_ms['p50'] / 1000:.2f} s p95 "
        f"{f.consumed_after_ms['p95'] / 1000:.2f} s p99 {f.consumed_after_ms['p99'] / 1000:.2f} s max "
        f"{f.consumed_after_ms['max'] / 1000:.2f} s",
        f"KEPT UP: {'yes' if f.kept_up else 'NO'}  (kept up = {f.keep_up_rule}; here drain "
        f"{tables.fixed(f.drain_seconds, 2)} s, runs/s / acceptance rate = "
        f"{tables.fixed(stats.ratio(f.runs_per_second, f.accept_rate), 3)})"]


def failures_of(outcome: Outcome, f: Figures, ended_because: str, died: list[str]) -> list[str]:
    found = [f"{n:,} events refused: {f.refused}" for n in [sum(f.refused.values())] if n]
    found += [f"{outcome.lost:,} accepted events lost: {outcome.lost_by}"] if outcome.lost else []
    found += [f"{outcome.duplicates:,} duplicates"] if outcome.duplicates else []
    found += [f"{outcome.mismatched_stock_ins:,} stock-ins do not match their event"] if outcome.mismatched_stock_ins \
        else []
    found += [f"watch {ended_because}"] if ended_because != "drained" else []
    return found + died


# -- main ------------------------------------------------------------------------------------------

@dataclass
class Observed:
    """What one run against the server saw."""

    ids: Ids
    command: list[str]
    burst: Burst
    samples: list[Snapshot]
    ended_because: str
    readings: list[cpu.Reading]  # before the burst, at its last answer, when the watch ended
    other_db_xacts: int | None  # transactions in other databases meanwhile (None: SQLite)
    died: list[str]


def observe(ws: Workspace, args: argparse.Namespace, engine: Engine, fixture: Fixture, tag: str) -> Observed:
    """Start the service, check the automation, send the burst and watch it consumed; the service stopped."""
    service = start_service(ws, args)
    try:
        token = bearer_token(service.base_url, fixture.installation.credentials[0])
        ids = lookup_ids(engine, fixture.installation.installation_pid,
                         ensure_automation(service.base_url, fixture.jwt))
        events = make_events(args.events, tag)
        postmaster = cpu.postmaster_pid(ws.backend.url) if ws.backend.name == "postgresql" else None
        meter = cpu.Meter({**service.sources(), "postgres": cpu.of_postgres(postmaster), "bench": time.process_time})
        xacts = pg_xacts(ws)
        log(f"sending {args.events:,} {SOURCE} {EVENT_TYPE} events, {args.concurrency} in flight")
        burst, samples, why, readings = asyncio.run(
            burst_and_watch(service.base_url, token, events, engine, ids, meter, args))
        after = pg_xacts(ws)
    finally:
        died = service.stop()
    other = None if xacts is None or after is None else after - xacts
    return Observed(ids, service.command, burst, samples, why, readings, other, died)


def noise_of(seen: Observed) -> list[str]:
    whole = cpu.Usage.between(seen.readings[0], seen.readings[2])
    if seen.other_db_xacts is not None and seen.other_db_xacts < 0:  # a database was dropped meanwhile
        return [*cpu.noise("whole run", whole.other_pct(), None, NOISY_PCT),
                "whole run: other databases were active and some were dropped meanwhile (their CPU is in the "
                "postgres column)"]
    return cpu.noise("whole run", whole.other_pct(), seen.other_db_xacts, NOISY_PCT)


def measure(ws: Workspace, args: argparse.Namespace) -> tuple[list[str], dict[str, Any], list[str], bool]:
    """Setup, server, burst, watch, analysis; (report lines, report, failures, kept up)."""
    tag = secrets.token_hex(3)
    with seeding.runtime(ws.env) as rt:
        fixture = seeding.run(rt, make_fixture(rt))
    engine = ws.backend.engine()
    try:
        seen = observe(ws, args, engine, fixture, tag)
        outcome = analyse(engine, seen.ids, seen.burst, tag)
        info = results.versions(engine)
    finally:
        engine.dispose()
    found = figures(seen.burst, outcome, seen.samples, args)
    cpu_report, cpu_figures = cpu_lines(seen.readings, max(1, outcome.accepted))
    noisy = noise_of(seen)
    lines = [f"=== Tessera inbound event burst ({ws.backend.name}) ===", *results.describe(info),
             f"{args.events:,} {SOURCE}/{EVENT_TYPE} events from one installation, {args.concurrency} in flight "
             f"(aiohttp), each sent once | server: {' '.join(seen.command)} | automations: {worker_mode(args)} | "
             f"rate limits 10^9 | automation {seen.ids.automation_pid}",
             *figure_lines(found, args), *outcome_lines(outcome, seen.burst), *cpu_report,
             *cpu.noise_lines(noisy, NOISY_PCT), f"watch ended: {seen.ended_because}"]
    report = {"backend": ws.backend.name, "command": seen.command, "automations": worker_mode(args),
              "figures": asdict(found), "outcome": {k: v for k, v in asdict(outcome).items()
                                                    if k not in ("received", "finished", "consumed_after")},
              "cpu": cpu_figures, "samples": [asdict(s) for s in seen.samples], "noisy": noisy, "versions": info}
    return lines, report, failures_of(outcome, found, seen.ended_because, seen.died), found.kept_up


def pg_xacts(ws: Workspace) -> int | None:
    """Transactions in other databases so far (their CPU would land in the postgres column)."""
    if ws.backend.name != "postgresql":
        return None
    with psycopg.connect(ws.backend.url, autocommit=True) as conn:
        return pg_activity(conn)[1]


def main() -> int:
    args = (cli.Arguments(__doc__, "inbound_burst-{backend}").backend()
            .records(10_000, 1, "--events", "events in the burst").concurrency(32)
            .add("--workers", type=int, default=0, help="`tessera worker --tasks 1` processes beside the server; 0 "
                                                        "(default): the worker task in the server process")
            .add("--http-processes", type=int, default=1, help="`tessera serve --workers` (default 1)")
            .add("--keep-up-seconds", type=float, default=5.0,
                 help="longest drain after the last accept that still counts as keeping up (default 5)")
            .add("--keep-up-ratio", type=float, default=0.8,
                 help="least runs/s over acceptance rate that still counts as keeping up (default 0.8)")
            .add("--drain-timeout", type=float, default=600.0,
                 help="seconds after the burst before the watch gives up (default 600)")
            .add("--stall-seconds", type=float, default=120.0,
                 help="seconds without progress after the burst before the watch gives up (default 120)")
            .at_least("--workers", 0).at_least("--http-processes", 1).keep_db()).parse()
    started = time.perf_counter()
    lines: list[str] = []
    report: dict[str, Any] = {}
    failures: list[str] = []
    kept_up = False
    try:
        with fresh(args.backend, f"inbound_burst-{args.backend}", args.keep_db) as ws:
            lines, report, failures, kept_up = measure(ws, args)
    except (AssertionError, RuntimeError) as exc:
        failures.append(f"run aborted: {exc}")
    status = cli.conclude(args, {**report, "kept_up": kept_up}, lines, failures, started)
    return status or (0 if kept_up else 2)


if __name__ == "__main__":
    sys.exit(main())
