"""Webhook endpoints of an installation and their signing secrets.

Who may do what follows the application roles: members list and read endpoints; owners and
maintainers create, change and delete them (runtime concerns); only owners rotate secrets. Non-
members get 404. A secret is returned exactly once (on create and rotate), is kept sealed (the
service signs with it) and is never audited.

Each endpoint signs in its ``signatureFormat``: ``tessera`` (the default, ``X-Webhook-*``) or
``standard-webhooks``. A new secret takes the form of the endpoint's format at the time: ``twsec_``
and 43 base64url characters for ``tessera`` (the HMAC key is the whole string, as for the
``whsec_`` secrets issued before the formats existed), ``whsec_`` and the standard base64 of 32
random bytes for ``standard-webhooks`` (the key is the decoded bytes, as the specification says).
Changing the format keeps the secrets: ``tessera.webhooks.verify.standard_key`` says which key each
one gives in the Standard Webhooks format.
"""

from __future__ import annotations

import asyncio
import base64
import secrets
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from storage import webhooks as store
from storage.drivers.engine import Executor
from storage.openplatform.applications import ApplicationRow
from tessera.access.actors import Actor
from tessera.core.clock import iso
from tessera.core.errors import FieldError, NotFound, ValidationFailed
from tessera.core.i18n import N_
from tessera.lists.contract import page_of, parse_list_request
from tessera.openplatform.identity.access import MAINTAINER, OWNER, application_for, audit_change, require_role
from tessera.openplatform.identity.installations import installation_for_member
from tessera.registry.operational import OPERATIONAL_EVENTS
from tessera.runtime import Runtime
from tessera.webhooks.urls import UnsafeWebhookUrl, check_url
from tessera.webhooks.verify import SIGNATURE_FORMATS, STANDARD_SECRET_PREFIX, STANDARD_WEBHOOKS, TESSERA

MAX_OVERLAP_SECONDS = 7 * 24 * 3600
WEBHOOK_SECRET_PREFIX = "twsec_"  # noqa: S105 - a prefix, not a secret (the tessera format's own)
RUNTIME_ROLES = (OWNER, MAINTAINER)
NOTHING_TO_CHANGE = N_("Give url, eventTypes, enabled, rateLimit, maxInFlight, signatureFormat or several.")
UPDATABLE = ("url", "eventTypes", "enabled", "rateLimit", "maxInFlight", "signatureFormat")
# Owners' throttles: request field, column, highest value (tessera/webhooks/throttle.py applies them).
THROTTLES = (("rateLimit", "rate_limit", 10_000), ("maxInFlight", "max_in_flight", 1_000))


def new_webhook_secret(signature_format: str = TESSERA) -> str:
    """A new secret in the form of ``signature_format``: ``whsec_<base64>`` (Standard Webhooks) or
    ``twsec_<base64url>`` (tessera); 32 random bytes either way."""
    if signature_format == STANDARD_WEBHOOKS:
        return STANDARD_SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode("ascii")
    return WEBHOOK_SECRET_PREFIX + secrets.token_urlsafe(32)


def endpoint_dict(row: store.EndpointRow | store.EndpointDetailRow, installation_pid: str) -> dict[str, Any]:
    return {"endpointId": row.pid, "installationId": installation_pid, "url": row.url,
            "eventTypes": list(row.event_types), "enabled": bool(row.enabled),
            "disabledReason": row.disabled_reason if not row.enabled else None,
            "rateLimit": row.rate_limit, "maxInFlight": row.max_in_flight,
            "signatureFormat": row.signature_format,
            "created_at": iso(row.created_at), "updated_at": iso(row.updated_at)}


async def endpoint_for_member(conn: Executor, actor: Actor,
                              endpoint_pid: str) -> tuple[store.EndpointDetailRow, ApplicationRow, str]:
    """The live endpoint, its application and the actor's role there (404 for non-members)."""
    endpoint = await store.endpoint_by_pid(conn, endpoint_pid)
    if endpoint is None:
        raise NotFound()
    app, role = await application_for(conn, actor, endpoint.application_pid)
    return endpoint, app, role


async def _check(rt: Runtime, body: Mapping[str, Any], *, partial: bool, granted: list[str]) -> dict[str, Any]:
    """url, eventTypes and enabled as columns; every problem reported at once. The URL check
    resolves the host name (blocking DNS), so it runs on a thread."""
    errors: dict[str, FieldError] = {}
    values: dict[str, Any] = {}
    if "url" in body or not partial:
        try:
            await asyncio.to_thread(check_url, body.get("url"), allow_loopback=rt.settings.webhook_allow_loopback)
            values["url"] = body.get("url")
        except UnsafeWebhookUrl as exc:
            errors["url"] = FieldError(exc.message)
    if "eventTypes" in body or not partial:
        problem = _event_types_problem(rt, body.get("eventTypes"), granted)
        if problem is not None:
            errors["eventTypes"] = problem
        else:
            values["event_types"] = sorted(set(body["eventTypes"]))
    if "enabled" in body:
        values["enabled"] = 1 if body["enabled"] else 0
    _check_delivery_options(body, values, errors)
    if errors:
        raise ValidationFailed(errors)
    return values


def _check_delivery_options(body: Mapping[str, Any], values: dict[str, Any], errors: dict[str, FieldError]) -> None:
    """The signature format and the owners' throttles, into ``values`` (columns) or ``errors``."""
    if "signatureFormat" in body:
        if body["signatureFormat"] not in SIGNATURE_FORMATS:
            errors["signatureFormat"] = FieldError(N_("Must be one of: {values}."), values=", ".join(SIGNATURE_FORMATS))
        else:
            values["signature_format"] = body["signatureFormat"]
    for name, column, high in THROTTLES:
        if name in body:
            value = body[name]
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= high):
                errors[name] = FieldError(N_("Must be null or between {low} and {high}."), low=1, high=high)
            else:
                values[column] = value


def _event_types_problem(rt: Runtime, types: Any, granted: list[str]) -> FieldError | None:
    """Published types only, whose resource the installation may read (the platform's
    operational events need no scope)."""
    if not isinstance(types, list) or not types:
        return FieldError(N_("Give at least one event type."))
    published = rt.capabilities.webhook_events
    unknown = sorted({t for t in types if t not in published and t not in OPERATIONAL_EVENTS}, key=str)
    if unknown:
        return FieldError(N_("Not published event types: {values}."), values=", ".join(map(str, unknown)))
    needed = sorted({published[t].resource.read_scope for t in types if t in published} - set(granted))
    if needed:
        return FieldError(N_("The installation lacks the scopes: {values}."), values=", ".join(needed))
    return None


async def create_endpoint(rt: Runtime, actor: Actor, installation_pid: str, body: Mapping[str, Any],
                          request_id: str | None) -> dict[str, Any]:
    # The URL check resolves DNS: do it before the write transaction (on SQLite that would hold the
    # single writer lock meanwhile), then check the role again inside it.
    async with rt.db.read() as conn:
        inst, _, role = await installation_for_member(conn, actor, installation_pid)
    require_role(role, RUNTIME_ROLES)
    values = await _check(rt, body, partial=False, granted=list(inst.scopes))
    signature_format = values.get("signature_format", TESSERA)
    secret = new_webhook_secret(signature_format)
    now = rt.clock.now()
    async with rt.db.write() as conn:
        inst, app, role = await installation_for_member(conn, actor, installation_pid)
        require_role(role, RUNTIME_ROLES)
        row = await store.create_endpoint(conn, inst.id, values["url"], values["event_types"], now=now,
                                          signature_format=signature_format)
        extra = {k: v for k, v in values.items() if k in ("rate_limit", "max_in_flight") and v is not None}
        if not values.get("enabled", 1):
            extra["enabled"] = 0
        if extra:
            await store.update_endpoint(conn, row.id, extra, now=now)
        await store.add_secret(conn, row.id, rt.secret_box.seal(secret.encode()), now=now)
        await audit_change(conn, actor, request_id, "webhook_endpoint.create", application_id=app.id,
                           target_type="webhook_endpoint", target_id=row.pid, tenant_id=inst.tenant_id,
                           after={"url": row.url, "eventTypes": values["event_types"],
                                  "signatureFormat": signature_format}, now=now)
        created = await store.endpoint_by_pid(conn, row.pid)
    assert created is not None
    return {**endpoint_dict(created, inst.pid), "secret": secret}


async def list_endpoints(rt: Runtime, actor: Actor, installation_pid: str, params: Mapping[str, Any]) -> dict[str, Any]:
    request = parse_list_request(params, store.ENDPOINT_FIELDS)
    async with rt.db.read() as conn:
        inst, _, _ = await installation_for_member(conn, actor, installation_pid)
        rows, total = await store.endpoints_page(conn, inst.id, request)
    return page_of([endpoint_dict(r, inst.pid) for r in rows], total, request)


async def get_endpoint(rt: Runtime, actor: Actor, endpoint_pid: str) -> dict[str, Any]:
    """Any member may read an endpoint (never its secret); deleted ones and non-members get 404."""
    async with rt.db.read() as conn:
        endpoint, _, _ = await endpoint_for_member(conn, actor, endpoint_pid)
    return endpoint_dict(endpoint, endpoint.installation_pid)


async def update_endpoint(rt: Runtime, actor: Actor, endpoint_pid: str, body: Mapping[str, Any],
                          request_id: str | None) -> dict[str, Any]:
    async with rt.db.read() as conn:
        endpoint, _, role = await endpoint_for_member(conn, actor, endpoint_pid)
        inst, _, _ = await installation_for_member(conn, actor, endpoint.installation_pid)
    require_role(role, RUNTIME_ROLES)
    if not set(UPDATABLE) & set(body):
        raise ValidationFailed({"body": FieldError(NOTHING_TO_CHANGE)})
    values = await _check(rt, body, partial=True, granted=list(inst.scopes))
    now = rt.clock.now()
    async with rt.db.write() as conn:
        endpoint, app, role = await endpoint_for_member(conn, actor, endpoint_pid)
        require_role(role, RUNTIME_ROLES)
        before = {"url": endpoint.url, "event_types": list(endpoint.event_types), "enabled": endpoint.enabled,
                  "rate_limit": endpoint.rate_limit, "max_in_flight": endpoint.max_in_flight,
                  "signature_format": endpoint.signature_format}
        changes = {k: v for k, v in values.items() if before[k] != v}
        if changes:
            stored = dict(changes)
            if changes.get("enabled"):  # an owner re-enables: why the service disabled it is over
                stored.update(disabled_reason=None, disabled_at=None, failing_since=None)
            await store.update_endpoint(conn, endpoint.id, stored, now=now)
            await audit_change(conn, actor, request_id, "webhook_endpoint.update", application_id=app.id,
                               target_type="webhook_endpoint", target_id=endpoint.pid, tenant_id=endpoint.tenant_id,
                               before={k: before[k] for k in changes}, after=changes, now=now)
        updated = await store.endpoint_by_pid(conn, endpoint_pid)
    assert updated is not None
    return endpoint_dict(updated, updated.installation_pid)


async def delete_endpoint(rt: Runtime, actor: Actor, endpoint_pid: str, request_id: str | None) -> dict[str, Any]:
    now = rt.clock.now()
    async with rt.db.write() as conn:
        endpoint, app, role = await endpoint_for_member(conn, actor, endpoint_pid)
        require_role(role, RUNTIME_ROLES)
        await store.update_endpoint(conn, endpoint.id, {"deleted_at": now, "enabled": 0}, now=now)
        await audit_change(conn, actor, request_id, "webhook_endpoint.delete", application_id=app.id,
                           target_type="webhook_endpoint", target_id=endpoint.pid, tenant_id=endpoint.tenant_id,
                           before={"url": endpoint.url}, now=now)
    return {"endpointId": endpoint_pid, "deleted": True}


async def rotate_secret(rt: Runtime, actor: Actor, endpoint_pid: str, overlap_seconds: int,
                        request_id: str | None) -> dict[str, Any]:
    """A new secret, in force now; the current ones keep signing for ``overlap_seconds`` more."""
    if not 0 <= overlap_seconds <= MAX_OVERLAP_SECONDS:
        raise ValidationFailed({"overlapSeconds": FieldError(N_("Must be between {low} and {high}."),
                                                             low=0, high=MAX_OVERLAP_SECONDS)})
    now = rt.clock.now()
    overlap_end = now + timedelta(seconds=overlap_seconds)
    async with rt.db.write() as conn:
        endpoint, app, role = await endpoint_for_member(conn, actor, endpoint_pid)
        require_role(role, (OWNER,))
        secret = new_webhook_secret(endpoint.signature_format)
        await store.expire_secrets(conn, endpoint.id, overlap_end, now=now)
        await store.add_secret(conn, endpoint.id, rt.secret_box.seal(secret.encode()), now=now)
        await audit_change(conn, actor, request_id, "webhook_endpoint.rotate_secret", application_id=app.id,
                           target_type="webhook_endpoint", target_id=endpoint.pid, tenant_id=endpoint.tenant_id,
                           after={"previousSecretsExpireAt": iso(overlap_end)}, now=now)
    return {"endpointId": endpoint_pid, "secret": secret, "previousSecretsExpireAt": iso(overlap_end)}
