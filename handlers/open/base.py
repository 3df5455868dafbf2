"""What Open Platform handlers share: the runtime, the request id, the verified caller, the public URL."""

from __future__ import annotations

import re

from tessera.core.errors import InvalidRequest, InvalidToken
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


# A Host header as RFC 9110 allows it: a DNS name or an IP literal, and a port.
_AUTHORITY = re.compile(r"^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}"
                        r"[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$")


def public_url() -> str:
    """The service's origin as the client reaches it, for absolute URLs: ``TESSERA_PUBLIC_URL`` when
    set, else the request's scheme (a trusted proxy's, see ``tessera.web.transport``) and Host."""
    state = current()
    configured = state.runtime.settings.public_url
    if configured:
        return configured
    host = state.headers.get("host")
    if host is None:  # HTTP/1.0 without Host: the address the request came in on
        name, port = state.scope.get("server") or ("localhost", None)
        name = f"[{name}]" if ":" in str(name) else str(name)
        host = f"{name}:{port}" if port else name
    if len(host) > 300 or not _AUTHORITY.match(host):
        raise InvalidRequest()
    return f"{state.scope.get('scheme', 'http')}://{host.lower()}"
