"""The audit search's SQL, exactly as ``storage.audit`` builds it, can be served by migration 0013's
indexes on both databases.

The log here holds 20,000 entries, so a planner left alone would rightly scan it; PostgreSQL is
told to avoid sequential scans and sorts where it can, which it only can when an index matches the
query's expressions character for character. (``benchmarks/audit_search.py`` shows the plans it
chooses by itself at 1,000,000 entries.)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, Select, insert

from storage import audit
from storage.drivers.db import make_engine
from storage.schema.migrate import upgrade
from storage.schema.tables import audit_log
from tessera.lists.contract import parse_list_request
from tests.conftest import create_pg_database, drop_pg_database

TENANT = 7
ENTRIES = 20_000


def _seed(engine: Engine) -> None:
    """``ENTRIES`` entries of the tenant as commands write them, then fresh statistics."""
    rows = [{"pid": f"aud_{i:08d}", "tenant_id": TENANT, "actor": f"user{i % 6}@example.com",
             "action": f"assets:action{i % 8}", "target_type": "asset", "target_id": f"rec_{i % 500:06d}",
             "request_id": f"req-{i:08d}", "created_at": datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=i)}
            for i in range(ENTRIES)]
    with engine.begin() as conn:
        conn.execute(insert(audit_log), rows)
        conn.exec_driver_sql("ANALYZE")


@pytest.fixture(scope="module")
def pg() -> Iterator[Engine]:
    url = create_pg_database().replace("postgresql://", "postgresql+psycopg://")
    upgrade(url)
    engine = make_engine(url)
    _seed(engine)
    yield engine
    engine.dispose()
    drop_pg_database(url)


@pytest.fixture(scope="module")
def lite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    url = f"sqlite:///{Path(tmp_path_factory.mktemp('audit')) / 'a.db'}"
    upgrade(url)
    engine = make_engine(url)
    _seed(engine)
    yield engine
    engine.dispose()


def _queries(params: dict[str, Any]) -> Any:
    return audit.search_queries(TENANT, [], parse_list_request(params, audit.LIST_FIELDS))


def _pg_plan(engine: Engine, statement: Select[Any]) -> str:
    compiled = statement.compile(dialect=engine.dialect)
    with engine.connect() as conn:
        conn.exec_driver_sql("SET enable_seqscan = off")
        conn.exec_driver_sql("SET enable_sort = off")
        return "\n".join(r[0] for r in conn.exec_driver_sql(f"EXPLAIN {compiled}", compiled.params))


def _sqlite_plan(engine: Engine, statement: Select[Any]) -> str:
    compiled = statement.compile(dialect=engine.dialect)
    with engine.connect() as conn:
        return "\n".join(str(r[-1]) for r in conn.exec_driver_sql(
            f"EXPLAIN QUERY PLAN {compiled}", tuple(compiled.params[k] for k in compiled.positiontup or ())))


def _eq(field: str, value: str) -> dict[str, Any]:
    return {"filters": f'[{{"fieldName":"{field}","operator":"eq","value":"{value}"}}]'}


@pytest.mark.parametrize(("field", "index"), [
    ("action", "ix_audit_log_tenant_action"), ("actor", "ix_audit_log_tenant_actor"),
    ("targetId", "ix_audit_log_tenant_target"), ("requestId", "ix_audit_log_tenant_request")])
def test_an_eq_filter_on_an_indexed_field_is_a_range_of_its_index_on_postgresql(
        pg: Engine, field: str, index: str) -> None:
    assert index in _pg_plan(pg, _queries(_eq(field, "x")).count)


@pytest.mark.parametrize(("field", "index"), [
    ("action", "ix_audit_log_tenant_action"), ("actor", "ix_audit_log_tenant_actor")])
@pytest.mark.parametrize("order", ["asc", "desc"])
def test_a_sort_on_an_indexed_field_walks_its_index_on_postgresql(pg: Engine, field: str, index: str,
                                                                   order: str) -> None:
    plan = _pg_plan(pg, _queries({"sortField": field, "sortOrder": order, "pageNum": "500"}).page)
    assert index in plan
    assert "Sort" not in plan


def test_the_keyword_compares_exactly_what_the_trigram_index_holds_on_postgresql(pg: Engine) -> None:
    """Which index PostgreSQL picks for a keyword depends on how many entries match and how many the
    tenant has (the benchmark shows it choosing this one at 1,000,000); here the proof is that every
    expression the keyword compares is, as PostgreSQL renders both, a column of the trigram index."""
    plan = _pg_plan(pg, _queries({"keyword": "Alice"}).count)
    compared = set(re.findall(r"(lower\(\(\w+\)::text\)) ~~ '%alice%'::text", plan))
    with pg.connect() as conn:
        definition = conn.exec_driver_sql(
            "SELECT pg_get_indexdef('ix_audit_log_keyword_trgm'::regclass)").scalar_one()
    indexed = set(re.findall(r"(lower\(\(\w+\)::text\)) gin_trgm_ops", definition))
    assert len(compared) == 2
    assert compared == indexed


@pytest.mark.parametrize(("field", "index"), [
    ("action", "ix_audit_log_tenant_action"), ("actor", "ix_audit_log_tenant_actor"),
    ("targetId", "ix_audit_log_tenant_target"), ("requestId", "ix_audit_log_tenant_request")])
def test_an_eq_filter_on_an_indexed_field_uses_its_index_on_sqlite(lite: Engine, field: str, index: str) -> None:
    assert index in _sqlite_plan(lite, _queries(_eq(field, "x")).count)
