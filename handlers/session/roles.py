"""GET /api/roles/list."""

from __future__ import annotations

from typing import Any

from handlers.session.base import authenticated
from tessera.session.roles import listing
from tessera.web.envelopes import ok


async def listRoles() -> tuple[dict[str, Any], int, dict[str, str]]:
    rt, actor, headers = await authenticated("read")
    return ok(await listing.list_roles(rt, actor), headers)
