"""Tenant automations: an external-event trigger and actions with inputs mapped from the event.

An automation fires for every inbound event of its tenant whose source and type match. Its actions
run registry commands (``kind: command``) or session commands (``kind: sessionCommand``), all in
one transaction per run, attributed to ``automation:<id>``. Inputs come from a small declarative
mapping, never code: a string value ``"$.data.sku"`` (or ``$.occurredAt``, ``$.eventId``,
``$.source``, ``$.type``, ``$.schemaVersion``) is looked up in the event, any other value is taken
as it is. A run that fails is retried on ``TESSERA_AUTOMATION_RETRY_SCHEDULE`` and then parked:
it stays listed with its error and an administrator can retry it. Nothing is lost.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from sqlalchemy import Connection, Row, and_, insert, select, update

from storage import queues
from storage.listing import ListField, build_queries, keyword_in, run_list
from storage.tables import automation_runs, automations, inbound_events
from storage.types import utcnow
from tessera.core.clock import iso
from tessera.core.errors import Conflict, FieldError, NotFound, ServiceError, ValidationFailed
from tessera.core.i18n import N_, translate
from tessera.core.ids import new_pid
from tessera.openplatform.commands import execute as op_commands
from tessera.records.changes import Author
from tessera.runtime import Runtime
from tessera.session.auth.actors import Actor
from tessera.session.commands import execute as session_commands
from tessera.session.listing import page_of, parse_list_request

log = logging.getLogger("tessera.automations")

MANAGE = "automations:manage"
VIEW = "automations:view"
MAX_ACTIONS = 10
LEASE_SECONDS = 60
EVENT_FIELDS = ("eventId", "source", "type", "schemaVersion", "occurredAt")
RUN_STATUSES = ("pending", "retrying", "succeeded", "parked")


# -- the mapping -------------------------------------------------------------------------------------
def resolve(template: Any, event: Mapping[str, Any]) -> Any:
    """Replace ``$.path`` strings by values of the event document; other values stay as they are."""
    if isinstance(template, dict):
        return {k: v for k, v in ((k, resolve(v, event)) for k, v in template.items()) if v is not _MISSING}
    if isinstance(template, list):
        return [resolve(v, event) for v in template]
    if isinstance(template, str) and template.startswith("$."):
        node: Any = event
        for part in template[2:].split("."):
            if not isinstance(node, dict) or part not in node:
                return _MISSING
            node = node[part]
        return node
    return template


_MISSING = object()


def _path_ok(path: str) -> bool:
    parts = path[2:].split(".")
    return (parts[0] in EVENT_FIELDS and len(parts) == 1) or (parts[0] == "data" and len(parts) >= 2)


def _paths_in(template: Any) -> list[str]:
    if isinstance(template, dict):
        return [p for v in template.values() for p in _paths_in(v)]
    if isinstance(template, list):
        return [p for v in template for p in _paths_in(v)]
    return [template] if isinstance(template, str) and template.startswith("$.") else []


# -- administration ----------------------------------------------------------------------------------
def _check(rt: Runtime, body: Mapping[str, Any], *, partial: bool) -> dict[str, Any]:
    errors: dict[str, FieldError] = {}
    values: dict[str, Any] = {}
    if "name" in body or not partial:
        name = body.get("name")
        if not isinstance(name, str) or not name.strip() or len(name) > 200:
            errors["name"] = FieldError(N_("Must be 1 to 200 characters."))
        else:
            values["name"] = name.strip()
    if "trigger" in body or not partial:
        trigger = body.get("trigger")
        source = rt.capabilities.event_sources.get(trigger.get("source")) if isinstance(trigger, dict) else None
        if source is None:
            errors["trigger.source"] = FieldError(N_("Must be one of: {values}."),
                                                  values=", ".join(rt.capabilities.event_sources))
        elif trigger.get("eventType") not in source.types:  # type: ignore[union-attr]
            errors["trigger.eventType"] = FieldError(N_("Must be one of: {values}."), values=", ".join(source.types))
        else:
            values["trigger_source"] = trigger["source"]  # type: ignore[index]
            values["trigger_type"] = trigger["eventType"]  # type: ignore[index]
    if "actions" in body or not partial:
        actions = body.get("actions")
        if not isinstance(actions, list) or not 1 <= len(actions) <= MAX_ACTIONS:
            errors["actions"] = FieldError(N_("Give 1 to {count} actions."), count=MAX_ACTIONS)
        else:
            for index, action in enumerate(actions):
                errors.update(_check_action(rt, index, action))
            values["actions"] = actions
    if "enabled" in body:
        values["enabled"] = 1 if body["enabled"] else 0
    if errors:
        raise ValidationFailed(errors)
    return values


def _check_action(rt: Runtime, index: int, action: Any) -> dict[str, FieldError]:
    where = f"actions[{index}]"
    if not isinstance(action, dict):
        return {where: FieldError(N_("Must be an object."))}
    kind, code = action.get("kind"), action.get("command")
    errors: dict[str, FieldError] = {}
    if kind == "command":
        command = rt.capabilities.commands.get(code) if isinstance(code, str) else None
        if command is None:
            errors[f"{where}.command"] = FieldError(N_("Must be one of: {values}."),
                                                    values=", ".join(rt.capabilities.commands))
        elif command.action == "update" and "targetPid" not in action:
            errors[f"{where}.targetPid"] = FieldError(N_("This field is required."))
        if not isinstance(action.get("input"), dict):
            errors[f"{where}.input"] = FieldError(N_("Must be an object."))
        allowed = {"kind", "command", "input", "targetPid"}
    elif kind == "sessionCommand":
        decl = rt.declarations.commands.get(code) if isinstance(code, str) else None
        if decl is None:
            errors[f"{where}.command"] = FieldError(N_("Must be one of: {values}."),
                                                    values=", ".join(rt.declarations.commands))
        elif decl.action != "create" and "targetRecordId" not in action:
            errors[f"{where}.targetRecordId"] = FieldError(N_("This field is required."))
        if decl is not None and decl.action != "delete" and not isinstance(action.get("payload"), dict):
            errors[f"{where}.payload"] = FieldError(N_("Must be an object."))
        allowed = {"kind", "command", "payload", "targetRecordId"}
    else:
        return {f"{where}.kind": FieldError(N_("Must be one of: {values}."), values="command, sessionCommand")}
    for name in sorted(set(action) - allowed):
        errors[f"{where}.{name}"] = FieldError(N_("Unknown field."))
    for path in _paths_in(action):
        if not _path_ok(path):
            errors[f"{where}"] = FieldError(N_("Unknown event path {path}."), path=path)
    return errors


def _automation_dict(row: Row[Any]) -> dict[str, Any]:
    return {"automationId": row.pid, "name": row.name,
            "trigger": {"source": row.trigger_source, "eventType": row.trigger_type},
            "actions": row.actions, "enabled": bool(row.enabled),
            "created_at": iso(row.created_at), "updated_at": iso(row.updated_at)}


def _find(conn: Connection, actor: Actor, automation_pid: str) -> Row[Any]:
    row = conn.execute(select(automations).where(and_(
        automations.c.pid == automation_pid, automations.c.tenant_id == actor.tenant_id,
        automations.c.deleted_at.is_(None)))).first()
    if row is None:
        raise NotFound()
    return row


def create(rt: Runtime, actor: Actor, body: Mapping[str, Any]) -> dict[str, Any]:
    actor.require(MANAGE)
    values = _check(rt, body, partial=False)
    now = utcnow()
    with rt.db.write() as conn:
        row = create_for_tenant(conn, actor.tenant_id, values, now)
    return _automation_dict(row)


def create_for_tenant(conn: Connection, tenant_id: int, values: dict[str, Any], now: Any = None) -> Row[Any]:
    now = now or utcnow()
    return conn.execute(insert(automations).values(
        pid=new_pid("aut"), tenant_id=tenant_id, enabled=values.get("enabled", 1), created_at=now,
        updated_at=now, **{k: v for k, v in values.items() if k != "enabled"},
    ).returning(*automations.c)).one()


AUTOMATION_FIELDS = {
    "name": ListField("name", "string", automations.c.name),
    "enabled": ListField("enabled", "integer", automations.c.enabled),
    "created_at": ListField("created_at", "timestamp", automations.c.created_at),
}


def list_automations(rt: Runtime, actor: Actor, params: Mapping[str, Any]) -> dict[str, Any]:
    actor.require(VIEW)
    request = parse_list_request(params, AUTOMATION_FIELDS)
    scope = [automations.c.tenant_id == actor.tenant_id, automations.c.deleted_at.is_(None)]
    with rt.db.read() as conn:
        rows, total = run_list(conn, build_queries(select(automations), scope, request, automations.c.id,
                                                   keyword_in(automations.c.name)))
    return page_of([_automation_dict(r) for r in rows], total, request)


def get_automation(rt: Runtime, actor: Actor, automation_pid: str) -> dict[str, Any]:
    actor.require(VIEW)
    with rt.db.read() as conn:
        return _automation_dict(_find(conn, actor, automation_pid))


def update_automation(rt: Runtime, actor: Actor, automation_pid: str, body: Mapping[str, Any]) -> dict[str, Any]:
    actor.require(MANAGE)
    if not {"name", "trigger", "actions", "enabled"} & set(body):
        raise ValidationFailed({"body": FieldError(N_("Give name, trigger, actions, enabled or several."))})
    values = _check(rt, body, partial=True)
    with rt.db.write() as conn:
        row = _find(conn, actor, automation_pid)
        conn.execute(update(automations).where(automations.c.id == row.id).values(**values, updated_at=utcnow()))
        return _automation_dict(_find(conn, actor, automation_pid))


def delete_automation(rt: Runtime, actor: Actor, automation_pid: str) -> dict[str, Any]:
    actor.require(MANAGE)
    with rt.db.write() as conn:
        row = _find(conn, actor, automation_pid)
        conn.execute(update(automations).where(automations.c.id == row.id)
                     .values(deleted_at=utcnow(), enabled=0, updated_at=utcnow()))
    return {"automationId": automation_pid, "deleted": True}


RUN_FIELDS = {
    "status": ListField("status", "enum", automation_runs.c.status, RUN_STATUSES),
    "attempts": ListField("attempts", "integer", automation_runs.c.attempts),
    "created_at": ListField("created_at", "timestamp", automation_runs.c.created_at),
}


def _run_dict(row: Row[Any], automation_pid: str) -> dict[str, Any]:
    return {"runId": row.pid, "automationId": automation_pid, "eventId": row.event_pid, "status": row.status,
            "attempts": row.attempts, "error": row.error, "result": row.result,
            "nextAttemptAt": iso(row.next_attempt_at) if row.next_attempt_at else None,
            "created_at": iso(row.created_at), "updated_at": iso(row.updated_at)}


def list_runs(rt: Runtime, actor: Actor, automation_pid: str, params: Mapping[str, Any]) -> dict[str, Any]:
    actor.require(VIEW)
    request = parse_list_request(params, RUN_FIELDS)
    with rt.db.read() as conn:
        automation = _find(conn, actor, automation_pid)
        base = (select(automation_runs, inbound_events.c.pid.label("event_pid"))
                .select_from(automation_runs.join(inbound_events,
                                                  inbound_events.c.id == automation_runs.c.inbound_event_id)))
        rows, total = run_list(conn, build_queries(base, [automation_runs.c.automation_id == automation.id], request,
                                                   automation_runs.c.id, keyword_in(automation_runs.c.pid)))
    return page_of([_run_dict(r, automation_pid) for r in rows], total, request)


def retry_run(rt: Runtime, actor: Actor, run_pid: str) -> dict[str, Any]:
    """Put a parked run back in the queue with a fresh retry budget."""
    actor.require(MANAGE)
    with rt.db.write() as conn:
        joined = automation_runs.join(automations, automations.c.id == automation_runs.c.automation_id)
        row = conn.execute(
            select(automation_runs).select_from(joined)
            .where(and_(automation_runs.c.pid == run_pid, automations.c.tenant_id == actor.tenant_id))
        ).first()
        if row is None:
            raise NotFound()
        if row.status != "parked":
            raise Conflict(N_("Only a parked run can be retried."))
        conn.execute(update(automation_runs).where(automation_runs.c.id == row.id).values(
            status="pending", attempts=0, next_attempt_at=utcnow(), locked_until=None, updated_at=utcnow()))
    return {"runId": run_pid, "status": "pending"}


# -- the runner ----------------------------------------------------------------------------------------
def dispatch(rt: Runtime, limit: int = 200) -> int:
    """One run per (matching enabled automation, new inbound event); returns the runs created."""
    made = 0
    now = utcnow()
    with rt.db.write() as conn:
        events = queues.undispatched(conn, inbound_events, limit)
        for event in events:
            matching = conn.execute(select(automations.c.id).where(and_(
                automations.c.tenant_id == event.tenant_id, automations.c.trigger_source == event.source,
                automations.c.trigger_type == event.event_type, automations.c.enabled == 1,
                automations.c.deleted_at.is_(None))))
            for automation in matching:
                conn.execute(insert(automation_runs).values(
                    pid=new_pid("run"), automation_id=automation.id, inbound_event_id=event.id, status="pending",
                    attempts=0, next_attempt_at=now, created_at=now, updated_at=now))
                made += 1
        queues.mark_dispatched(conn, inbound_events, [e.id for e in events], now)
    return made


def run_due(rt: Runtime, limit: int = 20) -> int:
    """Lease due runs and execute each in its own transaction; returns how many ran."""
    now = utcnow()
    lease = now + timedelta(seconds=LEASE_SECONDS)
    with rt.db.write() as conn:
        ids = queues.lease_due(conn, automation_runs, now, lease, limit)
        runs = list(conn.execute(
            select(automation_runs, automations.c.pid.label("automation_pid"), automations.c.actions,
                   automations.c.tenant_id, automations.c.enabled.label("automation_enabled"),
                   automations.c.deleted_at.label("automation_deleted_at"),
                   inbound_events.c.pid.label("event_pid"), inbound_events.c.source,
                   inbound_events.c.event_type, inbound_events.c.schema_version, inbound_events.c.occurred_at,
                   inbound_events.c.data, inbound_events.c.request_id)
            .select_from(automation_runs.join(automations, automations.c.id == automation_runs.c.automation_id)
                         .join(inbound_events, inbound_events.c.id == automation_runs.c.inbound_event_id))
            .where(automation_runs.c.id.in_(ids))
        )) if ids else []
    for index, run in enumerate(runs):
        if utcnow() + timedelta(seconds=LEASE_SECONDS / 2) >= lease:
            # Slow runs used up most of the lease: hand the rest back rather than risk running a
            # run whose lease lapsed (another worker may have claimed it).
            with rt.db.write() as conn:
                queues.release(conn, automation_runs, [r.id for r in runs[index:]], lease)
            return index
        _execute(rt, run, lease)
    return len(runs)


def _execute(rt: Runtime, run: Row[Any], lease: Any) -> None:
    event = {"eventId": run.event_pid, "source": run.source, "type": run.event_type,
             "schemaVersion": run.schema_version, "occurredAt": iso(run.occurred_at), "data": run.data}
    author = Author(tenant_id=run.tenant_id, actor=f"automation:{run.automation_pid}", request_id=run.request_id)
    attempts = run.attempts + 1
    if not run.automation_enabled or run.automation_deleted_at is not None:
        with rt.db.write() as conn:
            conn.execute(update(automation_runs)
                         .where(and_(automation_runs.c.id == run.id, automation_runs.c.locked_until == lease))
                         .values(status="parked", error="automation disabled", next_attempt_at=None,
                                 locked_until=None, updated_at=utcnow()))
        return
    try:
        with rt.db.write() as conn:
            # First statement of the run's transaction: confirm the lease is still ours (and hold
            # the row lock on PostgreSQL), so a run never executes twice.
            mine = conn.execute(update(automation_runs)
                                .where(and_(automation_runs.c.id == run.id, automation_runs.c.locked_until == lease))
                                .values(updated_at=utcnow())).rowcount == 1
            if not mine:
                log.warning("automation.lease_lost", extra={"runId": run.pid})
                return
            results = [_action(conn, rt, author, action, event) for action in run.actions]
            conn.execute(update(automation_runs).where(automation_runs.c.id == run.id)
                         .values(status="succeeded", attempts=attempts, result=results, error=None,
                                 next_attempt_at=None, locked_until=None, updated_at=utcnow()))
        log.info("automation.run", extra={"runId": run.pid, "status": "succeeded", "requestId": run.request_id})
        return
    except ServiceError as exc:
        error = f"{exc.code}: {translate(exc.message, **exc.params)} {_field_errors(exc)}".strip()
    except Exception as exc:  # a bug or an outage: the run must still be retried, not lost
        log.exception("automation.run_failed", extra={"runId": run.pid})
        error = f"{type(exc).__name__}"
    schedule = rt.settings.automation_retry_schedule
    if attempts <= len(schedule):
        values = {"status": "retrying", "next_attempt_at": utcnow() + timedelta(seconds=schedule[attempts - 1])}
    else:
        values = {"status": "parked", "next_attempt_at": None}
    with rt.db.write() as conn:
        conn.execute(update(automation_runs)
                     .where(and_(automation_runs.c.id == run.id, automation_runs.c.locked_until == lease))
                     .values(**values, attempts=attempts, error=error[:500], locked_until=None, updated_at=utcnow()))
    log.warning("automation.run", extra={"runId": run.pid, "status": values["status"], "requestId": run.request_id})


def _field_errors(exc: ServiceError) -> str:
    data = exc.data if isinstance(exc.data, dict) else {}
    errors = data.get("fieldErrors") or {}
    return ", ".join(f"{k}: {translate(v.message, **v.params)}" for k, v in errors.items() if hasattr(v, "message"))


def _action(conn: Connection, rt: Runtime, author: Author, action: dict[str, Any],
            event: dict[str, Any]) -> dict[str, Any]:
    if action["kind"] == "command":
        command = rt.capabilities.commands[action["command"]]
        given = resolve(action.get("input") or {}, event)
        errors = list(command.input_validator.iter_errors(given))
        if errors:
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
