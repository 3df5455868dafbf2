"""Tenant-scoped access to the records of declared models.

A ``RecordRepository`` is opened for one tenant and one model, and every statement it runs carries
both in its WHERE clause by construction; callers can't forget the tenant because they never write
the condition.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import Connection, Row, and_, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from storage.listing import ListField, ListRequest, build_queries, json_field, keyword_like, run_list
from storage.tables import record_unique_values, records
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


def search_text(model: RecordModel, data: dict[str, Any]) -> str:
    return "\n".join(str(data[code]).lower() for code in model.searchable if data.get(code) is not None)


class RecordRepository:
    def __init__(self, conn: Connection, tenant_id: int, model: RecordModel) -> None:
        self.conn = conn
        self.tenant_id = tenant_id
        self.model = model
        self.dialect = conn.dialect.name

    # -- reading ---------------------------------------------------------------------------
    def _scope(self) -> list[Any]:
        return [
            records.c.tenant_id == self.tenant_id,
            records.c.model == self.model.code,
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

    def page(self, request: ListRequest) -> tuple[list[Row[Any]], int]:
        queries = build_queries(
            select(records),
            self._scope(),
            request,
            records.c.id,
            keyword_like(records.c.search_text),
        )
        rows, total = run_list(self.conn, queries)
        return rows, total

    def get(self, pid: str, *, for_update: bool = False) -> Row[Any] | None:
        if not storable_text(pid):  # no record has such an id; PostgreSQL would refuse the NUL
            return None
        query = select(records).where(and_(*self._scope(), records.c.pid == pid))
        if for_update and self.dialect == "postgresql":
            query = query.with_for_update()
        return self.conn.execute(query).first()

    def page_after(self, after_id: int, limit: int) -> list[Row[Any]]:
        """Keyset page in id order: rows after ``after_id``, at most ``limit`` (one index range scan)."""
        query = (
            select(records)
            .where(and_(*self._scope(), records.c.id > after_id))
            .order_by(records.c.id.asc())
            .limit(limit)
        )
        return list(self.conn.execute(query))

    def options(self, label_field: str, limit: int) -> list[tuple[str, Any]]:
        label = json_field(records.c.data, label_field, "string", self.dialect)
        query = (
            select(records.c.pid, label.label("label"))
            .where(and_(*self._scope()))
            .order_by(label.asc(), records.c.id.asc())
            .limit(limit)
        )
        return [(r.pid, r.label) for r in self.conn.execute(query)]

    def count(self) -> int:
        return self.conn.execute(select(func.count()).select_from(records).where(and_(*self._scope()))).scalar_one()

    # -- writing ---------------------------------------------------------------------------
    def _claim_unique(self, record_id: int, data: dict[str, Any], only: set[str] | None = None) -> None:
        """Claim each unique field's value; ``DuplicateValues`` names every clash at once."""
        clashes: list[str] = []
        for code in self.model.unique:
            if only is not None and code not in only:
                continue
            value = data.get(code)
            if value is None:
                continue
            try:
                with self.conn.begin_nested():
                    self.conn.execute(
                        insert(record_unique_values).values(
                            tenant_id=self.tenant_id, model=self.model.code, field=code,
                            value=str(value), record_id=record_id,
                        )
                    )
            except IntegrityError:
                clashes.append(code)
        if clashes:
            raise DuplicateValues(clashes)

    def _release_unique(self, record_id: int, only: set[str] | None = None) -> None:
        condition = record_unique_values.c.record_id == record_id
        if only is not None:
            condition = and_(condition, record_unique_values.c.field.in_(sorted(only)))
        self.conn.execute(delete(record_unique_values).where(condition))

    def insert(self, data: dict[str, Any], created_by: int | None, *, now: datetime) -> Row[Any]:
        row = self.conn.execute(
            insert(records)
            .values(
                tenant_id=self.tenant_id, model=self.model.code, pid=new_pid(PID_PREFIX), version=1,
                data=data, search_text=search_text(self.model, data), created_by=created_by,
                created_at=now, updated_at=now,
            )
            .returning(*records.c)
        ).one()
        self._claim_unique(row.id, data)
        return row

    def update(self, current: Row[Any], changes: dict[str, Any], *, now: datetime) -> Row[Any] | None:
        """Apply ``changes`` if the row is still at ``current.version``; None when it moved on.

        The version condition makes a lost update impossible even where the row was read without
        a lock: of two writers holding the same version, exactly one updates.
        """
        data = {**current.data, **changes}
        changed_unique = {c for c in self.model.unique if c in changes and changes[c] != current.data.get(c)}
        if changed_unique:
            self._release_unique(current.id, changed_unique)
            self._claim_unique(current.id, data, changed_unique)
        return self.conn.execute(
            update(records)
            .where(and_(*self._scope(), records.c.id == current.id, records.c.version == current.version))
            .values(
                data=data, search_text=search_text(self.model, data),
                version=records.c.version + 1, updated_at=now,
            )
            .returning(*records.c)
        ).first()

    def soft_delete(self, current: Row[Any], *, now: datetime) -> None:
        self.conn.execute(
            update(records)
            .where(and_(*self._scope(), records.c.id == current.id))
            .values(deleted_at=now, version=records.c.version + 1, updated_at=now)
        )
        self._release_unique(current.id)


def present(row: Row[Any]) -> dict[str, Any]:
    """The record as clients see it: public ``id``, declared fields, timestamps."""
    return {"id": row.pid, **row.data, "created_at": iso(row.created_at), "updated_at": iso(row.updated_at)}
