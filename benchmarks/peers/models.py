"""SQLAlchemy ORM models of the Tessera tables the peers use, and the rules both peers apply to them.

Why ORM models: a team writing this service with Flask or FastAPI would map its tables to classes
(Authlib's own examples do, with Flask-SQLAlchemy) and load a token with its credential,
installation, application and tenant through relationships. The mapping is of Tessera's existing
tables (the suite's database is migrated by Tessera), so the peers read and write the same rows:
a token minted by any server works on every other one. Timestamps are naive UTC in the database,
aware UTC in Python (``UTCDateTime``); JSON is ``jsonb`` on PostgreSQL.
"""

from __future__ import annotations

import base64
import hashlib
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

JsonDoc = JSON().with_variant(JSONB(), "postgresql")
# The fields ``capabilities.yaml`` publishes for an asset (besides pid and the timestamps).
ASSET_FIELDS = ("name", "serialNo", "status", "assignee", "value", "purchasedAt")


class UTCDateTime(TypeDecorator[datetime]):
    """Naive UTC in the column, aware UTC in Python."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(
        self,
        value: datetime | None,
        dialect: Any,  # noqa: ARG002 - TypeDecorator's signature; the same conversion on every dialect
    ) -> datetime | None:
        return None if value is None else value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(
        self,
        value: datetime | None,
        dialect: Any,  # noqa: ARG002 - TypeDecorator's signature; the same conversion on every dialect
    ) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    pass


class Tenant(Base):
    __tablename__ = "tenants"
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    code: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(20))


class Application(Base):
    __tablename__ = "applications"
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    pid: Mapped[str] = mapped_column(String(40))
    name: Mapped[str] = mapped_column(String(200))


class Installation(Base):
    __tablename__ = "installations"
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    pid: Mapped[str] = mapped_column(String(40))
    application_id: Mapped[int] = mapped_column(ForeignKey("applications.id"))
    tenant_id: Mapped[int] = mapped_column(ForeignKey("tenants.id"))
    environment: Mapped[str] = mapped_column(String(20))
    scopes: Mapped[list[str]] = mapped_column(JsonDoc)
    status: Mapped[str] = mapped_column(String(20))
    application: Mapped[Application] = relationship(lazy="joined", innerjoin=True)
    tenant: Mapped[Tenant] = relationship(lazy="joined", innerjoin=True)


class Credential(Base):
    __tablename__ = "credentials"
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    client_id: Mapped[str] = mapped_column(String(64))
    installation_id: Mapped[int] = mapped_column(ForeignKey("installations.id"))
    secret_digest: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(20))
    rotated_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime())
    installation: Mapped[Installation] = relationship(lazy="joined", innerjoin=True)

    def usable(self, at: datetime) -> bool:
        """May mint tokens: active, its installation enabled, within its grace window if rotated."""
        return self.status == "active" and self.installation.status == "enabled" and (
            self.expires_at is None or at < self.expires_at)


class AccessToken(Base):
    __tablename__ = "access_tokens"
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    token_digest: Mapped[str] = mapped_column(String(64))
    credential_id: Mapped[int] = mapped_column(ForeignKey("credentials.id"))
    installation_id: Mapped[int] = mapped_column(ForeignKey("installations.id"))
    scopes: Mapped[list[str]] = mapped_column(JsonDoc)
    issued_at: Mapped[datetime] = mapped_column(UTCDateTime())
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())
    credential: Mapped[Credential] = relationship(lazy="joined", innerjoin=True)

    @property
    def installation(self) -> Installation:
        return self.credential.installation

    def alive(self, at: datetime) -> bool:
        """Not expired, credential not revoked, installation enabled, tenant active, and (for a token
        minted by a rotated credential) within the rotation's grace window."""
        cred, inst = self.credential, self.credential.installation
        if at >= self.expires_at or cred.status != "active" or inst.status != "enabled" \
                or inst.tenant.status != "active":
            return False
        rotated = cred.rotated_at is not None and self.issued_at >= cred.rotated_at
        return not (rotated and cred.expires_at is not None and at >= cred.expires_at)

    def granted(self) -> list[str]:
        """The token's scopes that the installation still grants, sorted."""
        return sorted(set(self.scopes) & set(self.installation.scopes))

    def whoami(self) -> dict[str, Any]:
        inst = self.installation
        return {
            "application": {"appId": inst.application.pid, "name": inst.application.name},
            "installation": {"installationId": inst.pid, "environment": inst.environment},
            "tenant": {"tenantId": inst.tenant.code},
            "environment": inst.environment,
            "scopes": self.granted(),
            "clientId": self.credential.client_id,
            "expiresAt": iso(self.expires_at),
        }


class AuditEntry(Base):
    __tablename__ = "audit_log"
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    pid: Mapped[str] = mapped_column(String(40))
    tenant_id: Mapped[int | None] = mapped_column(BigInteger)
    actor_user_id: Mapped[int | None] = mapped_column(BigInteger)
    actor: Mapped[str | None] = mapped_column(String(320))
    action: Mapped[str] = mapped_column(String(100))
    target_type: Mapped[str | None] = mapped_column(String(64))
    target_id: Mapped[str | None] = mapped_column(String(64))
    before: Mapped[Any] = mapped_column(JsonDoc)
    after: Mapped[Any] = mapped_column(JsonDoc)
    request_id: Mapped[str | None] = mapped_column(String(128))
    application_id: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


class Record(Base):
    __tablename__ = "records"
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    tenant_id: Mapped[int] = mapped_column(BigInteger)
    model: Mapped[str] = mapped_column(String(64))
    pid: Mapped[str] = mapped_column(String(40))
    version: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any]] = mapped_column(JsonDoc)
    search_text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())
    deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime())

    @property
    def etag(self) -> str:
        """Strong ETag of this version: base64url of the first 18 bytes of sha256("pid:version")."""
        digest = hashlib.sha256(f"{self.pid}:{self.version}".encode()).digest()[:18]
        return '"' + base64.urlsafe_b64encode(digest).decode("ascii") + '"'

    def asset(self) -> dict[str, Any]:
        return {"pid": self.pid, **{code: self.data.get(code) for code in ASSET_FIELDS},
                "createdAt": iso(self.created_at), "updatedAt": iso(self.updated_at)}


def iso(value: datetime) -> str:
    return value.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def issued_audit(pid: str, credential: Credential, scopes: list[str], request_id: str, at: datetime) -> AuditEntry:
    """The audit entry of a token issued (``oauth.token.issue``), as Tessera writes it."""
    inst = credential.installation
    return AuditEntry(pid=pid, tenant_id=inst.tenant_id, actor_user_id=None, actor=credential.client_id,
                      action="oauth.token.issue", target_type="installation", target_id=inst.pid, before=None,
                      after={"scopes": scopes}, request_id=request_id, application_id=inst.application_id,
                      created_at=at)
