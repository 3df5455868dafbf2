"""What Schemathesis did per document, printed at the end of the run: the cases it sent, and how
many operations only ever answered 404 or only ever refused schema-valid data (both must be 0)."""

from __future__ import annotations

from collections import Counter

CASES: Counter[str] = Counter()
NOT_REACHED: dict[str, tuple[int, int]] = {}
