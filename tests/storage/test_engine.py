"""``storage.drivers.engine`` on both databases: what it does in place of SQLAlchemy's execution context.

The engine compiles with SQLAlchemy and executes on the drivers itself, through the private API
fenced in ``storage.drivers.sqlalchemy_internals``. Each test holds one thing the storage layer relies on to
what a SQLAlchemy execution would give, on a throwaway table of its own, so an upgrade of SQLAlchemy
that changes any of it fails here, not on a request.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

import pytest
import sqlalchemy
from sqlalchemy import Boolean, Column, Integer, MetaData, Numeric, String, Table, bindparam, cast, literal, select

from storage.drivers import sqlalchemy_internals
from storage.drivers.engine import Query, Statement, compiled_for
from storage.schema.types import JsonDoc, UTCDateTime
from tests.conftest import Env

AT = datetime(2026, 11, 26, 7, 30, 15, 123456, tzinfo=UTC)


def _probe_table() -> Table:
    return Table(
        f"engine_probe_{uuid.uuid4().hex[:10]}", MetaData(),
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("name", String(40), nullable=False),
        Column("tags", JsonDoc),
        Column("at", UTCDateTime()),
        Column("flag", Boolean),
        Column("attempts", Integer, nullable=False, default=1),
    )


@pytest.fixture
def probe(env: Env) -> Iterator[Table]:
    table = _probe_table()
    table.create(env.sql)
    try:
        yield table
    finally:
        table.drop(env.sql)


def _insert(env: Env, table: Table, **values: object) -> None:
    env.run(env.runtime.db.execute, table.insert().values(**values))


def test_the_installed_sqlalchemy_is_the_version_its_private_api_is_fenced_for() -> None:
    assert sqlalchemy.__version__ == sqlalchemy_internals.SQLALCHEMY_VERSION


def test_a_python_side_default_is_bound_when_an_insert_leaves_it_out(env: Env, probe: Table) -> None:
    env.run(env.runtime.db.execute, Statement(probe.insert().values(name=bindparam("name"))), {"name": "plain"})
    assert env.run(env.runtime.db.execute, select(probe.c.attempts)).scalar_one() == 1


class _Typed(NamedTuple):
    tags: Any
    at: datetime | None
    flag: bool | None


class _Returned(NamedTuple):
    id: int
    name: str


def test_values_come_back_as_their_column_types_say(env: Env, probe: Table) -> None:
    _insert(env, probe, name="typed", tags={"a": [1, 2], "b": None}, at=AT, flag=True)
    row = env.run(env.runtime.db.execute, Query(select(probe.c.tags, probe.c.at, probe.c.flag), _Typed)).one()
    assert type(row) is _Typed
    assert row.tags == {"a": [1, 2], "b": None}
    assert row.at == AT and row.at.utcoffset() == timedelta(0)
    assert row.flag is True


def test_a_result_type_that_needs_the_drivers_column_type_is_refused_when_compiled() -> None:
    """SQLAlchemy picks ``Numeric``'s psycopg result processor by the cursor's column type, which a
    statement compiled before it runs does not have: refused with a clear error, never misread."""
    statement = Statement(select(cast(literal("1.5"), Numeric(10, 2)).label("amount")))
    with pytest.raises(TypeError, match=r"'amount'.*driver's column type"):
        statement.compiled("postgresql")


def test_an_insert_asked_for_returning_gives_the_inserted_row(env: Env, probe: Table) -> None:
    statement = Statement(probe.insert().values(name=bindparam("name")).returning(probe.c.id, probe.c.name),
                          row=_Returned)
    row = env.run(env.runtime.db.execute, statement, {"name": "returned"}).one()
    assert row.name == "returned" and isinstance(row.id, int)


def test_a_row_class_that_does_not_list_the_columns_in_order_is_refused_when_compiled(probe: Table) -> None:
    """A misspelt, missing or reordered field fails on the statement's first use, in any test that
    runs it, never as a wrong column read on a request."""
    swapped = Statement(select(probe.c.name, probe.c.id), row=_Returned)
    for dialect in ("sqlite", "postgresql"):
        with pytest.raises(TypeError, match=r"_Returned declares \('id', 'name'\).*returns \('name', 'id'\)"):
            swapped.compiled(dialect)


def test_a_statement_without_a_row_class_gives_plain_tuples(env: Env, probe: Table) -> None:
    """Columns of an untyped statement are read by position; reading one by name is a mypy error,
    and at run time an AttributeError rather than an unchecked lookup."""
    _insert(env, probe, name="plain")
    row = env.run(env.runtime.db.execute, select(probe.c.name)).one()
    assert row == ("plain",) and row[0] == "plain"
    assert not hasattr(row, "name")


def test_an_insert_not_asked_for_returning_renders_none(probe: Table) -> None:
    for dialect in ("sqlite", "postgresql"):
        compiled = Statement(probe.insert().values(name=bindparam("name"))).compiled(dialect)
        assert "RETURNING" not in compiled.sql.upper() and not compiled.returns_rows


def test_an_in_list_renders_one_placeholder_per_value_at_each_call(env: Env, probe: Table) -> None:
    for name in ("a", "b", "c", "d"):
        _insert(env, probe, name=name)
    statement = Statement(select(probe.c.name).where(probe.c.name.in_(bindparam("names", expanding=True)))
                          .order_by(probe.c.name))
    assert env.run(env.runtime.db.execute, statement, {"names": ["b"]}).scalars() == ["b"]
    assert env.run(env.runtime.db.execute, statement, {"names": ["d", "a", "c"]}).scalars() == ["a", "c", "d"]
    assert env.run(env.runtime.db.execute, statement, {"names": []}).scalars() == []


def test_the_values_of_an_in_list_go_through_their_type(env: Env, probe: Table) -> None:
    _insert(env, probe, name="then", at=AT)
    _insert(env, probe, name="later", at=AT + timedelta(days=1))
    found = env.run(env.runtime.db.execute, select(probe.c.name).where(probe.c.at.in_([AT, AT - timedelta(days=1)])))
    assert found.scalars() == ["then"]


def test_a_per_call_construct_is_compiled_once_per_shape_and_binds_each_calls_values(
        env: Env, probe: Table) -> None:
    for name in ("x", "y"):
        _insert(env, probe, name=name)
    dialect = env.runtime.db.dialect
    x, y = (select(probe.c.name).where(probe.c.name == name, probe.c.attempts >= 1) for name in ("x", "y"))
    (compiled_x, values_x), (compiled_y, values_y) = compiled_for(x, dialect), compiled_for(y, dialect)
    assert compiled_x is compiled_y  # one shape, one compilation
    assert compiled_x.bind(None, values_x) != compiled_y.bind(None, values_y)
    assert env.run(env.runtime.db.execute, x).scalars() == ["x"]
    assert env.run(env.runtime.db.execute, y).scalars() == ["y"]
