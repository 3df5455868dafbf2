"""GET /api/dynamic/{pageKey}/list and GET /api/dynamic/{pageKey}/{recordId}."""

from __future__ import annotations

from typing import Any

from handlers.session.base import authenticated, query_params
from tessera.session.records import reads as records
from tessera.web.envelopes import ok


async def listRecords(pageKey: str, **_: Any) -> tuple[dict[str, Any], int, dict[str, str]]:
    rt, actor, headers = await authenticated("read")
    return ok(await records.list_records(rt, actor, pageKey, query_params()), headers)


async def getRecord(pageKey: str, recordId: str, **_: Any) -> tuple[dict[str, Any], int, dict[str, str]]:
    rt, actor, headers = await authenticated("read")
    return ok(await records.get_record(rt, actor, pageKey, recordId), headers)
