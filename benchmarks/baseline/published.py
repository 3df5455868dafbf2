"""Published resources: a record as integrators read it, a page's size and its keyset cursor.

Why one module: the representation (pid, the exposed fields, timestamps), the page size's bounds and
their messages, and the sealed cursor (bound to the resource and the installation, valid a day) are
the contract integrators read, answered as Tessera answers it by the reads, the pages and the
commands alike.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

from cryptography.fernet import InvalidToken

from baseline import refusals, rules
from baseline.config import Keys
from baseline.refusals import Refusal
from baseline.registry import Resource
from baseline.store import RecordRow

DEFAULT_LIMIT, MAX_LIMIT = 50, 200
CURSOR_TTL_SECONDS = 24 * 3600


def present(resource: Resource, row: RecordRow) -> dict[str, Any]:
    """The published representation: pid, the exposed fields (null when unset), timestamps."""
    data = row.data
    return {"pid": row.pid, **{code: data.get(code) for code in resource.fields},
            "createdAt": rules.iso(row.created_at), "updatedAt": rules.iso(row.updated_at)}


def position(keys: Keys, resource: str, params: Mapping[str, str]) -> tuple[int, tuple[int, int] | None,
                                                                              Refusal | None]:
    """(page size, (installation, after id) from the cursor, the refusal for a bad parameter); the
    refusal is returned, not raised, because the token is checked first and refused before it."""
    try:
        size = int(params["limit"]) if "limit" in params else DEFAULT_LIMIT
    except ValueError:
        return DEFAULT_LIMIT, None, refusals.invalid_request({"limit": "Must be an integer."})
    if not 1 <= size <= MAX_LIMIT:  # worded as the published document's bounds are reported
        message = "Must be at least 1." if size < 1 else f"Must be at most {MAX_LIMIT}."
        return DEFAULT_LIMIT, None, refusals.invalid_request({"limit": message})
    if (cursor := params.get("cursor")) is None:
        return size, None, None
    try:
        plain = keys.cursors.decrypt_at_time(cursor.encode("ascii"), CURSOR_TTL_SECONDS, int(time.time()))
        bound, installation, after = json.loads(plain)
    except (InvalidToken, UnicodeError, ValueError, TypeError):
        return size, None, refusals.invalid_cursor()
    if bound != resource or not isinstance(after, int) or not isinstance(installation, int):
        return size, None, refusals.invalid_cursor()
    return size, (installation, after), None


def seal(keys: Keys, resource: str, installation_id: int, last_id: int) -> str:
    """The next page's cursor: after ``last_id``, for this resource and installation only."""
    plain = json.dumps([resource, installation_id, last_id], separators=(",", ":"))
    return keys.cursors.encrypt_at_time(plain.encode(), int(time.time())).decode("ascii")
