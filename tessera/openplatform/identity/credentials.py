"""Client credentials of an installation: created, rotated with a grace window, revoked.

The secret leaves the service once, in the answer that creates it; only its keyed digest is kept.
Client secrets are 256-bit random values with a readable prefix, so secret scanners can spot a
leaked ``tsec_`` string; client ids carry ``tcli_``. A ``private_key_jwt`` credential (RFC 7523)
holds the public JWK Set its client signs assertions with instead, and has no secret; it is
rotated (with a new key set) and revoked like a secret one.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from storage.drivers.engine import Executor
from storage.openplatform import applications as app_store
from storage.openplatform import credentials as credential_store
from storage.openplatform.applications import ApplicationRow
from storage.openplatform.credentials import CredentialPageRow, CredentialRow, CredentialWithInstallationRow
from tessera.access.actors import Actor
from tessera.core.clock import iso
from tessera.core.errors import Conflict, FieldError, NotFound, ValidationFailed
from tessera.core.i18n import N_
from tessera.lists.contract import page_of, parse_list_request
from tessera.openplatform.identity import hygiene
from tessera.openplatform.identity.access import application_for, audit_change
from tessera.openplatform.identity.installations import installation_for_member, installation_for_owner
from tessera.openplatform.tokens import assertions
from tessera.runtime import Runtime

CLIENT_SECRET_PREFIX = "tsec_"  # noqa: S105 - a prefix, not a secret
CLIENT_ID_PREFIX = "tcli_"


def new_client_secret() -> str:
    return CLIENT_SECRET_PREFIX + secrets.token_urlsafe(32)


def new_client_id() -> str:
    return CLIENT_ID_PREFIX + secrets.token_hex(12)


def _keyed(body: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The public JWK Set a body registers (``publicJwk`` or ``jwks``), or None for a secret."""
    if not body or ("publicJwk" not in body and "jwks" not in body):
        return None
    return assertions.public_jwks(body)


def _issued(cred: CredentialRow, installation_pid: str, secret: str | None) -> dict[str, Any]:
    """What creating or rotating answers: the secret (shown this once), or the registered keys."""
    answer: dict[str, Any] = {"clientId": cred.client_id, "kind": cred.kind, "installationId": installation_pid}
    if secret is not None:
        answer["clientSecret"] = secret
    else:
        answer["keys"] = assertions.key_summary(cred.public_jwks)
    return answer


async def create_credential(rt: Runtime, actor: Actor, installation_pid: str, request_id: str | None,
                            body: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A secret credential, or with ``publicJwk`` / ``jwks`` in ``body`` a ``private_key_jwt`` one."""
    jwks = _keyed(body)
    secret = new_client_secret() if jwks is None else None
    now = rt.clock.now()
    async with rt.db.write() as conn:
        inst, app = await installation_for_owner(conn, actor, installation_pid)
        cred = await credential_store.create_credential(
            conn, inst.id, new_client_id(), rt.digests.digest(secret) if secret else None, now=now, public_jwks=jwks)
        await audit_change(conn, actor, request_id, "credential.create", application_id=app.id,
                           target_type="credential", target_id=cred.client_id, tenant_id=inst.tenant_id,
                           after={"installationId": inst.pid, "kind": cred.kind}, now=now)
    return {**_issued(cred, inst.pid, secret), "created_at": iso(cred.created_at)}


async def list_credentials(rt: Runtime, actor: Actor, installation_pid: str,
                           params: Mapping[str, Any]) -> dict[str, Any]:
    """The installation's credentials for any member of its application; never a secret."""
    now = rt.clock.now()
    fields = credential_store.list_fields(now, hygiene.max_age_born_before(rt.settings, now))
    request = parse_list_request(params, fields)
    async with rt.db.read() as conn:
        inst, _, _ = await installation_for_member(conn, actor, installation_pid)
        rows, total = await credential_store.credentials_page(conn, inst.id, fields, request)
    return page_of([_credential(rt, r, inst.pid, now) for r in rows], total, request)


def _credential(rt: Runtime, row: CredentialPageRow, installation_pid: str, now: datetime) -> dict[str, Any]:
    """A listed credential, with its age and whether a rotation is due (``hygiene``)."""
    def optional(value: Any) -> str | None:
        return iso(value) if value else None

    answer = {"clientId": row.client_id, "kind": row.kind, "installationId": installation_pid,
              "status": row.derived_status,
              "created_at": iso(row.created_at), "rotatedAt": optional(row.rotated_at),
              "expiresAt": optional(row.expires_at), "revokedAt": optional(row.revoked_at),
              **hygiene.age_fields(rt.settings, row.created_at, row.derived_status == "active", now)}
    if row.kind == credential_store.PRIVATE_KEY_JWT:
        answer["keys"] = assertions.key_summary(row.public_jwks)
    return answer


async def _credential_for_owner(conn: Executor, actor: Actor,
                                client_id: str) -> tuple[CredentialWithInstallationRow, ApplicationRow]:
    cred = await credential_store.credential_with_installation(conn, client_id)
    if cred is None:
        raise NotFound()
    app = await app_store.application_by_id(conn, cred.application_id)
    await application_for(conn, actor, app.pid, owner=True)
    return cred, app


async def rotate_credential(rt: Runtime, actor: Actor, client_id: str, grace_seconds: int,
                            request_id: str | None, body: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A new credential of the same kind for the same installation (a new secret, or the new key
    set in ``body``: ``publicJwk`` or ``jwks``); the old one keeps minting tokens for the grace
    window."""
    jwks = _keyed(body)
    now = rt.clock.now()
    async with rt.db.write() as conn:
        old, app = await _credential_for_owner(conn, actor, client_id)
        if old.status != "active" or old.rotated_at is not None:
            raise Conflict(N_("Only an active credential that was not rotated yet can be rotated."))
        keyed = old.kind == credential_store.PRIVATE_KEY_JWT
        if keyed and jwks is None:
            raise ValidationFailed({"publicJwk": FieldError(N_("Give the new public key (publicJwk or jwks)."))})
        if not keyed and jwks is not None:
            raise ValidationFailed({"publicJwk": FieldError(N_("A secret credential is rotated without a key."))})
        secret = None if keyed else new_client_secret()
        grace_end = now + timedelta(seconds=grace_seconds)
        await credential_store.update_credential(conn, old.id, {"rotated_at": now, "expires_at": grace_end})
        new = await credential_store.create_credential(conn, old.installation_id, new_client_id(),
                                                       rt.digests.digest(secret) if secret else None, now=now,
                                                       public_jwks=jwks)
        await audit_change(conn, actor, request_id, "credential.rotate", application_id=app.id,
                           target_type="credential", target_id=old.client_id, tenant_id=old.tenant_id,
                           before={"status": "active"},
                           after={"graceEndsAt": iso(grace_end), "newClientId": new.client_id}, now=now)
    return {**_issued(new, old.installation_pid, secret), "previousClientId": old.client_id,
            "previousExpiresAt": iso(grace_end)}


async def revoke_credential(rt: Runtime, actor: Actor, client_id: str, request_id: str | None) -> dict[str, Any]:
    now = rt.clock.now()
    async with rt.db.write() as conn:
        cred, app = await _credential_for_owner(conn, actor, client_id)
        if cred.status != "revoked":
            await credential_store.update_credential(conn, cred.id, {"status": "revoked", "revoked_at": now})
            await audit_change(conn, actor, request_id, "credential.revoke", application_id=app.id,
                               target_type="credential", target_id=cred.client_id, tenant_id=cred.tenant_id,
                               before={"status": cred.status}, after={"status": "revoked"}, now=now)
    return {"clientId": client_id, "status": "revoked"}
