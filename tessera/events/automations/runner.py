"""What workers run: inbound events become runs, due runs execute, failures retry and then park."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Row

from storage import automations as store
from tessera.core.clock import iso
from tessera.core.errors import FieldError, ServiceError, ValidationFailed
from tessera.core.i18n import N_, translate
from tessera.events.automations.mapping import resolve
from tessera.openplatform.commands import execute as op_commands
from tessera.records.changes import Author
from tessera.runtime import Runtime
from tessera.session.commands import execute as session_commands

log = logging.getLogger("tessera.automations")

LEASE_SECONDS = 60


def dispatch(rt: Runtime, limit: int = 200) -> int:
    """One run per (matching enabled automation, new inbound event); returns the runs created."""
    made = 0
    now = rt.clock.now()
    with rt.db.write() as conn:
        events = store.undispatched_events(conn, limit)
        for event in events:
            for automation_id in store.matching_automations(conn, event.tenant_id, event.source, event.event_type):
                store.create_run(conn, automation_id, event.id, now=now)
                made += 1
        store.mark_events_dispatched(conn, [e.id for e in events], now=now)
    return made


def run_due(rt: Runtime, limit: int = 20) -> int:
    """Lease due runs and execute each in its own transaction; returns how many ran."""
    now = rt.clock.now()
    lease = now + timedelta(seconds=LEASE_SECONDS)
    with rt.db.write() as conn:
        runs = store.lease_due_runs(conn, now, lease, limit)
    for index, run in enumerate(runs):
        if rt.clock.now() + timedelta(seconds=LEASE_SECONDS / 2) >= lease:
            # Slow runs used up most of the lease: hand the rest back rather than risk running a
            # run whose lease lapsed (another worker may have claimed it).
            with rt.db.write() as conn:
                store.release_runs(conn, [r.id for r in runs[index:]], lease)
            return index
        _execute(rt, run, lease)
    return len(runs)


def _execute(rt: Runtime, run: Row[Any], lease: datetime) -> None:
    attempts = run.attempts + 1
    if not run.automation_enabled or run.automation_deleted_at is not None:
        with rt.db.write() as conn:
            store.update_leased_run(conn, run.id, lease, {"status": "parked", "error": "automation disabled",
                                                          "next_attempt_at": None, "locked_until": None},
                                    now=rt.clock.now())
        return
    try:
        if _run_actions(rt, run, lease, attempts):
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
    with rt.db.write() as conn:
        store.update_leased_run(conn, run.id, lease, {**values, "attempts": attempts, "error": error[:500],
                                                      "locked_until": None}, now=now)
    log.warning("automation.run", extra={"runId": run.pid, "status": values["status"], "requestId": run.request_id})


def _run_actions(rt: Runtime, run: Row[Any], lease: datetime, attempts: int) -> bool:
    """Every action of the run in one transaction; false when the lease was lost (nothing ran)."""
    event = {"eventId": run.event_pid, "source": run.source, "type": run.event_type,
             "schemaVersion": run.schema_version, "occurredAt": iso(run.occurred_at), "data": run.data}
    author = Author(tenant_id=run.tenant_id, actor=f"automation:{run.automation_pid}", request_id=run.request_id)
    with rt.db.write() as conn:
        # First statement of the run's transaction: confirm the lease is still ours (and hold the
        # row lock on PostgreSQL), so a run never executes twice.
        if not store.update_leased_run(conn, run.id, lease, {}, now=rt.clock.now()):
            log.warning("automation.lease_lost", extra={"runId": run.pid})
            return False
        results = [_action(conn, rt, author, action, event) for action in run.actions]
        store.update_leased_run(conn, run.id, lease, {"status": "succeeded", "attempts": attempts, "result": results,
                                                      "error": None, "next_attempt_at": None, "locked_until": None},
                                now=rt.clock.now())
    return True


def _field_errors(exc: ServiceError) -> str:
    data = exc.data if isinstance(exc.data, dict) else {}
    errors = data.get("fieldErrors") or {}
    return ", ".join(f"{k}: {translate(v.message, **v.params)}" for k, v in errors.items() if hasattr(v, "message"))


def _action(conn: Connection, rt: Runtime, author: Author, action: dict[str, Any],
            event: dict[str, Any]) -> dict[str, Any]:
    if action["kind"] == "command":
        command = rt.capabilities.commands[action["command"]]
        given = resolve(action.get("input") or {}, event)
        if any(True for _ in command.input_validator.iter_errors(given)):
            raise ValidationFailed({"input": FieldError(N_("Is not valid."))})
        target = resolve(action.get("targetPid"), event) if "targetPid" in action else None
        result, _ = op_commands.apply_command(
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
    result = session_commands.apply_command(conn, rt, author, decl, body)
    return {"command": decl.code, "pid": result.get("id")}
