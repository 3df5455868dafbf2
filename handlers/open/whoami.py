"""GET /api/open/v1/whoami."""

from __future__ import annotations

from typing import Any

from handlers.open.base import caller
from tessera.core.clock import iso


async def whoami() -> dict[str, Any]:
    """Answered from the caller the bearer check resolved: no I/O of its own."""
    who = caller()
    return {
        "application": {"appId": who.application_pid, "name": who.application_name},
        "installation": {"installationId": who.installation_pid, "environment": who.environment},
        "tenant": {"tenantId": who.tenant_code},
        "environment": who.environment,
        "scopes": list(who.scopes),
        "clientId": who.client_id,
        "expiresAt": iso(who.expires_at),
    }
