"""GET /api/datasource/list."""

from __future__ import annotations

from typing import Any

from handlers.session.base import authenticated, query_params
from tessera.core.errors import NotFound
from tessera.session.datasources import options as datasources
from tessera.web.envelopes import ok


async def listDatasourceItems() -> tuple[dict[str, Any], int, dict[str, str]]:
    # Every parameter read from the query as every list does (``filters`` is JSON text); the
    # document made ``datasourceId`` required and one of the declared data sources.
    rt, actor, headers = await authenticated("read")
    params = query_params()
    datasource_id = params.get("datasourceId")
    if not isinstance(datasource_id, str):  # pragma: no cover - the document requires it
        raise NotFound()
    return ok(await datasources.list_items(rt, actor, datasource_id, params), headers)
