"""Open Platform list cursors: sealed, bound to resource and installation, valid for 24 hours.

A cursor carries the keyset position (the last record's database id), which must never be visible,
so it is encrypted, not only signed (the runtime's cursor ``SealedBox``, under a key of its own);
the seal stamps the issue time and opening enforces the lifetime. Any failure, tampering, another
resource, another installation or age, is one answer: 404 ``invalid_cursor`` (``errors.InvalidCursor``).

Only the exact text the service issued opens: the cursor must be canonical URL-safe base64 (what
re-encoding its bytes gives back), so a cursor changed only in the unused bits of its last
character, its padding, or characters a lenient decoder would skip is refused like any other change.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass

from tessera.core.crypto import SealedBox, Unreadable
from tessera.core.errors import InvalidCursor

CURSOR_TTL_SECONDS = 24 * 3600


@dataclass(frozen=True)
class Position:
    resource: str
    installation_id: int
    after_id: int


def issue(box: SealedBox, position: Position) -> str:
    plain = json.dumps([position.resource, position.installation_id, position.after_id], separators=(",", ":"))
    return box.seal(plain.encode())


def open_cursor(box: SealedBox, cursor: str, resource: str, installation_id: int) -> int:
    """The position after which the next page starts; ``InvalidCursor`` for anything else."""
    if not _canonical(cursor):
        raise InvalidCursor()
    try:
        bound_resource, bound_installation, after_id = json.loads(box.open(cursor, CURSOR_TTL_SECONDS))
    except (Unreadable, ValueError, TypeError):
        raise InvalidCursor() from None
    if bound_resource != resource or bound_installation != installation_id or not isinstance(after_id, int):
        raise InvalidCursor()
    return after_id


# The events API's cursors (``tessera.feed.pages``) are sealed by the same box; their first element
# is no resource name, so neither kind of cursor opens as the other.
FEED = "#events"


def issue_feed(box: SealedBox, installation_id: int, feed_seq: int, event_row_id: int) -> str:
    """A cursor of the installation's events feed, after the event ``(feed_seq, event_row_id)``."""
    plain = json.dumps([FEED, installation_id, feed_seq, event_row_id], separators=(",", ":"))
    return box.seal(plain.encode())


def open_feed(box: SealedBox, cursor: str, installation_id: int) -> tuple[int, int]:
    """The feed position ``(feed_seq, event_row_id)`` after which the next page starts;
    ``InvalidCursor`` for anything else (as ``open_cursor``)."""
    if not _canonical(cursor):
        raise InvalidCursor()
    try:
        kind, bound_installation, feed_seq, row_id = json.loads(box.open(cursor, CURSOR_TTL_SECONDS))
    except (Unreadable, ValueError, TypeError):
        raise InvalidCursor() from None
    if kind != FEED or bound_installation != installation_id or not isinstance(feed_seq, int) \
            or not isinstance(row_id, int):
        raise InvalidCursor()
    return feed_seq, row_id


def _canonical(cursor: str) -> bool:
    """Whether ``cursor`` is canonical URL-safe base64: its bytes re-encode to the same text.

    ``urlsafe_b64decode`` ignores the unused low bits of the last character and skips characters
    outside the alphabet, so several texts decode to one token; only the one the seal wrote passes.
    """
    try:
        raw = base64.urlsafe_b64decode(cursor.encode("ascii"))
    except ValueError:  # binascii.Error, UnicodeEncodeError
        return False
    return base64.urlsafe_b64encode(raw).decode("ascii") == cursor
