"""The OAuth endpoints' HTTP side: POST /oauth2/token (the client credentials grant), and
POST /oauth2/introspect (RFC 7662) and POST /oauth2/revoke (RFC 7009) for the client's own tokens.

Client authentication arrives the same way on all three: as form fields or HTTP Basic (RFC 6749
section 2.3.1: the id and the secret are form-urlencoded inside the Basic credentials), never both,
and never in the query string: secrets (and tokens) in URLs end up in logs and proxies, so such a
request is refused rather than served once. Each client id is rate-limited before its secret is
checked, under one limit for the three endpoints (``TESSERA_RATE_LIMIT_TOKEN``). Every refusal of
the three is audited, per client, error and minute, by the request middleware
(``storage/openplatform/token_refusals.py``). A
``private_key_jwt`` client (RFC 7523) sends ``client_assertion_type`` and ``client_assertion``
instead (``client_id`` optional, the assertion's ``iss`` names it); the assertion's ``aud`` is the
token endpoint's absolute URL, or the endpoint's own on introspection and revocation.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from werkzeug.datastructures import Authorization

from handlers.open.base import public_url, request_id, runtime
from tessera.core.errors import InvalidClient, InvalidRequest, OpenRateLimited
from tessera.core.i18n import N_
from tessera.openplatform.tokens import assertions, clients, grants, introspection
from tessera.openplatform.tokens.metadata import INTROSPECTION_PATH, REVOCATION_PATH, TOKEN_PATH
from tessera.web.context import current

FORBIDDEN_QUERY = frozenset({"client_id", "client_secret", "client_assertion", "client_assertion_type", "grant_type",
                             "scope", "token", "token_type_hint"})
Reply = tuple[dict[str, Any], int, dict[str, str]]


def _no_store() -> dict[str, str]:
    """RFC 6749 section 5.1's headers, a dict of their own per answer: Connexion's response path
    adds the Content-Type to the headers it is given."""
    return {"Cache-Control": "no-store", "Pragma": "no-cache"}


async def issueToken(body: dict[str, Any]) -> Reply:
    form = dict(body)
    client_id, secret, assertion = await _client(form)
    wanted = grants.TokenRequest(form.get("grant_type"), client_id, secret, form.get("scope"), assertion,
                                 _audiences(TOKEN_PATH))
    return await grants.issue(runtime(), wanted, request_id()), 200, _no_store()


async def introspectToken(body: dict[str, Any]) -> Reply:
    """RFC 7662: ``{"active": false}`` for any token that is not a live one of the client's installation."""
    form = dict(body)
    client_id, secret, assertion = await _client(form)
    answer = await introspection.introspect(runtime(), client_id, secret, str(form.get("token") or ""),
                                            issuer=public_url(), assertion=assertion,
                                            audiences=_audiences(INTROSPECTION_PATH))
    return answer, 200, _no_store()


async def revokeToken(body: dict[str, Any]) -> Reply:
    """RFC 7009: 200 with an empty object whether or not there was anything of the client's to revoke."""
    form = dict(body)
    client_id, secret, assertion = await _client(form)
    await introspection.revoke(runtime(), client_id, secret, str(form.get("token") or ""), request_id=request_id(),
                               assertion=assertion, audiences=_audiences(REVOCATION_PATH))
    return {}, 200, _no_store()


def _audiences(path: str) -> tuple[str, ...]:
    """The ``aud`` a client assertion may name here: the token endpoint's URL, or this endpoint's."""
    return tuple(dict.fromkeys((public_url() + TOKEN_PATH, public_url() + path)))


async def _client(form: dict[str, Any]) -> tuple[str | None, str | None, str | None]:
    """The client id and the secret or client assertion the request authenticates with, once the
    request passed the checks every OAuth endpoint makes before looking at either: nothing in the
    query string, one authentication method, and the client id's rate limit."""
    request = current()
    if FORBIDDEN_QUERY & set(request.query_params):
        raise InvalidRequest(N_("Send token parameters in the form body, never in the query string."))
    client_id, secret, assertion = _credentials(form, _basic_credentials(request.headers.get("authorization")))
    # A refusal from here on is audited under it (storage/openplatform/token_refusals.py).
    if isinstance(client_id, str):
        request.oauth_client = client_id
    if isinstance(client_id, str) and 0 < len(client_id) <= clients.MAX_FIELD:
        decision = await runtime().rate_limiter.check("token", f"client:{client_id}")
        if not decision.allowed:
            raise OpenRateLimited(headers=decision.headers())
    return client_id, secret, assertion


def _credentials(form: dict[str, Any], basic: tuple[str, str] | None) -> tuple[Any, Any, str | None]:
    """The client id and the secret or assertion, from the one authentication method the request
    uses: HTTP Basic, a client assertion, or ``client_id`` and ``client_secret`` form fields."""
    keyed = "client_assertion" in form or "client_assertion_type" in form
    _one_method(form, basic, keyed=keyed)
    if keyed:
        return _assertion_credentials(form)
    client_id, secret = basic if basic is not None else (form.get("client_id"), form.get("client_secret"))
    return client_id, secret, None


def _one_method(form: dict[str, Any], basic: tuple[str, str] | None, *, keyed: bool) -> None:
    """Refuse a request that authenticates twice: Basic beside a form secret or an assertion, or an
    assertion beside a secret. A form ``client_id`` beside Basic authenticates nothing (RFC 6749
    section 2.3.1: it identifies the client), so it is accepted when it names Basic's client, and
    refused when it names another."""
    if (basic is not None and ("client_secret" in form or keyed)) or (keyed and "client_secret" in form):
        raise InvalidRequest(N_("Use one client authentication method, not both."))
    if basic is not None and "client_id" in form and form["client_id"] != basic[0]:
        raise InvalidRequest(N_("client_id names another client than the Authorization header."))


def _assertion_credentials(form: dict[str, Any]) -> tuple[Any, None, str]:
    """A ``private_key_jwt`` client: the assertion (of the one type RFC 7523 defines) and the client
    id, which the form may leave out (the assertion's unverified ``iss`` names the client then)."""
    if form.get("client_assertion_type") != assertions.ASSERTION_TYPE:
        raise InvalidRequest(
            N_("client_assertion_type must be urn:ietf:params:oauth:client-assertion-type:jwt-bearer."))
    assertion = str(form.get("client_assertion") or "")
    return form.get("client_id") or assertions.unverified_issuer(assertion), None, assertion


def _basic_credentials(authorization: str | None) -> tuple[str, str] | None:
    """client_id and client_secret from an ``Authorization: Basic`` header; None without the header."""
    if not authorization:
        return None
    parsed = Authorization.from_header(authorization)
    if parsed is None:  # not decodable: the client meant Basic but sent garbage
        raise InvalidClient()
    if parsed.type != "basic":
        # An unsupported client authentication method (RFC 6749 section 5.2): 401 invalid_client,
        # challenged with Basic, the one scheme accepted here.
        raise InvalidClient()
    return unquote(parsed.username or ""), unquote(parsed.password or "")
