"""Public identifiers: a readable prefix plus 128 bits of randomness.

Database ids never leave the service; every id a client sees is one of these, so ids reveal neither
row counts nor creation order.
"""

from __future__ import annotations

import secrets

_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford base32, lowercase


def new_pid(prefix: str) -> str:
    """Return ``<prefix>_<26 base32 chars>`` (130 random bits)."""
    value = secrets.randbits(130)
    chars = []
    for _ in range(26):
        value, rem = divmod(value, 32)
        chars.append(_ALPHABET[rem])
    return f"{prefix}_{''.join(chars)}"
