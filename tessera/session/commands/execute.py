"""Command execution: the single write path of the session API.

``<module>:<action>`` commands create, update or soft-delete records of the module's page. A
command with an idempotency key (``X-Idempotent-Key`` or ``clientRequestId``) runs at most once per
user and tenant within the dedupe window: a repeat gets the first result as ``IDEMPOTENT_REPLAY``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from storage import idempotency as keys
from storage.drivers.engine import DatabaseUnavailable, Executor
from storage.records import present
from tessera.access.actors import Actor
from tessera.core.errors import Conflict, FieldError, IdempotencyKeyConflict, NotFound, ValidationFailed
from tessera.core.fingerprints import request_fingerprint
from tessera.core.i18n import N_
from tessera.core.text import BAD_TEXT, storable_text
from tessera.records.changes import Author, Changes
from tessera.records.payloads import validate_payload
from tessera.registry.models import CommandDecl
from tessera.runtime import Runtime

MAX_KEY_LENGTH = 200
MAX_RECORD_ID_LENGTH = 64
# The body fields each action takes (the generated document's `<Command>Request` schemas say the same).
BODY_FIELDS = {
    "create": frozenset({"payload", "clientRequestId", "operationType", "targetRecordId"}),
    "update": frozenset({"payload", "clientRequestId", "operationType", "targetRecordId"}),
    "delete": frozenset({"clientRequestId", "operationType", "targetRecordId"}),
}


@dataclass(frozen=True)
class Outcome:
    data: Any
    replay: bool


def _check_shape(command: CommandDecl, body: dict[str, Any]) -> None:
    """Check the command envelope for the action; report every problem at once.

    Exactly the rules of the generated document's ``<Command>Request`` schemas: create takes
    ``payload`` only; update ``operationType: UPDATE``, ``targetRecordId`` and ``payload``; delete
    ``operationType: DELETE`` and ``targetRecordId``; each may add ``clientRequestId``.
    """
    errors: dict[str, FieldError] = {
        str(key): FieldError(N_("Unknown field.")) for key in body if key not in BODY_FIELDS[command.action]}
    if command.action == "create":
        errors.update({name: FieldError(N_("Must be omitted for a create command."))
                       for name in ("operationType", "targetRecordId") if name in body})
    else:
        errors.update(_target_errors(command, body))
    if "clientRequestId" in body:
        problem = _key_problem(body["clientRequestId"])
        if problem is not None:
            errors["clientRequestId"] = problem
    errors.update(_payload_errors(command, body))
    if errors:
        raise ValidationFailed(errors)


def _payload_errors(command: CommandDecl, body: dict[str, Any]) -> dict[str, FieldError]:
    """Create and update carry a ``payload`` object (its fields are the model's to check); delete none."""
    if command.action == "delete":
        return {}
    if "payload" not in body:
        return {"payload": FieldError(N_("This field is required."))}
    if not isinstance(body["payload"], dict):
        return {"payload": FieldError(N_("Must be an object."))}
    return {}


def _target_errors(command: CommandDecl, body: dict[str, Any]) -> dict[str, FieldError]:
    """Update and delete name their operation and their target."""
    errors: dict[str, FieldError] = {}
    expected = command.action.upper()
    if body.get("operationType") != expected:
        errors["operationType"] = FieldError(N_("Must be one of: {values}."), values=expected)
    target = body.get("targetRecordId")
    if not isinstance(target, str) or not target:
        errors["targetRecordId"] = FieldError(N_("This field is required."))
    elif len(target) > MAX_RECORD_ID_LENGTH:
        errors["targetRecordId"] = FieldError(N_("Must be at most {maxLength} characters."),
                                              maxLength=MAX_RECORD_ID_LENGTH)
    return errors


def _request_hash(command_code: str, body: dict[str, Any]) -> str:
    """``clientRequestId`` is the key itself, not part of the request it names."""
    return request_fingerprint(command_code, {k: v for k, v in body.items() if k != "clientRequestId"})


async def apply_command(conn: Executor, rt: Runtime, author: Author, command: CommandDecl, body: dict[str, Any]) -> Any:
    """Run a command body inside the caller's transaction (also used by automations)."""
    _check_shape(command, body)
    return await _apply(conn, rt, author, command, body)


async def _apply(conn: Executor, rt: Runtime, author: Author, command: CommandDecl, body: dict[str, Any]) -> Any:
    model = command.page.model
    changes = Changes(conn, rt.capabilities, author, model, action=command.code, now=rt.clock.now())
    if command.action == "create":
        return present(await changes.create(validate_payload(model, body.get("payload"), partial=False)), model)
    current = await changes.repository.get(body["targetRecordId"], for_update=True)
    if current is None:
        raise NotFound()
    if command.action == "update":
        row = await changes.update(current, validate_payload(model, body.get("payload"), partial=True))
        if row is None:  # unreachable while the row is locked; never overwrite a concurrent change
            raise Conflict()
        return present(row, model)
    await changes.delete(current)
    return {"id": current.pid, "deleted": True}


async def execute(rt: Runtime, actor: Actor, command_code: str, body: Any, idempotency_key: str | None,
                  request_id: str | None) -> Outcome:
    command = rt.declarations.commands.get(command_code)
    if command is None:
        raise NotFound()
    actor.require(command.permission)
    if not isinstance(body, dict):
        raise ValidationFailed({"body": FieldError(N_("Must be an object."))})
    _check_shape(command, body)
    author = Author(tenant_id=actor.tenant_id, actor=actor.email, request_id=request_id, user_id=actor.user_id)
    key = _idempotency_key(idempotency_key or body.get("clientRequestId") or None)
    if key is None:
        async with rt.db.write() as conn:
            outcome = Outcome(await _apply(conn, rt, author, command, body), replay=False)
    else:
        outcome = await _execute_once(rt, actor, author, command, body, key)
    if not outcome.replay:
        rt.work.notify()  # the change may have emitted events: wake the workers now
    return outcome


def _key_problem(key: Any) -> FieldError | None:
    """What is wrong with an idempotency key (``""`` is no key), or None."""
    if not isinstance(key, str):
        return FieldError(N_("Must be a string."))
    if len(key) > MAX_KEY_LENGTH:
        return FieldError(N_("Must be at most {maxLength} characters."), maxLength=MAX_KEY_LENGTH)
    if not storable_text(key):
        return FieldError(BAD_TEXT)
    return None


def _idempotency_key(key: str | None) -> str | None:
    """The key from ``X-Idempotent-Key`` or ``clientRequestId`` (already checked); None when there is none."""
    if key is None:
        return None
    problem = _key_problem(key)
    if problem is not None:
        raise ValidationFailed({"clientRequestId": problem})
    return key


async def _execute_once(rt: Runtime, actor: Actor, author: Author, command: CommandDecl, body: dict[str, Any],
                        key: str) -> Outcome:
    """Run the command at most once per (tenant, user, key) within the dedupe window.

    The command runs first, and its transaction ends with the key row holding its result
    (``storage.idempotency.record``): a new key, the common case, costs no statement of its own.
    When the transaction fails, because the key has a row already (its INSERT fails at commit and
    nothing of the command is kept; a concurrent duplicate's waits for the first to commit) or
    because the command itself failed (as a retry of a create would, its unique value taken by the
    first), the key's row decides: none re-raises the failure; an expired one is forgotten and the
    command runs afresh; a live one replays its result, or is a conflict for another body.
    """
    request_hash = _request_hash(command.code, body)
    ttl = timedelta(seconds=rt.settings.idempotency_ttl_seconds)
    for _ in range(3):
        try:
            async with rt.db.write() as conn:
                result = await _apply(conn, rt, author, command, body)
                await keys.record(conn, actor.tenant_id, actor.user_id, key, request_hash, 200, result,
                                  now=rt.clock.now())
            return Outcome(result, replay=False)
        except DatabaseUnavailable:
            raise
        except Exception:
            existing = await keys.find(rt.db, actor.tenant_id, actor.user_id, key)
            if existing is None:
                raise
        if existing.created_at < rt.clock.now() - ttl:
            await keys.forget(rt.db, existing.id, existing.created_at)
            continue  # the expired key is gone: run the command afresh
        if existing.request_hash != request_hash:
            raise IdempotencyKeyConflict()
        return Outcome(existing.response, replay=True)
    raise IdempotencyKeyConflict()
