"""Which surface a request belongs to, decided once per request from its path.

The session API answers ``{code, message, data}``; the Open Platform ``{code, message, requestId,
details}`` with lower-case codes, and its OAuth endpoints (token, introspection, revocation, and the
authorization server metadata) add RFC 6749's ``error`` fields. Every part of the web layer that
renders or records something by surface reads the one decision the request context made, instead
of testing URL prefixes again.
"""

from __future__ import annotations

from enum import Enum

# RFC 8414 authorization server metadata (section 3: the issuer has no path, so nothing follows).
METADATA_PATH = "/.well-known/oauth-authorization-server"
# The OAuth endpoints that authenticate clients, by the name their refusals are audited under.
OAUTH_ENDPOINTS = {"/oauth2/token": "token", "/oauth2/introspect": "introspection", "/oauth2/revoke": "revocation"}


class Surface(Enum):
    SESSION = "session"
    OPEN_PLATFORM = "open-platform"  # business calls under /api/open/
    # /oauth2/... and the authorization server metadata: the Open Platform envelope plus RFC 6749 fields
    OAUTH = "oauth"

    @property
    def is_open_platform(self) -> bool:
        return self is not Surface.SESSION


def surface_of(path: str) -> Surface:
    if path.startswith("/api/open/"):
        return Surface.OPEN_PLATFORM
    if path.startswith("/oauth2/") or path == METADATA_PATH:
        return Surface.OAUTH
    return Surface.SESSION
