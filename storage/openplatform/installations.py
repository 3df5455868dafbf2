"""Installations of applications into tenants and environments, with granted scopes."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import insert, select, update

from storage.drivers.engine import Executor, Query
from storage.listing import ListField, ListRequest, build_queries, keyword_in, run_list
from storage.schema.tables import (
    applications,
    installations,
    tenants,
)
from tessera.core.ids import new_pid


class InstallationRow(NamedTuple):
    """A row of ``installations``."""

    id: int
    pid: str
    application_id: int
    tenant_id: int
    environment: str
    scopes: list[str]
    status: str
    created_at: datetime
    updated_at: datetime


class InstallationDetailRow(NamedTuple):
    """An installation with its application's pid and its tenant's code."""

    id: int
    pid: str
    application_id: int
    tenant_id: int
    environment: str
    scopes: list[str]
    status: str
    created_at: datetime
    updated_at: datetime
    application_pid: str
    tenant_code: str


class InstallationPageRow(NamedTuple):
    """An installation as the application's list shows it, with its tenant's code."""

    id: int
    pid: str
    application_id: int
    tenant_id: int
    environment: str
    scopes: list[str]
    status: str
    created_at: datetime
    updated_at: datetime
    tenant_code: str


async def create_installation(conn: Executor, application_id: int, tenant_id: int, environment: str,
                              scopes: list[str], *, now: datetime) -> InstallationRow:
    return (await conn.execute(Query(
        insert(installations)
        .values(pid=new_pid("ins"), application_id=application_id, tenant_id=tenant_id, environment=environment,
                scopes=scopes, status="enabled", created_at=now, updated_at=now)
        .returning(*installations.c), InstallationRow)
    )).one()


async def installation_by_pid(conn: Executor, pid: str) -> InstallationDetailRow | None:
    return (await conn.execute(Query(
        select(installations, applications.c.pid.label("application_pid"), tenants.c.code.label("tenant_code"))
        .select_from(installations.join(applications, applications.c.id == installations.c.application_id)
                     .join(tenants, tenants.c.id == installations.c.tenant_id))
        .where(installations.c.pid == pid), InstallationDetailRow)
    )).first()


INSTALLATION_FIELDS: dict[str, ListField] = {
    "environment": ListField("environment", "string", installations.c.environment),
    "status": ListField("status", "string", installations.c.status),
    "created_at": ListField("created_at", "timestamp", installations.c.created_at),
}


async def installations_page(conn: Executor, application_id: int,
                             request: ListRequest) -> tuple[list[InstallationPageRow], int]:
    """One page of the application's installations (with ``tenant_code``) and the total."""
    base = (
        select(installations, tenants.c.code.label("tenant_code"))
        .select_from(installations.join(tenants, tenants.c.id == installations.c.tenant_id))
        .where(installations.c.application_id == application_id)
    )
    return await run_list(conn, build_queries(base, [], request, installations.c.id,
                                              keyword_in(installations.c.environment), row=InstallationPageRow))


async def update_installation(conn: Executor, installation_id: int, values: dict[str, Any], *, now: datetime) -> None:
    await conn.execute(update(installations).where(installations.c.id == installation_id)
                       .values(**values, updated_at=now))
