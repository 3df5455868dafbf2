"""Statements compiled once, executed by an async driver.

SQLAlchemy keeps what it is best at (the tables, the migrations, building and compiling SQL for
each dialect and converting values on the way in and out); it no longer executes anything on the
request path. A ``Statement`` is compiled once per dialect on first use and then only bound, so a
hot path never builds, caches or compiles SQL again. ``storage.drivers.postgres`` runs the compiled SQL on
psycopg 3's async connections (one pool per event loop, autocommit for single statements,
pipelined transactions) and ``storage.drivers.sqlite`` runs it on sqlite3 in a small thread pool.

Statements that vary per call (list filters, admin searches) may still be passed as SQLAlchemy
constructs: they are compiled through a bounded cache keyed by SQLAlchemy's own cache key.

Doing the execution context's work without it takes SQLAlchemy's private API; every use of it is
in ``storage.drivers.sqlalchemy_internals``, for the one SQLAlchemy version pinned.

Results come back fully fetched as ``Result``: the few methods of SQLAlchemy's result the storage
modules use (``first``, ``one``, ``scalar_one``...). Rows are typed: a ``Statement`` or ``Query``
names its row class, a ``NamedTuple`` whose fields are the statement's result columns in order
(checked when the statement is compiled, so a misspelt or reordered field fails on first use in any
test), and the driver's values become that class directly, so mypy checks every column access and
reading a column costs what reading a tuple item does. A statement without one gets ``Row``, a
plain tuple, whose columns are read by position only.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Generic, Protocol, TypeVar, overload

from sqlalchemy import Insert, Table, bindparam, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import IntegrityError as IntegrityError
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

from storage.drivers import sqlalchemy_internals as internals

__all__ = [
    "WRITE_PROBE",
    "Compiled",
    "Database",
    "DatabaseUnavailable",
    "Executor",
    "IntegrityError",
    "Query",
    "Result",
    "Row",
    "Statement",
    "Transaction",
    "bound",
    "compiled_for",
    "insert_or_skip",
]

Processor = internals.Processor


# Writes owed to a database that was down (``owe``: idempotency-key releases), kept for when it
# answers again. Past this many the oldest is dropped: its key is then freed by its lease instead.
MAX_OWED_WRITES = 10_000


def bounded_owe(owed: list[tuple[str, Any]], write: tuple[str, Any]) -> bool:
    """Append ``write`` to ``owed``, dropping the oldest past ``MAX_OWED_WRITES``; False if one was dropped."""
    owed.append(write)
    if len(owed) > MAX_OWED_WRITES:
        del owed[0]
        return False
    return True


class DatabaseUnavailable(Exception):
    """The database cannot be reached (refused, shut down, the connection lost mid-statement) or
    has no connection to give within the bound (``TESSERA_DATABASE_UNAVAILABLE_SECONDS``).

    Raised by the storage backends instead of the driver's errors, so every caller sees one
    exception for "not now"; the web layer answers it with 503 and ``Retry-After``. Nothing of a
    write transaction that raised it is known to have committed, nor known not to have: callers
    whose effects must happen once (commands) rely on their idempotency key, never on a blind retry.
    """

    retry_after = 1  # seconds: the backends probe the database again at least this often


def _dialect(name: str) -> Dialect:
    if name == "postgresql":
        return postgresql.psycopg.dialect()  # type: ignore[no-untyped-call]
    # Named parameters (":name"): sqlite3 binds them from a dict, like psycopg's "%(name)s".
    return sqlite.pysqlite.dialect(paramstyle="named")


DIALECTS: dict[str, Dialect] = {"postgresql": _dialect("postgresql"), "sqlite": _dialect("sqlite")}


class Row(tuple[Any, ...]):
    """The row of a statement that names no row class: its columns by position only."""

    __slots__ = ()


# The row class of a statement: a ``NamedTuple`` (``Row`` when the statement names none).
R = TypeVar("R", bound=tuple[Any, ...], covariant=True)


def _check_fields(row: type[tuple[Any, ...]], names: Sequence[str], construct: ClauseElement) -> None:
    """A row class must list the statement's result columns, in order, by name."""
    fields = tuple(getattr(row, "_fields", ()))
    if fields != tuple(names):
        raise TypeError(f"{row.__name__} declares {fields}, but the statement returns {tuple(names)}: "
                        f"{str(construct)[:200]}")


class Result(Generic[R]):
    """Every row of one statement, fetched, and the number of rows it changed."""

    __slots__ = ("rowcount", "rows")

    def __init__(self, rows: list[R], rowcount: int) -> None:
        self.rows = rows
        self.rowcount = rowcount

    def __iter__(self) -> Iterator[R]:
        return iter(self.rows)

    def all(self) -> list[R]:
        return self.rows

    def first(self) -> R | None:
        return self.rows[0] if self.rows else None

    def one(self) -> R:
        if len(self.rows) != 1:
            raise LookupError(f"expected one row, got {len(self.rows)}")
        return self.rows[0]

    def one_or_none(self) -> R | None:
        if len(self.rows) > 1:
            raise LookupError(f"expected at most one row, got {len(self.rows)}")
        return self.first()

    def scalar(self) -> Any:
        return self.rows[0][0] if self.rows else None

    def scalar_one(self) -> Any:
        return self.one()[0]

    def scalar_one_or_none(self) -> Any:
        row = self.one_or_none()
        return None if row is None else row[0]

    def scalars(self) -> list[Any]:
        return [row[0] for row in self.rows]


def _scalar_defaults(compiled: SQLCompiler) -> dict[str, Any]:
    """The Python-side column defaults (``default=1``, ``onupdate=...``) the statement needs, by bind name.

    SQLAlchemy's execution context fills them in, and this path does not use it: they are bound by
    :meth:`Compiled.bind` instead, and only scalars exist (a callable default is refused here, once).
    """
    defaults: dict[str, Any] = {}
    for column in [*compiled.insert_prefetch, *compiled.update_prefetch]:
        default = column.default if column in compiled.insert_prefetch else column.onupdate
        if default is None or not default.is_scalar:
            raise TypeError(f"{column}: only scalar Python-side defaults are supported")
        defaults[column.key] = default.arg  # type: ignore[attr-defined]
    return defaults


def _reads_only(sql: str) -> bool:
    """A plain SELECT (no FOR UPDATE) takes no write lock: SQLite runs it beside a writer."""
    return sql.lstrip()[:6].upper() == "SELECT" and " FOR UPDATE" not in sql


class Compiled(Generic[R]):
    """One statement compiled for one dialect: its SQL, how to bind, how to read rows back."""

    __slots__ = ("_binds", "_columns", "_compiled", "_defaults", "_expanding", "_row",
                 "reads_only", "returns_rows", "sql")

    def __init__(self, construct: ClauseElement, dialect: Dialect, cache_key: internals.CacheKey | None = None,
                 row: type[R] | None = None) -> None:
        if isinstance(construct, Insert) and not internals.asks_for_returning(construct):
            construct = construct.inline()  # no implicit "RETURNING id" nobody asked for
        compiled = internals.compile_for(construct, dialect, cache_key)
        self._compiled = compiled
        self._defaults: dict[str, Any] = _scalar_defaults(compiled)
        self.sql: str = compiled.string
        self.reads_only = _reads_only(self.sql)
        self._expanding = any(b.expanding for b in compiled.binds.values())
        self._binds: list[tuple[str, Processor]] = list(internals.bind_processors(compiled).items())
        columns = internals.result_columns(compiled, dialect)
        self.returns_rows = bool(columns)
        if row is not None:
            _check_fields(row, [c.name for c in columns], construct)
        self._row: Any = functools.partial(tuple.__new__, row or Row)
        self._columns: list[tuple[int, Processor]] = [
            (i, c.processor) for i, c in enumerate(columns) if c.processor is not None]

    def bind(self, params: Mapping[str, Any] | None, extracted: Sequence[Any] | None = None) -> tuple[str, Any]:
        """The SQL and the driver's parameters for one execution; ``extracted`` carries the
        values of a per-call construct compiled for an earlier one of the same shape."""
        compiled = self._compiled
        if self._defaults:
            params = {**self._defaults, **(params or {})}
        if self._expanding:  # IN lists: SQLAlchemy renders one placeholder per value, per call
            expanded = internals.expand(compiled, params, extracted)
            values = expanded.values
            # The expanded state knows the processors of the values it expanded; the other
            # parameters keep the ones compiled with the statement.
            processors = {**dict(self._binds), **expanded.processors}
            for name, processor in processors.items():
                value = values.get(name)
                if value is not None and callable(processor):
                    values[name] = processor(value)
            return expanded.sql, values
        values = dict(compiled.construct_params(params, extracted_parameters=extracted))
        for name, proc in self._binds:
            value = values.get(name)
            if value is not None:
                values[name] = proc(value)
        return self.sql, values

    def rows(self, raw: Sequence[Sequence[Any]]) -> list[R]:
        make = self._row
        if not self._columns:
            return [make(r) for r in raw]
        out = []
        for r in raw:
            values = list(r)
            for i, proc in self._columns:
                values[i] = proc(values[i])
            out.append(make(values))
        return out


class Statement(Generic[R]):
    """A statement built once (at import) and compiled once per dialect (on first use).

    ``variants`` gives a dialect its own construct where the SQL must differ (an upsert); ``row``
    is the class of its rows (see the module docstring).
    """

    __slots__ = ("_compiled", "_construct", "_lock", "_row", "_variants")

    @overload
    def __init__(self: Statement[Row], construct: ClauseElement,
                 variants: Mapping[str, ClauseElement] | None = None) -> None: ...

    @overload
    def __init__(self, construct: ClauseElement, variants: Mapping[str, ClauseElement] | None = None, *,
                 row: type[R]) -> None: ...

    def __init__(self, construct: ClauseElement, variants: Mapping[str, ClauseElement] | None = None, *,
                 row: type[R] | None = None) -> None:
        self._construct = construct
        self._variants = dict(variants or {})
        self._row = row
        self._compiled: dict[str, Compiled[R]] = {}
        self._lock = threading.Lock()

    def compiled(self, dialect: str) -> Compiled[R]:
        found = self._compiled.get(dialect)
        if found is None:
            with self._lock:
                construct = self._variants.get(dialect, self._construct)
                found = self._compiled[dialect] = Compiled(construct, DIALECTS[dialect], row=self._row)
        return found


class Query(Generic[R]):
    """A statement built per call (a list's filters, an admin search) and the class of its rows.

    It is compiled through the bounded cache below, like a bare construct.
    """

    __slots__ = ("construct", "row")

    def __init__(self, construct: ClauseElement, row: type[R]) -> None:
        self.construct = construct
        self.row = row


# Statements built per call (list filters, admin searches) are compiled through this cache,
# keyed by SQLAlchemy's own cache key (the SQL's shape, not its values); bounded, least recently
# used out first.
_CACHE_SIZE = 500
_cache: OrderedDict[tuple[str, Any, type[Any] | None], Compiled[Any]] = OrderedDict()
_cache_lock = threading.Lock()


@overload
def compiled_for(statement: Statement[R] | Query[R], dialect: str) -> tuple[Compiled[R], Sequence[Any] | None]: ...


@overload
def compiled_for(statement: ClauseElement, dialect: str) -> tuple[Compiled[Row], Sequence[Any] | None]: ...


def compiled_for(statement: Statement[Any] | Query[Any] | ClauseElement,
                 dialect: str) -> tuple[Compiled[Any], Sequence[Any] | None]:
    """The compiled form of a statement and, for a per-call construct, the values it carries."""
    if isinstance(statement, Statement):
        return statement.compiled(dialect), None
    row: type[Any] | None = None
    if isinstance(statement, Query):
        construct, row = statement.construct, statement.row
    else:
        construct = statement
    cache_key = internals.cache_key(construct)
    if cache_key is None:  # not cacheable: compile for this call only
        return Compiled(construct, DIALECTS[dialect], row=row), None
    key = (dialect, cache_key.key, row)
    with _cache_lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found, cache_key.values
    found = Compiled(construct, DIALECTS[dialect], cache_key, row=row)
    with _cache_lock:
        _cache[key] = found
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return found, cache_key.values


def bound(*names: str) -> dict[str, Any]:
    """``{name: bindparam(name)}`` for each column an insert binds per call."""
    return {name: bindparam(name) for name in names}


@overload
def insert_or_skip(table: Table, columns: Sequence[str]) -> Statement[Row]: ...


@overload
def insert_or_skip(table: Table, columns: Sequence[str], returning: Sequence[Any], row: type[R]) -> Statement[R]: ...


def insert_or_skip(table: Table, columns: Sequence[str], returning: Sequence[Any] = (),
                   row: type[Any] | None = None) -> Statement[Any]:
    """``INSERT ... ON CONFLICT DO NOTHING [RETURNING ...]``: a claim in one statement.

    The returned row (or ``rowcount``) says whether this insert won; a conflict is not an error,
    so a transaction needs no savepoint around it. ``columns`` are bound per call by name;
    ``row`` is the class of the returned rows.
    """
    values: dict[str, Any] = {name: bindparam(name) for name in columns}
    pg = postgresql.insert(table).values(values).on_conflict_do_nothing()
    lite = sqlite.insert(table).values(values).on_conflict_do_nothing()
    if returning:
        pg = pg.returning(*returning)  # type: ignore[assignment]
        lite = lite.returning(*returning)  # type: ignore[assignment]
    if row is None:
        return Statement(pg, {"postgresql": pg, "sqlite": lite})
    return Statement(pg, {"postgresql": pg, "sqlite": lite}, row=row)


Params = Mapping[str, Any] | None

# Readiness's write: the one row every migrated database has, updated to itself and committed.
# It takes the write lock and writes (a WAL record), so a read-only, full or locked store says no,
# and it leaves nothing behind.
WRITE_PROBE = Statement(text("UPDATE alembic_version SET version_num = version_num"))


class Executor(Protocol):
    """Where a storage function runs its SQL: the database (one statement, autocommit) or a
    transaction."""

    @property
    def dialect(self) -> str: ...

    @overload
    async def execute(self, statement: Statement[R] | Query[R], params: Params = None) -> Result[R]: ...

    @overload
    async def execute(self, statement: ClauseElement, params: Params = None) -> Result[Row]: ...

    async def execute(self, statement: Statement[Any] | Query[Any] | ClauseElement,
                      params: Params = None) -> Result[Any]: ...

    async def enqueue(self, statement: Statement[Any] | Query[Any] | ClauseElement, params: Params = None) -> None:
        """Run a statement whose result nobody reads; in a PostgreSQL transaction it rides the
        pipeline to the next statement or the commit instead of costing a round trip."""
        ...

    async def execute_many(self, statement: Statement[Any], rows: Sequence[Mapping[str, Any]]) -> None:
        """One statement for many parameter sets (batched inserts), in one round trip."""
        ...


class Transaction(Executor, Protocol):
    """One transaction: everything commits together when the block ends, or nothing does."""


class Database(Executor, Protocol):
    """A database: single statements in autocommit, and transactions."""

    def read(self) -> AbstractAsyncContextManager[Transaction]:
        """A consistent snapshot for several statements (one statement needs no transaction)."""
        ...

    def write(self) -> AbstractAsyncContextManager[Transaction]: ...

    async def ping(self) -> bool: ...

    async def can_write(self) -> bool:
        """Whether a write commits now (``WRITE_PROBE``); readiness asks it."""
        ...

    def owe(self, statement: Statement[Any] | Query[Any] | ClauseElement, params: Params = None) -> None:
        """Run a write later, once the database is reachable again (a write that failed because it
        was not: an idempotency claim to release). It must be harmless to run late or twice."""
        ...

    async def close(self) -> None:
        """Close what this event loop opened (the pool of this loop)."""
        ...

    def dispose(self) -> None:
        """Forget every connection (at process exit, from any thread)."""
        ...
