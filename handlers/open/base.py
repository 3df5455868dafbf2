"""What Open Platform handlers share: the runtime, the request id and the verified caller."""

from __future__ import annotations

from tessera.core.errors import InvalidToken
from tessera.openplatform.tokens.bearer import Caller
from tessera.runtime import Runtime
from tessera.web.context import current


def runtime() -> Runtime:
    return current().runtime


def request_id() -> str:
    return current().request_id


def header(name: str) -> str | None:
    return current().headers.get(name)


def caller() -> Caller:
    """The token's caller, as the bearer check verified it."""
    verified = current().caller
    if not isinstance(verified, Caller):  # pragma: no cover - Connexion runs the bearer check first
        raise InvalidToken()
    return verified
