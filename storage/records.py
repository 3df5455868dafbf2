"""Tenant-scoped access to the records of declared models.

A ``RecordRepository`` is opened for one tenant and one model, and every statement it runs carries
both in its WHERE clause by construction; callers can't forget the tenant because they never write
the condition.
"""

from __future__ import annotations

import functools
from array import array
from collections.abc import Hashable, Mapping
from datetime import datetime
from typing import Any, NamedTuple, Protocol

from sqlalchemy import ColumnElement, String, and_, bindparam, delete, func, insert, select, update
from sqlalchemy.dialects import postgresql

from storage import record_cache
from storage.drivers.engine import Executor, Query, Row, Statement, insert_or_skip
from storage.listing import (
    ListField,
    ListQueries,
    ListRequest,
    build_queries,
    json_field,
    keyword_like,
    model_literal,
)
from storage.schema.tables import record_unique_values, records
from tessera.core.clock import iso
from tessera.core.ids import new_pid
from tessera.core.text import storable_text

PID_PREFIX = "rec"
# Columns every record has besides its declared fields; lists sort and filter on them too.
SYSTEM_FIELDS = ("created_at", "updated_at")


class FieldShape(Protocol):
    """What storage needs of a declared field: its type (and an enum's values) for typed SQL."""

    @property
    def type(self) -> str: ...

    @property
    def values(self) -> tuple[str, ...]: ...

    @property
    def renamed_from(self) -> str | None: ...


class RecordModel(Protocol):
    """What storage needs of a declared model (``tessera.registry.models.ModelDecl`` is one)."""

    @property
    def code(self) -> str: ...

    @property
    def fields(self) -> Mapping[str, FieldShape]: ...

    @property
    def searchable(self) -> tuple[str, ...]: ...

    @property
    def unique(self) -> tuple[str, ...]: ...


class DuplicateValues(Exception):
    """Values of unique fields that another live record of the tenant already holds."""

    def __init__(self, fields: list[str]) -> None:
        super().__init__(", ".join(fields))
        self.fields = fields


class RecordRow(NamedTuple):
    """A row of ``records``."""

    id: int
    tenant_id: int
    model: str
    pid: str
    version: int
    data: dict[str, Any]  # the declared fields: always a JSON object
    search_text: str
    created_by: int | None
    created_at: datetime
    updated_at: datetime
    deleted_at: datetime | None


class RecordVersion(Protocol):
    """What a caller sees of one version of a record: a stored row (``RecordRow``) or a record
    created in this transaction (``CreatedRecord``), whose database id nobody has read."""

    @property
    def pid(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def data(self) -> dict[str, Any]: ...
    @property
    def created_at(self) -> datetime: ...
    @property
    def updated_at(self) -> datetime: ...


class CreatedRecord(NamedTuple):
    """A record whose insert is queued in the transaction: every column the caller set, no id
    (``RecordRepository.insert``)."""

    tenant_id: int
    model: str
    pid: str
    version: int
    data: dict[str, Any]
    search_text: str
    created_by: int | None
    created_at: datetime
    updated_at: datetime


class _Claimed(NamedTuple):
    record_id: int


class _Option(NamedTuple):
    pid: str
    label: str | int | float | None  # the label field's JSON value (PostgreSQL: its text)


_CLAIM_UNIQUE = insert_or_skip(record_unique_values, ("tenant_id", "model", "field", "value", "record_id"),
                               [record_unique_values.c.record_id], _Claimed)


# The hot statements, built once: every one carries the tenant and the model by construction.
_SCOPE = and_(records.c.tenant_id == bindparam("tenant_id"), records.c.model == bindparam("model"),
              records.c.deleted_at.is_(None))
_GET_QUERY = select(records).where(_SCOPE, records.c.pid == bindparam("pid"))
_GET = Statement(_GET_QUERY, row=RecordRow)
_GET_FOR_UPDATE = Statement(_GET_QUERY.with_for_update(), {"sqlite": _GET_QUERY},  # SQLite: the write lock
                            row=RecordRow)
_PAGE_AFTER = Statement(select(records).where(_SCOPE, records.c.id > bindparam("after_id"))
                        .order_by(records.c.id.asc()).limit(bindparam("limit")), row=RecordRow)
_CREATED_COLUMNS = ("tenant_id", "model", "pid", "version", "data", "search_text", "created_by", "created_at",
                    "updated_at")  # CreatedRecord's fields, in order
_INSERT_VALUES = insert(records).values({c: bindparam(c) for c in _CREATED_COLUMNS})
_INSERT = Statement(_INSERT_VALUES.returning(*records.c), row=RecordRow)
_INSERT_QUEUED = Statement(_INSERT_VALUES)
_ROW_WIDTH = len(records.c)
_ROWS_BY_ID = Statement(select(records).where(_SCOPE, records.c.id.in_(bindparam("ids", expanding=True))),
                        row=RecordRow)


@functools.cache
def _insert_claiming_statement(claims: int) -> Statement[Row]:
    """PostgreSQL: the insert and ``claims`` unique-value claims in one statement. The record's
    insert is a data-modifying CTE, each claim an ``INSERT ... SELECT`` from it, ``ON CONFLICT DO
    NOTHING RETURNING field`` (``field_<i>``, ``value_<i>`` bound per call); the row is the new
    record's columns, then per claim its field, or NULL where the value was taken. A clash then
    fails the command as the claims one by one did: the transaction rolls back, record included."""
    created = _INSERT_VALUES.returning(*records.c).cte("created")
    won = []
    for i in range(claims):
        claim = (postgresql.insert(record_unique_values)
                 .from_select(["tenant_id", "model", "field", "value", "record_id"],
                              select(created.c.tenant_id, created.c.model, bindparam(f"field_{i}", type_=String),
                                     bindparam(f"value_{i}", type_=String), created.c.id))
                 .on_conflict_do_nothing()
                 .returning(record_unique_values.c.field)
                 .cte(f"claim_{i}"))
        won.append(select(claim.c.field).scalar_subquery())
    return Statement(select(*created.c, *won))
_UPDATE = Statement(
    update(records)
    .where(_SCOPE, records.c.id == bindparam("record_id"), records.c.version == bindparam("expected_version"))
    .values(data=bindparam("data"), search_text=bindparam("search_text"), version=records.c.version + 1,
            updated_at=bindparam("now"))
    .returning(*records.c),
    row=RecordRow,
)


def search_text(model: RecordModel, data: dict[str, Any]) -> str:
    return "\n".join(str(data[code]).lower() for code in model.searchable if data.get(code) is not None)


def as_stored(data: dict[str, Any], dialect: str) -> dict[str, Any]:
    """``data`` as the database gives it back, for a record that was written but not read back.

    PostgreSQL's ``jsonb`` keeps an object's keys shorter first, then in byte order, and a number
    as a numeric, which has no negative zero; SQLite's JSON text keeps both as written. A record's
    fields are scalars (``tessera.records.payloads``), so nothing nested needs the same."""
    if dialect != "postgresql":
        return data
    ordered = sorted(data, key=lambda key: (len(key.encode()), key.encode()))
    return {key: 0.0 if isinstance(data[key], float) and data[key] == 0 else data[key] for key in ordered}


class RecordRepository:
    def __init__(self, conn: Executor, tenant_id: int, model: RecordModel) -> None:
        self.conn = conn
        self.tenant_id = tenant_id
        self.model = model
        self.dialect = conn.dialect
        self._binds = {"tenant_id": tenant_id, "model": model.code}

    # -- reading ---------------------------------------------------------------------------
    def _scope(self) -> list[ColumnElement[bool]]:
        # The model is rendered as a literal (a declared code, checked by ``model_literal``): the
        # declared indexes are partial (``WHERE model = '<code>' AND deleted_at IS NULL``, see
        # ``storage.schema.record_indexes``), and a planner can only use one when the query names the same
        # model as a constant; as a bound parameter, PostgreSQL's generic plan and SQLite could not.
        return [
            records.c.tenant_id == self.tenant_id,
            records.c.model == model_literal(self.model.code),
            records.c.deleted_at.is_(None),
        ]

    def list_fields(self) -> dict[str, ListField]:
        fields = {
            code: ListField(code, decl.type, json_field(records.c.data, code, decl.type, self.dialect), decl.values)
            for code, decl in self.model.fields.items()
        }
        fields["created_at"] = ListField("created_at", "timestamp", records.c.created_at)
        fields["updated_at"] = ListField("updated_at", "timestamp", records.c.updated_at)
        assert set(SYSTEM_FIELDS) <= set(fields)
        return fields

    def list_queries(self, request: ListRequest) -> ListQueries[RecordRow]:
        """The page and count SQL of a list of this tenant's records of the model."""
        return build_queries(select(records), self._scope(), request, records.c.id, keyword_like(records.c.search_text),
                             RecordRow)

    async def page(self, request: ListRequest) -> tuple[list[RecordRow], int]:
        """One page and the exact total.

        A list's first matches in order and its total are read once and then follow the writes
        (``storage.record_cache``): each request reads the changes since (one statement, usually
        none or a few rows), and the page is those ids' rows. So page 500 costs what page 1 does,
        and a write costs the next list the rows it changed, not a recount. A page past the first
        ``MAX_ORDERED_IDS`` matches is paged through the sort field's index. Where no entry can be read
        (the tenant has never written a record of the model, so there is no stamp; or the list is
        first asked for inside the caller's own transaction, which is no snapshot of its own) the
        page and the total are read as they are.
        """
        offset = (request.page_num - 1) * request.page_size
        end = offset + request.page_size
        key = (self.dialect, self.tenant_id, self.model.code, _identity(request))
        entry = await self._entry(key, request, end)
        if entry is not None:
            with entry.lock:
                total, ids = entry.total, entry.ids[offset:end] if entry.covers(end) else None
            if ids is not None:
                return await self._rows_of(ids), total
        queries = self.list_queries(request)
        if entry is None:
            total = int((await self.conn.execute(queries.count)).scalar_one())
        return ((await self.conn.execute(Query(queries.page, queries.row))).rows if total else []), total

    async def _entry(self, key: Hashable, request: ListRequest, end: int) -> record_cache.Prefix | None:
        """The list's cache entry, brought up to date, or read (by one request of the process at a
        time: the others wait and then follow what it read, from their own snapshot)."""
        entry = record_cache.LISTS.get(key)
        if entry is not None and await self._follow(entry) and _serves(entry, end):
            return entry
        async with record_cache.LISTS.loading(key):
            again = record_cache.LISTS.get(key)
            if again is not None and again is not entry and await self._follow(again) and _serves(again, end):
                return again
            return await self._load(key, self.list_queries(request), request, end)

    async def _follow(self, entry: record_cache.Prefix) -> bool:
        """Bring ``entry`` up to date with the changes since its state; False when it cannot follow."""
        since = entry.seq
        found = record_cache.read_changes((await self.conn.execute(entry.delta, {"since": since})).rows, since)
        return found is not None and entry.follow(*found)

    async def _load(self, key: Hashable, queries: ListQueries[RecordRow], request: ListRequest,
                    end: int) -> record_cache.Prefix | None:
        """Read the list's first matches (twice the page's end, at least ``MIN_ORDERED_IDS``), its
        total when those are not all, and the pair's stamp, in one snapshot; filed in ``LISTS``.
        None without a snapshot of its own (inside the caller's transaction) or a stamp."""
        snapshot = getattr(self.conn, "read", None)
        if snapshot is None:
            return None
        limit = record_cache.prefix_length(end)
        async with snapshot() as tx:
            stamp = (await tx.execute(record_cache.READ_STAMP, self._binds)).first()
            if stamp is None:
                return None
            rows = (await tx.execute(queries.ordered.limit(limit))).rows
            complete = len(rows) < limit
            total = len(rows) if complete else int((await tx.execute(queries.count)).scalar_one())
            follows = request.sort_field.type in record_cache.ORDERED_ALIKE or await _orders_by_code_point(tx)
        delta = Statement(record_cache.delta_query(self.tenant_id, self.model.code, queries.conditions, queries.sort))
        entry = record_cache.Prefix(int(stamp[0]), int(stamp[1]), [int(r[0]) for r in rows], [r[1] for r in rows],
                                    total, complete, request.sort_order == "desc", follows, delta)
        record_cache.LISTS.put(key, entry)
        return entry

    async def _rows_of(self, ids: array[int]) -> list[RecordRow]:
        """The rows of ``ids``, in their order (one statement by primary key)."""
        wanted = list(ids)
        if not wanted:
            return []
        found = {row.id: row for row in await self.conn.execute(_ROWS_BY_ID, {**self._binds, "ids": wanted})}
        # A row deleted since the changes were read is left out, as a page read a moment later would.
        return [found[i] for i in wanted if i in found]

    async def get(self, pid: str, *, for_update: bool = False) -> RecordRow | None:
        if not storable_text(pid):  # no record has such an id; PostgreSQL would refuse the NUL
            return None
        statement = _GET_FOR_UPDATE if for_update else _GET
        return (await self.conn.execute(statement, {**self._binds, "pid": pid})).first()

    async def page_after(self, after_id: int, limit: int) -> list[RecordRow]:
        """Keyset page in id order: rows after ``after_id``, at most ``limit`` (one index range scan)."""
        return (await self.conn.execute(_PAGE_AFTER, {**self._binds, "after_id": after_id, "limit": limit})).rows

    async def options(self, label_field: str, limit: int) -> list[tuple[str, Any]]:
        label = json_field(records.c.data, label_field, "string", self.dialect)
        query = (
            select(records.c.pid, label.label("label"))
            .where(and_(*self._scope()))
            .order_by(label.asc(), records.c.id.asc())
            .limit(limit)
        )
        return [(r.pid, r.label) for r in await self.conn.execute(Query(query, _Option))]

    async def count(self) -> int:
        query = select(func.count()).select_from(records).where(and_(*self._scope()))
        return int((await self.conn.execute(query)).scalar_one())

    # -- writing ---------------------------------------------------------------------------
    async def _claim_unique(self, record_id: int, data: dict[str, Any], only: set[str] | None = None) -> None:
        """Claim each unique field's value; ``DuplicateValues`` names every clash at once.

        Each claim is one ``INSERT ... ON CONFLICT DO NOTHING``: a clash is an answer, not an
        error, so the transaction needs no savepoint around it.
        """
        clashes: list[str] = []
        for code in self.model.unique:
            if only is not None and code not in only:
                continue
            value = data.get(code)
            if value is None:
                continue
            claimed = await self.conn.execute(_CLAIM_UNIQUE, {
                "tenant_id": self.tenant_id, "model": self.model.code, "field": code, "value": str(value),
                "record_id": record_id,
            })
            if not claimed.rows:
                clashes.append(code)
        if clashes:
            raise DuplicateValues(clashes)

    async def _release_unique(self, record_id: int, only: set[str] | None = None) -> None:
        condition = record_unique_values.c.record_id == record_id
        if only is not None:
            condition = and_(condition, record_unique_values.c.field.in_(sorted(only)))
        await self.conn.execute(delete(record_unique_values).where(condition))

    async def insert(self, data: dict[str, Any], created_by: int | None, *,
                     now: datetime) -> RecordRow | CreatedRecord:
        """Insert a new record. Without a unique value to claim, nothing the insert would return is
        unknown here but the id, which no caller of a create reads: the insert is queued
        (``enqueue``), so on PostgreSQL it travels in one statement with the transaction's other
        queued writes, and the record comes back as the ``CreatedRecord`` that was written. With
        one, the claims need the new row's id: the insert runs and returns it, on PostgreSQL with
        its claims in the same statement."""
        created = CreatedRecord(self.tenant_id, self.model.code, new_pid(PID_PREFIX), 1, data,
                                search_text(self.model, data), created_by, now, now)
        values = dict(zip(_CREATED_COLUMNS, created, strict=True))
        if not any(data.get(code) is not None for code in self.model.unique):
            await self.conn.enqueue(_INSERT_QUEUED, values)
            return CreatedRecord(*created[:4], as_stored(data, self.dialect), *created[5:])
        if self.dialect == "postgresql":
            row = await self._insert_claiming(values, data)
        else:
            row = (await self.conn.execute(_INSERT, values)).one()
            await self._claim_unique(row.id, data)
        return row

    async def _insert_claiming(self, values: dict[str, Any], data: dict[str, Any]) -> RecordRow:
        """The insert and its unique-value claims, one statement (``_insert_claiming_statement``);
        ``DuplicateValues`` names every clash at once, as ``_claim_unique`` does."""
        fields = [code for code in self.model.unique if data.get(code) is not None]
        params = dict(values)
        for i, code in enumerate(fields):
            params[f"field_{i}"], params[f"value_{i}"] = code, str(data[code])
        got = (await self.conn.execute(_insert_claiming_statement(len(fields)), params)).one()
        clashes = [code for code, won in zip(fields, got[_ROW_WIDTH:], strict=True) if won is None]
        if clashes:
            raise DuplicateValues(clashes)
        return RecordRow(*got[:_ROW_WIDTH])

    async def update(self, current: RecordRow, changes: dict[str, Any], *, now: datetime) -> RecordRow | None:
        """Apply ``changes`` if the row is still at ``current.version``; None when it moved on.

        The version condition makes a lost update impossible even where the row was read without
        a lock: of two writers holding the same version, exactly one updates.
        """
        data = {**current.data, **changes}
        changed_unique = {c for c in self.model.unique if c in changes and changes[c] != current.data.get(c)}
        if changed_unique:
            await self._release_unique(current.id, changed_unique)
            await self._claim_unique(current.id, data, changed_unique)
        row = (await self.conn.execute(_UPDATE, {
            **self._binds, "record_id": current.id, "expected_version": current.version, "data": data,
            "search_text": search_text(self.model, data), "now": now,
        })).first()
        return row

    async def soft_delete(self, current: RecordRow, *, now: datetime) -> None:
        await self.conn.execute(
            update(records)
            .where(and_(*self._scope(), records.c.id == current.id))
            .values(deleted_at=now, version=records.c.version + 1, updated_at=now)
        )
        await self._release_unique(current.id)


def _identity(request: ListRequest) -> Hashable:
    """What makes two list requests one list (the page aside): their keyword, sort and filters."""
    filters = tuple((f.field.code, f.operator, repr(f.value)) for f in request.filters)
    return request.keyword, request.sort_field.code, request.sort_order, filters


def _serves(entry: record_cache.Prefix, end: int) -> bool:
    """Whether ``entry`` answers a page ending at ``end``: it holds the page, or the page is past
    what any entry holds (then it gives the total, and the index the page)."""
    return entry.covers(end) or end > record_cache.MAX_ORDERED_IDS


async def _orders_by_code_point(conn: Executor) -> bool:
    """Whether the database orders text as Python does (``record_cache``): SQLite always; PostgreSQL
    under a code point collation of the database (asked at each load: loads are rare)."""
    if conn.dialect != "postgresql":
        return True
    found = (await conn.execute(record_cache.PG_COLLATION)).first()
    return found is not None and found[0] in record_cache.CODE_POINT_COLLATIONS and found[1] in (None, "c")


def present(row: RecordVersion, model: RecordModel) -> dict[str, Any]:
    """The record as clients see it: public ``id``, its declared fields, timestamps. A value stored under
    a field no longer declared (``storage.schema.field_moves``) is kept in ``data`` and shown to no one."""
    data = row.data
    return {"id": row.pid, **{code: data[code] for code in model.fields if code in data},
            "created_at": iso(row.created_at), "updated_at": iso(row.updated_at)}
