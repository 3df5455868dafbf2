"""GET /api/health: no authentication; reports database reachability."""

from __future__ import annotations

from typing import Any

from handlers.session.base import runtime
from tessera.core.i18n import N_, translate
from tessera.web.envelopes import ok


def health() -> tuple[dict[str, Any], int, dict[str, str]]:
    if runtime().db.ping():
        return ok({"status": "up", "database": "up"})
    body = {"code": "SERVICE_UNAVAILABLE", "message": translate(N_("The database is not reachable.")),
            "data": {"status": "down", "database": "down"}}
    return body, 503, {}
