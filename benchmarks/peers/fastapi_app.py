"""Peer 2: FastAPI with SQLAlchemy's asyncio extension, one uvicorn process.

    python -m peers.fastapi_app --host 127.0.0.1 --port 8125      # benchmarks/ on PYTHONPATH, TESSERA_* set

What a team would write with FastAPI, the idiomatic way: pydantic response models, an ``AsyncSession``
per request from a dependency, the bearer token checked by a ``Security`` dependency
(``HTTPBearer`` + ``SecurityScopes``) that loads the token with its credential, installation,
application and tenant through the ORM models of ``peers/models.py`` (psycopg's async driver on
PostgreSQL, aiosqlite on SQLite). The token endpoint takes the form fields with ``Form``, compares
the secret's digest in constant time (against a dummy for unknown clients), checks the credential
and the scopes as Tessera does and commits the token's digest with its ``oauth.token.issue`` audit
row (denials audited too). Errors are FastAPI's ``{"detail": ...}``. No call audit: FastAPI has none.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from baseline import rules
from baseline.config import Config, Keys, load
from baseline.rules import NO_DIGEST, new_pid
from fastapi import Depends, FastAPI, Form, Header, HTTPException, Response, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer, SecurityScopes
from harness.serving import serve
from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker, create_async_engine

from peers.models import AccessToken, AuditEntry, Credential, Record, issued_audit

NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}


def database_url(config: Config) -> str:
    if config.dialect == "postgresql":
        return "postgresql+psycopg://" + config.dsn.split("://", 1)[1]
    return f"sqlite+aiosqlite:///{config.dsn}"


settings = load()
keys = Keys(settings.secret_key)
engine = create_async_engine(database_url(settings), pool_size=10, max_overflow=20)
Sessions = async_sessionmaker(engine, expire_on_commit=False)


class TokenResponse(BaseModel):
    access_token: str
    token_type: str
    expires_in: int
    scope: str


# Field names are the JSON names of Tessera's answers (camelCase).
class ApplicationRef(BaseModel):
    appId: str
    name: str


class InstallationRef(BaseModel):
    installationId: str
    environment: str


class TenantRef(BaseModel):
    tenantId: str


class Whoami(BaseModel):
    application: ApplicationRef
    installation: InstallationRef
    tenant: TenantRef
    environment: str
    scopes: list[str]
    clientId: str
    expiresAt: str


class Asset(BaseModel):
    pid: str
    name: str
    serialNo: str
    status: str
    assignee: str | None
    value: int | float | None
    purchasedAt: str | None
    createdAt: str
    updatedAt: str


def now() -> datetime:
    return datetime.now(UTC)


async def session() -> AsyncIterator[AsyncSession]:
    async with Sessions() as db:
        yield db


Db = Annotated[AsyncSession, Depends(session)]
bearer = HTTPBearer(auto_error=False)


async def caller(scopes: SecurityScopes, db: Db,
                 credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> AccessToken:
    """The live token of the request (401 ``invalid_token``), holding the route's scopes (403)."""
    challenge = {"WWW-Authenticate": 'Bearer error="invalid_token"'}
    if credentials is None or len(credentials.credentials) > 512:
        raise HTTPException(401, "invalid_token", headers=challenge)
    token = (await db.scalars(select(AccessToken).where(
        AccessToken.token_digest == keys.digest(credentials.credentials)))).first()
    if token is None or not token.alive(now()):
        raise HTTPException(401, "invalid_token", headers=challenge)
    if missing := [scope for scope in scopes.scopes if scope not in token.granted()]:
        raise HTTPException(403, f"insufficient_scope: {missing[0]}")
    return token


@asynccontextmanager
async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
    yield
    await engine.dispose()


app = FastAPI(lifespan=lifespan)


@app.get("/api/health")
async def health() -> dict[str, Any]:
    return {"code": "0", "message": "OK", "data": {"status": "up"}}


async def refuse_client(db: AsyncSession, client_id: str, credential: Credential | None, request_id: str) -> None:
    inst = credential.installation if credential is not None else None
    db.add(AuditEntry(pid=new_pid("aud"), tenant_id=inst.tenant_id if inst else None, actor_user_id=None,
                      actor=client_id, action="oauth.token.denied", target_type="credential", target_id=client_id,
                      before=None, after=None, request_id=request_id,
                      application_id=inst.application_id if inst else None, created_at=now()))
    await db.commit()
    raise HTTPException(401, "invalid_client", headers=NO_STORE)


@app.post("/oauth2/token", response_model=TokenResponse)
async def issue_token(response: Response, db: Db, grant_type: Annotated[str, Form()],
                      client_id: Annotated[str | None, Form()] = None,
                      client_secret: Annotated[str | None, Form()] = None, scope: Annotated[str | None, Form()] = None,
                      x_request_id: Annotated[str | None, Header()] = None) -> TokenResponse:
    if grant_type != "client_credentials":
        raise HTTPException(400, "unsupported_grant_type")
    if not client_id or not client_secret or len(client_id) > 512 or len(client_secret) > 512:
        raise HTTPException(401, "invalid_client", headers=NO_STORE)
    at, request_id = now(), rules.request_id(x_request_id)
    credential = (await db.scalars(select(Credential).where(Credential.client_id == client_id))).first()
    matches = keys.matches(client_secret, credential.secret_digest if credential is not None else NO_DIGEST)
    if credential is None or not matches or not credential.usable(at):
        await refuse_client(db, client_id, credential, request_id)
    assert credential is not None
    granted = set(credential.installation.scopes)
    wanted = set(scope.split()) if scope and scope.strip() else granted
    if not wanted <= granted:
        raise HTTPException(400, "invalid_scope")
    token, scopes, ttl = "tat_" + secrets.token_urlsafe(32), sorted(wanted), settings.token_ttl_seconds
    db.add(AccessToken(token_digest=keys.digest(token), credential_id=credential.id,
                       installation_id=credential.installation_id, scopes=scopes, issued_at=at,
                       expires_at=at + timedelta(seconds=ttl)))
    db.add(issued_audit(new_pid("aud"), credential, scopes, request_id, at))
    await db.commit()
    response.headers.update(NO_STORE)
    return TokenResponse(access_token=token, token_type="Bearer", expires_in=ttl, scope=" ".join(scopes))


@app.get("/api/open/v1/whoami", response_model=Whoami)
async def whoami(token: Annotated[AccessToken, Security(caller)]) -> dict[str, Any]:
    return token.whoami()


@app.get("/api/open/v1/resources/assets/{pid}", response_model=Asset)
async def read_asset(pid: str, response: Response, db: Db,
                     token: Annotated[AccessToken, Security(caller, scopes=["assets.read"])]) -> dict[str, Any]:
    record = (await db.scalars(select(Record).where(
        Record.tenant_id == token.installation.tenant_id, Record.model == "asset", Record.pid == pid,
        Record.deleted_at.is_(None)))).first()
    if record is None:
        raise HTTPException(404, "resource_not_found")
    response.headers["ETag"] = record.etag
    return record.asset()


if __name__ == "__main__":
    serve(lambda: app, __doc__)
