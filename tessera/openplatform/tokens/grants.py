"""OAuth 2.0 client credentials grant (RFC 6749 section 4.4): a credential pair for an access token.

The HTTP side (form fields or HTTP Basic, secrets refused in the query string, the rate limit per
client) is the token endpoint handler's; this module decides on the credential and the scopes. A
token carries at most the installation's granted scopes; omitting ``scope`` grants all of them.
Denials and grants are audited; the answer never says whether a client id exists.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from storage import audit
from storage import credentials as credential_store
from storage import tokens as token_store
from tessera.core.errors import InvalidClient, InvalidRequest, InvalidScope, UnsupportedGrantType
from tessera.core.i18n import N_
from tessera.openplatform.tokens.bearer import new_access_token
from tessera.runtime import Runtime

MAX_FIELD = 512
GRANT_TYPE = "client_credentials"
# Compared against for unknown clients, so the work (and time) does not tell which client ids exist.
_NO_DIGEST = "0" * 64


@dataclass(frozen=True)
class TokenRequest:
    """A token request as the client sent it, whichever way it authenticated."""

    grant_type: str | None
    client_id: str | None
    client_secret: str | None
    scope: str | None


def issue(rt: Runtime, wanted: TokenRequest, request_id: str | None) -> dict[str, Any]:
    """The token response (RFC 6749 section 5.1), or the RFC's error for the request."""
    if not wanted.grant_type:
        raise InvalidRequest(N_("grant_type is required."), data={"fieldErrors": {"grant_type": "required"}})
    if wanted.grant_type != GRANT_TYPE:
        raise UnsupportedGrantType()
    client_id, secret = wanted.client_id, wanted.client_secret
    if not client_id or not secret or len(client_id) > MAX_FIELD or len(secret) > MAX_FIELD:
        raise InvalidClient()
    now = rt.clock.now()
    with rt.db.read() as conn:
        cred = credential_store.credential_with_installation(conn, client_id)
    secret_ok = rt.digests.matches(secret, cred.secret_digest if cred is not None else _NO_DIGEST)
    if cred is None or not secret_ok or cred.status != "active" or cred.inst_status != "enabled" \
            or (cred.expires_at is not None and now >= cred.expires_at):
        with rt.db.write() as conn:
            audit.append(conn, tenant_id=cred.tenant_id if cred else None, actor_user_id=None, actor=client_id,
                         action="oauth.token.denied", target_type="credential", target_id=client_id,
                         request_id=request_id, application_id=cred.application_id if cred else None, now=now)
        raise InvalidClient()
    scopes = _scopes(set(cred.granted_scopes), wanted.scope)
    token = new_access_token()
    ttl = rt.settings.token_ttl_seconds
    with rt.db.write() as conn:
        token_store.store_token(conn, rt.digests.digest(token), cred.id, cred.installation_id, scopes, now,
                                now + timedelta(seconds=ttl))
        audit.append(conn, tenant_id=cred.tenant_id, actor_user_id=None, actor=client_id, action="oauth.token.issue",
                     target_type="installation", target_id=cred.installation_pid, after={"scopes": scopes},
                     request_id=request_id, application_id=cred.application_id, now=now)
    return {"access_token": token, "token_type": "Bearer", "expires_in": ttl, "scope": " ".join(scopes)}


def _scopes(granted: set[str], requested: str | None) -> list[str]:
    """The scopes of the new token: all granted ones, or the requested subset (``invalid_scope`` beyond it)."""
    if requested is None or requested.strip() == "":
        return sorted(granted)
    wanted = set(requested.split())
    if not wanted <= granted:
        raise InvalidScope(data={"notGranted": sorted(wanted - granted)})
    return sorted(wanted)
