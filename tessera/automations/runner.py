"""What workers run: inbound events become runs, due runs execute, failures retry and then park."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import Any

from storage import automations as store
from storage.drivers.engine import Executor
from tessera import tracing
from tessera.automations.mapping import resolve
from tessera.core.clock import iso
from tessera.core.errors import FieldError, ServiceError, ValidationFailed
from tessera.core.i18n import N_, translate
from tessera.openplatform.commands import execute as op_commands
from tessera.records.changes import Author
from tessera.runtime import Runtime
from tessera.session.commands import execute as session_commands

log = logging.getLogger("tessera.automations")

LEASE_SECONDS = 60


BATCH = 200


async def dispatch(rt: Runtime, limit: int = BATCH, tenant_id: int | None = None) -> int:
    """One run per (matching enabled automation, new inbound event); returns the runs created.
    With a tenant, only that tenant's inbound events.

    A burst comes from few sources, so the matching automations are looked up once per tenant,
    source and type in a batch, and the runs are enqueued (on PostgreSQL the whole batch is one
    round trip with its commit)."""
    made = 0
    now = rt.clock.now()
    async with rt.db.write() as conn:
        events = await store.undispatched_events(conn, limit, tenant_id)
        matching: dict[tuple[int, str, str], list[int]] = {}
        for event in events:
            key = (event.tenant_id, event.source, event.event_type)
            if key not in matching:
                matching[key] = await store.matching_automations(conn, *key)
            for automation_id in matching[key]:
                await store.create_run(conn, automation_id, event.id, now=now)
                made += 1
        await store.mark_events_dispatched(conn, [e.id for e in events], now=now)
    return made


async def run_due(rt: Runtime, limit: int = BATCH, tenant_id: int | None = None) -> int:
    """Lease due runs (only the tenant's when one is given) and execute them, at most
    ``TESSERA_AUTOMATION_CONCURRENCY`` at once, each in its own transaction; returns how many ran.

    A run's transaction waits on the database most of its time, so running several at once is
    what lets the automations keep up with a burst of inbound events (one at a time they drained
    about 200 per second on PostgreSQL)."""
    now = rt.clock.now()
    lease = now + timedelta(seconds=LEASE_SECONDS)
    async with rt.db.write() as conn:
        runs = await store.lease_due_runs(conn, now, lease, limit, tenant_id)
    if not runs:
        return 0
    gate = asyncio.Semaphore(rt.settings.automation_concurrency)
    late: list[int] = []

    async def one(run: store.LeasedRunRow) -> None:
        async with gate:
            if rt.clock.now() + timedelta(seconds=LEASE_SECONDS / 2) >= lease:
                # Slow runs used up most of the lease: hand the rest back rather than risk running
                # a run whose lease lapsed (another worker may have claimed it).
                late.append(run.id)
                return
            await _execute(rt, run, lease)

    for outcome in await asyncio.gather(*(one(run) for run in runs), return_exceptions=True):
        if isinstance(outcome, BaseException):  # an outage while recording: the lease lapses, it runs again
            log.error("automation.run_unrecorded", exc_info=outcome)
    if late:
        async with rt.db.write() as conn:
            await store.release_runs(conn, late, lease)
    return len(runs) - len(late)


async def _execute(rt: Runtime, run: store.LeasedRunRow, lease: datetime) -> None:
    """Run it; with tracing on, as an ``automation.run`` span continuing the trace of the request
    that stored its inbound event (the run's statements and commands are its children)."""
    if tracing.tracer is None:
        await _execute_run(rt, run, lease)
        return
    with tracing.continued("automation.run", run.traceparent, tracing.SpanKind.CONSUMER, {
            "tessera.automation.run": run.pid, "tessera.automation.id": run.automation_pid,
            "tessera.event.id": run.event_pid, "tessera.event.type": run.event_type,
            "tessera.automation.attempt": run.attempts + 1}):
        await _execute_run(rt, run, lease)


async def _execute_run(rt: Runtime, run: store.LeasedRunRow, lease: datetime) -> None:
    attempts = run.attempts + 1
    if not run.automation_enabled or run.automation_deleted_at is not None:
        async with rt.db.write() as conn:
            await store.update_leased_run(conn, run.id, lease, {"status": "parked", "error": "automation disabled",
                                                                "next_attempt_at": None, "locked_until": None},
                                          now=rt.clock.now())
        return
    try:
        if await _run_actions(rt, run, lease, attempts):
            log.info("automation.run", extra={"runId": run.pid, "status": "succeeded", "requestId": run.request_id})
        return
    except ServiceError as exc:
        error = f"{exc.code}: {translate(exc.message, **exc.params)} {_field_errors(exc)}".strip()
    except Exception as exc:  # a bug or an outage: the run must still be retried, not lost
        log.exception("automation.run_failed", extra={"runId": run.pid})
        error = f"{type(exc).__name__}"
    schedule = rt.settings.automation_retry_schedule
    now = rt.clock.now()
    values: dict[str, Any] = {"status": "parked", "next_attempt_at": None}
    if attempts <= len(schedule):
        values = {"status": "retrying", "next_attempt_at": now + timedelta(seconds=schedule[attempts - 1])}
    async with rt.db.write() as conn:
        await store.update_leased_run(conn, run.id, lease, {**values, "attempts": attempts, "error": error[:500],
                                                            "locked_until": None}, now=now)
    log.warning("automation.run", extra={"runId": run.pid, "status": values["status"], "requestId": run.request_id})


async def _run_actions(rt: Runtime, run: store.LeasedRunRow, lease: datetime, attempts: int) -> bool:
    """Every action of the run in one transaction; false when the lease was lost (nothing ran)."""
    event = {"eventId": run.event_pid, "source": run.source, "type": run.event_type,
             "schemaVersion": run.schema_version, "occurredAt": iso(run.occurred_at), "data": run.data}
    author = Author(tenant_id=run.tenant_id, actor=f"automation:{run.automation_pid}", request_id=run.request_id)
    async with rt.db.write() as conn:
        # First statement of the run's transaction: confirm the lease is still ours (and hold the
        # row lock on PostgreSQL), so a run never executes twice.
        if not await store.update_leased_run(conn, run.id, lease, {}, now=rt.clock.now()):
            log.warning("automation.lease_lost", extra={"runId": run.pid})
            return False
        results = [await _action(conn, rt, author, action, event) for action in run.actions]
        done = {"status": "succeeded", "attempts": attempts, "result": results, "error": None,
                "next_attempt_at": None, "locked_until": None}
        await store.update_leased_run(conn, run.id, lease, done, now=rt.clock.now())
    return True


def _field_errors(exc: ServiceError) -> str:
    data = exc.data if isinstance(exc.data, dict) else {}
    errors = data.get("fieldErrors") or {}
    return ", ".join(f"{k}: {translate(v.message, **v.params)}" for k, v in errors.items() if hasattr(v, "message"))


async def _action(conn: Executor, rt: Runtime, author: Author, action: dict[str, Any],
                  event: dict[str, Any]) -> dict[str, Any]:
    if action["kind"] == "command":
        command = rt.capabilities.commands[action["command"]]
        given = resolve(action.get("input") or {}, event)
        if not command.input_check(given):
            raise ValidationFailed({"input": FieldError(N_("Is not valid."))})
        target = resolve(action.get("targetPid"), event) if "targetPid" in action else None
        result, _ = await op_commands.apply_command(
            conn, rt, command, author, target_pid=target if isinstance(target, str) else None, given=given,
            if_match=None, check_precondition=False)
        return {"command": command.code, "pid": result["record"]["pid"]}
    decl = rt.declarations.commands[action["command"]]
    body: dict[str, Any] = {}
    if "payload" in action:
        body["payload"] = resolve(action["payload"], event)
    if decl.action != "create":
        body["targetRecordId"] = resolve(action.get("targetRecordId"), event)
        body["operationType"] = decl.action.upper()
    result = await session_commands.apply_command(conn, rt, author, decl, body)
    return {"command": decl.code, "pid": result.get("id")}
