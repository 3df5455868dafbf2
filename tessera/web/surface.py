"""Which surface a request belongs to, decided once per request from its path.

The session API answers ``{code, message, data}``; the Open Platform ``{code, message, requestId,
details}`` with lower-case codes, and its token endpoint adds RFC 6749's ``error`` fields. Every
part of the web layer that renders or records something by surface reads the one decision the
request context made, instead of testing URL prefixes again.
"""

from __future__ import annotations

from enum import Enum


class Surface(Enum):
    SESSION = "session"
    OPEN_PLATFORM = "open-platform"  # business calls under /api/open/
    OAUTH = "oauth"  # /oauth2/...: the Open Platform envelope plus RFC 6749 fields

    @property
    def is_open_platform(self) -> bool:
        return self is not Surface.SESSION


def surface_of(path: str) -> Surface:
    if path.startswith("/api/open/"):
        return Surface.OPEN_PLATFORM
    if path.startswith("/oauth2/"):
        return Surface.OAUTH
    return Surface.SESSION
