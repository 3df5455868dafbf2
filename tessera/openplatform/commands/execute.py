"""Published commands: ``POST /api/open/v1/commands/{code}:execute``.

The rules of the specification, in the order they are applied:

1. ``If-Match`` must name the target's current strong ETag (412 ``precondition_failed``); a
   weak tag or ``*`` never matches, so there is no last-write-wins. The check runs under the row
   lock (PostgreSQL ``FOR UPDATE``, SQLite's single writer) and the update is conditional on the
   version, so of two writers holding the same ETag exactly one wins.
2. ``Idempotency-Key`` is required and scoped to the installation for 24 hours: the same key and
   body replays the stored result (``idempotentReplay: true``, nothing runs again); another body
   is 409 ``idempotency_key_conflict``; a duplicate that arrives while the first is still running
   is 409 ``idempotency_in_progress``. The key is claimed in its own committed transaction for
   that reason, then completed in the command's transaction; a failed command releases it.
3. The record change, its audit entry and its webhook outbox row commit in one transaction.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError
from werkzeug.http import parse_etags

from storage import open_idempotency as keys
from storage.types import utcnow
from tessera.core.errors import (
    CapabilityNotFound,
    FieldError,
    IdempotencyInProgress,
    InvalidRequest,
    OpenIdempotencyKeyConflict,
    PreconditionFailed,
    ResourceNotFound,
    ValidationFailed,
)
from tessera.core.fingerprints import request_fingerprint
from tessera.core.i18n import N_
from tessera.core.schema import collect
from tessera.core.text import bad_text_paths
from tessera.openplatform.resources.reads import etag, present, resource_for
from tessera.openplatform.tokens.grants import Caller
from tessera.records.changes import Author, Changes
from tessera.records.payloads import validate_payload
from tessera.registry.capabilities import CommandCap
from tessera.runtime import Runtime

log = logging.getLogger("tessera.commands")

KEY_HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 255
# How long a claim protects a running command. A process that dies mid-command leaves its claim,
# and a retry after this long takes it over instead of waiting 24 hours.
CLAIM_LEASE_SECONDS = 30
REQUIRED = N_("This field is required.")
BAD_KEY = N_("Must be 1 to 255 visible ASCII characters.")


@dataclass(frozen=True)
class CommandOutcome:
    body: dict[str, Any]
    etag: str
    replay: bool


def execute(rt: Runtime, caller: Caller, code: str, body: Any, if_match: str | None,
            idempotency_key: str | None, request_id: str | None) -> CommandOutcome:
    command = rt.capabilities.commands.get(code)
    if command is None:
        raise CapabilityNotFound()
    resource_for(rt, caller, command.resource.name, scope=command.scope)
    check_idempotency_key(idempotency_key)
    assert idempotency_key is not None
    target_pid, given = _check_body(command, body)
    if command.action == "update" and not if_match:
        raise PreconditionFailed()

    request_hash = request_fingerprint(code, body)
    row_id, stored = _claim(rt, caller, idempotency_key, request_hash)
    if stored is not None:
        return CommandOutcome({**stored.response, "idempotentReplay": True}, stored.etag or "", replay=True)
    try:
        with rt.db.write() as conn:
            result, tag = _apply(conn, rt, caller, command, target_pid, given, if_match, request_id)
            keys.complete(conn, row_id, result, tag)
    except BaseException:
        # Nothing of the command committed; free the key so a corrected retry can use it.
        with contextlib.suppress(Exception), rt.db.write() as conn:
            keys.release(conn, row_id)
        raise
    return CommandOutcome({**result, "idempotentReplay": False}, tag, replay=False)


def check_idempotency_key(key: str | None) -> None:
    """Required, 1 to 255 visible ASCII characters (it travels in a header)."""
    if not key:
        raise InvalidRequest(data={"fieldErrors": {KEY_HEADER: FieldError(REQUIRED)}})
    if len(key) > MAX_KEY_LENGTH or not all("\x21" <= ch <= "\x7e" for ch in key):
        raise InvalidRequest(data={"fieldErrors": {KEY_HEADER: FieldError(BAD_KEY)}})


def _check_body(command: CommandCap, body: Any) -> tuple[str | None, dict[str, Any]]:
    """The target pid and the input, or ``invalid_request`` naming every problem.

    Connexion has checked the body against the document already; this repeats the checks for
    callers that do not come through HTTP (automations) and is cheap with compiled validators.
    """
    if not isinstance(body, dict):
        raise InvalidRequest(data={"fieldErrors": {"body": FieldError(N_("Must be an object."))}})
    errors: dict[str, FieldError] = {}
    allowed = {"input", "targetPid"} if command.action == "update" else {"input"}
    for name in sorted(set(body) - allowed):
        errors[name] = FieldError(N_("Unknown field."))
    target = body.get("targetPid")
    if command.action == "update" and (not isinstance(target, str) or not target):
        errors["targetPid"] = FieldError(REQUIRED)
    given = body.get("input")
    if not isinstance(given, dict):
        errors["input"] = FieldError(REQUIRED if given is None else N_("Must be an object."))
    else:
        for name, message in collect(command.input_validator.iter_errors(given)).items():
            errors["input" if name == "body" else f"input.{name}"] = message
        errors.update(bad_text_paths(given, "input"))
    if errors:
        raise InvalidRequest(data={"fieldErrors": errors})
    return (target if command.action == "update" else None), given


def _claim(rt: Runtime, caller: Caller, key: str, request_hash: str) -> tuple[int, Any]:
    """Claim the key (row id, None), or return the stored result of an earlier run (0, row)."""
    ttl = rt.settings.idempotency_ttl_seconds
    now = utcnow()
    lock = now + timedelta(seconds=CLAIM_LEASE_SECONDS)
    # Replays, conflicts and in-progress duplicates are answered from a read: on SQLite the first
    # request holds the single write lock while it runs, and a duplicate must not queue behind it.
    with rt.db.read() as conn:
        seen = keys.find(conn, caller.installation_id, key)
    if seen is not None and seen.created_at >= now - timedelta(seconds=ttl):
        if seen.request_hash != request_hash:
            raise OpenIdempotencyKeyConflict()
        if seen.state == keys.COMPLETED:
            return 0, seen
        if seen.locked_until > now:
            raise IdempotencyInProgress(headers={"Retry-After": "1"})
    with rt.db.write() as conn:
        existing = keys.lookup(conn, caller.installation_id, key, ttl)
        if existing is None:
            try:
                with conn.begin_nested():
                    return keys.claim(conn, caller.installation_id, key, request_hash, lock), None
            except IntegrityError:
                # A concurrent request claimed it between our read and insert (PostgreSQL waits for
                # its commit, so the row is visible now).
                existing = keys.lookup(conn, caller.installation_id, key, ttl)
                if existing is None:
                    raise IdempotencyInProgress(headers={"Retry-After": "1"}) from None
        if existing.request_hash != request_hash:
            raise OpenIdempotencyKeyConflict()
        if existing.state == keys.COMPLETED:
            return 0, existing
        if existing.locked_until > now or not keys.take_over(conn, existing.id, existing.locked_until, lock):
            raise IdempotencyInProgress(headers={"Retry-After": "1"})
        log.warning("idempotency.claim_taken_over", extra={"installationId": caller.installation_pid})
        return existing.id, None


def _matches(if_match: str | None, current: str) -> bool:
    """Strong comparison (RFC 9110 section 13.1.1): weak tags and ``*`` never match."""
    if not if_match:
        return False
    parsed = parse_etags(if_match)
    return not parsed.star_tag and parsed.is_strong(current.strip('"'))


def _field_errors_for_input(command: CommandCap, error: ValidationFailed) -> ValidationFailed:
    """Model-rule errors, named after the input property that fed the field when there is one."""
    renamed = {}
    for field, message in error.field_errors.items():
        source = command.apply.get(field, {})
        renamed[f"input.{source['input']}" if "input" in source else field] = message
    return ValidationFailed(renamed)


def _apply(conn: Connection, rt: Runtime, caller: Caller, command: CommandCap, target_pid: str | None,
           given: dict[str, Any], if_match: str | None, request_id: str | None) -> tuple[dict[str, Any], str]:
    author = Author(tenant_id=caller.tenant_id, actor=caller.client_id, request_id=request_id,
                    application_id=caller.application_id)
    return apply_command(conn, rt, command, author, target_pid=target_pid, given=given, if_match=if_match)


def apply_command(conn: Connection, rt: Runtime, command: CommandCap, author: Author, *, target_pid: str | None,
                  given: dict[str, Any], if_match: str | None,
                  check_precondition: bool = True) -> tuple[dict[str, Any], str]:
    """Apply a checked command inside the caller's transaction: change, audit entry, outbox event.

    Automations call it with ``check_precondition=False``: they act on the record as it is when
    they run (under its row lock), they hold no ETag from an earlier read.
    """
    resource = command.resource
    model = resource.model
    changes = Changes(conn, rt.capabilities, author, model, action=f"open.command.{command.code}")
    wanted = command.changes(given)
    try:
        if command.action == "update":
            current = changes.repository.get(target_pid, for_update=True) if target_pid else None
            if current is None:
                raise ResourceNotFound()
            if check_precondition and not _matches(if_match, etag(current)):
                raise PreconditionFailed()
            row = changes.update(current, validate_payload(model, wanted, partial=True))
            if row is None:  # another writer committed this version first
                raise PreconditionFailed()
        else:
            row = changes.create(validate_payload(model, wanted, partial=False))
    except ValidationFailed as exc:
        raise _field_errors_for_input(command, exc) from None
    return {"commandCode": command.code, "record": present(resource, row)}, etag(row)
