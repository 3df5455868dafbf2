"""Every private SQLAlchemy API the storage layer uses, in one place, for SQLAlchemy 2.1.9 only.

``storage.drivers.engine`` compiles statements with SQLAlchemy and runs them on the async drivers itself,
without SQLAlchemy's execution context (which is what makes a hot statement cost a bind and a
round trip and nothing more). What the execution context would have done (apply the type
processors both ways, expand IN lists per call, key the compiled cache) is done here through
SQLAlchemy's private attributes, because it has no public API for any of them:

- ``Insert._returning``: whether an insert asked for RETURNING (to compile the others ``inline``);
- ``SQLCompiler._bind_processors``, ``_result_columns`` and ``TypeEngine._cached_result_processor``:
  the conversions of bound values and result columns (JSON, timestamps, booleans on SQLite);
- ``SQLCompiler._process_parameters_for_postcompile`` with ``construct_params(_no_postcompile=True)``:
  IN lists, rendered with one placeholder per value at each call;
- ``ClauseElement._generate_cache_key`` and the compiler's ``cache_key`` argument: the shape of a
  per-call construct, its values, and compiling it so that later calls bind their own values.

SQLAlchemy is pinned exactly in ``pyproject.toml`` for that reason. ``tests/storage/test_engine.py``
holds each of these to what the storage layer relies on, on both dialects, and checks that the
installed version is ``SQLALCHEMY_VERSION``: a new release is adopted by changing the pin and this
constant together once those tests pass on it. Nothing outside this module reads a private name
of SQLAlchemy (``tests/architecture/test_dependencies.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from sqlalchemy import Insert
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

SQLALCHEMY_VERSION = "2.1.9"

Processor = Callable[[Any], Any]


class ResultColumn(NamedTuple):
    """A column of a compiled statement's result: its name, and how to convert its values."""

    name: str
    processor: Processor | None


class Expanded(NamedTuple):
    """One call's SQL with its IN lists expanded, its values, and the processors of those values."""

    sql: str
    values: dict[str, Any]
    processors: dict[str, Processor]


class CacheKey(NamedTuple):
    """A construct's shape (hashable), the values it carries, and SQLAlchemy's own key to compile
    it under (so that its bound values come from each call's values, not the first call's)."""

    key: Any
    values: Sequence[Any]
    sqlalchemy_key: Any


def asks_for_returning(insert: Insert) -> bool:
    """Whether ``insert`` asked for RETURNING (SQLAlchemy compiles an implicit one otherwise)."""
    return bool(insert._returning)


def bind_processors(compiled: SQLCompiler) -> dict[str, Processor]:
    """The conversions of bound values, by parameter name (only those that convert anything)."""
    return {name: proc for name, proc in (compiled._bind_processors or {}).items() if callable(proc)}


def result_columns(compiled: SQLCompiler, dialect: Dialect) -> list[ResultColumn]:
    """The result's columns in order, each with its type's result processor for ``dialect``.

    The processor is chosen before any execution, so without the driver's column type (SQLAlchemy
    passes the cursor's); a type that needs it (``Numeric`` on psycopg) is refused here, when the
    statement is compiled, rather than converting wrongly. No table column of ours has such a type.
    """
    columns = []
    for column in compiled._result_columns:
        name, type_ = str(column[0]), column[3]
        try:
            processor = type_._cached_result_processor(dialect, None)
        except (TypeError, SQLAlchemyError) as error:
            raise TypeError(f"result column {name!r} ({type_!r}) converts values by the driver's column type, "
                            "which a statement compiled ahead of execution does not know") from error
        columns.append(ResultColumn(name, processor))
    return columns


def expand(compiled: SQLCompiler, params: Mapping[str, Any] | None, extracted: Sequence[Any] | None) -> Expanded:
    """The SQL of one call with each IN list rendered as one placeholder per value."""
    state = compiled._process_parameters_for_postcompile(
        compiled.construct_params(params, extracted_parameters=extracted, escape_names=False, _no_postcompile=True),
    )
    return Expanded(state.statement, dict(state.parameters), dict(state.processors))


def cache_key(construct: ClauseElement) -> CacheKey | None:
    """The construct's cache key; None for one SQLAlchemy cannot cache (compile it per call)."""
    found = construct._generate_cache_key()
    return None if found is None else CacheKey(found.key, found.bindparams, found)


def compile_for(construct: ClauseElement, dialect: Dialect, key: CacheKey | None = None) -> SQLCompiler:
    """``construct`` compiled for ``dialect`` (under its cache key when it has one: the compiler's
    ``cache_key`` argument)."""
    compiled = construct.compile(dialect=dialect, cache_key=key.sqlalchemy_key) if key else \
        construct.compile(dialect=dialect)
    assert isinstance(compiled, SQLCompiler)
    return compiled
