"""Role templates reach the tenants created before them: ``tessera migrate`` adds what a template
gained, creates a role a tenant lacks, never removes a tenant's own grant, and says what it did."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import select

from storage import identity
from storage.drivers.db import make_engine, open_database
from storage.schema import role_sync
from storage.schema.migrate import upgrade
from storage.schema.tables import role_permissions, roles, tenants
from tessera.core.clock import SystemClock
from tests.conftest import BACKENDS, create_pg_database, drop_pg_database
from tests.support.live_server import ROOT, TESSERA, tessera_env


@dataclass(frozen=True)
class Template:
    code: str
    name: str
    permissions: tuple[str, ...]


BEFORE = {"viewer": Template("viewer", "Viewer", ("assets:view",))}
AFTER = {"viewer": Template("viewer", "Viewer", ("assets:view", "stock-ins:view")),
         "auditor": Template("auditor", "Auditor", ("audit:view",))}


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    url = f"sqlite:///{tmp_path / 'roles.db'}" if request.param == "sqlite" else create_pg_database()
    upgrade(url)
    yield url
    if request.param == "postgresql":
        drop_pg_database(url)


def _tenant_before_the_change(url: str) -> None:
    """A tenant made from the old templates, whose viewers were also granted ``audit:view`` by hand."""
    async def make() -> None:
        db = open_database(url)
        try:
            async with db.write() as conn:
                tenant_id = await identity.create_tenant(conn, "old", "Old Tenant", BEFORE, now=SystemClock().now())
                role_id = (await conn.execute(select(roles.c.id).where(roles.c.tenant_id == tenant_id))).scalar_one()
                await conn.execute(role_permissions.insert().values(role_id=role_id, permission="audit:view"))
        finally:
            await db.close()
    asyncio.run(make())


def _grants(url: str) -> dict[str, set[str]]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(select(roles.c.code, role_permissions.c.permission)
                                .select_from(roles.join(tenants, tenants.c.id == roles.c.tenant_id)
                                             .outerjoin(role_permissions, role_permissions.c.role_id == roles.c.id))
                                .where(tenants.c.code == "old"))
            found: dict[str, set[str]] = {}
            for code, permission in rows:
                found.setdefault(code, set()).update({permission} if permission else set())
            return found
    finally:
        engine.dispose()


def test_a_template_that_gained_a_permission_reaches_existing_tenants_and_nothing_is_removed(
        database_url: str) -> None:
    _tenant_before_the_change(database_url)
    report = role_sync.sync(database_url, AFTER)
    assert ("old", "viewer", "stock-ins:view") in report.added
    assert ("old", "auditor") in report.created and ("old", "auditor", "audit:view") in report.added
    assert ("old", "viewer", "audit:view") in report.kept  # the tenant's own grant stays
    assert _grants(database_url) == {"viewer": {"assets:view", "stock-ins:view", "audit:view"},
                                     "auditor": {"audit:view"}}
    again = role_sync.sync(database_url, AFTER)
    assert (again.added, again.created) == ([], [])


def test_tessera_migrate_prints_what_the_role_templates_changed(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'migrate.db'}"
    upgrade(url)
    _tenant_before_the_change(url)
    models = tmp_path / "models.yaml"
    viewer = 'permissions: ["assets:view", "stock-ins:view"]'
    models.write_text((ROOT / "models.yaml").read_text(encoding="utf-8").replace(
        viewer, viewer.replace("]", ', "audit:view"]'), 1), encoding="utf-8")
    env = tessera_env(tmp_path / "var", TESSERA_DATABASE_URL=url, TESSERA_MODELS_FILE=str(models))
    done = subprocess.run([*TESSERA, "migrate"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "roles: old: viewer + stock-ins:view" in lines
    assert "roles: old: role admin created from its template" in lines
    assert lines[-1].startswith("migrate: done (")
