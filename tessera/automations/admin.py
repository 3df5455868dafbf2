"""Administration of a tenant's automations and their runs (permissions ``automations:view`` / ``:manage``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from storage import automations as store
from storage.drivers.engine import Executor
from tessera.access.actors import Actor
from tessera.automations.mapping import path_ok, paths_in
from tessera.core.clock import iso
from tessera.core.errors import Conflict, FieldError, NotFound, ValidationFailed
from tessera.core.i18n import N_
from tessera.core.text import bad_text_paths
from tessera.lists.contract import page_of, parse_list_request
from tessera.runtime import Runtime

MANAGE = "automations:manage"
VIEW = "automations:view"
MAX_ACTIONS = 10
MAX_TEMPLATE_TEXT = 200
ONE_OF = N_("Must be one of: {values}.")
# The body of a create or an update; the session document's automation request schemas say the
# same, and leave the checks to this module (``x-tessera-service-checks``), whose errors name the
# bad part (``actions[1].command``) where a schema's ``oneOf`` could only say "is not valid".
FIELDS = frozenset({"name", "trigger", "actions", "enabled"})


def _check(rt: Runtime, body: Mapping[str, Any], *, partial: bool) -> dict[str, Any]:
    """name, trigger, actions and enabled as columns; every problem reported at once. A create
    (``partial`` false) must give the first three; an update checks what it gives."""
    errors = _unknown_fields(body)
    errors.update(bad_text_paths(body))  # text no database stores (the validator leaves this body to us)
    values: dict[str, Any] = {}
    if "name" in body or not partial:
        values.update(_check_name(body.get("name"), errors))
    if "trigger" in body or not partial:
        values.update(_check_trigger(rt, body.get("trigger"), errors))
    if "actions" in body or not partial:
        values.update(_check_actions(rt, body.get("actions"), errors))
    if "enabled" in body:
        values.update(_check_enabled(body["enabled"], errors))
    if errors:
        raise ValidationFailed(errors)
    return values


def _unknown_fields(body: Mapping[str, Any]) -> dict[str, FieldError]:
    """Each key of the body that is none of ``FIELDS``."""
    return {str(key): FieldError(N_("Unknown field.")) for key in body if key not in FIELDS}


def _check_name(name: Any, errors: dict[str, FieldError]) -> dict[str, Any]:
    """1 to 200 characters, stored without the spaces around them."""
    if not isinstance(name, str) or not name.strip() or len(name) > 200:
        errors["name"] = FieldError(N_("Must be 1 to 200 characters."))
        return {}
    return {"name": name.strip()}


def _check_actions(rt: Runtime, actions: Any, errors: dict[str, FieldError]) -> dict[str, Any]:
    """1 to ``MAX_ACTIONS`` actions, each checked on its own (``actions[1].command``)."""
    if not isinstance(actions, list) or not 1 <= len(actions) <= MAX_ACTIONS:
        errors["actions"] = FieldError(N_("Give 1 to {count} actions."), count=MAX_ACTIONS)
        return {}
    for index, action in enumerate(actions):
        errors.update(_check_action(rt, f"actions[{index}]", action))
    return {"actions": actions}


def _check_enabled(enabled: Any, errors: dict[str, FieldError]) -> dict[str, Any]:
    """A boolean, stored as 1 or 0."""
    if not isinstance(enabled, bool):
        errors["enabled"] = FieldError(N_("Must be true or false."))
        return {}
    return {"enabled": 1 if enabled else 0}


def _check_trigger(rt: Runtime, trigger: Any, errors: dict[str, FieldError]) -> dict[str, Any]:
    """A published event source and one of its event types."""
    sources = rt.capabilities.event_sources
    code = trigger.get("source") if isinstance(trigger, dict) else None
    source = sources.get(code) if isinstance(code, str) else None
    if source is None or not isinstance(trigger, dict):
        errors["trigger.source"] = FieldError(ONE_OF, values=", ".join(sources))
        return {}
    unknown = set(trigger) - {"source", "eventType"}
    if unknown:
        errors.update({f"trigger.{name}": FieldError(N_("Unknown field.")) for name in sorted(map(str, unknown))})
    event_type = trigger.get("eventType")
    if not isinstance(event_type, str) or event_type not in source.types:
        errors["trigger.eventType"] = FieldError(ONE_OF, values=", ".join(source.types))
        return {}
    return {"trigger_source": trigger["source"], "trigger_type": event_type}


def _check_action(rt: Runtime, where: str, action: Any) -> dict[str, FieldError]:
    if not isinstance(action, dict):
        return {where: FieldError(N_("Must be an object."))}
    kind = action.get("kind")
    if kind == "command":
        errors, allowed = _check_registry_command(rt, where, action), {"kind", "command", "input", "targetPid"}
    elif kind == "sessionCommand":
        errors, allowed = _check_session_command(rt, where, action)
    else:
        return {f"{where}.kind": FieldError(ONE_OF, values="command, sessionCommand")}
    for name in sorted(set(action) - allowed):
        errors[f"{where}.{name}"] = FieldError(N_("Unknown field."))
    for path in paths_in(action):
        if not path_ok(path):
            errors[where] = FieldError(N_("Unknown event path {path}."), path=path)
    return errors


def _check_target(where: str, action: dict[str, Any], name: str, *, required: bool) -> dict[str, FieldError]:
    """The record an action changes: a pid or id of 1 to 200 characters, or an event path."""
    if name not in action:
        return {f"{where}.{name}": FieldError(N_("This field is required."))} if required else {}
    value = action[name]
    if not isinstance(value, str) or not 0 < len(value) <= MAX_TEMPLATE_TEXT:
        return {f"{where}.{name}": FieldError(N_("Must be 1 to 200 characters."))}
    return {}


def _check_template(where: str, template: Any, fields: Iterable[str]) -> dict[str, FieldError]:
    """An ``input`` or ``payload``: an object naming only ``fields``, each a constant (text, a number
    or a boolean: the fields are a command's inputs or a model's fields, none of which nests) or an
    event path."""
    if not isinstance(template, dict):
        return {where: FieldError(N_("Must be an object."))}
    known = set(fields)
    errors: dict[str, FieldError] = {}
    for key, value in template.items():
        if key not in known:
            errors[f"{where}.{key}"] = FieldError(N_("Unknown field."))
        elif value is None or isinstance(value, dict | list):
            errors[f"{where}.{key}"] = FieldError(N_("Must be a single value or an event path."))
    return errors


def _check_registry_command(rt: Runtime, where: str, action: dict[str, Any]) -> dict[str, FieldError]:
    errors: dict[str, FieldError] = {}
    code = action.get("command")
    command = rt.capabilities.commands.get(code) if isinstance(code, str) else None
    if command is None:
        errors[f"{where}.command"] = FieldError(ONE_OF, values=", ".join(rt.capabilities.commands))
        return errors
    errors.update(_check_target(where, action, "targetPid", required=command.action == "update"))
    errors.update(_check_template(f"{where}.input", action.get("input"),
                                  command.input_schema.get("properties", {})))
    return errors


def _check_session_command(rt: Runtime, where: str,
                           action: dict[str, Any]) -> tuple[dict[str, FieldError], set[str]]:
    """The errors of a session command action, and the fields its kind of command takes."""
    errors: dict[str, FieldError] = {}
    code = action.get("command")
    decl = rt.declarations.commands.get(code) if isinstance(code, str) else None
    if decl is None:
        errors[f"{where}.command"] = FieldError(ONE_OF, values=", ".join(rt.declarations.commands))
        return errors, {"kind", "command", "payload", "targetRecordId"}
    errors.update(_check_target(where, action, "targetRecordId", required=decl.action != "create"))
    if decl.action == "delete":  # a delete takes no payload
        return errors, {"kind", "command", "targetRecordId"}
    errors.update(_check_template(f"{where}.payload", action.get("payload"), decl.page.model.fields))
    return errors, {"kind", "command", "payload", "targetRecordId"}


def _automation_dict(row: store.AutomationRow) -> dict[str, Any]:
    return {"automationId": row.pid, "name": row.name,
            "trigger": {"source": row.trigger_source, "eventType": row.trigger_type},
            "actions": row.actions, "enabled": bool(row.enabled),
            "created_at": iso(row.created_at), "updated_at": iso(row.updated_at)}


async def _find(conn: Executor, actor: Actor, automation_pid: str) -> store.AutomationRow:
    row = await store.automation_by_pid(conn, actor.tenant_id, automation_pid)
    if row is None:
        raise NotFound()
    return row


async def create(rt: Runtime, actor: Actor, body: Mapping[str, Any]) -> dict[str, Any]:
    actor.require(MANAGE)
    values = _check(rt, body, partial=False)
    async with rt.db.write() as conn:
        row = await store.create_automation(conn, actor.tenant_id, values, now=rt.clock.now())
    return _automation_dict(row)


async def list_automations(rt: Runtime, actor: Actor, params: Mapping[str, Any]) -> dict[str, Any]:
    actor.require(VIEW)
    request = parse_list_request(params, store.AUTOMATION_FIELDS)
    async with rt.db.read() as conn:
        rows, total = await store.automations_page(conn, actor.tenant_id, request)
    return page_of([_automation_dict(r) for r in rows], total, request)


async def get_automation(rt: Runtime, actor: Actor, automation_pid: str) -> dict[str, Any]:
    actor.require(VIEW)
    async with rt.db.read() as conn:
        return _automation_dict(await _find(conn, actor, automation_pid))


async def update_automation(rt: Runtime, actor: Actor, automation_pid: str, body: Mapping[str, Any]) -> dict[str, Any]:
    actor.require(MANAGE)
    if not {"name", "trigger", "actions", "enabled"} & set(body):
        raise ValidationFailed({"body": FieldError(N_("Give name, trigger, actions, enabled or several."))})
    values = _check(rt, body, partial=True)
    async with rt.db.write() as conn:
        row = await _find(conn, actor, automation_pid)
        await store.update_automation(conn, row.id, values, now=rt.clock.now())
        return _automation_dict(await _find(conn, actor, automation_pid))


async def delete_automation(rt: Runtime, actor: Actor, automation_pid: str) -> dict[str, Any]:
    actor.require(MANAGE)
    async with rt.db.write() as conn:
        row = await _find(conn, actor, automation_pid)
        await store.delete_automation(conn, row.id, now=rt.clock.now())
    return {"automationId": automation_pid, "deleted": True}


def _run_dict(row: store.ListedRunRow, automation_pid: str) -> dict[str, Any]:
    return {"runId": row.pid, "automationId": automation_pid, "eventId": row.event_pid, "status": row.status,
            "attempts": row.attempts, "error": row.error, "result": row.result,
            "nextAttemptAt": iso(row.next_attempt_at) if row.next_attempt_at else None,
            "created_at": iso(row.created_at), "updated_at": iso(row.updated_at)}


async def list_runs(rt: Runtime, actor: Actor, automation_pid: str, params: Mapping[str, Any]) -> dict[str, Any]:
    actor.require(VIEW)
    request = parse_list_request(params, store.RUN_FIELDS)
    async with rt.db.read() as conn:
        automation = await _find(conn, actor, automation_pid)
        rows, total = await store.runs_page(conn, automation.id, request)
    return page_of([_run_dict(r, automation_pid) for r in rows], total, request)


async def retry_run(rt: Runtime, actor: Actor, run_pid: str) -> dict[str, Any]:
    """Put a parked run back in the queue with a fresh retry budget."""
    actor.require(MANAGE)
    async with rt.db.write() as conn:
        row = await store.run_in_tenant(conn, actor.tenant_id, run_pid)
        if row is None:
            raise NotFound()
        if row.status != "parked":
            raise Conflict(N_("Only a parked run can be retried."))
        await store.requeue_run(conn, row.id, now=rt.clock.now())
    return {"runId": run_pid, "status": "pending"}
