"""RFC 7662 introspection and RFC 7009 revocation of an application's own access tokens.

Both need an authenticated client (``clients.authenticate``, the token endpoint's methods), and
both only ever reach tokens of the client's own installation, whichever of its credentials minted
them: another installation's token introspects as ``{"active": false}``, exactly like an unknown,
expired or revoked one, and revoking it answers like revoking an unknown token and changes nothing
(RFC 7009 section 2.2: invalid tokens cause no error). So neither endpoint tells whether a token
exists anywhere else. A revoked token is deleted: the next business call with it is 401
``invalid_token``. Revocations are audited (``oauth.token.revoke``) like issued tokens.
"""

from __future__ import annotations

from typing import Any

from storage import audit
from storage.openplatform import tokens as token_store
from tessera.openplatform.tokens import bearer, clients
from tessera.runtime import Runtime

INACTIVE: dict[str, Any] = {"active": False}
REVOKED = "oauth.token.revoke"


async def introspect(rt: Runtime, client_id: str | None, secret: str | None, token: str, *, issuer: str,
                     assertion: str | None = None, audiences: tuple[str, ...] = ()) -> dict[str, Any]:
    """The RFC 7662 answer about ``token`` for the authenticated client."""
    cred = await clients.authenticate(rt, client_id, secret, assertion=assertion, audiences=audiences)
    row = await bearer.lookup(rt, token)
    if row is None or row.installation_id != cred.installation_id or not bearer.alive(row, rt.clock.now()):
        return dict(INACTIVE)
    return {
        "active": True,
        "scope": " ".join(bearer.scopes_of(row)),
        "client_id": row.client_id,
        "token_type": "Bearer",
        "exp": int(row.expires_at.timestamp()),
        "iat": int(row.issued_at.timestamp()),
        "sub": row.client_id,
        "iss": issuer,
    }


async def revoke(rt: Runtime, client_id: str | None, secret: str | None, token: str, *,
                 request_id: str | None, assertion: str | None = None, audiences: tuple[str, ...] = ()) -> None:
    """Revoke ``token`` if the authenticated client's installation owns it; silently nothing otherwise."""
    cred = await clients.authenticate(rt, client_id, secret, assertion=assertion, audiences=audiences)
    if not token or len(token) > bearer.MAX_TOKEN_LENGTH:
        return
    now = rt.clock.now()
    async with rt.db.write() as conn:
        if await token_store.revoke_token(conn, rt.digests.digest(token), cred.installation_id):
            await audit.append(conn, tenant_id=cred.tenant_id, actor_user_id=None, actor=client_id,
                               action=REVOKED, target_type="installation", target_id=cred.installation_pid,
                               request_id=request_id, application_id=cred.application_id, now=now)
