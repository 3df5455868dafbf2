"""Connexion's security handlers, minus the signature inspection they repeat on every request.

Replaces, for Connexion 3.3.0, ``connexion.security.AbstractSecurityHandler._accepts_kwarg`` in the
four handlers of ``connexion.security`` (OAuth, bearer, basic, API key), passed as ``security_map``.
Connexion asks, on every authenticated request, whether the token-info function accepts the
``required_scopes`` and ``request`` keyword arguments, and answers by running
``inspect.signature`` on it twice (about 6% of an Open Platform ``whoami``'s CPU, measured with
py-spy under wrk). The answer is fixed once the function exists, so it is computed once per
(function, keyword); the handlers are otherwise Connexion's own, so the checks and errors are the same.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import typing as t
from collections.abc import Awaitable, Callable
from typing import Any

from connexion.exceptions import OAuthProblem, OAuthResponseProblem, OAuthScopeProblem
from connexion.middleware.security import SecurityAPI, SecurityMiddleware, SecurityOperation
from connexion.security import (
    NO_VALUE,
    AbstractSecurityHandler,
    ApiKeySecurityHandler,
    BasicSecurityHandler,
    BearerSecurityHandler,
    OAuthSecurityHandler,
)
from starlette.datastructures import Headers
from starlette.types import Receive, Scope, Send

connexion_log = logging.getLogger("connexion.security")  # where Connexion logs its refusals


@functools.cache
def accepts_kwarg(func: Callable[..., Any], keyword: str) -> bool:
    """Connexion's own answer, kept: the handlers resolve a bounded set of module-level functions."""
    return AbstractSecurityHandler._accepts_kwarg(func, keyword)


class OAuthHandler(OAuthSecurityHandler):
    """OAuth 2 bearer tokens (the Open Platform's ``accessToken``)."""

    _accepts_kwarg = staticmethod(accepts_kwarg)


class BearerHandler(BearerSecurityHandler):
    """HTTP bearer (the session API's JWT)."""

    _accepts_kwarg = staticmethod(accepts_kwarg)


def _deferred(request: Any) -> Any:  # noqa: ARG001  # Connexion's verify-function signature
    """No verdict: the operation's handler authenticates the client (see ``BasicHandler``)."""
    return NO_VALUE


class BasicHandler(BasicSecurityHandler):
    """HTTP basic.

    The Open Platform's ``clientBasic`` (the OAuth endpoints' client authentication) names no
    ``x-basicInfoFunc``: its operations also accept the credentials in the form instead (``- {}``),
    and their handlers authenticate the client either way and refuse both at once
    (``handlers/open/tokens.py``). Such a scheme gives no verdict here instead of Connexion's
    warning that the function is missing.
    """

    _accepts_kwarg = staticmethod(accepts_kwarg)

    def get_fn(self, security_scheme: dict[str, Any], required_scopes: Any) -> Any:
        if self._resolve_func(security_scheme) is None:
            return _deferred
        return super().get_fn(security_scheme, required_scopes)


class ApiKeyHandler(ApiKeySecurityHandler):
    """API keys."""

    _accepts_kwarg = staticmethod(accepts_kwarg)


SECURITY_MAP: dict[str, type[AbstractSecurityHandler]] = {
    "oauth2": OAuthHandler,
    "bearer": BearerHandler,
    "basic": BasicHandler,
    "apiKey": ApiKeyHandler,
}


class FlatSecurityOperation(SecurityOperation):
    """Connexion's security check of one operation, in one function where the operation asks for
    one bearer scheme (``oauth2``, or ``http`` with ``scheme: bearer``) alone.

    Connexion answers such an operation through five nested closures (the requirement loop, the
    scheme's header check, the token check, the token-info wrapper, the scope check), each asking
    per call whether the last returned a coroutine, around a ``ConnexionRequest`` built for them.
    ``_bearer_check`` does the same steps in the same order, raising the same exceptions with the
    same details and leaving the same ``connexion_context``; any other requirement (several
    schemes, basic, API keys, a token-info function taking ``request`` or ``required_scopes``)
    goes through Connexion's own. ``tests/web/test_fast_path.py`` compares the answers.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._check = _flat_check(self.security, self.security_schemes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._check is None:
            await super().__call__(scope, receive, send)
            return
        await self._check(scope)
        await self.next_app(scope, receive, send)


def _flat_check(security: list[dict[str, list[str]]],
                schemes: dict[str, dict[str, Any]]) -> Callable[[Scope], Awaitable[None]] | None:
    """``_bearer_check`` bound to the operation's one bearer scheme; None for any other requirement."""
    if len(security) != 1 or len(security[0]) != 1:
        return None
    ((name, required),) = security[0].items()
    scheme = schemes[name]
    validate: Callable[..., Any] | None = None
    if scheme["type"] == "oauth2":
        token_info = OAuthHandler().get_tokeninfo_func(scheme)
        validate = OAuthHandler.get_scope_validate_func(scheme)
    elif scheme["type"] == "http" and scheme.get("scheme", "").lower() == "bearer":
        token_info = BearerHandler._get_function(scheme, BearerHandler.security_definition_key,
                                                 BearerHandler.environ_key)
    else:
        return None
    if token_info is None or accepts_kwarg(token_info, "request") or accepts_kwarg(token_info, "required_scopes"):
        return None
    return functools.partial(_bearer_check, token_info, validate, required)


async def _bearer_check(token_info_func: Callable[[str], Any], validate: Callable[..., Any] | None,
                        required: list[str], scope: Scope) -> None:
    """Connexion 3.3.0's ``verify_security`` of one bearer scheme, step by step (``connexion.security``)."""
    authorization = Headers(scope=scope).get("Authorization")
    if not authorization:  # get_auth_header_value: (None, None), so NO_VALUE
        _no_auth()
    parts = authorization.split(maxsplit=1)
    if len(parts) != 2:
        raise OAuthProblem(detail="Invalid authorization header")
    if parts[0].lower() != "bearer":
        _no_auth()
    info = token_info_func(parts[1])
    while asyncio.iscoroutine(info):
        info = await info
    if info is NO_VALUE:
        _no_auth()
    if info is None:
        raise OAuthResponseProblem(detail="Provided token is not valid")
    if validate is not None:
        token_scopes = info.get("scope", info.get("scopes", ""))
        valid = validate(required, token_scopes)
        while asyncio.iscoroutine(valid):
            valid = await valid
        if not valid:
            raise OAuthScopeProblem(required_scopes=required, token_scopes=token_scopes)
    context = scope.setdefault("extensions", {}).setdefault("connexion_context", {})
    context.update({"user": info.get("sub", info.get("uid")), "token_info": info})


def _no_auth() -> t.NoReturn:
    connexion_log.info("... No auth provided. Aborting with 401.")
    raise OAuthProblem(detail="No authorization token provided")


class FlatSecurityAPI(SecurityAPI):
    def make_operation(self, operation: Any) -> SecurityOperation:
        return FlatSecurityOperation.from_operation(
            operation, next_app=self.next_app, security_handler_factory=self.security_handler_factory)


class FlatSecurityMiddleware(SecurityMiddleware):
    """Drop-in for Connexion's SecurityMiddleware (same position in the stack)."""

    api_cls = FlatSecurityAPI
