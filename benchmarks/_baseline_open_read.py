"""A bare Starlette app answering the Open Platform's published-resource reads with the same code, as a baseline.

Used by ``benchmarks/open_read.py``. For every resource of the registry (``capabilities.yaml``):

* ``GET /api/open/v1/resources/<name>/{pid}``: the bearer token checked by ``op_tokens.validate``
  (one query: token, credential, installation, application, tenant), then ``op_resources.read``
  (the scope check, ``RecordRepository.get`` in one read transaction, ``present`` and ``etag``);
  200 with the record and its ``ETag``.
* ``GET /api/open/v1/resources/<name>?limit=&cursor=``: the same token check, then
  ``op_resources.list_page`` (the cursor opened and issued by ``tessera.cursors``, one
  ``RecordRepository.page_after`` query, ``present``); 200 with ``items`` and ``nextCursor``.

Both run in one ``Runtime`` built by ``tessera.runtime.build_runtime`` from the same ``TESSERA_*``
variables as the service (same engine settings, server key, registry), as sync endpoints in
Starlette's thread pool (Connexion runs Tessera's sync handlers there too). Service errors become
``{code, message, details}`` with their status.

Left out, on purpose: Connexion (routing, parameter and security validation, response
serialisation), the request-context middleware (request id, locale, access log) and with it the
call audit (Tessera writes one ``open_api_calls`` row per business call, after the response).
``limit`` is parsed with ``int`` only. There is no rate limiter on Open Platform business calls in
either target.

Started as a subprocess by ``benchmarks/open_read.py``:
``python benchmarks/_baseline_open_read.py --port 8124`` with ``TESSERA_*`` variables set.
"""

from __future__ import annotations

import argparse
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tessera.errors import InvalidRequest, InvalidToken, OpenPlatformError
from tessera.runtime import build_runtime
from tessera.services import op_resources, op_tokens
from tessera.services.op_tokens import Caller
from tessera.settings import load_settings

Endpoint = Callable[[Request], Response]


def json_response(status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> Response:
    content = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    return Response(content, status_code=status, headers=headers, media_type="application/json")


def error_response(error: OpenPlatformError) -> Response:
    return json_response(error.status, {"code": error.code, "message": error.message, "details": {}},
                         error.headers or None)


def build_app() -> Starlette:
    rt = build_runtime(load_settings())

    def caller_of(request: Request) -> Caller:
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer":
            raise InvalidToken()
        return op_tokens.validate(rt, token.strip())

    def reader(name: str) -> Endpoint:
        def endpoint(request: Request) -> Response:
            try:
                record, tag = op_resources.read(rt, caller_of(request), name, request.path_params["pid"])
            except OpenPlatformError as error:
                return error_response(error)
            return json_response(200, record, {"ETag": tag})

        return endpoint

    def lister(name: str) -> Endpoint:
        def endpoint(request: Request) -> Response:
            params = request.query_params
            try:
                caller = caller_of(request)
                try:
                    limit = int(params["limit"]) if "limit" in params else None
                except ValueError:
                    raise InvalidRequest() from None
                page = op_resources.list_page(rt, caller, name, limit, params.get("cursor"))
            except OpenPlatformError as error:
                return error_response(error)
            return json_response(200, page)

        return endpoint

    def health(_request: Request) -> Response:
        return json_response(200, {"code": "0", "message": "OK", "data": {"status": "up"}})

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        yield
        rt.close()

    routes = [Route("/api/health", health)]
    for name in rt.capabilities.resources:
        routes.append(Route(f"/api/open/v1/resources/{name}", lister(name)))
        routes.append(Route(f"/api/open/v1/resources/{name}/{{pid}}", reader(name)))
    return Starlette(routes=routes, lifespan=lifespan)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    uvicorn.run(build_app(), host=args.host, port=args.port, log_config=None, access_log=False, workers=1)


if __name__ == "__main__":
    main()
