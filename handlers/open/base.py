"""What Open Platform handlers share: the runtime, the request id, the verified caller, the public URL."""

from __future__ import annotations

from tessera.core.errors import InvalidRequest, InvalidToken
from tessera.openplatform.tokens.bearer import Caller
from tessera.runtime import Runtime
from tessera.web.context import current
from tessera.web.origin import origin


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


def public_url() -> str:
    """The service's origin as the client reaches it (``tessera.web.origin``); a request whose
    ``Host`` names none is malformed here, since an issuer or audience must be absolute."""
    state = current()
    found = origin(state.scope, state.runtime.settings.public_url)
    if found is None:
        raise InvalidRequest()
    return found
