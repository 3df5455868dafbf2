"""Administration of webhook endpoints, their secrets, deliveries and replays.

Who may do what follows the application roles: members list endpoints and deliveries; owners and
maintainers create, change and delete endpoints (runtime concerns); only owners rotate secrets and
replay deliveries. Non-members get 404. A secret is returned exactly once (on create and rotate)
and never audited.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from sqlalchemy import Connection, Row

from storage import openplatform as op_store
from storage import webhooks as store
from storage.listing import ListField, build_queries, keyword_in, run_list
from storage.tables import deliveries, webhook_endpoints
from storage.types import utcnow
from tessera.core.clock import iso
from tessera.core.errors import Conflict, FieldError, Forbidden, NotFound, ValidationFailed
from tessera.core.i18n import N_
from tessera.core.secrets import new_webhook_secret
from tessera.events.urls import UnsafeWebhookUrl, check_url
from tessera.openplatform.identity.admin import audit_change, role_in
from tessera.runtime import Runtime
from tessera.session.auth.actors import Actor
from tessera.session.listing import page_of, parse_list_request

OWNER = "owner"
MAINTAINER = "maintainer"
MAX_OVERLAP_SECONDS = 7 * 24 * 3600
DELIVERY_STATUSES = ("pending", "delivered", "retrying", "dead")


def _endpoint_dict(row: Row[Any], installation_pid: str) -> dict[str, Any]:
    return {"endpointId": row.pid, "installationId": installation_pid, "url": row.url,
            "eventTypes": list(row.event_types), "enabled": bool(row.enabled),
            "created_at": iso(row.created_at), "updated_at": iso(row.updated_at)}


def _require(role: str, allowed: tuple[str, ...]) -> None:
    if role not in allowed:
        raise Forbidden("application:owner" if allowed == (OWNER,) else "application:maintainer")


def _check(rt: Runtime, body: Mapping[str, Any], *, partial: bool,
           granted: list[str] | None = None) -> dict[str, Any]:
    """url and eventTypes (published types only, whose resource the installation may read),
    enabled; every problem reported at once."""
    errors: dict[str, FieldError] = {}
    values: dict[str, Any] = {}
    if "url" in body or not partial:
        try:
            check_url(body.get("url"), allow_loopback=rt.settings.webhook_allow_loopback)  # type: ignore[arg-type]
            values["url"] = body.get("url")
        except UnsafeWebhookUrl as exc:
            errors["url"] = FieldError(exc.message)
    if "eventTypes" in body or not partial:
        types = body.get("eventTypes")
        if not isinstance(types, list) or not types:
            errors["eventTypes"] = FieldError(N_("Give at least one event type."))
        else:
            unknown = sorted({t for t in types if t not in rt.capabilities.webhook_events}, key=str)
            if unknown:
                errors["eventTypes"] = FieldError(N_("Not published event types: {values}."),
                                                  values=", ".join(map(str, unknown)))
            elif granted is not None:
                needed = sorted({rt.capabilities.webhook_events[t].resource.read_scope for t in types} - set(granted))
                if needed:
                    errors["eventTypes"] = FieldError(N_("The installation lacks the scopes: {values}."),
                                                      values=", ".join(needed))
            values["event_types"] = sorted(set(types))
    if "enabled" in body:
        values["enabled"] = 1 if body["enabled"] else 0
    if errors:
        raise ValidationFailed(errors)
    return values


def _installation_role(conn: Connection, actor: Actor, installation_pid: str) -> tuple[Row[Any], Row[Any], str]:
    inst = op_store.installation_by_pid(conn, installation_pid)
    if inst is None:
        raise NotFound()
    app, role = role_in(conn, actor, inst.application_pid)
    return inst, app, role


def _endpoint_role(conn: Connection, actor: Actor, endpoint_pid: str) -> tuple[Row[Any], Row[Any], str]:
    endpoint = store.endpoint_by_pid(conn, endpoint_pid)
    if endpoint is None:
        raise NotFound()
    app, role = role_in(conn, actor, endpoint.application_pid)
    return endpoint, app, role


def create_endpoint(rt: Runtime, actor: Actor, installation_pid: str, body: Mapping[str, Any],
                    request_id: str | None) -> dict[str, Any]:
    # The URL check resolves DNS: do it before the write transaction (on SQLite that would hold the
    # single writer lock meanwhile), then check the role again inside it.
    with rt.db.read() as conn:
        inst, _, role = _installation_role(conn, actor, installation_pid)
    _require(role, (OWNER, MAINTAINER))
    values = _check(rt, body, partial=False, granted=list(inst.scopes))
    secret = new_webhook_secret()
    with rt.db.write() as conn:
        inst, app, role = _installation_role(conn, actor, installation_pid)
        _require(role, (OWNER, MAINTAINER))
        row = store.create_endpoint(conn, inst.id, values["url"], values["event_types"])
        if not values.get("enabled", 1):
            store.update_endpoint(conn, row.id, {"enabled": 0})
        store.add_secret(conn, row.id, rt.sealed_secrets.seal(secret))
        audit_change(conn, actor, request_id, "webhook_endpoint.create", application_id=app.id,
                     target_type="webhook_endpoint", target_id=row.pid, tenant_id=inst.tenant_id,
                     after={"url": row.url, "eventTypes": values["event_types"]})
        created = store.endpoint_by_pid(conn, row.pid)
    assert created is not None
    return {**_endpoint_dict(created, inst.pid), "secret": secret}


ENDPOINT_FIELDS = {
    "url": ListField("url", "string", webhook_endpoints.c.url),
    "enabled": ListField("enabled", "integer", webhook_endpoints.c.enabled),
    "created_at": ListField("created_at", "timestamp", webhook_endpoints.c.created_at),
}


def list_endpoints(rt: Runtime, actor: Actor, installation_pid: str, params: Mapping[str, Any]) -> dict[str, Any]:
    request = parse_list_request(params, ENDPOINT_FIELDS)
    with rt.db.read() as conn:
        inst, _, _ = _installation_role(conn, actor, installation_pid)
        queries = build_queries(store.endpoints_query(inst.id), [], request, webhook_endpoints.c.id,
                                keyword_in(webhook_endpoints.c.url))
        rows, total = run_list(conn, queries)
    return page_of([_endpoint_dict(r, inst.pid) for r in rows], total, request)


def get_endpoint(rt: Runtime, actor: Actor, endpoint_pid: str) -> dict[str, Any]:
    """Any member may read an endpoint (never its secret); deleted ones and non-members get 404."""
    with rt.db.read() as conn:
        endpoint, _, _ = _endpoint_role(conn, actor, endpoint_pid)
    return _endpoint_dict(endpoint, endpoint.installation_pid)


def update_endpoint(rt: Runtime, actor: Actor, endpoint_pid: str, body: Mapping[str, Any],
                    request_id: str | None) -> dict[str, Any]:
    with rt.db.read() as conn:
        endpoint, _, role = _endpoint_role(conn, actor, endpoint_pid)
        inst = op_store.installation_by_pid(conn, endpoint.installation_pid)
    _require(role, (OWNER, MAINTAINER))
    if not {"url", "eventTypes", "enabled"} & set(body):
        raise ValidationFailed({"body": FieldError(N_("Give url, eventTypes, enabled or several."))})
    values = _check(rt, body, partial=True, granted=list(inst.scopes) if inst is not None else [])
    with rt.db.write() as conn:
        endpoint, app, role = _endpoint_role(conn, actor, endpoint_pid)
        _require(role, (OWNER, MAINTAINER))
        before = {"url": endpoint.url, "event_types": list(endpoint.event_types), "enabled": endpoint.enabled}
        changes = {k: v for k, v in values.items() if before[k] != v}
        if changes:
            store.update_endpoint(conn, endpoint.id, changes)
            audit_change(conn, actor, request_id, "webhook_endpoint.update", application_id=app.id,
                         target_type="webhook_endpoint", target_id=endpoint.pid, tenant_id=endpoint.tenant_id,
                         before={k: before[k] for k in changes}, after=changes)
        updated = store.endpoint_by_pid(conn, endpoint_pid)
    assert updated is not None
    return _endpoint_dict(updated, updated.installation_pid)


def delete_endpoint(rt: Runtime, actor: Actor, endpoint_pid: str, request_id: str | None) -> dict[str, Any]:
    with rt.db.write() as conn:
        endpoint, app, role = _endpoint_role(conn, actor, endpoint_pid)
        _require(role, (OWNER, MAINTAINER))
        store.update_endpoint(conn, endpoint.id, {"deleted_at": utcnow(), "enabled": 0})
        audit_change(conn, actor, request_id, "webhook_endpoint.delete", application_id=app.id,
                     target_type="webhook_endpoint", target_id=endpoint.pid, tenant_id=endpoint.tenant_id,
                     before={"url": endpoint.url})
    return {"endpointId": endpoint_pid, "deleted": True}


def rotate_secret(rt: Runtime, actor: Actor, endpoint_pid: str, overlap_seconds: int,
                  request_id: str | None) -> dict[str, Any]:
    """A new secret, in force now; the current ones keep signing for ``overlap_seconds`` more."""
    if not 0 <= overlap_seconds <= MAX_OVERLAP_SECONDS:
        raise ValidationFailed({"overlapSeconds": FieldError(N_("Must be between {low} and {high}."),
                                                             low=0, high=MAX_OVERLAP_SECONDS)})
    secret = new_webhook_secret()
    now = utcnow()
    overlap_end = now + timedelta(seconds=overlap_seconds)
    with rt.db.write() as conn:
        endpoint, app, role = _endpoint_role(conn, actor, endpoint_pid)
        _require(role, (OWNER,))
        store.expire_secrets(conn, endpoint.id, overlap_end)
        store.add_secret(conn, endpoint.id, rt.sealed_secrets.seal(secret))
        audit_change(conn, actor, request_id, "webhook_endpoint.rotate_secret", application_id=app.id,
                     target_type="webhook_endpoint", target_id=endpoint.pid, tenant_id=endpoint.tenant_id,
                     after={"previousSecretsExpireAt": iso(overlap_end)})
    return {"endpointId": endpoint_pid, "secret": secret, "previousSecretsExpireAt": iso(overlap_end)}


DELIVERY_FIELDS = {
    "status": ListField("status", "enum", deliveries.c.status, DELIVERY_STATUSES),
    "attempts": ListField("attempts", "integer", deliveries.c.attempts),
    "created_at": ListField("created_at", "timestamp", deliveries.c.created_at),
    "updated_at": ListField("updated_at", "timestamp", deliveries.c.updated_at),
}


def _delivery_dict(row: Row[Any], endpoint_pid: str, attempts: list[Row[Any]]) -> dict[str, Any]:
    return {
        "deliveryId": row.pid, "endpointId": endpoint_pid, "eventId": row.event_pid, "eventType": row.event_type,
        "status": row.status, "attemptCount": row.attempts,
        "nextAttemptAt": iso(row.next_attempt_at) if row.next_attempt_at else None,
        "attempts": [{"attemptedAt": iso(a.attempted_at), "httpStatus": a.http_status, "latencyMs": a.latency_ms,
                      "error": a.error} for a in attempts],
        "created_at": iso(row.created_at), "updated_at": iso(row.updated_at),
    }


def list_deliveries(rt: Runtime, actor: Actor, endpoint_pid: str, params: Mapping[str, Any]) -> dict[str, Any]:
    request = parse_list_request(params, DELIVERY_FIELDS)
    with rt.db.read() as conn:
        endpoint, _, _ = _endpoint_role(conn, actor, endpoint_pid)
        queries = build_queries(store.deliveries_query(endpoint.id), [], request, deliveries.c.id,
                                keyword_in(deliveries.c.pid))
        rows, total = run_list(conn, queries)
        attempts = store.attempts_of(conn, [r.id for r in rows])
    return page_of([_delivery_dict(r, endpoint_pid, attempts[r.id]) for r in rows], total, request)


def replay(rt: Runtime, actor: Actor, delivery_pid: str, request_id: str | None) -> dict[str, Any]:
    """Deliver a dead (or delivered) delivery again with the same delivery and event ids."""
    with rt.db.write() as conn:
        row = store.delivery_by_pid(conn, delivery_pid)
        if row is None:
            raise NotFound()
        app, role = role_in(conn, actor, row.application_pid)
        _require(role, (OWNER,))
        if row.status not in ("dead", "delivered"):
            raise Conflict(N_("Only a dead or delivered delivery can be replayed."))
        if row.installation_status != "enabled":
            raise Conflict(N_("The installation is disabled."))
        store.requeue(conn, row.id, utcnow())
        audit_change(conn, actor, request_id, "delivery.replay", application_id=app.id, target_type="delivery",
                     target_id=row.pid, tenant_id=row.tenant_id, before={"status": row.status},
                     after={"status": "pending"})
    return {"deliveryId": delivery_pid, "status": "pending"}
