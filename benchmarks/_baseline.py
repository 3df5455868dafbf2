"""A bare Starlette app answering Tessera's benchmarked endpoints with the same SQL, as a baseline.

The session list endpoint (``benchmarks/session_list.py``). What it keeps from the service: the JWT
check (PyJWT, same key, algorithm, audience and issuer), the list query built by the same code
(``parse_list_request`` + ``RecordRepository.page``), the same engine settings
(``storage.db.make_engine``), one read transaction per request, a sync endpoint run in Starlette's
thread pool (as Connexion runs Tessera's sync handlers) and the same JSON body.

What it leaves out, on purpose: Connexion (routing, parameter validation, security middleware),
the request-context middleware, the rate limiter, i18n, and resolving the actor (user, membership,
permissions) from the database. The tenant code in the token is mapped to its id once at start.

The Open Platform token endpoint and a business call (``benchmarks/op_token.py``):

* ``POST /oauth2/token``: the form parsed by Starlette, the credential read with its installation
  (``storage.credentials.credential_with_installation``), the HMAC digest compared
  (``tessera.core.crypto.KeyedDigest`` under the same derived key), the same status, expiry and
  scope rules as ``tessera.openplatform.tokens.grants.issue``, then one write transaction with the token digest
  (``store_token``) and the audit entry (``storage.audit.append``), and the same JSON body.
  Left out: Connexion (routing, form validation), the request-context middleware, the per-client
  rate limiter, HTTP Basic client authentication and the OAuth error envelope.
* ``GET /api/open/v1/whoami``: the bearer token's digest looked up with ``token_context`` and checked
  as ``tessera.openplatform.tokens.bearer.validate`` does, the same JSON body, then one call audit
  row (``record_calls``) written after the response, in a transaction of its own (Tessera queues the
  row and writes such rows in batches). Left out: Connexion (routing, the security middleware), the
  request-context middleware and the scope check.

Started by ``benchmarks/session_list.py`` and ``benchmarks/op_token.py`` as their ``baseline`` target
(``harness.servers.STORAGE_BASELINE``): ``python benchmarks/_baseline.py --port 8124`` with ``TESSERA_*``
variables set.
"""

from __future__ import annotations

import contextlib
import json
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import jwt
from harness.serving import serve
from sqlalchemy import select
from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from storage import audit
from storage import credentials as credential_store
from storage import tokens as token_store
from storage.call_audit import record_calls
from storage.db import make_engine
from storage.records import RecordRepository, present
from storage.tables import tenants
from storage.unit import Database
from tessera.core.clock import iso
from tessera.core.crypto import JWT_ALGORITHM, JWT_AUDIENCE, JWT_ISSUER, KeyedDigest, derive_key
from tessera.core.errors import ValidationFailed
from tessera.core.settings import load_settings
from tessera.openplatform.tokens.bearer import new_access_token
from tessera.registry.models import load_declarations
from tessera.session.listing import parse_list_request

MAX_FIELD = 512  # as tessera.openplatform.tokens.grants
NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}


def json_response(status: int, body: dict[str, Any], headers: dict[str, str] | None = None,
                  background: BackgroundTask | None = None) -> Response:
    content = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    return Response(content, status_code=status, headers=headers, media_type="application/json",
                    background=background)


def fail(status: int, error: str) -> tuple[int, dict[str, Any]]:
    return status, {"error": error}


class StorageBaseline:
    """The endpoints, on the storage functions and one engine."""

    def __init__(self) -> None:
        self.settings = settings = load_settings()
        self.declarations = load_declarations(settings.models_file)
        self.db = Database(make_engine(settings.database_url))
        self.jwt_key = derive_key(settings.secret_key, "session-jwt")
        self.digests = KeyedDigest(derive_key(settings.secret_key, "secret-digest"))
        with self.db.read() as conn:
            self.tenant_ids = {code: tid for tid, code in conn.execute(select(tenants.c.id, tenants.c.code))}

    def list_records(self, request: Request) -> Response:  # sync: Starlette runs it in the thread pool
        authorization = request.headers.get("authorization", "")
        token = authorization.split(" ", 1)[1].strip() if " " in authorization else ""
        try:
            claims = jwt.decode(token, self.jwt_key, algorithms=[JWT_ALGORITHM], audience=JWT_AUDIENCE,
                                issuer=JWT_ISSUER, options={"require": ["exp", "iat", "sub", "tid", "jti"]})
        except jwt.PyJWTError:
            return json_response(401, {"code": "UNAUTHORIZED", "message": "Unauthorized", "data": None})
        tenant_id = self.tenant_ids.get(claims.get("tid"))
        page = self.declarations.pages.get(request.path_params["pageKey"])
        if tenant_id is None or page is None:
            return json_response(404, {"code": "NOT_FOUND", "message": "Not found", "data": None})
        try:
            with self.db.read() as conn:
                repo = RecordRepository(conn, tenant_id, page.model)
                list_request = parse_list_request(dict(request.query_params), repo.list_fields())
                rows, total = repo.page(list_request)
        except ValidationFailed:
            return json_response(400, {"code": "VALIDATION_ERROR", "message": "Invalid", "data": None})
        data = {"records": [present(r) for r in rows], "total": total, "pageNum": list_request.page_num,
                "pageSize": list_request.page_size}
        return json_response(200, {"code": "0", "message": "OK", "data": data})

    def credential(self, client_id: str, secret: str, now: datetime, request_id: str) -> Any:
        """The credential with its installation if the secret matches and it may mint tokens, else None
        (audited as ``oauth.token.denied``)."""
        with self.db.read() as conn:
            cred = credential_store.credential_with_installation(conn, client_id)
        secret_ok = self.digests.matches(secret, cred.secret_digest if cred is not None else "0" * 64)
        if cred is not None and secret_ok and cred.status == "active" and cred.inst_status == "enabled" \
                and (cred.expires_at is None or now < cred.expires_at):
            return cred
        with self.db.write() as conn:
            audit.append(conn, tenant_id=cred.tenant_id if cred else None, actor_user_id=None, actor=client_id,
                         action="oauth.token.denied", target_type="credential", target_id=client_id,
                         request_id=request_id, application_id=cred.application_id if cred else None, now=now)
        return None

    def issue(self, form: dict[str, str], request_id: str) -> tuple[int, dict[str, Any]]:
        """What ``grants.issue`` does with form-body client authentication (the rate limiter is the handler's)."""
        if form.get("grant_type") != "client_credentials":
            return fail(400, "unsupported_grant_type" if form.get("grant_type") else "invalid_request")
        client_id, secret = form.get("client_id"), form.get("client_secret")
        if not client_id or not secret or len(client_id) > MAX_FIELD or len(secret) > MAX_FIELD:
            return fail(401, "invalid_client")
        now = datetime.now(UTC)
        cred = self.credential(client_id, secret, now, request_id)
        if cred is None:
            return fail(401, "invalid_client")
        granted, requested = set(cred.granted_scopes), (form.get("scope") or "").split()
        if not set(requested) <= granted:
            return fail(400, "invalid_scope")
        scopes = sorted(set(requested) or granted)
        token, ttl = new_access_token(), self.settings.token_ttl_seconds
        with self.db.write() as conn:
            token_store.store_token(conn, self.digests.digest(token), cred.id, cred.installation_id, scopes, now,
                                    now + timedelta(seconds=ttl))
            audit.append(conn, tenant_id=cred.tenant_id, actor_user_id=None, actor=client_id,
                         action="oauth.token.issue", target_type="installation", target_id=cred.installation_pid,
                         after={"scopes": scopes}, request_id=request_id, application_id=cred.application_id,
                         now=now)
        return 200, {"access_token": token, "token_type": "Bearer", "expires_in": ttl, "scope": " ".join(scopes)}

    async def issue_token(self, request: Request) -> Response:
        fields = {key: value for key, value in (await request.form()).items() if isinstance(value, str)}
        status, body = await run_in_threadpool(self.issue, fields, str(uuid.uuid4()))
        return json_response(status, body, NO_STORE)

    def token_row(self, request: Request) -> Any:
        """The bearer token's row, checked as ``bearer.validate`` checks it; None for an invalid token."""
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token or len(token) > MAX_FIELD:
            return None
        now = datetime.now(UTC)
        with self.db.read() as conn:
            row = token_store.token_context(conn, self.digests.digest(token))
        if row is None or now >= row.expires_at or row.credential_status != "active" \
                or row.installation_status != "enabled" or row.tenant_status != "active":
            return None
        rotated = row.rotated_at is not None and row.issued_at >= row.rotated_at
        return None if rotated and now >= row.credential_expires_at else row

    def record_call(self, values: dict[str, Any]) -> None:
        with self.db.write() as conn:
            record_calls(conn, [{"created_at": datetime.now(UTC), **values}])

    def whoami(self, request: Request) -> Response:  # sync: Starlette runs it in the thread pool
        """The token check of ``bearer.validate``, the body of ``handlers.open.whoami``, the call audit."""
        row = self.token_row(request)
        status = 200 if row is not None else 401
        call = {"installation_id": row.installation_id if row is not None else None,
                "tenant_id": row.tenant_id if row is not None else None,
                "client_id": row.client_id if row is not None else None, "method": request.method,
                "path": request.url.path, "status": status, "request_id": str(uuid.uuid4())}
        if row is None:
            body: dict[str, Any] = {"code": "invalid_token", "message": "Invalid token", "details": {}}
        else:
            body = {
                "application": {"appId": row.application_pid, "name": row.application_name},
                "installation": {"installationId": row.installation_pid, "environment": row.environment},
                "tenant": {"tenantId": row.tenant_code},
                "environment": row.environment,
                "scopes": sorted(set(row.scopes) & set(row.granted_scopes)),
                "clientId": row.client_id,
                "expiresAt": iso(row.expires_at),
            }
        return json_response(status, body, background=BackgroundTask(self.record_call, call))

    def health(self, _request: Request) -> Response:
        return json_response(200, {"code": "0", "message": "OK", "data": {"status": "up"}})

    @contextlib.asynccontextmanager
    async def lifespan(self, _app: Starlette) -> AsyncIterator[None]:
        yield
        self.db.dispose()

    def app(self) -> Starlette:
        return Starlette(lifespan=self.lifespan, routes=[
            Route("/api/health", self.health),
            Route("/api/dynamic/{pageKey}/list", self.list_records),
            Route("/oauth2/token", self.issue_token, methods=["POST"]),
            Route("/api/open/v1/whoami", self.whoami),
        ])


if __name__ == "__main__":
    serve(lambda: StorageBaseline().app(), __doc__)
