"""Rows a test wrote while it had moved the app's clock forward, brought back to the present.

Every test of a backend shares one database, and the app's clock is the session's: a test that moves
it writes rows stamped in its future, which after the clock is set back would stay later than
anything the next tests write (not yet due, not yet expired, newest) for the rest of the session.
``marks`` notes each table's highest id before the test; ``bring_back`` then moves every timestamp
beyond the present of the rows created since back to the present.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, Engine, Table, func, select, update

from storage.schema.tables import metadata
from storage.schema.types import UTCDateTime


def _stamped() -> list[tuple[Table, list[Column[datetime]]]]:
    """Every table with timestamps, each with its timestamp columns (all such tables have an ``id``);
    not a table whose timestamps are copies of another's rows (``info["copied_timestamps"]``: the
    change log's values before a change), which follow when those rows are brought back."""
    found = []
    for table in metadata.sorted_tables:
        if table.info.get("copied_timestamps"):
            continue
        columns = [c for c in table.columns if isinstance(c.type, UTCDateTime)]
        if columns:
            assert "id" in table.c, f"{table.name} has timestamps but no id: the rows a test made cannot be told"
            found.append((table, columns))
    return found


STAMPED = _stamped()


def marks(engine: Engine) -> dict[str, int]:
    """Each stamped table's highest id now (0 when empty), in one query."""
    query = select(*(select(func.coalesce(func.max(table.c.id), 0)).scalar_subquery().label(table.name)
                     for table, _ in STAMPED))
    with engine.connect() as conn:
        row = conn.execute(query).one()
    return {table.name: int(row._mapping[table.name]) for table, _ in STAMPED}


def bring_back(engine: Engine, since: dict[str, int], now: datetime) -> int:
    """Set every timestamp later than ``now`` of the rows created after ``since`` (from ``marks``)
    to ``now``; returns how many values moved."""
    moved = 0
    grown = marks(engine)
    with engine.begin() as conn:
        for table, columns in STAMPED:
            if grown[table.name] <= since[table.name]:
                continue  # the test created no row here
            for column in columns:
                moved += conn.execute(update(table).where(table.c.id > since[table.name], column > now)
                                      .values({column.name: now})).rowcount
    return moved
