"""A bare Starlette app answering the list endpoint with the same SQL as Tessera, as a baseline.

What it keeps from the service: the JWT check (PyJWT, same key, algorithm, audience and issuer), the
list query built by the same code (``parse_list_request`` + ``RecordRepository.list``), the same
engine settings (``storage.db.make_engine``), one read transaction per request, a sync endpoint
run in Starlette's thread pool (as Connexion runs Tessera's sync handlers) and the same JSON body.

What it leaves out, on purpose: Connexion (routing, parameter validation, security middleware),
the request-context middleware, the rate limiter, i18n, and resolving the actor (user, membership,
permissions) from the database. The tenant code in the token is mapped to its id once at start.

Started as a subprocess by ``benchmarks/session_list.py``:
``python benchmarks/_baseline.py --port 8124`` with ``TESSERA_*`` variables set.
"""

from __future__ import annotations

import argparse
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import jwt
import uvicorn
from sqlalchemy import select
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from storage.db import make_engine
from storage.records import RecordRepository, present
from storage.tables import tenants
from storage.unit import Database
from tessera.declarations import load_declarations
from tessera.errors import ValidationFailed
from tessera.listing import parse_list_request
from tessera.security import JWT_ALGORITHM, JWT_AUDIENCE, JWT_ISSUER, derive_key
from tessera.settings import load_settings


def json_response(status: int, body: dict[str, Any]) -> Response:
    content = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    return Response(content, status_code=status, media_type="application/json")


def build_app() -> Starlette:
    settings = load_settings()
    declarations = load_declarations(settings.models_file)
    db = Database(make_engine(settings.database_url))
    key = derive_key(settings.secret_key, "session-jwt")
    with db.read() as conn:
        tenant_ids = {code: tid for tid, code in conn.execute(select(tenants.c.id, tenants.c.code))}

    def list_records(request: Request) -> Response:
        authorization = request.headers.get("authorization", "")
        token = authorization.split(" ", 1)[1].strip() if " " in authorization else ""
        try:
            claims = jwt.decode(
                token, key, algorithms=[JWT_ALGORITHM], audience=JWT_AUDIENCE, issuer=JWT_ISSUER,
                options={"require": ["exp", "iat", "sub", "tid", "jti"]},
            )
        except jwt.PyJWTError:
            return json_response(401, {"code": "UNAUTHORIZED", "message": "Unauthorized", "data": None})
        tenant_id = tenant_ids.get(claims.get("tid"))
        page = declarations.pages.get(request.path_params["pageKey"])
        if tenant_id is None or page is None:
            return json_response(404, {"code": "NOT_FOUND", "message": "Not found", "data": None})
        try:
            with db.read() as conn:
                repo = RecordRepository(conn, tenant_id, page.model)
                list_request = parse_list_request(dict(request.query_params), repo.list_fields())
                rows, total = repo.list(list_request)
        except ValidationFailed:
            return json_response(400, {"code": "VALIDATION_ERROR", "message": "Invalid", "data": None})
        data = {
            "records": [present(r) for r in rows],
            "total": total,
            "pageNum": list_request.page_num,
            "pageSize": list_request.page_size,
        }
        return json_response(200, {"code": "0", "message": "OK", "data": data})

    def health(_request: Request) -> Response:
        return json_response(200, {"code": "0", "message": "OK", "data": {"status": "up"}})

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        yield
        db.dispose()

    return Starlette(
        routes=[
            Route("/api/health", health),
            Route("/api/dynamic/{pageKey}/list", list_records),
        ],
        lifespan=lifespan,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    uvicorn.run(build_app(), host=args.host, port=args.port, log_config=None, access_log=False, workers=1)


if __name__ == "__main__":
    main()
