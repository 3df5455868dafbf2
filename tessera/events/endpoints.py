"""Webhook endpoints of an installation and their signing secrets.

Who may do what follows the application roles: members list and read endpoints; owners and
maintainers create, change and delete them (runtime concerns); only owners rotate secrets. Non-
members get 404. A secret is returned exactly once (on create and rotate), is kept sealed (the
service signs with it) and is never audited.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from sqlalchemy import Connection, Row

from storage import webhooks as store
from tessera.core.clock import iso
from tessera.core.errors import FieldError, NotFound, ValidationFailed
from tessera.core.i18n import N_
from tessera.events.urls import UnsafeWebhookUrl, check_url
from tessera.openplatform.identity.access import MAINTAINER, OWNER, application_for, audit_change, require_role
from tessera.openplatform.identity.installations import installation_for_member
from tessera.runtime import Runtime
from tessera.session.auth.actors import Actor
from tessera.session.listing import page_of, parse_list_request

MAX_OVERLAP_SECONDS = 7 * 24 * 3600
WEBHOOK_SECRET_PREFIX = "whsec_"  # noqa: S105 - a prefix, not a secret
RUNTIME_ROLES = (OWNER, MAINTAINER)


def new_webhook_secret() -> str:
    return WEBHOOK_SECRET_PREFIX + secrets.token_urlsafe(32)


def endpoint_dict(row: Row[Any], installation_pid: str) -> dict[str, Any]:
    return {"endpointId": row.pid, "installationId": installation_pid, "url": row.url,
            "eventTypes": list(row.event_types), "enabled": bool(row.enabled),
            "created_at": iso(row.created_at), "updated_at": iso(row.updated_at)}


def endpoint_for_member(conn: Connection, actor: Actor, endpoint_pid: str) -> tuple[Row[Any], Row[Any], str]:
    """The live endpoint, its application and the actor's role there (404 for non-members)."""
    endpoint = store.endpoint_by_pid(conn, endpoint_pid)
    if endpoint is None:
        raise NotFound()
    app, role = application_for(conn, actor, endpoint.application_pid)
    return endpoint, app, role


def _check(rt: Runtime, body: Mapping[str, Any], *, partial: bool, granted: list[str]) -> dict[str, Any]:
    """url, eventTypes and enabled as columns; every problem reported at once."""
    errors: dict[str, FieldError] = {}
    values: dict[str, Any] = {}
    if "url" in body or not partial:
        try:
            check_url(body.get("url"), allow_loopback=rt.settings.webhook_allow_loopback)
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
    if errors:
        raise ValidationFailed(errors)
    return values


def _event_types_problem(rt: Runtime, types: Any, granted: list[str]) -> FieldError | None:
    """Published types only, whose resource the installation may read."""
    if not isinstance(types, list) or not types:
        return FieldError(N_("Give at least one event type."))
    unknown = sorted({t for t in types if t not in rt.capabilities.webhook_events}, key=str)
    if unknown:
        return FieldError(N_("Not published event types: {values}."), values=", ".join(map(str, unknown)))
    needed = sorted({rt.capabilities.webhook_events[t].resource.read_scope for t in types} - set(granted))
    if needed:
        return FieldError(N_("The installation lacks the scopes: {values}."), values=", ".join(needed))
    return None


def create_endpoint(rt: Runtime, actor: Actor, installation_pid: str, body: Mapping[str, Any],
                    request_id: str | None) -> dict[str, Any]:
    # The URL check resolves DNS: do it before the write transaction (on SQLite that would hold the
    # single writer lock meanwhile), then check the role again inside it.
    with rt.db.read() as conn:
        inst, _, role = installation_for_member(conn, actor, installation_pid)
    require_role(role, RUNTIME_ROLES)
    values = _check(rt, body, partial=False, granted=list(inst.scopes))
    secret = new_webhook_secret()
    now = rt.clock.now()
    with rt.db.write() as conn:
        inst, app, role = installation_for_member(conn, actor, installation_pid)
        require_role(role, RUNTIME_ROLES)
        row = store.create_endpoint(conn, inst.id, values["url"], values["event_types"], now=now)
        if not values.get("enabled", 1):
            store.update_endpoint(conn, row.id, {"enabled": 0}, now=now)
        store.add_secret(conn, row.id, rt.secret_box.seal(secret.encode()), now=now)
        audit_change(conn, actor, request_id, "webhook_endpoint.create", application_id=app.id,
                     target_type="webhook_endpoint", target_id=row.pid, tenant_id=inst.tenant_id,
                     after={"url": row.url, "eventTypes": values["event_types"]}, now=now)
        created = store.endpoint_by_pid(conn, row.pid)
    assert created is not None
    return {**endpoint_dict(created, inst.pid), "secret": secret}


def list_endpoints(rt: Runtime, actor: Actor, installation_pid: str, params: Mapping[str, Any]) -> dict[str, Any]:
    request = parse_list_request(params, store.ENDPOINT_FIELDS)
    with rt.db.read() as conn:
        inst, _, _ = installation_for_member(conn, actor, installation_pid)
        rows, total = store.endpoints_page(conn, inst.id, request)
    return page_of([endpoint_dict(r, inst.pid) for r in rows], total, request)


def get_endpoint(rt: Runtime, actor: Actor, endpoint_pid: str) -> dict[str, Any]:
    """Any member may read an endpoint (never its secret); deleted ones and non-members get 404."""
    with rt.db.read() as conn:
        endpoint, _, _ = endpoint_for_member(conn, actor, endpoint_pid)
    return endpoint_dict(endpoint, endpoint.installation_pid)


def update_endpoint(rt: Runtime, actor: Actor, endpoint_pid: str, body: Mapping[str, Any],
                    request_id: str | None) -> dict[str, Any]:
    with rt.db.read() as conn:
        endpoint, _, role = endpoint_for_member(conn, actor, endpoint_pid)
        inst, _, _ = installation_for_member(conn, actor, endpoint.installation_pid)
    require_role(role, RUNTIME_ROLES)
    if not {"url", "eventTypes", "enabled"} & set(body):
        raise ValidationFailed({"body": FieldError(N_("Give url, eventTypes, enabled or several."))})
    values = _check(rt, body, partial=True, granted=list(inst.scopes))
    now = rt.clock.now()
    with rt.db.write() as conn:
        endpoint, app, role = endpoint_for_member(conn, actor, endpoint_pid)
        require_role(role, RUNTIME_ROLES)
        before = {"url": endpoint.url, "event_types": list(endpoint.event_types), "enabled": endpoint.enabled}
        changes = {k: v for k, v in values.items() if before[k] != v}
        if changes:
            store.update_endpoint(conn, endpoint.id, changes, now=now)
            audit_change(conn, actor, request_id, "webhook_endpoint.update", application_id=app.id,
                         target_type="webhook_endpoint", target_id=endpoint.pid, tenant_id=endpoint.tenant_id,
                         before={k: before[k] for k in changes}, after=changes, now=now)
        updated = store.endpoint_by_pid(conn, endpoint_pid)
    assert updated is not None
    return endpoint_dict(updated, updated.installation_pid)


def delete_endpoint(rt: Runtime, actor: Actor, endpoint_pid: str, request_id: str | None) -> dict[str, Any]:
    now = rt.clock.now()
    with rt.db.write() as conn:
        endpoint, app, role = endpoint_for_member(conn, actor, endpoint_pid)
        require_role(role, RUNTIME_ROLES)
        store.update_endpoint(conn, endpoint.id, {"deleted_at": now, "enabled": 0}, now=now)
        audit_change(conn, actor, request_id, "webhook_endpoint.delete", application_id=app.id,
                     target_type="webhook_endpoint", target_id=endpoint.pid, tenant_id=endpoint.tenant_id,
                     before={"url": endpoint.url}, now=now)
    return {"endpointId": endpoint_pid, "deleted": True}


def rotate_secret(rt: Runtime, actor: Actor, endpoint_pid: str, overlap_seconds: int,
                  request_id: str | None) -> dict[str, Any]:
    """A new secret, in force now; the current ones keep signing for ``overlap_seconds`` more."""
    if not 0 <= overlap_seconds <= MAX_OVERLAP_SECONDS:
        raise ValidationFailed({"overlapSeconds": FieldError(N_("Must be between {low} and {high}."),
                                                             low=0, high=MAX_OVERLAP_SECONDS)})
    secret = new_webhook_secret()
    now = rt.clock.now()
    overlap_end = now + timedelta(seconds=overlap_seconds)
    with rt.db.write() as conn:
        endpoint, app, role = endpoint_for_member(conn, actor, endpoint_pid)
        require_role(role, (OWNER,))
        store.expire_secrets(conn, endpoint.id, overlap_end, now=now)
        store.add_secret(conn, endpoint.id, rt.secret_box.seal(secret.encode()), now=now)
        audit_change(conn, actor, request_id, "webhook_endpoint.rotate_secret", application_id=app.id,
                     target_type="webhook_endpoint", target_id=endpoint.pid, tenant_id=endpoint.tenant_id,
                     after={"previousSecretsExpireAt": iso(overlap_end)}, now=now)
    return {"endpointId": endpoint_pid, "secret": secret, "previousSecretsExpireAt": iso(overlap_end)}
