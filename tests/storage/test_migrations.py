"""Alembic migrations apply from scratch, roll back to nothing and apply again, on both databases."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import inspect, text

from storage.drivers.db import make_engine
from storage.schema.migrate import alembic_config, upgrade
from tests.conftest import create_pg_database, drop_pg_database


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'm.db'}"
    url = create_pg_database().replace("postgresql://", "postgresql+psycopg://")
    request.addfinalizer(lambda: drop_pg_database(url))
    return url


def _tables(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_upgrade_creates_every_table(empty_database: str) -> None:
    upgrade(empty_database)
    assert {"tenants", "users", "roles", "memberships", "platform_role_grants", "records", "audit_log",
            "idempotency_keys", "record_unique_values"} <= _tables(empty_database)


def test_downgrade_to_base_and_upgrade_again(empty_database: str) -> None:
    upgrade(empty_database)
    command.downgrade(alembic_config(empty_database), "base")
    assert _tables(empty_database) <= {"alembic_version"}
    upgrade(empty_database)
    assert "records" in _tables(empty_database)


def test_upgrade_twice_is_a_no_op(empty_database: str) -> None:
    upgrade(empty_database)
    upgrade(empty_database)
    assert "records" in _tables(empty_database)


def test_postgresql_gets_the_search_indexes() -> None:
    url = create_pg_database().replace("postgresql://", "postgresql+psycopg://")
    try:
        upgrade(url)
        engine = make_engine(url)
        names = {ix["name"] for ix in inspect(engine).get_indexes("records")}
        engine.dispose()
        assert {"ix_records_search_trgm", "ix_records_asset_status", "ix_records_asset_name"} <= names
    finally:
        drop_pg_database(url)


def test_processes_migrating_at_once_take_turns_and_leave_every_declared_index_valid(tmp_path: Path) -> None:
    """Every process migrates as it starts, so a deployment's workers do it together: three
    ``tessera migrate`` at once on one fresh PostgreSQL database all succeed, one after another."""
    url = create_pg_database().replace("postgresql://", "postgresql+psycopg://")
    try:
        env = {**{k: v for k, v in os.environ.items() if not k.startswith("TESSERA_")},
               "TESSERA_DATABASE_URL": url, "TESSERA_VAR_DIR": str(tmp_path), "TESSERA_ENV": "test"}
        runs = [subprocess.Popen([sys.executable, "-c", "import sys; from tessera.cli import main; sys.exit(main())",
                                  "migrate"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                for _ in range(3)]
        outputs = [run.communicate(timeout=120)[0] for run in runs]
        assert [run.returncode for run in runs] == [0, 0, 0], outputs
        engine = make_engine(url)
        try:
            with engine.connect() as conn:
                invalid = conn.execute(text("SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
                                            "WHERE i.indrelid = 'records'::regclass AND NOT i.indisvalid")).all()
                declared = conn.execute(text("SELECT count(*) FROM pg_class WHERE relname LIKE 'ix_rdx_%'")).scalar()
        finally:
            engine.dispose()
        assert invalid == []
        assert declared and declared > 0
    finally:
        drop_pg_database(url)
