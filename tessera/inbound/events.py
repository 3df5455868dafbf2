"""Inbound events: ``POST /api/open/v1/event-sources/{sourceCode}/events``.

Authenticate (the source's scope), validate the body against the registry's schema for its
``type`` and ``schemaVersion``, deduplicate on (installation, Idempotency-Key), store, answer 202.
Automations consume stored events in the workers, never inside the request.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from jsonschema.protocols import Validator

from storage import automations as store
from tessera.core.errors import CapabilityNotFound, FieldError, InvalidRequest, OpenIdempotencyKeyConflict
from tessera.core.fingerprints import request_fingerprint
from tessera.core.i18n import N_
from tessera.core.ids import new_pid
from tessera.core.schema import collect
from tessera.core.schema_check import Check
from tessera.core.text import bad_text_paths
from tessera.core.timestamps import parse_utc_timestamp
from tessera.openplatform.commands.idempotency import check_key
from tessera.openplatform.tokens.bearer import Caller
from tessera.registry.capabilities import EventSourceCap
from tessera.runtime import Runtime

REQUIRED = N_("This field is required.")
FIELDS = frozenset({"type", "schemaVersion", "occurredAt", "data"})  # an event body's fields


@dataclass(frozen=True)
class Received:
    event_id: str
    duplicate: bool


def _occurred_at(value: Any, errors: dict[str, FieldError]) -> datetime | None:
    """An RFC 3339 date-time in UTC (``UTC_TIMESTAMP_PATTERN``: ``Z``, ``+00:00`` or ``-00:00``), a
    real date and time; anything else is reported. The document states the same pattern."""
    if not isinstance(value, str):
        errors["occurredAt"] = FieldError(REQUIRED if value is None else N_("Must be a string."))
        return None
    parsed = parse_utc_timestamp(value)
    if parsed is None:
        errors["occurredAt"] = FieldError(N_("Must be an ISO 8601 UTC timestamp, e.g. 2026-11-22T08:00:00Z."))
        return None
    return parsed


def _check(rt: Runtime, source_code: str, body: Any) -> tuple[str, int, datetime, dict[str, Any]]:
    """The event's type, schema version, time and data, or ``invalid_request`` naming every problem."""
    source = rt.capabilities.event_sources[source_code]
    if not isinstance(body, dict):
        raise InvalidRequest(data={"fieldErrors": {"body": FieldError(N_("Must be an object."))}})
    errors: dict[str, FieldError] = {name: FieldError(N_("Unknown field.")) for name in sorted(set(body) - FIELDS)}
    event_type, version, data = body.get("type"), body.get("schemaVersion"), body.get("data")
    schema = _schema(source, event_type, version, errors)
    occurred = _occurred_at(body.get("occurredAt"), errors)
    _check_data(data, schema, errors)
    if errors:
        raise InvalidRequest(data={"fieldErrors": errors})
    assert occurred is not None and isinstance(event_type, str) and isinstance(version, int)
    return event_type, version, occurred, data  # type: ignore[return-value]


def _schema(source: EventSourceCap, event_type: Any, version: Any,
            errors: dict[str, FieldError]) -> tuple[Validator, Check] | None:
    """The validator and compiled check of a type and version the source publishes; the type is
    checked first, so a bad type is reported alone (the versions to offer depend on it)."""
    if not isinstance(event_type, str) or event_type not in source.types:
        errors["type"] = FieldError(N_("Must be one of: {values}."), values=", ".join(source.types))
        return None
    if not isinstance(version, int) or isinstance(version, bool) or version not in source.types[event_type]:
        errors["schemaVersion"] = FieldError(N_("Must be one of: {values}."),
                                             values=", ".join(map(str, source.types[event_type])))
        return None
    return source.validators[(event_type, version)], source.checks[(event_type, version)]


def _check_data(data: Any, schema: tuple[Validator, Check] | None, errors: dict[str, FieldError]) -> None:
    """``data`` is an object; checked against the schema only once the type and version are known,
    its errors named under ``data.``, and holding only text a database stores."""
    if not isinstance(data, dict):
        errors["data"] = FieldError(REQUIRED if data is None else N_("Must be an object."))
    elif schema is not None:
        validator, valid = schema
        if not valid(data):
            for name, message in collect(validator.iter_errors(data)).items():
                errors["data" if name == "body" else f"data.{name}"] = message
        errors.update(bad_text_paths(data, "data"))


async def receive(rt: Runtime, caller: Caller, source_code: str, body: Any, idempotency_key: str | None,
                  request_id: str | None) -> Received:
    source = rt.capabilities.event_sources.get(source_code)
    if source is None:
        raise CapabilityNotFound()
    caller.require(source.scope)
    idempotency_key = check_key(idempotency_key)
    event_type, version, occurred, data = _check(rt, source_code, body)
    request_hash = request_fingerprint(source_code, body)
    pid = new_pid("evt")
    stored = await store.store_inbound(rt.db, {
        "pid": pid, "installation_id": caller.installation_id, "tenant_id": caller.tenant_id, "source": source_code,
        "event_type": event_type, "schema_version": version, "occurred_at": occurred, "data": data,
        "idempotency_key": idempotency_key, "request_hash": request_hash, "request_id": request_id,
        "received_at": rt.clock.now(),
    })
    if stored:  # one statement, one round trip: the usual case
        rt.work.notify()  # the automations run at once, not at the next poll
        return Received(pid, duplicate=False)
    seen = await store.inbound_by_key(rt.db, caller.installation_id, idempotency_key)
    assert seen is not None
    if seen.request_hash != request_hash:
        raise OpenIdempotencyKeyConflict()
    return Received(seen.pid, duplicate=True)
