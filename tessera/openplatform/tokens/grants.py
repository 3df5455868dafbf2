"""OAuth 2.0 client credentials (RFC 6749 section 4.4) and access-token validation.

Tokens are opaque; only their keyed digest is stored. Validation reads the token with its
credential, installation and tenant in one query on every call, so revoking a credential or
disabling an installation takes effect on the very next call, in every process.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import unquote

from storage import audit
from storage import openplatform as store
from storage.types import utcnow
from tessera.core.errors import (
    InvalidClient,
    InvalidRequest,
    InvalidScope,
    InvalidToken,
    OpenRateLimited,
    UnsupportedGrantType,
)
from tessera.core.i18n import N_
from tessera.core.secrets import new_access_token
from tessera.runtime import Runtime

FORBIDDEN_QUERY = {"client_id", "client_secret", "grant_type", "scope"}
MAX_FIELD = 512


@dataclass(frozen=True)
class Caller:
    """A verified Open Platform caller: one installation of one application in one tenant."""

    client_id: str
    installation_id: int
    installation_pid: str
    application_id: int
    application_pid: str
    application_name: str
    tenant_id: int
    tenant_code: str
    environment: str
    scopes: tuple[str, ...]
    expires_at: datetime


def _basic_credentials(authorization: str | None) -> tuple[str, str] | None:
    """client_id and client_secret from HTTP Basic (form-urlencoded inside, RFC 6749 section 2.3.1)."""
    if not authorization:
        return None
    scheme, _, value = authorization.partition(" ")
    if scheme.lower() != "basic":
        raise InvalidRequest(N_("Only Basic client authentication is accepted in the Authorization header."))
    try:
        decoded = base64.b64decode(value.strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        raise InvalidClient(headers={"WWW-Authenticate": 'Basic realm="tessera"'}) from None
    client_id, sep, secret = decoded.partition(":")
    if not sep:
        raise InvalidClient(headers={"WWW-Authenticate": 'Basic realm="tessera"'})
    return unquote(client_id), unquote(secret)


def issue(rt: Runtime, form: dict[str, Any], authorization: str | None, query: dict[str, Any],
          request_id: str | None) -> dict[str, Any]:
    if FORBIDDEN_QUERY & set(query):
        # Secrets in URLs end up in logs and proxies: refuse rather than accept them once.
        raise InvalidRequest(N_("Send token parameters in the form body, never in the query string."))
    basic = _basic_credentials(authorization)
    if basic is not None and ("client_id" in form or "client_secret" in form):
        raise InvalidRequest(N_("Use one client authentication method, not both."))
    grant_type = form.get("grant_type")
    if not grant_type:
        raise InvalidRequest(N_("grant_type is required."), data={"fieldErrors": {"grant_type": "required"}})
    if grant_type != "client_credentials":
        raise UnsupportedGrantType()
    client_id, secret = basic if basic is not None else (form.get("client_id"), form.get("client_secret"))
    if not client_id or not secret:
        raise InvalidClient()
    if len(client_id) > MAX_FIELD or len(secret) > MAX_FIELD:
        raise InvalidClient()
    decision = rt.rate_limiter.check("token", f"client:{client_id}")
    if not decision.allowed:
        raise OpenRateLimited(headers=decision.headers())

    now = utcnow()
    with rt.db.read() as conn:
        cred = store.credential_with_installation(conn, client_id)
    # Compare against a digest even for unknown clients, so timing does not tell which exist.
    stored = cred.secret_digest if cred is not None else "0" * 64
    secret_ok = rt.digests.matches(secret, stored)
    usable = (
        cred is not None and secret_ok and cred.status == "active" and cred.inst_status == "enabled"
        and (cred.expires_at is None or now < cred.expires_at)
    )
    if not usable:
        with rt.db.write() as conn:
            audit.append(conn, tenant_id=cred.tenant_id if cred else None, actor_user_id=None, actor=client_id,
                         action="oauth.token.denied", target_type="credential", target_id=client_id,
                         request_id=request_id, application_id=cred.application_id if cred else None)
        raise InvalidClient(headers={"WWW-Authenticate": 'Basic realm="tessera"'} if basic else None)
    assert cred is not None
    granted = set(cred.granted_scopes)
    requested = form.get("scope")
    if requested is None or requested.strip() == "":
        scopes = sorted(granted)
    else:
        wanted = set(requested.split())
        if not wanted <= granted:
            raise InvalidScope(data={"notGranted": sorted(wanted - granted)})
        scopes = sorted(wanted)
    token = new_access_token()
    ttl = rt.settings.token_ttl_seconds
    with rt.db.write() as conn:
        store.store_token(conn, rt.digests.digest(token), cred.id, cred.installation_id, scopes, now,
                          now + timedelta(seconds=ttl))
        audit.append(conn, tenant_id=cred.tenant_id, actor_user_id=None, actor=client_id, action="oauth.token.issue",
                     target_type="installation", target_id=cred.installation_pid, after={"scopes": scopes},
                     request_id=request_id, application_id=cred.application_id)
    return {"access_token": token, "token_type": "Bearer", "expires_in": ttl, "scope": " ".join(scopes)}


def validate(rt: Runtime, token: str) -> Caller:
    """The caller behind a bearer token, or ``invalid_token``.

    A token dies when it expires, when its credential is revoked, when its installation is
    disabled, or, for a token minted by a rotated credential during its grace window, when that
    window ends. Tokens issued before the rotation live their full lifetime.
    """
    if not token or len(token) > MAX_FIELD:
        raise InvalidToken()
    now = utcnow()
    with rt.db.read() as conn:
        row = store.token_context(conn, rt.digests.digest(token))
    if row is None or now >= row.expires_at:
        raise InvalidToken()
    if row.credential_status != "active" or row.installation_status != "enabled" or row.tenant_status != "active":
        raise InvalidToken()
    if row.rotated_at is not None and row.issued_at >= row.rotated_at and now >= row.credential_expires_at:
        raise InvalidToken()
    scopes = tuple(sorted(set(row.scopes) & set(row.granted_scopes)))
    return Caller(
        client_id=row.client_id, installation_id=row.installation_id, installation_pid=row.installation_pid,
        application_id=row.application_id, application_pid=row.application_pid,
        application_name=row.application_name, tenant_id=row.tenant_id, tenant_code=row.tenant_code,
        environment=row.environment, scopes=scopes, expires_at=row.expires_at,
    )
