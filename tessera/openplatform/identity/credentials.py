"""Client credentials of an installation: created, rotated with a grace window, revoked.

The secret leaves the service once, in the answer that creates it; only its keyed digest is kept.
Client secrets are 256-bit random values with a readable prefix, so secret scanners can spot a
leaked ``tsec_`` string; client ids carry ``tcli_``.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from sqlalchemy import Connection, Row

from storage import applications as app_store
from storage import credentials as credential_store
from tessera.core.clock import iso
from tessera.core.errors import Conflict, NotFound
from tessera.core.i18n import N_
from tessera.openplatform.identity.access import application_for, audit_change
from tessera.openplatform.identity.installations import installation_for_member, installation_for_owner
from tessera.runtime import Runtime
from tessera.session.auth.actors import Actor
from tessera.session.listing import page_of, parse_list_request

CLIENT_SECRET_PREFIX = "tsec_"  # noqa: S105 - a prefix, not a secret
CLIENT_ID_PREFIX = "tcli_"


def new_client_secret() -> str:
    return CLIENT_SECRET_PREFIX + secrets.token_urlsafe(32)


def new_client_id() -> str:
    return CLIENT_ID_PREFIX + secrets.token_hex(12)


def create_credential(rt: Runtime, actor: Actor, installation_pid: str, request_id: str | None) -> dict[str, Any]:
    secret = new_client_secret()
    now = rt.clock.now()
    with rt.db.write() as conn:
        inst, app = installation_for_owner(conn, actor, installation_pid)
        cred = credential_store.create_credential(conn, inst.id, new_client_id(), rt.digests.digest(secret),
                                                  now=now)
        audit_change(conn, actor, request_id, "credential.create", application_id=app.id, target_type="credential",
                     target_id=cred.client_id, tenant_id=inst.tenant_id, after={"installationId": inst.pid}, now=now)
    return {"clientId": cred.client_id, "clientSecret": secret, "installationId": inst.pid,
            "created_at": iso(cred.created_at)}


def list_credentials(rt: Runtime, actor: Actor, installation_pid: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The installation's credentials for any member of its application; never a secret."""
    fields = credential_store.list_fields(rt.clock.now())
    request = parse_list_request(params, fields)
    with rt.db.read() as conn:
        inst, _, _ = installation_for_member(conn, actor, installation_pid)
        rows, total = credential_store.credentials_page(conn, inst.id, fields, request)
    return page_of([_credential(r, inst.pid) for r in rows], total, request)


def _credential(row: Row[Any], installation_pid: str) -> dict[str, Any]:
    def optional(value: Any) -> str | None:
        return iso(value) if value else None

    return {"clientId": row.client_id, "installationId": installation_pid, "status": row.derived_status,
            "created_at": iso(row.created_at), "rotatedAt": optional(row.rotated_at),
            "expiresAt": optional(row.expires_at), "revokedAt": optional(row.revoked_at)}


def _credential_for_owner(conn: Connection, actor: Actor, client_id: str) -> tuple[Row[Any], Row[Any]]:
    cred = credential_store.credential_with_installation(conn, client_id)
    if cred is None:
        raise NotFound()
    app = app_store.application_by_id(conn, cred.application_id)
    application_for(conn, actor, app.pid, owner=True)
    return cred, app


def rotate_credential(rt: Runtime, actor: Actor, client_id: str, grace_seconds: int,
                      request_id: str | None) -> dict[str, Any]:
    """A new pair for the same installation; the old pair keeps minting tokens for the grace window."""
    secret = new_client_secret()
    now = rt.clock.now()
    with rt.db.write() as conn:
        old, app = _credential_for_owner(conn, actor, client_id)
        if old.status != "active" or old.rotated_at is not None:
            raise Conflict(N_("Only an active credential that was not rotated yet can be rotated."))
        grace_end = now + timedelta(seconds=grace_seconds)
        credential_store.update_credential(conn, old.id, {"rotated_at": now, "expires_at": grace_end})
        new = credential_store.create_credential(conn, old.installation_id, new_client_id(),
                                                 rt.digests.digest(secret), now=now)
        audit_change(conn, actor, request_id, "credential.rotate", application_id=app.id, target_type="credential",
                     target_id=old.client_id, tenant_id=old.tenant_id, before={"status": "active"},
                     after={"graceEndsAt": iso(grace_end), "newClientId": new.client_id}, now=now)
    return {"clientId": new.client_id, "clientSecret": secret, "installationId": old.installation_pid,
            "previousClientId": old.client_id, "previousExpiresAt": iso(grace_end)}


def revoke_credential(rt: Runtime, actor: Actor, client_id: str, request_id: str | None) -> dict[str, Any]:
    now = rt.clock.now()
    with rt.db.write() as conn:
        cred, app = _credential_for_owner(conn, actor, client_id)
        if cred.status != "revoked":
            credential_store.update_credential(conn, cred.id, {"status": "revoked", "revoked_at": now})
            audit_change(conn, actor, request_id, "credential.revoke", application_id=app.id,
                         target_type="credential", target_id=cred.client_id, tenant_id=cred.tenant_id,
                         before={"status": cred.status}, after={"status": "revoked"}, now=now)
    return {"clientId": client_id, "status": "revoked"}
