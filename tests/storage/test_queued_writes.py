"""Writes queued in a transaction (``enqueue``), on both databases; on PostgreSQL they travel as one
statement when ``storage.drivers.pg_batches`` allows it.

Each test holds one thing a caller relies on whatever the batching does: every queued write lands,
in the order given where order can matter, a later statement sees them, and a violation undoes the
whole transaction.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from sqlalchemy import Column, Integer, MetaData, String, Table, bindparam, select, text, update

from storage.drivers import pg_batches
from storage.drivers.engine import IntegrityError, Statement
from storage.records import as_stored
from storage.schema.types import JsonDoc
from tests.conftest import Env


def _table(metadata: MetaData, role: str) -> Table:
    return Table(f"queued_{role}_{uuid.uuid4().hex[:10]}", metadata,
                 Column("id", Integer, primary_key=True, autoincrement=False),
                 Column("name", String(40), nullable=False, unique=True),
                 Column("hits", Integer, nullable=False, default=0))


@pytest.fixture
def tables(env: Env) -> Iterator[tuple[Table, Table, Table]]:
    metadata = MetaData()
    made = (_table(metadata, "a"), _table(metadata, "b"), _table(metadata, "c"))
    metadata.create_all(env.sql)
    try:
        yield made
    finally:
        metadata.drop_all(env.sql)


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The SQL text of every statement psycopg sends from here on (PostgreSQL only; empty on SQLite)."""
    texts: list[str] = []
    execute = psycopg.AsyncConnection.execute

    async def recorded(self: psycopg.AsyncConnection[Any], query: Any, params: Any = None, **kwargs: Any) -> Any:
        texts.append(query.decode() if isinstance(query, bytes) else str(query))
        return await execute(self, query, params, **kwargs)

    monkeypatch.setattr(psycopg.AsyncConnection, "execute", recorded)
    return texts


def _insert(table: Table) -> Statement[Any]:
    return Statement(table.insert().values(id=bindparam("id"), name=bindparam("name"), hits=bindparam("hits")))


def _bump(table: Table) -> Statement[Any]:
    return Statement(update(table).where(table.c.id == bindparam("row_id")).values(hits=table.c.hits + 1))


def _rows(env: Env, table: Table) -> list[tuple[Any, ...]]:
    with env.sql.connect() as conn:
        return [tuple(row) for row in conn.execute(select(table).order_by(table.c.id))]


def test_queued_writes_on_different_tables_all_land_at_commit(env: Env, tables: tuple[Table, Table, Table]) -> None:
    a, b, c = tables

    async def work() -> None:
        async with env.runtime.db.write() as tx:
            await tx.enqueue(_insert(a), {"id": 1, "name": "one", "hits": 0})
            await tx.enqueue(_insert(b), {"id": 2, "name": "two", "hits": 0})
            await tx.enqueue(_insert(c), {"id": 3, "name": "three", "hits": 0})

    env.run(work)
    assert (_rows(env, a), _rows(env, b), _rows(env, c)) == ([(1, "one", 0)], [(2, "two", 0)], [(3, "three", 0)])


def test_a_transaction_of_queued_writes_alone_is_one_statement_on_postgresql(
        env: Env, tables: tuple[Table, Table, Table], sent: list[str]) -> None:
    a, b, c = tables

    async def work() -> None:
        async with env.runtime.db.write() as tx:
            await tx.enqueue(_insert(a), {"id": 1, "name": "one", "hits": 0})
            await tx.enqueue(_insert(b), {"id": 1, "name": "one", "hits": 0})
            await tx.enqueue(_bump(c), {"row_id": 1})

    env.run(work)
    expected = ["WITH w0 AS (INSERT INTO"] if env.backend == "postgresql" else []
    assert [sql[:len(prefix)] for sql, prefix in zip(sent, expected, strict=False)] == expected
    assert len(sent) == len(expected)


def test_queued_writes_after_a_statement_go_as_one_before_the_commit(
        env: Env, tables: tuple[Table, Table, Table], sent: list[str]) -> None:
    a, b, c = tables

    async def work() -> None:
        async with env.runtime.db.write() as tx:
            await tx.execute(select(a.c.id))
            await tx.enqueue(_insert(b), {"id": 1, "name": "one", "hits": 0})
            await tx.enqueue(_insert(c), {"id": 1, "name": "one", "hits": 0})

    env.run(work)
    assert _rows(env, b) == _rows(env, c) == [(1, "one", 0)]
    expected = ["BEGIN", "SELECT", "WITH", "COMMIT"] if env.backend == "postgresql" else []
    assert [sql.split(" ")[0] for sql in sent] == expected


def test_a_block_that_fails_before_its_queued_writes_are_sent_writes_nothing(
        env: Env, tables: tuple[Table, Table, Table], sent: list[str]) -> None:
    a, b, _ = tables

    async def work() -> None:
        async with env.runtime.db.write() as tx:
            await tx.enqueue(_insert(a), {"id": 1, "name": "one", "hits": 0})
            await tx.enqueue(_insert(b), {"id": 1, "name": "one", "hits": 0})
            raise LookupError("the command failed")

    with pytest.raises(LookupError):
        env.run(work)
    assert (_rows(env, a), _rows(env, b)) == ([], [])
    if env.backend == "postgresql":
        assert sent == []


def test_queued_writes_on_one_row_apply_one_after_another(env: Env, tables: tuple[Table, Table, Table]) -> None:
    a, _, _ = tables

    async def work() -> None:
        async with env.runtime.db.write() as tx:
            await tx.enqueue(_insert(a), {"id": 1, "name": "one", "hits": 0})
            await tx.enqueue(_bump(a), {"row_id": 1})
            await tx.enqueue(_bump(a), {"row_id": 1})

    env.run(work)
    assert _rows(env, a) == [(1, "one", 2)]


def test_a_statement_after_queued_writes_sees_them(env: Env, tables: tuple[Table, Table, Table]) -> None:
    a, b, _ = tables

    async def work() -> list[Any]:
        async with env.runtime.db.write() as tx:
            await tx.enqueue(_insert(a), {"id": 1, "name": "one", "hits": 0})
            await tx.enqueue(_insert(b), {"id": 7, "name": "seven", "hits": 0})
            return list((await tx.execute(select(a.c.name, b.c.name).select_from(a.join(b, a.c.id < b.c.id)))).all())

    assert env.run(work) == [("one", "seven")]


def test_a_violation_in_queued_writes_undoes_the_whole_transaction(
        env: Env, tables: tuple[Table, Table, Table]) -> None:
    a, b, c = tables

    async def work() -> None:
        async with env.runtime.db.write() as tx:
            await tx.execute(_insert(a), {"id": 1, "name": "one", "hits": 0})
            await tx.enqueue(_insert(b), {"id": 1, "name": "one", "hits": 0})
            await tx.enqueue(_insert(c), {"id": 1, "name": "one", "hits": 0})
            await tx.enqueue(_insert(c), {"id": 2, "name": "one", "hits": 0})  # the unique name again

    with pytest.raises(IntegrityError):
        env.run(work)
    assert (_rows(env, a), _rows(env, b), _rows(env, c)) == ([], [], [])


def test_a_queued_statement_that_reads_another_table_is_sent_on_its_own() -> None:
    assert pg_batches.target('INSERT INTO audit_log (pid) VALUES (%(pid)s::VARCHAR)') == "audit_log"
    assert pg_batches.target('UPDATE "user" SET hits=(hits + %(n)s) WHERE "user".id = %(id)s') == "user"
    assert pg_batches.target("INSERT INTO audit_log (pid) SELECT pid FROM records") is None
    assert pg_batches.target("SET LOCAL lock_timeout = '2s'") is None
    assert pg_batches.target("UPDATE t SET name = 'a%%b' WHERE id = %(id)s") is None


def test_merged_statements_keep_each_statements_parameters_apart() -> None:
    sql, values = pg_batches.merged([
        ("a", "INSERT INTO a (id) VALUES (%(id)s)", {"id": 1}),
        ("b", "UPDATE b SET n=%(id)s WHERE b.id = %(id)s", {"id": 2}),
    ])
    assert sql == "WITH w0 AS (INSERT INTO a (id) VALUES (%(w0_id)s)) UPDATE b SET n=%(w1_id)s WHERE b.id = %(w1_id)s"
    assert values == {"w0_id": 1, "w1_id": 2}


def test_a_statement_that_reads_another_table_keeps_its_place_among_queued_writes(
        env: Env, tables: tuple[Table, Table, Table], sent: list[str]) -> None:
    a, b, c = tables
    reads_b = text(f"UPDATE {a.name} SET hits = hits + 1 WHERE id IN (SELECT id FROM {b.name})")

    async def work() -> None:
        async with env.runtime.db.write() as tx:
            await tx.execute(_insert(a), {"id": 1, "name": "one", "hits": 0})
            await tx.enqueue(_insert(b), {"id": 1, "name": "one", "hits": 0})
            await tx.enqueue(reads_b)
            await tx.enqueue(_insert(c), {"id": 1, "name": "one", "hits": 0})

    env.run(work)
    assert _rows(env, a) == [(1, "one", 1)]
    expected = ["BEGIN", "INSERT", "INSERT", "UPDATE", "INSERT", "COMMIT"] if env.backend == "postgresql" else []
    assert [sql.split(" ")[0] for sql in sent] == expected


def test_a_created_records_data_is_what_the_database_gives_back(env: Env) -> None:
    """``as_stored``: key order and negative zero as each database returns a JSON document."""
    metadata = MetaData()
    docs = Table(f"queued_docs_{uuid.uuid4().hex[:10]}", metadata,
                 Column("id", Integer, primary_key=True, autoincrement=False), Column("doc", JsonDoc))
    data = {"warehouse": "W", "sku": "S", "quantity": -0.0, "é": 1, "z": True, "receivedAt": None, "a1": 1.5e-7}
    metadata.create_all(env.sql)
    try:
        env.run(env.runtime.db.execute, docs.insert().values(id=1, doc=data))
        read = env.run(env.runtime.db.execute, select(docs.c.doc)).scalar_one()
    finally:
        metadata.drop_all(env.sql)
    assert json.dumps(as_stored(data, env.runtime.db.dialect)) == json.dumps(read)
