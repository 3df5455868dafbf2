"""Counts the requests Schemathesis sends per document, printed at the end of the run."""

from __future__ import annotations

from collections import Counter

CASES: Counter[str] = Counter()
