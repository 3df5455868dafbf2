"""A span per database statement and per transaction, when tracing is on.

``tessera.runtime`` puts this in front of the database only when tracing is on (``tessera.tracing``),
so with tracing off no statement pays anything for it. A span records the dialect (``db.system``),
the statement's SQL as compiled, with its placeholders (``db.statement``: never a parameter's value)
and its first keyword (``db.operation``). Statements are traced only inside a recording span (a
request's, a fan-out's, a delivery attempt's): a worker's idle polls and the call-audit writer's
batches make no traces of their own. A failed statement's span has the error status and the
exception's type (``error.type``), never its message, which may quote the values. A queued write
(``enqueue``) ends its span when it is queued: on PostgreSQL it travels with the next statement or
the commit, whose span includes the round trip.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager
from typing import Any

from sqlalchemy.sql import ClauseElement

from storage.drivers.engine import Database, Params, Query, Result, Statement, Transaction, compiled_for
from tessera import tracing

_SYSTEM = {"postgresql": "postgresql", "sqlite": "sqlite"}


def _operation(sql: str) -> str:
    return sql.lstrip().split(None, 1)[0].upper() if sql.strip() else "SQL"


@contextmanager
def _statement_span(dialect: str, statement: Statement[Any] | Query[Any] | ClauseElement) -> Iterator[None]:
    tracer = tracing.tracer
    if tracer is None or not tracing.recording():
        yield
        return
    sql = compiled_for(statement, dialect)[0].sql
    operation = _operation(sql)
    # The exception is not recorded: a driver's message may quote the values (a unique key's DETAIL).
    with tracer.start_as_current_span(operation, kind=tracing.SpanKind.CLIENT, attributes={
            "db.system": _SYSTEM[dialect], "db.statement": sql, "db.operation": operation},
            record_exception=False, set_status_on_exception=False) as span:
        try:
            yield
        except BaseException as exc:
            tracing.failed(span, exc)
            raise


class TracedTransaction:
    """A transaction whose statements each have a span."""

    def __init__(self, tx: Transaction) -> None:
        self._tx = tx
        self.dialect = tx.dialect

    async def execute(self, statement: Any, params: Params = None) -> Result[Any]:
        with _statement_span(self.dialect, statement):
            result: Result[Any] = await self._tx.execute(statement, params)
        return result

    async def enqueue(self, statement: Any, params: Params = None) -> None:
        with _statement_span(self.dialect, statement):
            await self._tx.enqueue(statement, params)

    async def execute_many(self, statement: Statement[Any], rows: Sequence[Mapping[str, Any]]) -> None:
        with _statement_span(self.dialect, statement):
            await self._tx.execute_many(statement, rows)


class TracedDatabase:
    """The database with a span per statement and one per transaction (its statements its children).

    What it does not trace (``ping``, ``owe``, the pools' statistics, PostgreSQL's notifications)
    goes to the database as it is.
    """

    def __init__(self, db: Database) -> None:
        self.inner = db
        self.dialect = db.dialect

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def execute(self, statement: Any, params: Params = None) -> Result[Any]:
        with _statement_span(self.dialect, statement):
            result: Result[Any] = await self.inner.execute(statement, params)
        return result

    async def enqueue(self, statement: Any, params: Params = None) -> None:
        with _statement_span(self.dialect, statement):
            await self.inner.enqueue(statement, params)

    async def execute_many(self, statement: Statement[Any], rows: Sequence[Mapping[str, Any]]) -> None:
        with _statement_span(self.dialect, statement):
            await self.inner.execute_many(statement, rows)

    def read(self) -> Any:
        return self._transaction(self.inner.read(), "read")

    def write(self) -> Any:
        return self._transaction(self.inner.write(), "write")

    @asynccontextmanager
    async def _transaction(self, opened: Any, mode: str) -> AsyncIterator[TracedTransaction]:
        tracer = tracing.tracer
        if tracer is None or not tracing.recording():
            async with opened as tx:
                yield TracedTransaction(tx)
            return
        with tracer.start_as_current_span("db.transaction", kind=tracing.SpanKind.CLIENT,
                                          attributes={"db.system": _SYSTEM[self.dialect], "tessera.db.mode": mode},
                                          record_exception=False, set_status_on_exception=False) as span:
            try:
                async with opened as tx:
                    yield TracedTransaction(tx)
            except BaseException as exc:
                tracing.failed(span, exc)
                raise

    async def ping(self) -> bool:
        return await self.inner.ping()

    async def can_write(self) -> bool:
        return await self.inner.can_write()

    def owe(self, statement: Any, params: Params = None) -> None:
        self.inner.owe(statement, params)

    async def close(self) -> None:
        await self.inner.close()

    def dispose(self) -> None:
        self.inner.dispose()
