"""Public identifiers: a readable prefix plus 128 bits of randomness.

Database ids never leave the service; every id a client sees is one of these, so ids reveal neither
row counts nor creation order.
"""

from __future__ import annotations

import secrets

_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford base32, lowercase
_LENGTH = 26


def pid_pattern(prefix: str) -> str:
    """The shape of every pid ``new_pid(prefix)`` makes, as a document's ``pattern``."""
    return f"^{prefix}_[0-9a-hjkmnp-tv-z]{{{_LENGTH}}}$"


def new_pid(prefix: str) -> str:
    """Return ``<prefix>_<26 base32 chars>`` (130 random bits)."""
    value = secrets.randbits(130)
    chars = []
    for _ in range(_LENGTH):
        value, rem = divmod(value, 32)
        chars.append(_ALPHABET[rem])
    return f"{prefix}_{''.join(chars)}"
