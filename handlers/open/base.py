"""What Open Platform handlers share: the runtime and the verified caller."""

from __future__ import annotations

from connexion import request
from connexion.context import context

from tessera.core.errors import InsufficientScope
from tessera.openplatform.tokens.grants import Caller
from tessera.runtime import Runtime
from tessera.web.context import RUNTIME_KEY


def runtime() -> Runtime:
    return request.scope[RUNTIME_KEY]


def caller(scope: str | None = None) -> Caller:
    """The token's caller; with ``scope``, refuse with ``insufficient_scope`` when it is missing."""
    verified: Caller = context["token_info"]["caller"]
    if scope is not None and scope not in verified.scopes:
        raise InsufficientScope(data={"requiredScope": scope})
    return verified
