"""RFC 8414 authorization server metadata: where a stock OAuth client finds the endpoints.

Served at ``/.well-known/oauth-authorization-server``. Every URL is absolute under ``issuer``, the
service's origin as the client reaches it (RFC 8414 section 3.3: the issuer is the URL the
metadata was fetched from, minus the well-known suffix). There is no authorization endpoint (the
only grant is client credentials), so ``response_types_supported`` is empty. The client
authentication methods come from ``clients.AUTH_METHODS``, the scopes from the registry.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tessera.core.i18n import SUPPORTED
from tessera.openplatform.tokens import assertions, clients
from tessera.openplatform.tokens.grants import GRANT_TYPE

TOKEN_PATH = "/oauth2/token"  # noqa: S105 - a path, not a secret
INTROSPECTION_PATH = "/oauth2/introspect"
REVOCATION_PATH = "/oauth2/revoke"
DOCUMENTATION_PATH = "/api/open/v1/docs"


def authorization_server_metadata(issuer: str, scopes: Iterable[str]) -> dict[str, Any]:
    """The metadata document of the service at ``issuer`` (an origin, no trailing slash)."""
    methods = list(clients.AUTH_METHODS)
    algorithms = list(assertions.ALGORITHMS)  # of private_key_jwt client assertions
    return {
        "issuer": issuer,
        "token_endpoint": issuer + TOKEN_PATH,
        "token_endpoint_auth_methods_supported": methods,
        "token_endpoint_auth_signing_alg_values_supported": algorithms,
        "grant_types_supported": [GRANT_TYPE],
        "response_types_supported": [],
        "scopes_supported": sorted(scopes),
        "introspection_endpoint": issuer + INTROSPECTION_PATH,
        "introspection_endpoint_auth_methods_supported": methods,
        "introspection_endpoint_auth_signing_alg_values_supported": algorithms,
        "revocation_endpoint": issuer + REVOCATION_PATH,
        "revocation_endpoint_auth_methods_supported": methods,
        "revocation_endpoint_auth_signing_alg_values_supported": algorithms,
        "service_documentation": issuer + DOCUMENTATION_PATH,
        "ui_locales_supported": list(SUPPORTED),
    }
