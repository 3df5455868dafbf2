"""Alembic migrations apply from scratch, roll back to nothing and apply again, on both databases."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import inspect

from storage.db import make_engine
from storage.migrate import alembic_config, upgrade
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
