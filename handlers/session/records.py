"""GET /api/dynamic/<page>/list, POST /api/dynamic/<page>/query and GET /api/dynamic/<page>/{recordId},
one set per declared page.

The generated session document has concrete paths and operationIds (``listAssetsRecords``,
``getAssetsRecord``), so there is no ``{pageKey}`` to dispatch on: ``operations`` builds a small
closure per operationId from ``models.yaml``, and the app's resolver binds them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from handlers.session.base import authenticated, query_params
from tessera.lists.contract import list_body
from tessera.registry.models import Declarations, PageDecl
from tessera.registry.names import get_record_id, list_records_id, query_records_id
from tessera.session.records import reads as records
from tessera.web.envelopes import ok

Handler = Callable[..., Any]


def _list(page: PageDecl) -> Handler:
    # No parameters: the service reads the raw query (``filters`` is JSON text, which Connexion's
    # argument conversion cannot bind), so Connexion binds none.
    async def handler() -> tuple[dict[str, Any], int, dict[str, str]]:
        rt, actor, headers = await authenticated("read")
        return ok(await records.list_records(rt, actor, page.key, query_params()), headers)

    return handler


def _query(page: PageDecl) -> Handler:
    async def handler(body: Any) -> tuple[dict[str, Any], int, dict[str, str]]:
        rt, actor, headers = await authenticated("read")
        return ok(await records.list_records(rt, actor, page.key, list_body(body)), headers)

    return handler


def _read(page: PageDecl) -> Handler:
    async def handler(recordId: str) -> tuple[dict[str, Any], int, dict[str, str]]:
        rt, actor, headers = await authenticated("read")
        return ok(await records.get_record(rt, actor, page.key, recordId), headers)

    return handler


def operations(declarations: Declarations) -> dict[str, Handler]:
    found: dict[str, Handler] = {}
    for page in declarations.pages.values():
        found[list_records_id(page.key)] = _list(page)
        found[query_records_id(page.key)] = _query(page)
        found[get_record_id(page.key)] = _read(page)
    return found
