"""Published resources: keyset pages and single reads of records, by pid, for one installation.

Records are the same rows the session API's dynamic pages read and write (``RecordRepository``,
scoped to the caller's tenant by construction); only the registry's exposed fields leave, and a
record is addressed by its pid, never by a database id or a tenant id.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from typing import Any

from storage.records import RecordRepository, RecordRow, RecordVersion
from tessera.core.clock import iso
from tessera.core.errors import CapabilityNotFound, FieldError, InvalidRequest, ResourceNotFound
from tessera.core.i18n import N_
from tessera.openplatform.resources import cursors
from tessera.openplatform.tokens.bearer import Caller
from tessera.registry.capabilities import ResourceCap
from tessera.runtime import Runtime

DEFAULT_LIMIT = 50
MAX_LIMIT = 200
RANGE = N_("Must be between {low} and {high}.")


@dataclass(frozen=True)
class ReadAhead:
    """The record ``pid`` of ``model`` (None: there is none) as the bearer check read it, in the
    token's own statement (``bearer.validate_reading``), for the same request's ``read``."""

    model: str
    pid: str
    row: RecordRow | None


def resource_for(rt: Runtime, caller: Caller, name: str, scope: str | None = None) -> ResourceCap:
    resource = rt.capabilities.resources.get(name)
    if resource is None:
        raise CapabilityNotFound()
    caller.require(scope or resource.read_scope)
    return resource


def present(resource: ResourceCap, row: RecordVersion) -> dict[str, Any]:
    """The published representation: pid, the exposed fields (null when unset), timestamps."""
    data = row.data
    return {
        "pid": row.pid,
        **{code: data.get(code) for code in resource.fields},
        "createdAt": iso(row.created_at),
        "updatedAt": iso(row.updated_at),
    }


def etag(row: RecordVersion) -> str:
    """Strong ETag of one version of one record (another record's ETag never matches)."""
    return etag_of(str(row.pid), int(row.version))


def etag_of(pid: str, version: int) -> str:
    """The strong ETag of version ``version`` of record ``pid``."""
    digest = hashlib.sha256(f"{pid}:{version}".encode()).digest()[:18]
    return '"' + base64.urlsafe_b64encode(digest).decode("ascii") + '"'


async def list_page(rt: Runtime, caller: Caller, name: str, limit: int | None,
                    cursor: str | None) -> dict[str, Any]:
    resource = resource_for(rt, caller, name)
    size = DEFAULT_LIMIT if limit is None else limit
    if not 1 <= size <= MAX_LIMIT:
        raise InvalidRequest(data={"fieldErrors": {"limit": FieldError(RANGE, low=1, high=MAX_LIMIT)}})
    after_id = 0 if cursor is None else cursors.open_cursor(rt.cursor_box, cursor, resource.name,
                                                            caller.installation_id)
    rows = await RecordRepository(rt.db, caller.tenant_id, resource.model).page_after(after_id, size + 1)
    more = len(rows) > size
    rows = rows[:size]
    next_cursor = None
    if more:
        next_cursor = cursors.issue(rt.cursor_box, cursors.Position(resource.name, caller.installation_id, rows[-1].id))
    return {"items": [present(resource, row) for row in rows], "nextCursor": next_cursor}


async def read(rt: Runtime, caller: Caller, name: str, pid: str,
               ahead: ReadAhead | None = None) -> tuple[dict[str, Any], str]:
    """The published record and its ETag; ``ahead``, when it is this record's, spares the query."""
    resource = resource_for(rt, caller, name)
    if ahead is not None and ahead.model == resource.model.code and ahead.pid == pid:
        row = ahead.row
    else:
        row = await RecordRepository(rt.db, caller.tenant_id, resource.model).get(pid)
    if row is None:
        raise ResourceNotFound()
    return present(resource, row), etag(row)
