"""``POST /oauth2/token``: the client credentials grant, read from and answered with ``web``.

The grant is Tessera's: the form's fields (never in the query string), Basic or body authentication
(not both), the secret compared in constant time against a dummy digest for an unknown client, an
``oauth.token.denied`` audit row for a refused client, the scopes (the installation's granted ones, or
the asked subset). Why two statements and not one: the secret is compared in Python, so the credential
is read first; then the token and its ``oauth.token.issue`` audit row are one write.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable
from datetime import timedelta
from typing import Any
from urllib.parse import unquote

from baseline import refusals, rules
from baseline.config import Config, Keys
from baseline.refusals import NO_STORE, Refusal
from baseline.store import Audit, NewToken, Store
from baseline.web import Reply, Request, json_reply

FORBIDDEN_QUERY = frozenset({"client_id", "client_secret", "grant_type", "scope"})


def basic_credentials(authorization: str | None) -> tuple[str, str] | None:
    """client_id and client_secret of an ``Authorization: Basic`` header (form-urlencoded inside it)."""
    if not authorization:
        return None
    scheme, _, value = authorization.partition(" ")
    if scheme.lower() != "basic":
        raise Refusal(400, "invalid_request",
                      "Only Basic client authentication is accepted in the Authorization header.")
    try:
        user, sep, password = base64.b64decode(value.strip(), validate=True).decode().partition(":")
    except (binascii.Error, UnicodeDecodeError):
        raise refusals.invalid_client() from None
    if not sep:
        raise refusals.invalid_client()
    return unquote(user), unquote(password)


def client(query: Iterable[str], form: dict[str, str],
           authorization: str | None) -> tuple[str | None, str | None, dict[str, str]]:
    """(client id, secret, form) of a request with these query names, form and ``Authorization``
    header, or the refusal of a malformed one."""
    if FORBIDDEN_QUERY & set(query):
        raise Refusal(400, "invalid_request", "Send token parameters in the form body, never in the query string.")
    basic = basic_credentials(authorization)
    if basic is not None and ("client_id" in form or "client_secret" in form):
        raise Refusal(400, "invalid_request", "Use one client authentication method, not both.")
    client_id, secret = basic if basic is not None else (form.get("client_id"), form.get("client_secret"))
    if not form.get("grant_type"):
        raise Refusal(400, "invalid_request", "grant_type is required.", {"fieldErrors": {"grant_type": "required"}})
    if form["grant_type"] != "client_credentials":
        raise Refusal(400, "unsupported_grant_type", "Only the client_credentials grant is supported.")
    return client_id, secret, form


async def issue(store: Store, keys: Keys, ttl: int, asked: tuple[str | None, str | None, dict[str, str]],
                request_id: str) -> dict[str, Any]:
    """The token response for ``asked`` (``client()``'s answer), or the refusal; a refused client
    leaves an ``oauth.token.denied`` audit row, as in Tessera."""
    client_id, secret, form = asked
    if not client_id or not secret or len(client_id) > rules.MAX_FIELD or len(secret) > rules.MAX_FIELD:
        raise refusals.invalid_client()
    at = rules.now()
    cred = await store.credential(client_id)
    secret_ok = keys.matches(secret, cred.secret_digest if cred is not None else rules.NO_DIGEST)
    if cred is None or not secret_ok or cred.status != "active" or cred.installation_status != "enabled" \
            or (cred.expires_at is not None and at >= cred.expires_at):
        await store.audit(Audit(rules.new_pid("aud"), cred.tenant_id if cred else None, None, client_id,
                                "oauth.token.denied", "credential", client_id, None, None, request_id,
                                cred.application_id if cred else None, at))
        raise refusals.invalid_client()
    granted, requested = set(cred.granted_scopes), form.get("scope")
    wanted = set(requested.split()) if requested and requested.strip() else granted
    if not wanted <= granted:
        raise Refusal(400, "invalid_scope", "The requested scope is not granted to this installation.",
                      {"notGranted": sorted(wanted - granted)})
    scopes, token = sorted(wanted), rules.new_access_token()
    await store.issue(
        NewToken(keys.digest(token), cred.id, cred.installation_id, scopes, at, at + timedelta(seconds=ttl)),
        Audit(rules.new_pid("aud"), cred.tenant_id, None, client_id, "oauth.token.issue", "installation",
              cred.installation_pid, None, {"scopes": scopes}, request_id, cred.application_id, at))
    return {"access_token": token, "token_type": "Bearer", "expires_in": ttl, "scope": " ".join(scopes)}


class TokenEndpoint:
    def __init__(self, store: Store, keys: Keys, config: Config) -> None:
        self.store, self.keys, self.ttl = store, keys, config.token_ttl_seconds

    async def __call__(self, request: Request) -> Reply:
        request_id = rules.request_id(request.header("x-request-id"))
        try:
            body = await self._issue(request, request_id)
        except Refusal as refusal:
            return json_reply(*refusals.open_envelope(refusal, request_id, oauth=True))
        return json_reply(200, body, {**NO_STORE, "X-Request-Id": request_id})

    async def _issue(self, request: Request, request_id: str) -> dict[str, Any]:
        asked = client(request.query(), request.form(), request.header("authorization"))
        return await issue(self.store, self.keys, self.ttl, asked, request_id)
