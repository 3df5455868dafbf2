"""List caches that follow writes: each list's first matches in order and its exact total, kept up to
date from the database's change log instead of read again after every write.

Why: at 1,000,000 records, reading a list's ordered matches and counting them costs hundreds of
milliseconds. The first cache of this kind was filed under a stamp that every write replaced, so a
tenant written to once a second paid that on nearly every list (43 times slower than with nobody
writing). Now a write costs a list the few rows that changed.

The log (migrations ``0017`` and ``0018``): triggers on ``records`` number every change of a (tenant,
model) and keep, per change, the record's id and its values *before* the change in ``record_changes``
(the last ``MAX_DELTA`` or a few more: a list further behind is read again anyway). On PostgreSQL
they run at COMMIT and hold a lock of the pair until the commit is done, so changes commit in
``seq`` order and any snapshot sees a gapless prefix of them; the last change's ``seq`` is the
pair's position. ``record_stamps.stamp`` is the pair's epoch: a writer of many records that does
not log them one by one draws a new one (``epoch_writes``), and every list of the pair is read again.

A cached list (``Prefix``) holds, at a (stamp, seq): the ids of its first matches in list order with
each one's sort value, and the exact total. Either the ids are every match (``bound`` None), or
they are exactly the matches up to ``bound``, the (sort value, id) of the last one read. A list
request reads the changes since the entry's ``seq`` in one statement (``delta_query``), which the
database evaluates against the list's own conditions twice: on each record's values before its
first change since then (``was``) and on its row now (``now``), with its sort value before and
now. The entry then drops what no longer matches, inserts what does where its sort value places
it, and moves the total by the difference; where an entry cannot follow (another epoch, a gap in
the log, more than ``MAX_DELTA`` changes), the list is read again, in one snapshot.

Placing a record by its sort value happens here, in Python, so it must order values as the database
does. Numbers, booleans and timestamps always do; text does when the database orders text by code
point (SQLite always; PostgreSQL under the ``C``, ``POSIX`` or ``C.UTF-8`` collation). Under any
other collation a list sorted on a text field is read again after a change instead of following it.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
import weakref
from array import array
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    ColumnElement,
    Select,
    String,
    Table,
    Text,
    and_,
    bindparam,
    case,
    column,
    false,
    func,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import Connection
from sqlalchemy.sql.visitors import replacement_traverse

from storage.drivers.engine import Statement
from storage.listing import sort_value
from storage.schema.tables import metadata, records
from storage.schema.types import JsonDoc, UTCDateTime

record_stamps = Table(
    "record_stamps",
    metadata,
    Column("tenant_id", BigInteger, primary_key=True, autoincrement=False),
    Column("model", String(64), primary_key=True),
    Column("stamp", BigInteger, nullable=False),
)

record_changes = Table(
    "record_changes",
    metadata,
    Column("tenant_id", BigInteger, primary_key=True, autoincrement=False),
    Column("model", String(64), primary_key=True),
    Column("seq", BigInteger, primary_key=True, autoincrement=False),
    Column("record_id", BigInteger, nullable=False),
    Column("old_data", JsonDoc, nullable=True),
    Column("old_search_text", Text, nullable=True),
    Column("old_created_at", UTCDateTime(), nullable=True),
    Column("old_updated_at", UTCDateTime(), nullable=True),
    info={"copied_timestamps": True},  # a record's, before a change (tests/support/moved_time.py)
)

_PAIR = (record_stamps.c.tenant_id == bindparam("tenant_id"), record_stamps.c.model == bindparam("model"))
# The pair's epoch and its last change: where a list read in the same snapshot stands.
READ_STAMP = Statement(select(
    record_stamps.c.stamp,
    select(func.coalesce(func.max(record_changes.c.seq), 0))
    .where(record_changes.c.tenant_id == record_stamps.c.tenant_id, record_changes.c.model == record_stamps.c.model)
    .scalar_subquery()).where(*_PAIR))
# The setting that keeps a transaction's writes out of the log (the triggers' WHEN clause, 0018).
EPOCH_WRITES = text("SELECT set_config('tessera.record_log', 'epoch', true)")
# PostgreSQL's collation of the database: whether it orders text by code point, as Python does.
PG_COLLATION = Statement(text("SELECT datcollate, to_jsonb(d) ->> 'datlocprovider' AS provider FROM pg_database d "
                              "WHERE datname = current_database()").columns(column("datcollate", String),
                                                                            column("provider", String)))
CODE_POINT_COLLATIONS = {"C", "POSIX", "C.UTF-8", "C.utf8", "C.UTF8"}

# A list keeps at most this many of its first matches; a page past them is read through the sort
# field's index (with the total still from the entry).
MAX_ORDERED_IDS = 250_000
# The fewest a list reads (so the next pages of page 1 are there too); it reads twice what the
# page asks for, so paging on finds them read already.
MIN_ORDERED_IDS = 1_000
# All lists together hold at most this many ids (each with its sort value).
MAX_HELD_IDS = 1_000_000
# More changes than this since an entry's state: read the list again instead. The change log keeps
# at least as many per (tenant, model) (migration 0018's KEEP).
MAX_DELTA = 2_000

# Types whose sort values Python orders as every database does; text only under CODE_POINT_COLLATIONS.
ORDERED_ALIKE = {"integer", "number", "boolean", "timestamp"}


def prefix_length(end: int) -> int:
    """How many of a list's first matches to read for a page ending at ``end``."""
    if end > MAX_ORDERED_IDS:
        return MIN_ORDERED_IDS  # the page comes from the index; the entry is for its total
    return min(MAX_ORDERED_IDS, max(MIN_ORDERED_IDS, 2 * end))


def _position_key(value: Any, record_id: int) -> tuple[Any, ...]:
    """The ascending order of ``sort ASC NULLS LAST, id ASC``; a descending list is its reverse."""
    return (value is None, 0 if value is None else value, record_id)


@dataclass(frozen=True)
class Change:
    """One row of ``delta_query``: a change, and the record's match and sort value before and now."""

    seq: int
    record_id: int
    was: bool
    now: bool
    old_value: Any
    new_value: Any


class Prefix:
    """A list's first matches in order at (``stamp``, ``seq``), and its total."""

    def __init__(self, stamp: int, seq: int, ids: Sequence[int], values: Sequence[Any], total: int,
                 complete: bool, descending: bool, follows: bool, delta: Statement[Any]) -> None:
        self.stamp = stamp
        self.seq = seq
        self.ids = array("q", ids)
        self.values = list(values)
        self.total = total
        self.descending = descending
        # Not None: the (sort value, id) of the last match read; every match up to it is in ``ids``.
        self.bound = None if complete or not ids else _position_key(values[-1], ids[-1])
        self.follows = follows  # False: Python cannot place this list's values (collation)
        self.broken = False
        self.delta = delta  # ``delta_query`` of this list, compiled once
        self.lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.ids)

    def covers(self, end: int) -> bool:
        """Whether the first ``end`` matches are all here."""
        return self.bound is None or end <= len(self.ids)

    def _before(self, a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
        return a > b if self.descending else a < b

    def _index(self, key: tuple[Any, ...]) -> int:
        """Where ``key`` goes: the number of entries before it in list order."""
        lo, hi = 0, len(self.ids)
        while lo < hi:
            mid = (lo + hi) // 2
            if self._before(_position_key(self.values[mid], self.ids[mid]), key):
                lo = mid + 1
            else:
                hi = mid
        return lo

    def _within(self, key: tuple[Any, ...]) -> bool:
        return self.bound is None or not self._before(self.bound, key)

    def follow(self, stamp: int, seq: int, changes: Iterable[Change]) -> bool:
        """Bring the entry to ``seq`` with the changes after its own; False when it cannot (another
        epoch, a gap, or values it cannot place), and it must be read again. An entry that failed
        half-way is never used again (``broken``)."""
        with self.lock:
            if self.broken or stamp != self.stamp:
                return False
            if seq <= self.seq:
                return True  # as new as the caller's snapshot already
            newer = [c for c in changes if c.seq > self.seq]
            if len(newer) != seq - self.seq or not self.follows:
                return False
            # A record's first change since the entry's state says how it was then; every row of
            # the record says how it is now.
            first: dict[int, Change] = {}
            for change in newer:
                first.setdefault(change.record_id, change)
            self.broken = not all(self._apply(record_id, change) for record_id, change in first.items())
            self.seq = seq
            return not self.broken

    def _apply(self, record_id: int, change: Change) -> bool:
        if change.was:
            key = _position_key(change.old_value, record_id)
            if self._within(key):
                at = self._index(key)
                if at >= len(self.ids) or self.ids[at] != record_id:
                    return False  # it should be here: the entry is not what it thinks it is
                del self.ids[at]
                del self.values[at]
            self.total -= 1
        if change.now:
            key = _position_key(change.new_value, record_id)
            if self._within(key):
                at = self._index(key)
                self.ids.insert(at, record_id)
                self.values.insert(at, change.new_value)
            self.total += 1
        return True


class ListCache:
    """Bounded by the ids its entries hold in all; least recently used first out. ``loading`` lets
    one request of a process read a list while the others asking for it wait for that read."""

    def __init__(self, max_ids: int = MAX_HELD_IDS) -> None:
        self._entries: OrderedDict[Hashable, Prefix] = OrderedDict()
        # One lock per list being read, per event loop; gone when nobody holds or awaits it.
        self._loading: weakref.WeakValueDictionary[tuple[int, Hashable], asyncio.Lock] = \
            weakref.WeakValueDictionary()
        self._max = max_ids
        self._lock = threading.Lock()
        self.loads = 0  # lists read (not followed): what the tests count

    def get(self, key: Hashable) -> Prefix | None:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: Hashable, entry: Prefix) -> None:
        with self._lock:
            self.loads += 1
            self._entries[key] = entry
            self._entries.move_to_end(key)
            while sum(len(e) for e in self._entries.values()) > self._max and len(self._entries) > 1:
                self._entries.popitem(last=False)

    def loading(self, key: Hashable) -> asyncio.Lock:
        """The lock a request holds while it reads the list ``key``."""
        slot = (id(asyncio.get_running_loop()), key)
        with self._lock:
            lock = self._loading.get(slot)
            if lock is None:
                lock = self._loading[slot] = asyncio.Lock()
            return lock

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.loads = 0

    def __len__(self) -> int:
        return len(self._entries)


LISTS = ListCache()


def _before_change(expr: ColumnElement[Any]) -> ColumnElement[Any]:
    """``expr`` (over ``records``) over a change's logged values instead: what it was before the change."""
    columns = {records.c.data: record_changes.c.old_data, records.c.search_text: record_changes.c.old_search_text,
               records.c.created_at: record_changes.c.old_created_at,
               records.c.updated_at: record_changes.c.old_updated_at}

    def replace(element: Any, **_kw: Any) -> Any:
        for current, old in columns.items():
            if element is current:
                return old
        return None

    options: dict[str, Any] = {}
    replaced: ColumnElement[Any] = replacement_traverse(expr, options, replace)
    return replaced


def delta_query(tenant_id: int, model: str, conditions: ColumnElement[bool], sort: ColumnElement[Any]) -> Select[Any]:
    """The pair's epoch, and each change after the bound ``since`` (in order, at most
    ``MAX_DELTA + 1``) with whether its record matched ``conditions`` before that change and matches
    now, and its sort value then and now. One row with no change when there is none."""
    stamps, changes = record_stamps, record_changes
    was = case((changes.c.old_data.is_(None), false()), else_=func.coalesce(_before_change(conditions), false()))
    now = case((records.c.id.is_(None), false()), (records.c.deleted_at.is_not(None), false()),
               else_=func.coalesce(conditions, false()))
    joined = stamps.outerjoin(changes, and_(changes.c.tenant_id == stamps.c.tenant_id,
                                            changes.c.model == stamps.c.model,
                                            changes.c.seq > bindparam("since", type_=BigInteger))) \
        .outerjoin(records, records.c.id == changes.c.record_id)
    return (select(stamps.c.stamp, changes.c.seq.label("change"), changes.c.record_id,
                   was.label("was"), now.label("now"), sort_value(_before_change(sort)).label("old_value"),
                   sort_value(sort).label("new_value"))
            .select_from(joined)
            .where(stamps.c.tenant_id == tenant_id, stamps.c.model == model)
            .order_by(changes.c.seq)
            .limit(MAX_DELTA + 1))


def read_changes(rows: Sequence[Any], since: int) -> tuple[int, int, list[Change]] | None:
    """(stamp, seq, changes) from ``delta_query``'s rows read after ``since``: ``seq`` is the last
    change's, or ``since`` when there is none. None when the pair has no stamp or there are more
    changes than ``MAX_DELTA``."""
    if not rows or len(rows) > MAX_DELTA:
        return None
    changes = [Change(int(r[1]), int(r[2]), bool(r[3]), bool(r[4]), r[5], r[6]) for r in rows if r[1] is not None]
    return int(rows[0][0]), changes[-1].seq if changes else since, changes


def epoch_writes(conn: Connection, model: str, tenant_id: int | None = None) -> None:
    """Call in a transaction that writes many records of ``model`` (of ``tenant_id``, or of every
    tenant), before its writes. On PostgreSQL they are then not logged one by one (a million rows
    would cost the commit about a minute), and the pairs draw a new epoch, so every list of them
    is read again. SQLite logs every row as it is written, at a few microseconds each: nothing to do.

    A pair with no stamp row yet gets one when ``tenant_id`` is given; with every tenant, a pair
    without one is not cached until its next logged write, so nothing stale is ever served."""
    if conn.dialect.name != "postgresql":
        return
    conn.execute(EPOCH_WRITES)
    stamp = secrets.randbits(63)
    if tenant_id is None:
        conn.execute(update(record_stamps).where(record_stamps.c.model == model).values(stamp=stamp))
        return
    upsert = postgresql.insert(record_stamps).values(tenant_id=tenant_id, model=model, stamp=stamp)
    conn.execute(upsert.on_conflict_do_update(index_elements=["tenant_id", "model"], set_={"stamp": stamp}))
