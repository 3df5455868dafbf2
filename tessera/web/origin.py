"""The service's own origin as a client reaches it: the one rule behind every absolute URL it writes.

The token endpoint's issuer and audience, the RFC 8414 metadata and the served OpenAPI documents
all name this origin, so they must agree: ``TESSERA_PUBLIC_URL`` when it is set (behind a proxy
that rewrites ``Host``), else the request's scheme (a trusted proxy's, see ``transport.py``) and its
``Host`` header, used only when it is one plain RFC 9110 authority (``host[:port]``, a DNS name or
an IP literal), lower-cased. A request without ``Host`` (HTTP/1.0) names the address it came in on.
"""

from __future__ import annotations

import re

from starlette.types import Scope

# A Host header as RFC 9110 allows it: a DNS name or an IP literal, and a port.
AUTHORITY = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}"
                       r"[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?")
MAX_HOST = 300


def origin(scope: Scope, public_url: str | None) -> str | None:
    """``scheme://host[:port]`` of the service for this request, or None when the request does not
    say it usably (several ``Host`` headers, or one that is not a plain authority)."""
    if public_url:
        return public_url
    scheme = scope.get("scheme", "http")
    hosts = [value for name, value in scope.get("headers", ()) if name == b"host"]
    if scheme not in ("http", "https") or len(hosts) > 1:
        return None
    host = hosts[0].decode("latin-1") if hosts else _server_authority(scope)
    if len(host) > MAX_HOST or not AUTHORITY.fullmatch(host):
        return None
    return f"{scheme}://{host.lower()}"


def _server_authority(scope: Scope) -> str:
    """For HTTP/1.0 without ``Host``: the address the request came in on, as a ``Host`` header would write it
    (an IPv6 literal in brackets), so that it passes the same check."""
    name, port = scope.get("server") or ("localhost", None)
    name = f"[{name}]" if ":" in str(name) else str(name)
    return f"{name}:{port}" if port else name
