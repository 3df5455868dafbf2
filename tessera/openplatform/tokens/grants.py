"""OAuth 2.0 client credentials grant (RFC 6749 section 4.4): a credential pair for an access token.

The HTTP side (form fields or HTTP Basic, secrets refused in the query string, the rate limit per
client) is the token endpoint handler's, what authenticates a client ``clients``'s; this module
decides on the credential and the scopes. A
token carries at most the installation's granted scopes; omitting ``scope`` grants all of them.
Grants are audited with the token; refusals, per client, error and minute by the request middleware
(``storage/openplatform/token_refusals.py``); the answer never says whether a client id exists.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from storage import audit
from storage.openplatform import tokens as token_store
from storage.openplatform.credentials import CredentialWithInstallationRow
from tessera.core.errors import InvalidClient, InvalidRequest, InvalidScope, OpenPlatformError, UnsupportedGrantType
from tessera.core.i18n import N_
from tessera.openplatform.tokens import clients
from tessera.openplatform.tokens.bearer import new_access_token
from tessera.runtime import Runtime

GRANT_TYPE = "client_credentials"


@dataclass(frozen=True)
class TokenRequest:
    """A token request as the client sent it, whichever way it authenticated."""

    grant_type: str | None
    client_id: str | None
    client_secret: str | None
    scope: str | None
    client_assertion: str | None = None  # private_key_jwt (RFC 7523), instead of a secret
    audiences: tuple[str, ...] = ()  # what the assertion's aud may name: the token endpoint's URL


async def issue(rt: Runtime, wanted: TokenRequest, request_id: str | None) -> dict[str, Any]:
    """The token response (RFC 6749 section 5.1), or the RFC's error for the request; both counted
    in the metrics (issued, or refused by error)."""
    try:
        answer = await _issue(rt, wanted, request_id)
    except OpenPlatformError as exc:
        rt.metrics.token_refused(exc.code)
        raise
    rt.metrics.token_issued()
    return answer


async def _issue(rt: Runtime, wanted: TokenRequest, request_id: str | None) -> dict[str, Any]:
    if not wanted.grant_type:
        raise InvalidRequest(N_("grant_type is required."), data={"fieldErrors": {"grant_type": "required"}})
    if wanted.grant_type != GRANT_TYPE:
        raise UnsupportedGrantType()
    client_id, secret, assertion = wanted.client_id, wanted.client_secret, wanted.client_assertion
    if not clients.well_formed(client_id, secret, assertion):
        raise InvalidClient()
    assert client_id is not None
    now = rt.clock.now()
    if assertion is None and rt.db.dialect == "postgresql":
        return await _issue_for_secret(rt, wanted, client_id, secret, request_id, now)
    # One transaction: an assertion's jti is used up with the token it buys (on PostgreSQL two round
    # trips: BEGIN with the credential's read and the jti, then the writes with COMMIT); on SQLite,
    # whose statements run on its own threads, the whole grant is one hop to the writer.
    async with rt.db.write() as conn:
        cred, authentic = await clients.verify(rt, conn, client_id, secret, assertion, wanted.audiences, now)
        if authentic:  # a refusal is audited with the others (storage/openplatform/token_refusals.py)
            assert cred is not None
            grant = _granted(rt, cred, wanted, client_id, request_id, now)
            await token_store.store_token(conn, grant.digest, cred.id, cred.installation_id, grant.scopes, now,
                                          grant.expires_at)
            await audit.append_entry(conn, grant.entry)
    if not authentic:
        raise InvalidClient()
    return grant.answer


async def _issue_for_secret(rt: Runtime, wanted: TokenRequest, client_id: str, secret: str | None,
                            request_id: str | None, now: datetime) -> dict[str, Any]:
    """A secret's token on PostgreSQL: the credential's read, then the token and its audit entry
    in one statement (``store_token_audited``), each on an autocommit connection: two round trips,
    no transaction to open or close. A refusal costs the read alone (its audit is aggregated)."""
    cred, authentic = await clients.verify(rt, rt.db, client_id, secret, None, wanted.audiences, now)
    if not authentic:
        raise InvalidClient()
    assert cred is not None
    grant = _granted(rt, cred, wanted, client_id, request_id, now)
    await token_store.store_token_audited(rt.db, grant.digest, cred.id, cred.installation_id, grant.scopes, now,
                                          grant.expires_at, grant.entry)
    return grant.answer


class _Grant(NamedTuple):
    answer: dict[str, Any]  # the token response
    digest: str  # of the new token: all that is stored of it
    scopes: list[str]
    expires_at: datetime
    entry: dict[str, Any]  # its audit entry


def _granted(rt: Runtime, cred: CredentialWithInstallationRow, wanted: TokenRequest, client_id: str,
             request_id: str | None, now: datetime) -> _Grant:
    """The token for an authenticated credential, before anything is written (``invalid_scope``
    for scopes beyond the grant)."""
    scopes = _scopes(set(cred.granted_scopes), wanted.scope)
    token = new_access_token()
    entry = audit.entry(tenant_id=cred.tenant_id, actor_user_id=None, actor=client_id, action="oauth.token.issue",
                        target_type="installation", target_id=cred.installation_pid, after={"scopes": scopes},
                        request_id=request_id, application_id=cred.application_id, now=now)
    expires_at = now + timedelta(seconds=rt.settings.token_ttl_seconds)
    if cred.rotated_at is not None and cred.expires_at is not None:
        # A token of a rotated credential dies when the grace window ends (``bearer.alive``): it is
        # stored to die then and says so, never promising more life than it has.
        expires_at = min(expires_at, cred.expires_at)
    ttl = max(0, math.floor((expires_at - now).total_seconds()))
    answer = {"access_token": token, "token_type": "Bearer", "expires_in": ttl, "scope": " ".join(scopes)}
    return _Grant(answer, rt.digests.digest(token), scopes, expires_at, entry)


def _scopes(granted: set[str], requested: str | None) -> list[str]:
    """The scopes of the new token: all granted ones, or the requested subset (``invalid_scope`` beyond it)."""
    if requested is None or requested.strip() == "":
        return sorted(granted)
    wanted = set(requested.split())
    if not wanted <= granted:
        raise InvalidScope(data={"notGranted": sorted(wanted - granted)})
    return sorted(wanted)
