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

import functools
from collections.abc import Callable
from typing import Any

from connexion.security import (
    NO_VALUE,
    AbstractSecurityHandler,
    ApiKeySecurityHandler,
    BasicSecurityHandler,
    BearerSecurityHandler,
    OAuthSecurityHandler,
)


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
