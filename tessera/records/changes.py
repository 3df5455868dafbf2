"""Apply a change to a record: the write, its audit entry and its webhook events, in one transaction.

Every write path goes through here: session commands, Open Platform commands and the automations
that run either. The caller checks the input its own way (the session API names payload fields,
the Open Platform names input properties), then calls ``create``, ``update`` or ``delete`` inside
its transaction; this module writes the record, appends the audit entry and appends to the outbox
every event the registry publishes for the change (a transactional outbox: the events exist
exactly when the change committed). Events belong to the data, not to the surface: an asset
reassigned through either API emits the same ``assets.assignment.changed``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from storage import audit, outbox
from storage.drivers.engine import Executor
from storage.records import DuplicateValues, RecordModel, RecordRepository, RecordRow, RecordVersion
from tessera.core.errors import DuplicateValue, FieldError
from tessera.core.i18n import N_
from tessera.registry.capabilities import Capabilities

DUPLICATE = N_("This value is already used.")


@dataclass(frozen=True)
class Author:
    """Who a change is made by, for the audit entry and the events.

    ``actor`` is what the audit log shows: a user's email, an application's client id, or
    ``automation:<id>``; ``user_id`` is set only for signed-in users.
    """

    tenant_id: int
    actor: str
    request_id: str | None
    user_id: int | None = None
    application_id: int | None = None


@dataclass(frozen=True)
class Changes:
    """Changes of one model's records by one author, audited as ``action``, with the registry's events."""

    conn: Executor
    registry: Capabilities
    author: Author
    model: RecordModel
    action: str
    # The instant of the change: its timestamps, audit entry and events all carry it.
    now: datetime

    @property
    def repository(self) -> RecordRepository:
        return RecordRepository(self.conn, self.author.tenant_id, self.model)

    async def create(self, data: dict[str, Any]) -> RecordVersion:
        """Insert a record from checked ``data``; ``DuplicateValue`` names duplicate unique values."""
        with _duplicates_as_field_errors():
            row = await self.repository.insert(data, self.author.user_id, now=self.now)
        await self._record(row.pid, before=None, after=row.data, event="create")
        return row

    async def update(self, current: RecordRow, changes: dict[str, Any]) -> RecordRow | None:
        """Apply checked ``changes`` to ``current``; None when the record moved past its version."""
        with _duplicates_as_field_errors():
            row = await self.repository.update(current, changes, now=self.now)
        if row is not None:
            await self._record(row.pid, before=current.data, after=row.data, event="update")
        return row

    async def delete(self, current: RecordRow) -> None:
        """Soft-delete ``current`` (reads then answer not found); no event is published for it."""
        await self.repository.soft_delete(current, now=self.now)
        await self._record(current.pid, before=current.data, after=None, event=None)

    async def _record(self, pid: str, *, before: dict[str, Any] | None, after: dict[str, Any] | None,
                      event: str | None) -> None:
        author = self.author
        await audit.append(self.conn, tenant_id=author.tenant_id, actor_user_id=author.user_id, actor=author.actor,
                           action=self.action, target_type=self.model.code, target_id=pid, before=before, after=after,
                           request_id=author.request_id, application_id=author.application_id, now=self.now)
        if event is None or after is None:
            return
        for published in self.registry.events_for(self.model.code, event):
            if published.triggered_by(event, before, after):
                await outbox.append(self.conn, tenant_id=author.tenant_id, event_type=published.type,
                                    payload=published.payload(pid, before, after), request_id=author.request_id,
                                    now=self.now)


@contextmanager
def _duplicates_as_field_errors() -> Iterator[None]:
    """Turn storage's ``DuplicateValues`` into the 409 naming the fields that clients see."""
    try:
        yield
    except DuplicateValues as exc:
        raise DuplicateValue({field: FieldError(DUPLICATE) for field in exc.fields}) from None
