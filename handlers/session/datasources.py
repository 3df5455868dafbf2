"""GET /api/datasource/list."""

from __future__ import annotations

from typing import Any

from handlers.session.base import authenticated
from tessera.session.datasources import options as datasources
from tessera.web.envelopes import ok


async def listDatasourceItems(datasourceId: str, maxItems: int | None = None, **_: Any) -> tuple[dict[str, Any], int, dict[str, str]]:  # noqa: E501
    rt, actor, headers = await authenticated("read")
    return ok(await datasources.list_items(rt, actor, datasourceId, maxItems), headers)
