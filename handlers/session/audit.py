"""GET /api/audit/list."""

from __future__ import annotations

from typing import Any

from handlers.session.base import authenticated, query_params
from tessera.session.audit import search as audit_search
from tessera.web.envelopes import ok


async def searchAudit() -> tuple[dict[str, Any], int, dict[str, str]]:
    rt, actor, headers = await authenticated("read")
    return ok(await audit_search.search(rt, actor, query_params()), headers)
