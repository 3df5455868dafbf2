"""GET /.well-known/oauth-authorization-server: RFC 8414 metadata, for clients that discover endpoints."""

from __future__ import annotations

from typing import Any

from handlers.open.base import public_url, runtime
from tessera.openplatform.tokens.metadata import authorization_server_metadata

# Changes only with a deployment (new scopes, another public URL): an hour in any cache is fine.
CACHEABLE = {"Cache-Control": "public, max-age=3600"}


async def getAuthorizationServerMetadata() -> tuple[dict[str, Any], int, dict[str, str]]:
    """No authentication and no I/O: built from the request's origin and the published scopes."""
    return authorization_server_metadata(public_url(), runtime().capabilities.scopes), 200, CACHEABLE
