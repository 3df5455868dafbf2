"""Indexes that follow models.yaml: built and dropped by ``upgrade(models=...)``, and used by the list SQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from storage.drivers.db import make_engine
from storage.drivers.engine import compiled_for
from storage.listing import Filter, ListRequest
from storage.records import RecordRepository
from storage.schema import record_indexes
from storage.schema.migrate import upgrade
from tests.conftest import create_pg_database, drop_pg_database
from tests.support.model_shapes import Field, Model

GADGET = Model("gadget", {"label": Field("string"), "weight": Field("number"), "state": Field("enum", ("a", "b"))})


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'ix.db'}"
        return
    url = create_pg_database().replace("postgresql://", "postgresql+psycopg://")
    try:
        yield url
    finally:
        drop_pg_database(url)


def _indexes(url: str) -> dict[str, str]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            if engine.dialect.name == "sqlite":
                rows = conn.execute(text("SELECT name, sql FROM sqlite_master WHERE type = 'index' "
                                         "AND tbl_name = 'records'")).all()
            else:
                rows = conn.execute(text("SELECT indexname, indexdef FROM pg_indexes "
                                         "WHERE tablename = 'records'")).all()
        return {name: definition or "" for name, definition in rows}
    finally:
        engine.dispose()


def test_a_declared_model_gets_an_index_per_field_and_a_changed_one_is_rebuilt(database: str) -> None:
    upgrade(database, models=[GADGET])
    built = {n for n in _indexes(database) if n.startswith(record_indexes.PREFIX)}
    assert {n.rsplit("_", 1)[0] for n in built} == {"ix_rdx_gadget_label", "ix_rdx_gadget_weight",
                                                     "ix_rdx_gadget_state", "ix_rdx_gadget_updated_at"}
    again = record_indexes.sync(database, [GADGET])
    assert again.created == [] and again.dropped == []

    changed = Model("gadget", {"label": Field("string"), "weight": Field("string")})
    report = record_indexes.sync(database, [changed])
    now = {n for n in _indexes(database) if n.startswith(record_indexes.PREFIX)}
    weight_before = next(n for n in built if "_weight_" in n)
    weight_after = next(n for n in now if "_weight_" in n)
    assert weight_before != weight_after  # number -> string: another expression, another index
    assert weight_before in report.dropped and weight_after in report.created
    assert not any("_state_" in n for n in now)  # the field is gone, so is its index
    assert record_indexes.sync(database, []).dropped  # no model declared: every declared index dropped
    assert not any(n.startswith(record_indexes.PREFIX) for n in _indexes(database))


def _plan(url: str, statement: object) -> str:
    engine = make_engine(url)
    try:
        dialect = engine.dialect.name
        compiled, extracted = compiled_for(statement, dialect)  # type: ignore[arg-type]
        sql, params = compiled.bind(None, extracted)
        with engine.connect() as conn:
            raw = conn.connection.driver_connection
            assert raw is not None
            cur = raw.cursor()
            if dialect == "sqlite":
                cur.execute("EXPLAIN QUERY PLAN " + sql, params)
                return "\n".join(str(row[-1]) for row in cur.fetchall())
            cur.execute("SET enable_seqscan = off")  # an empty table: the planner would read it whole
            cur.execute("SET enable_bitmapscan = off")
            cur.execute("EXPLAIN " + sql, params)
            return "\n".join(str(row[0]) for row in cur.fetchall())
    finally:
        engine.dispose()


class _Conn:
    def __init__(self, dialect: str) -> None:
        self.dialect = dialect


@pytest.mark.parametrize("sort_field", ["label", "weight"])
def test_the_list_sql_filters_and_sorts_on_the_declared_index(database: str, sort_field: str) -> None:
    """The expressions and the partial predicate of the list SQL are the index's, so the planner
    reads the sort field's index in order instead of sorting the model."""
    upgrade(database, models=[GADGET])
    dialect = "sqlite" if database.startswith("sqlite") else "postgresql"
    repo = RecordRepository(_Conn(dialect), 7, GADGET)  # type: ignore[arg-type]
    fields = repo.list_fields()
    request = ListRequest(page_num=500, page_size=10, keyword=None, sort_field=fields[sort_field], sort_order="asc",
                          filters=(Filter(fields["state"], "eq", "a"),))
    queries = repo.list_queries(request)
    plan = _plan(database, queries.page)
    assert f"ix_rdx_gadget_{sort_field}_" in plan or "ix_rdx_gadget_state_" in plan, plan
    count_plan = _plan(database, queries.count)
    assert "ix_rdx_gadget_" in count_plan, count_plan
