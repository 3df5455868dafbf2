"""Open Platform list cursors: authenticated encryption, bound to resource, installation and time.

A cursor carries the keyset position (the last record's database id), which must never be visible,
so it is encrypted, not only signed: Fernet (AES-128-CBC with HMAC-SHA-256, from ``cryptography``)
under a key derived from the server key. Fernet also stamps the issue time and enforces the 24-hour
lifetime on decryption. Any failure, tampering, another resource, another installation or age,
is one answer: 400 ``invalid_cursor``.
"""

from __future__ import annotations

import base64
import json
import time
from dataclasses import dataclass

from cryptography.fernet import Fernet, InvalidToken

from tessera.core.crypto import derive_key
from tessera.core.errors import InvalidCursor

CURSOR_TTL_SECONDS = 24 * 3600


@dataclass(frozen=True)
class Position:
    resource: str
    installation_id: int
    after_id: int


class Cursors:
    def __init__(self, secret_key: bytes, ttl_seconds: int = CURSOR_TTL_SECONDS) -> None:
        self._fernet = Fernet(base64.urlsafe_b64encode(derive_key(secret_key, "list-cursor")))
        self.ttl_seconds = ttl_seconds

    def issue(self, position: Position, now: float | None = None) -> str:
        plain = json.dumps([position.resource, position.installation_id, position.after_id], separators=(",", ":"))
        issued_at = int(time.time() if now is None else now)
        return self._fernet.encrypt_at_time(plain.encode(), issued_at).decode("ascii")

    def open(self, cursor: str, resource: str, installation_id: int, now: float | None = None) -> int:
        """The position after which the next page starts; ``InvalidCursor`` for anything else."""
        try:
            current = int(time.time() if now is None else now)
            plain = self._fernet.decrypt_at_time(cursor.encode("ascii"), self.ttl_seconds, current)
            bound_resource, bound_installation, after_id = json.loads(plain)
        except (InvalidToken, UnicodeError, ValueError, TypeError):
            raise InvalidCursor() from None
        if bound_resource != resource or bound_installation != installation_id or not isinstance(after_id, int):
            raise InvalidCursor()
        return after_id
