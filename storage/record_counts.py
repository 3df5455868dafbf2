"""Exact list totals, and the matches' ids in order, read once per state of a tenant's model.

A list keeps the ids of its first ``MAX_ORDERED_IDS`` matches in sort order under the same key
(``ORDERS``), so every page among them at that stamp is just its ten rows by id: page 500 costs
what page 1 does, at a hundred thousand records or a million. Only a page past them pages
through the sort field's index.

Every write to a tenant's records of one model (``storage.records``: insert, update, soft delete)
sets that pair's row of ``record_stamps`` to a fresh random stamp in the same transaction. A list
reads the stamp (one primary-key lookup) and then the total from ``COUNTS``, keyed by the stamp and
the count query's SQL and parameters; only a miss runs the count. So paging through a result, or
many users asking the same list, counts once; any committed write changes the stamp, and the next
page's total is counted afresh.

Exactness: the stamp is read before the count, in its own statement, so a cached total is never
older than the stamp it is filed under (a write committed between the two makes the stamp stale,
and the next list misses). Stamps are random 63-bit numbers, so one process may serve several
databases (the tests do) without two of them sharing a key. A pair with no stamp row (records
written around ``storage.records``, e.g. bulk seeding that skipped ``touch``) is never cached.

The cost is one upsert per write on a row per (tenant, model): concurrent writers of one tenant's
model wait for each other's commit on it, which is what makes the count exact without a reader
ever scanning the model to find out whether it changed.
"""

from __future__ import annotations

import secrets
import threading
from array import array
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

from sqlalchemy import BigInteger, Column, String, Table, bindparam, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql import ClauseElement

from storage.engine import Executor, Statement, compiled_for
from storage.tables import metadata

record_stamps = Table(
    "record_stamps",
    metadata,
    Column("tenant_id", BigInteger, primary_key=True, autoincrement=False),
    Column("model", String(64), primary_key=True),
    Column("stamp", BigInteger, nullable=False),
)

_STAMP_VALUES: dict[str, Any] = {name: bindparam(name) for name in ("tenant_id", "model", "stamp")}
_PG_TOUCH = postgresql.insert(record_stamps).values(_STAMP_VALUES)
_LITE_TOUCH = sqlite.insert(record_stamps).values(_STAMP_VALUES)
_TOUCH = Statement(
    _PG_TOUCH.on_conflict_do_update(index_elements=["tenant_id", "model"], set_={"stamp": _PG_TOUCH.excluded.stamp}),
    {"sqlite": _LITE_TOUCH.on_conflict_do_update(index_elements=["tenant_id", "model"],
                                                  set_={"stamp": _LITE_TOUCH.excluded.stamp})},
)
_READ = Statement(select(record_stamps.c.stamp).where(record_stamps.c.tenant_id == bindparam("tenant_id"),
                                                      record_stamps.c.model == bindparam("model")))

# Totals kept at most: each entry is a key of a few hundred bytes and an int.
MAX_ENTRIES = 10_000


def new_stamp() -> int:
    return secrets.randbits(63)


async def touch(conn: Executor, tenant_id: int, model: str) -> None:
    """Mark the tenant's records of ``model`` as changed (in the writer's transaction). Enqueued:
    nobody reads its result, so on PostgreSQL it travels with the next statement or the COMMIT
    instead of costing the write a round trip of its own."""
    await conn.enqueue(_TOUCH, {"tenant_id": tenant_id, "model": model, "stamp": new_stamp()})


async def stamp(conn: Executor, tenant_id: int, model: str) -> int | None:
    """The current stamp of the pair; None when nothing has written it through ``touch``."""
    found = (await conn.execute(_READ, {"tenant_id": tenant_id, "model": model})).scalar()
    return None if found is None else int(found)


class CountCache:
    """A bounded, least-recently-used map of totals; thread-safe (the benchmarks' seeding uses threads)."""

    def __init__(self, max_entries: int = MAX_ENTRIES) -> None:
        self._entries: OrderedDict[Hashable, int] = OrderedDict()
        self._max = max_entries
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable) -> int | None:
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return found

    def put(self, key: Hashable, total: int) -> None:
        with self._lock:
            self._entries[key] = total
            self._entries.move_to_end(key)
            while len(self._entries) > self._max:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.hits = self.misses = 0


COUNTS = CountCache()


class OrderCache:
    """Bounded by the ids it holds in all: each entry is one list's matches in order (8 bytes an id)."""

    def __init__(self, max_ids: int) -> None:
        self._entries: OrderedDict[Hashable, array[int]] = OrderedDict()
        self._held = 0
        self._max = max_ids
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> array[int] | None:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: Hashable, ids: array[int]) -> None:
        if len(ids) > self._max:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            self._held -= 0 if old is None else len(old)
            self._entries[key] = ids
            self._held += len(ids)
            while self._held > self._max:
                _, dropped = self._entries.popitem(last=False)
                self._held -= len(dropped)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._held = 0

    def __len__(self) -> int:
        return len(self._entries)


# A list keeps the ids of at most this many of its first matches in order at each stamp
# (``ORDERS``: pages up to 25,000 of ten), and ``ORDERS`` holds at most ``MAX_HELD_IDS`` ids in all
# (8 bytes each, plus a key per list).
MAX_ORDERED_IDS = 250_000
MAX_HELD_IDS = 2_000_000
ORDERS = OrderCache(max_ids=MAX_HELD_IDS)


def count_key(stamp: int, dialect: str, statement: ClauseElement) -> Hashable:
    """The cache key of one count: the stamp, the statement's SQL and the values bound to it."""
    compiled, extracted = compiled_for(statement, dialect)
    sql, params = compiled.bind(None, extracted)
    return stamp, sql, repr(params)
