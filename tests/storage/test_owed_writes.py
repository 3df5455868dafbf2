"""Writes owed to a database that was down are bounded: past the bound the oldest goes."""

from __future__ import annotations

from typing import Any

from storage.drivers.engine import MAX_OWED_WRITES, bounded_owe


def test_owed_writes_keep_the_newest_past_the_bound() -> None:
    owed: list[tuple[str, Any]] = []
    kept = [bounded_owe(owed, ("DELETE", n)) for n in range(MAX_OWED_WRITES + 2)]
    assert len(owed) == MAX_OWED_WRITES
    assert owed[0] == ("DELETE", 2) and owed[-1] == ("DELETE", MAX_OWED_WRITES + 1)
    assert kept.count(False) == 2 and all(kept[:MAX_OWED_WRITES])
