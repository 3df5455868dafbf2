"""Published commands: ``POST /api/open/v1/commands/{code}:execute``.

The rules of the catalogue (``rules.yaml``: ``op.command.*``), in the order they are applied:

1. ``If-Match`` must name the target's current strong ETag (412 ``precondition_failed``); a
   weak tag or ``*`` never matches, so there is no last-write-wins. The handler parses the header
   (``if_match`` holds the strong tags it named, quoted; ``None`` without the header). The check runs under the row
   lock (PostgreSQL ``FOR UPDATE``, SQLite's single writer) and the update is conditional on the
   version, so of two writers holding the same ETag exactly one wins.
2. ``Idempotency-Key`` is required and scoped to the installation for 24 hours: the same key and
   body replays the stored result (``idempotentReplay: true``, nothing runs again); another body
   is 409 ``idempotency_key_conflict``; a duplicate that arrives while the first is still running
   is 409 ``idempotency_in_progress`` (``idempotency.py``); a failed command releases the key.
3. The record change, its audit entry and its webhook outbox row commit in one transaction.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from storage.drivers.engine import DatabaseUnavailable, Executor
from storage.openplatform import idempotency as idempotency_store
from storage.records import RecordVersion
from tessera.core.errors import (
    CapabilityNotFound,
    FieldError,
    InvalidRequest,
    PreconditionFailed,
    ResourceNotFound,
    ValidationFailed,
)
from tessera.core.fingerprints import request_fingerprint
from tessera.core.i18n import N_
from tessera.core.schema import collect
from tessera.core.text import bad_text_paths
from tessera.openplatform.commands import idempotency
from tessera.openplatform.resources.reads import etag, present, resource_for
from tessera.openplatform.tokens.bearer import Caller
from tessera.records.changes import Author, Changes
from tessera.records.payloads import validate_payload
from tessera.registry.capabilities import CommandCap
from tessera.runtime import Runtime

REQUIRED = N_("This field is required.")
log = logging.getLogger("tessera.commands")


@dataclass(frozen=True)
class CommandOutcome:
    body: dict[str, Any]
    etag: str
    replay: bool


async def execute(rt: Runtime, caller: Caller, code: str, body: Any, if_match: frozenset[str] | None,
                  idempotency_key: str | None, request_id: str | None) -> CommandOutcome:
    command = rt.capabilities.commands.get(code)
    if command is None:
        raise CapabilityNotFound()
    resource_for(rt, caller, command.resource.name, scope=command.scope)
    key = idempotency.check_key(idempotency_key)
    target_pid, given = _check_body(command, body)
    if command.action == "update" and if_match is None:
        raise PreconditionFailed()

    request_hash = request_fingerprint(code, body)
    claimed = await idempotency.claim(rt, caller, key, request_hash)
    if claimed.stored is not None:
        stored = claimed.stored
        return CommandOutcome({**stored.response, "idempotentReplay": True}, stored.etag or "", replay=True)
    try:
        async with rt.db.write() as conn:
            result, tag = await _apply(conn, rt, caller, command, target_pid, given, if_match, request_id)
            await idempotency_store.complete(conn, claimed.row_id, result, tag)
    except BaseException:
        await _release(rt, claimed)
        raise
    rt.work.notify()  # the change may have emitted events: wake the workers now
    return CommandOutcome({**result, "idempotentReplay": False}, tag, replay=False)


async def _release(rt: Runtime, claimed: idempotency.Claim) -> None:
    """Free the key of a command that failed, so a retry runs it. The release runs on a connection
    of its own (the command's may be the one that died); when the database cannot take it now it
    is owed to the database, paid as soon as it answers again. It deletes the claim only while it
    is still ours and in progress: a command whose COMMIT did land keeps its key (completed, so a
    retry replays it), and a claim another request took over after its lease is not touched."""
    statement, params = idempotency_store.release_statement(claimed.row_id, claimed.locked_until)
    try:
        await rt.db.execute(statement, params)
    except DatabaseUnavailable:
        rt.db.owe(statement, params)
        log.warning("idempotency.release_owed")
    except Exception:
        rt.db.owe(statement, params)
        log.exception("idempotency.release_failed")


def _check_body(command: CommandCap, body: Any) -> tuple[str | None, dict[str, Any]]:
    """The target pid and the input, or ``invalid_request`` naming every problem.

    Connexion has checked the body against the document already; this repeats the checks for
    callers that do not come through HTTP (automations) and is cheap with compiled validators.
    """
    if not isinstance(body, dict):
        raise InvalidRequest(data={"fieldErrors": {"body": FieldError(N_("Must be an object."))}})
    allowed = {"input", "targetPid"} if command.action == "update" else {"input"}
    errors: dict[str, FieldError] = {name: FieldError(N_("Unknown field.")) for name in sorted(set(body) - allowed)}
    target = _target_pid(command, body.get("targetPid"), errors)
    given = body.get("input")
    _check_input(command, given, errors)
    if errors or not isinstance(given, dict):
        raise InvalidRequest(data={"fieldErrors": errors})
    return target, given


def _target_pid(command: CommandCap, target: Any, errors: dict[str, FieldError]) -> str | None:
    """An update names its record (a non-empty ``targetPid``); a create has none."""
    if command.action != "update":
        return None
    if not isinstance(target, str) or not target:
        errors["targetPid"] = FieldError(REQUIRED)
        return None
    return target


def _check_input(command: CommandCap, given: Any, errors: dict[str, FieldError]) -> None:
    """``input`` is an object the command's input schema accepts (its errors named under
    ``input.``), holding only text a database stores."""
    if not isinstance(given, dict):
        errors["input"] = FieldError(REQUIRED if given is None else N_("Must be an object."))
        return
    if not command.input_check(given):
        for name, message in collect(command.input_validator.iter_errors(given)).items():
            errors["input" if name == "body" else f"input.{name}"] = message
    errors.update(bad_text_paths(given, "input"))


def _field_errors_for_input(command: CommandCap, error: ValidationFailed) -> ValidationFailed:
    """Model-rule errors, named after the input property that fed the field when there is one."""
    renamed = {}
    for field, message in error.field_errors.items():
        source = command.apply.get(field, {})
        renamed[f"input.{source['input']}" if "input" in source else field] = message
    return ValidationFailed(renamed)


async def _apply(conn: Executor, rt: Runtime, caller: Caller, command: CommandCap, target_pid: str | None,
                 given: dict[str, Any], if_match: frozenset[str] | None,
                 request_id: str | None) -> tuple[dict[str, Any], str]:
    author = Author(tenant_id=caller.tenant_id, actor=caller.client_id, request_id=request_id,
                    application_id=caller.application_id)
    return await apply_command(conn, rt, command, author, target_pid=target_pid, given=given, if_match=if_match)


async def apply_command(conn: Executor, rt: Runtime, command: CommandCap, author: Author, *, target_pid: str | None,
                        given: dict[str, Any], if_match: frozenset[str] | None,
                        check_precondition: bool = True) -> tuple[dict[str, Any], str]:
    """Apply a checked command inside the caller's transaction: change, audit entry, outbox event.

    Automations call it with ``check_precondition=False``: they act on the record as it is when
    they run (under its row lock), they hold no ETag from an earlier read.
    """
    resource = command.resource
    model = resource.model
    changes = Changes(conn, rt.capabilities, author, model, action=f"open.command.{command.code}",
                      now=rt.clock.now())
    wanted = command.changes(given)
    try:
        if command.action == "update":
            current = await changes.repository.get(target_pid, for_update=True) if target_pid else None
            if current is None:
                raise ResourceNotFound()
            if check_precondition and etag(current) not in (if_match or ()):
                raise PreconditionFailed()
            updated = await changes.update(current, validate_payload(model, wanted, partial=True))
            if updated is None:  # another writer committed this version first
                raise PreconditionFailed()
            row: RecordVersion = updated
        else:
            row = await changes.create(validate_payload(model, wanted, partial=False))
    except ValidationFailed as exc:
        raise _field_errors_for_input(command, exc) from None
    return {"commandCode": command.code, "record": present(resource, row)}, etag(row)
