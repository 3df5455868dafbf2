"""Writes nobody waits for, sent to PostgreSQL as one statement instead of one each.

Why: psycopg's CPU cost is per statement, pipelined or not (building and sending the protocol
messages, reading back its results): measured at about 35 us per statement on this project's
hosts (a transaction of BEGIN, an INSERT ... RETURNING, four pipelined INSERTs and COMMIT cost
363-390 us of CPU; with the four sent as one statement, 261-293 us). A command's transaction enqueues its
record-stamp upsert, audit row, outbox row and idempotency completion: four statements whose
results nobody reads. Sent as the data-modifying CTEs of one statement
(``WITH w0 AS (INSERT ...), w1 AS (INSERT ...) UPDATE ...``) they cost one.

PostgreSQL runs every data-modifying CTE of a statement exactly once and to completion, on one
snapshot, in no order the query can see. So a batch holds only statements that cannot tell the
difference from running one after another:

- plain ``INSERT INTO``, ``UPDATE`` or ``DELETE FROM`` statements that read no other table (no
  ``SELECT`` anywhere in their text), whose results are discarded anyway;
- each on a different table, so no two of them touch the same row (two upserts of one row in
  one statement are an error; two updates of one row would keep only one).

Any other statement ends the batch: the batch is sent first, then the statement, in the order the
caller gave them. Constraint checks and statement-level triggers (the work notifications of the
queue tables) run for each CTE as they do for a statement of its own; a violation fails the whole
statement, so the transaction fails as it would have at that statement.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

# A statement of a batch: its target table, its SQL (psycopg's ``%(name)s`` placeholders) and values.
Pending = tuple[str, str, Mapping[str, Any]]

_TARGET = re.compile(r'(?:INSERT INTO|UPDATE|DELETE FROM) "?([A-Za-z_][A-Za-z0-9_]*)"?[ (]')
_PLACEHOLDER = re.compile(r"%\(([^)]+)\)s")
# Distinct batch shapes are few (each is a sequence of compiled statements); the bound keeps a
# caller that builds per-call SQL from growing the cache.
MAX_MERGED_SHAPES = 256
_merged: OrderedDict[tuple[str, ...], tuple[str, tuple[tuple[int, str, str], ...]]] = OrderedDict()


def target(sql: str) -> str | None:
    """The table a statement writes when it may join a batch, else None."""
    if "%%" in sql or "SELECT" in sql.upper():
        return None
    found = _TARGET.match(sql)
    return found.group(1) if found else None


def joins(batch: Sequence[Pending], table: str) -> bool:
    """Whether a statement on ``table`` may join ``batch`` (no statement of it writes that table)."""
    return all(pending[0] != table for pending in batch)


def merged(batch: Sequence[Pending]) -> tuple[str, dict[str, Any]]:
    """One statement running every statement of ``batch``: the last as the main statement, the
    others as data-modifying CTEs; each statement's parameters renamed ``w<i>_<name>``."""
    shape = tuple(pending[1] for pending in batch)
    cached = _merged.get(shape)
    if cached is None:
        cached = _merge(shape)
        _merged[shape] = cached
        if len(_merged) > MAX_MERGED_SHAPES:
            _merged.popitem(last=False)
    else:
        _merged.move_to_end(shape)
    sql, renames = cached
    values = {renamed: batch[index][2][name] for index, name, renamed in renames}
    return sql, values


def _merge(shape: tuple[str, ...]) -> tuple[str, tuple[tuple[int, str, str], ...]]:
    renames: list[tuple[int, str, str]] = []
    parts: list[str] = []
    for index, sql in enumerate(shape):
        names: dict[str, str] = {}

        def rename(found: re.Match[str], index: int = index, names: dict[str, str] = names) -> str:
            name = found.group(1)
            if name not in names:
                names[name] = f"w{index}_{name}"
                renames.append((index, name, names[name]))
            return f"%({names[name]})s"

        parts.append(_PLACEHOLDER.sub(rename, sql))
    ctes = ", ".join(f"w{index} AS ({part})" for index, part in enumerate(parts[:-1]))
    return f"WITH {ctes} {parts[-1]}", tuple(renames)
