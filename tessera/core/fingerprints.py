"""Fingerprints of requests, for idempotency keys: the same JSON means the same request.

One canonical form (sorted keys, no spaces, UTF-8) for every surface that compares a repeated
key's request with the first one: session commands, Open Platform commands, inbound events.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def request_fingerprint(*parts: Any) -> str:
    canonical = json.dumps(list(parts), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    # surrogatepass: a lone surrogate in a body must reach validation (400), not fail here (500).
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()
