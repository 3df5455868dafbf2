"""Schema evolution of declared models: a renamed field's values move with ``tessera migrate`` (in
batches that resume after an interruption), a removed field is named and served by no one, a rename
that changes the type is refused, and ``--plan`` counts without changing anything."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from storage import identity
from storage.drivers.db import make_engine, open_database
from storage.records import RecordRepository, present
from storage.schema import field_moves
from storage.schema.field_moves import FieldEvolutionError
from storage.schema.migrate import plan, upgrade
from tests.conftest import BACKENDS, create_pg_database, drop_pg_database
from tests.support.model_shapes import Field, Model

AT = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)


BEFORE = Model("vendor", {"name": Field("string"), "contact": Field("string"), "rating": Field("integer")},
               unique=("contact",))
RENAMED = Model("vendor", {"name": Field("string"), "email": Field("string", renamed_from="contact"),
                           "rating": Field("integer")}, unique=("email",))
WITHOUT_RATING = Model("vendor", {"name": Field("string"), "email": Field("string")}, unique=("email",))


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    url = f"sqlite:///{tmp_path / 'evolve.db'}" if request.param == "sqlite" else create_pg_database()
    upgrade(url, models=[BEFORE])
    try:
        yield url
    finally:
        if request.param == "postgresql":
            drop_pg_database(url)


def _seed(url: str, count: int, model: Model = BEFORE) -> list[str]:
    """``count`` vendors written the way the service writes them; their pids."""
    async def make() -> list[str]:
        db = open_database(url)
        try:
            async with db.write() as conn:
                tenant_id = await identity.create_tenant(conn, "t", "Tenant", {}, now=AT)
                repo = RecordRepository(conn, tenant_id, model)
                rows = [await repo.insert({"name": f"Vendor {i}", "contact": f"v{i}@example.test", "rating": i % 5},
                                          None, now=AT) for i in range(count)]
                return [row.pid for row in rows]
        finally:
            await db.close()
    return asyncio.run(make())


def _stored(url: str) -> dict[str, tuple[dict[str, Any], int]]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT pid, data, version FROM records WHERE model = 'vendor'")).all()
    finally:
        engine.dispose()
    return {pid: (data if isinstance(data, dict) else json.loads(data), version)
            for pid, data, version in rows}


def _unique_fields(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return set(conn.execute(text("SELECT DISTINCT field FROM record_unique_values "
                                         "WHERE model = 'vendor'")).scalars())
    finally:
        engine.dispose()


def test_a_declared_rename_moves_every_value_and_its_uniqueness_and_changes_the_etag(database: str) -> None:
    _seed(database, 7)
    lines = upgrade(database, models=[RENAMED])
    assert "fields: vendor.contact -> email: 7 record(s) moved" in " ".join(lines)
    stored = _stored(database)
    assert all("contact" not in data and data["email"].endswith("@example.test") for data, _ in stored.values())
    assert {version for _, version in stored.values()} == {2}  # the published representation changed
    assert _unique_fields(database) == {"email"}
    again = upgrade(database, models=[RENAMED])
    assert not [line for line in again if line.startswith("fields:")]  # nothing left to move, nothing said
    assert plan(database, [RENAMED], {}) == []
    assert {version for _, version in _stored(database).values()} == {2}


def _log_of_vendors(url: str) -> tuple[int, list[int]]:
    """How many changes of vendors the list caches' log holds, and the vendors' stamps."""
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            logged = conn.execute(text("SELECT count(*) FROM record_changes WHERE model = 'vendor'")).scalar_one()
            stamps = list(conn.execute(text("SELECT stamp FROM record_stamps WHERE model = 'vendor'")).scalars())
    finally:
        engine.dispose()
    return int(logged), [int(s) for s in stamps]


def test_a_move_draws_a_new_epoch_of_the_model_on_postgresql_instead_of_logging_every_record(database: str) -> None:
    """Every cached list of the model is then read again; SQLite logs each moved record instead."""
    _seed(database, 7)
    logged, stamps = _log_of_vendors(database)
    upgrade(database, models=[RENAMED])
    after, new_stamps = _log_of_vendors(database)
    if database.startswith("sqlite"):
        assert (after, new_stamps) == (logged + 7, stamps)
    else:
        assert after == logged and len(new_stamps) == 1 and new_stamps != stamps


def test_an_interrupted_rename_resumes_after_its_last_batch(database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _seed(database, 9)
    monkeypatch.setattr(field_moves, "PROGRESS_SECONDS", 0.0)
    said: list[str] = []

    def stop_after_two_batches(line: str) -> None:
        said.append(line)
        if len(said) == 2:
            raise KeyboardInterrupt  # an operator's ^C, or the machine going away, between two batches

    with pytest.raises(KeyboardInterrupt):
        field_moves.sync(database, [RENAMED], now=lambda: AT, progress=stop_after_two_batches, batch=2)
    halfway = _stored(database)
    assert sum("email" in data for data, _ in halfway.values()) == 4
    assert sum("contact" in data for data, _ in halfway.values()) == 5
    report = field_moves.sync(database, [RENAMED], now=lambda: AT, batch=2)
    assert report.moved[0][1] == 5  # only the rest
    after = _stored(database).values()
    assert all(set(data) == {"name", "email", "rating"} and version == 2 for data, version in after)


def test_a_value_written_under_the_new_name_meanwhile_is_kept(database: str) -> None:
    pids = _seed(database, 2)
    engine = make_engine(database)
    with engine.begin() as conn:  # a process already on the new declaration wrote the new field
        data = _stored(database)[pids[0]][0] | {"email": "new@example.test"}
        conn.execute(text("UPDATE records SET data = :d WHERE pid = :p"),
                     {"d": json.dumps(data), "p": pids[0]})
    engine.dispose()
    upgrade(database, models=[RENAMED])
    assert _stored(database)[pids[0]][0]["email"] == "new@example.test"
    assert _stored(database)[pids[1]][0]["email"] == "v1@example.test"


def test_a_removed_field_is_named_by_migrate_kept_in_storage_and_served_by_no_one(database: str) -> None:
    pids = _seed(database, 3)
    upgrade(database, models=[RENAMED])
    lines = upgrade(database, models=[WITHOUT_RATING])
    assert any(line.startswith("fields: vendor.rating is no longer declared") for line in lines)
    assert all("rating" in data for data, _ in _stored(database).values())  # nothing lost
    assert any("vendor.rating is no longer declared" in line for line in upgrade(database, models=[WITHOUT_RATING]))

    engine = make_engine(database)
    with engine.connect() as sync_conn:
        tenant_id = sync_conn.execute(text("SELECT tenant_id FROM records WHERE pid = :p"), {"p": pids[0]}).scalar_one()
    engine.dispose()

    async def read() -> dict[str, Any]:
        db = open_database(database)
        try:
            async with db.read() as conn:
                row = await RecordRepository(conn, tenant_id, WITHOUT_RATING).get(pids[0])
                assert row is not None
                return present(row, WITHOUT_RATING)
        finally:
            await db.close()
    assert set(asyncio.run(read())) == {"id", "name", "email", "created_at", "updated_at"}
    back = upgrade(database, models=[RENAMED])  # declared again: served again, no longer named
    assert not any("rating" in line for line in back)


def test_a_rename_that_changes_the_type_is_refused_before_anything_moves(database: str) -> None:
    _seed(database, 2)
    retyped = Model("vendor", {"name": Field("string"), "email": Field("integer", renamed_from="contact"),
                               "rating": Field("integer")})
    with pytest.raises(FieldEvolutionError, match=r"models.vendor.fields.email.renamedFrom: 'contact' was a string"):
        upgrade(database, models=[retyped])
    assert all("contact" in data for data, _ in _stored(database).values())


def test_the_plan_counts_what_a_migrate_would_do_and_changes_nothing(database: str) -> None:
    _seed(database, 4)
    lines = plan(database, [RENAMED], {})
    assert "fields: vendor.contact -> email: 4 record(s) to move, in 1 batch(es) of 5,000" in lines
    assert any(line.startswith("indexes: build ix_rdx_vendor_email") for line in lines)
    assert any(line.startswith("indexes: drop ix_rdx_vendor_contact") for line in lines)
    assert all("contact" in data for data, _ in _stored(database).values())
    assert _unique_fields(database) == {"contact"}
