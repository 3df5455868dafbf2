"""Command execution: the single write path of the session API.

``<module>:<action>`` commands create, update or soft-delete records of the module's page. A
command with an idempotency key (``X-Idempotent-Key`` or ``clientRequestId``) runs at most once per
user and tenant within the dedupe window: a repeat gets the first result as ``IDEMPOTENT_REPLAY``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from storage import audit
from storage import idempotency as keys
from storage.records import RecordRepository, present
from tessera.core.errors import Conflict, FieldError, IdempotencyKeyConflict, NotFound, ValidationFailed
from tessera.core.fingerprints import request_fingerprint
from tessera.core.i18n import N_
from tessera.records import events as record_events
from tessera.records.payloads import BAD_TEXT, storable_text, validate_payload
from tessera.registry.models import CommandDecl
from tessera.runtime import Runtime
from tessera.session.auth.actors import Actor

MAX_KEY_LENGTH = 200


@dataclass(frozen=True)
class Outcome:
    data: Any
    replay: bool


class _KeyTaken(Exception):
    """A concurrent request committed the same idempotency key first."""


def _check_shape(command: CommandDecl, body: dict[str, Any]) -> None:
    """Check the command envelope for the action; report every problem at once."""
    errors: dict[str, FieldError] = {}
    op = body.get("operationType")
    expected = {"create": None, "update": "UPDATE", "delete": "DELETE"}[command.action]
    if op is not None and op != expected:
        if expected is None:
            errors["operationType"] = FieldError(N_("Must be omitted for a create command."))
        else:
            errors["operationType"] = FieldError(N_("Must be one of: {values}."), values=expected)
    target = body.get("targetRecordId")
    if command.action == "create":
        if target is not None:
            errors["targetRecordId"] = FieldError(N_("Must be omitted for a create command."))
        if "payload" not in body:
            errors["payload"] = FieldError(N_("This field is required."))
    else:
        if not isinstance(target, str) or not target:
            errors["targetRecordId"] = FieldError(N_("This field is required."))
        if command.action == "update" and "payload" not in body:
            errors["payload"] = FieldError(N_("This field is required."))
    if "payload" in body and not isinstance(body["payload"], dict):
        errors["payload"] = FieldError(N_("Must be an object."))
    if errors:
        raise ValidationFailed(errors)


def _request_hash(command_code: str, body: dict[str, Any]) -> str:
    """``clientRequestId`` is the key itself, not part of the request it names."""
    return request_fingerprint(command_code, {k: v for k, v in body.items() if k != "clientRequestId"})


class Writer(Protocol):
    """Who a change is attributed to: a signed-in user, or an automation (no user)."""

    @property
    def tenant_id(self) -> int: ...
    @property
    def user_id(self) -> int | None: ...
    @property
    def email(self) -> str: ...


def apply_command(conn: Connection, rt: Runtime, actor: Writer, command: CommandDecl, body: dict[str, Any],
                  request_id: str | None) -> Any:
    """Run a checked command body inside the caller's transaction (also used by automations)."""
    _check_shape(command, body)
    return _apply(conn, rt, actor, command, body, request_id)


def _apply(conn: Connection, rt: Runtime, actor: Writer, command: CommandDecl, body: dict[str, Any],
           request_id: str | None) -> Any:
    model = command.page.model
    repo = RecordRepository(conn, actor.tenant_id, model)
    common = {"tenant_id": actor.tenant_id, "actor_user_id": actor.user_id, "actor": actor.email,
              "target_type": model.code, "request_id": request_id}
    if command.action == "create":
        data = validate_payload(model, body.get("payload"), partial=False, field_prefix="")
        row = repo.insert(data, actor.user_id)
        result = present(row)
        audit.append(conn, action=command.code, target_id=row.pid, before=None, after=row.data, **common)
        record_events.emit(conn, rt.capabilities, tenant_id=actor.tenant_id, model=model.code, action="create",
                           pid=row.pid, before=None, after=row.data, request_id=request_id)
        return result
    current = repo.get(body["targetRecordId"], for_update=True)
    if current is None:
        raise NotFound()
    if command.action == "update":
        changes = validate_payload(model, body.get("payload"), partial=True)
        row = repo.update(current, changes)
        if row is None:  # unreachable while the row is locked; never overwrite a concurrent change
            raise Conflict()
        audit.append(conn, action=command.code, target_id=row.pid, before=current.data, after=row.data, **common)
        record_events.emit(conn, rt.capabilities, tenant_id=actor.tenant_id, model=model.code, action="update",
                           pid=row.pid, before=current.data, after=row.data, request_id=request_id)
        return present(row)
    repo.soft_delete(current)
    audit.append(conn, action=command.code, target_id=current.pid, before=current.data, after=None, **common)
    return {"id": current.pid, "deleted": True}


def execute(rt: Runtime, actor: Actor, command_code: str, body: Any, idempotency_key: str | None,
            request_id: str | None) -> Outcome:
    command = rt.declarations.commands.get(command_code)
    if command is None:
        raise NotFound()
    actor.require(command.permission)
    if not isinstance(body, dict):
        raise ValidationFailed({"body": FieldError(N_("Must be an object."))})
    _check_shape(command, body)
    key = idempotency_key or body.get("clientRequestId") or None
    if key is not None and (not isinstance(key, str) or len(key) > MAX_KEY_LENGTH):
        raise ValidationFailed({"clientRequestId": FieldError(N_("Must be at most {maxLength} characters."),
                                                              maxLength=MAX_KEY_LENGTH)})
    if key is not None and not storable_text(key):
        raise ValidationFailed({"clientRequestId": FieldError(BAD_TEXT)})
    if key is None:
        with rt.db.write() as conn:
            return Outcome(_apply(conn, rt, actor, command, body, request_id), replay=False)

    request_hash = _request_hash(command_code, body)
    ttl = rt.settings.idempotency_ttl_seconds
    for _ in range(5):
        try:
            with rt.db.write() as conn:
                existing = keys.lookup(conn, actor.tenant_id, actor.user_id, key, ttl)
                if existing is not None:
                    if existing.request_hash != request_hash:
                        raise IdempotencyKeyConflict()
                    return Outcome(existing.response, replay=True)
                try:
                    with conn.begin_nested():
                        row_id = keys.claim(conn, actor.tenant_id, actor.user_id, key, request_hash)
                except IntegrityError:
                    raise _KeyTaken() from None
                result = _apply(conn, rt, actor, command, body, request_id)
                keys.complete(conn, row_id, 200, result)
                return Outcome(result, replay=False)
        except _KeyTaken:
            continue
    raise IdempotencyKeyConflict()
