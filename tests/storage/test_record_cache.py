"""Lists that follow writes (``storage.record_cache``): a cached list answers what a fresh read would,
after every kind of write, whoever makes it, and reads the list again only when it cannot follow."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Connection, bindparam, func, select, text

from storage import record_cache
from storage.drivers.db import make_engine
from storage.drivers.engine import Statement
from storage.listing import ListRequest
from storage.record_cache import Change, Prefix
from storage.records import RecordRepository
from storage.schema.migrate import upgrade
from storage.schema.types import UTCDateTime
from tessera.lists.contract import parse_list_request
from tests.conftest import Env, TenantUsers, create_pg_database, drop_pg_database
from tests.session.test_listing import insert, listed

STATUSES = ("in_stock", "assigned", "retired")
KINDS = ("ThinkPad", "Latitude", "Monitor", "Dock", "thinkpad mini", "Ökö")


def _asset(rng: random.Random, n: int) -> dict[str, Any]:
    return {"name": f"{rng.choice(KINDS)} {rng.randrange(40):02d}", "serialNo": f"RC-{n:05d}",
            "status": rng.choice(STATUSES), "value": rng.choice([None, 5, 12.5, 12.5, 40, 999])}


def _truth(env: Env, tenant: TenantUsers, params: dict[str, Any]) -> tuple[list[str], int]:
    """The page and total read as they are: in a transaction of the caller's, so no cache is used."""
    model = env.runtime.declarations.models["asset"]

    async def read() -> tuple[list[str], int]:
        async with env.runtime.db.read() as tx:
            repo = RecordRepository(tx, tenant.tenant_id, model)
            request: ListRequest = parse_list_request({k: str(v) for k, v in params.items()}, repo.list_fields())
            rows, total = await repo.page(request)
        return [r.pid for r in rows], total

    return env.run(read)


def _cached(env: Env, tenant: TenantUsers, params: dict[str, Any]) -> tuple[list[str], int]:
    data = listed(env, tenant, **params)
    return [r["id"] for r in data["records"]], data["total"]


def _write(env: Env, tenant: TenantUsers, rng: random.Random, step: int, pids: list[str]) -> None:
    """One write of a random kind: a create, an update of a sorted or filtered field, a delete, or an
    update made around the service (plain SQL, as an operator's fix would be)."""
    model = env.runtime.declarations.models["asset"]
    kind = rng.choice(("create", "update", "update", "delete", "around"))
    if kind == "create" or len(pids) < 5:
        pids.append(insert(env, tenant, [_asset(rng, 1000 + step)])[0]["id"])
        return
    pid = rng.choice(pids)
    if kind == "around":
        with env.sql.begin() as conn:
            conn.execute(text("UPDATE records SET search_text = search_text || ' around', version = version + 1 "
                              "WHERE pid = :pid"), {"pid": pid})
        return

    async def change() -> None:
        async with env.runtime.db.write() as conn:
            repo = RecordRepository(conn, tenant.tenant_id, model)
            current = await repo.get(pid, for_update=True)
            assert current is not None
            if kind == "delete":
                await repo.soft_delete(current, now=env.runtime.clock.now())
            else:
                field = rng.choice(("name", "status", "value"))
                assert await repo.update(current, {field: _asset(rng, step)[field]}, now=env.runtime.clock.now())

    env.run(change)
    if kind == "delete":
        pids.remove(pid)


LISTS = [
    ({"sortField": "name", "sortOrder": "asc"}, "no filter, by name"),
    ({"sortField": "value", "sortOrder": "desc",
      "filters": '[{"fieldName":"status","operator":"in","value":["in_stock","assigned"]}]'}, "status in, by value"),
    ({"sortField": "name", "sortOrder": "desc", "keyword": "thinkpad"}, "keyword, by name desc"),
    ({"sortField": "updated_at", "sortOrder": "desc",
      "filters": '[{"fieldName":"value","operator":"gte","value":12}]'}, "value gte, by updated_at"),
    ({"sortField": "status", "sortOrder": "asc", "keyword": "around"}, "keyword of writes around the service"),
]


@pytest.mark.parametrize("query", [q for q, _ in LISTS], ids=[name for _, name in LISTS])
def test_a_cached_list_answers_what_a_fresh_read_would_after_every_write(
    env: Env, tenant: TenantUsers, query: dict[str, Any]
) -> None:
    rng = random.Random(20261128)
    pids = [r["id"] for r in insert(env, tenant, [_asset(rng, n) for n in range(40)])]
    pages = [{**query, "pageSize": 6, "pageNum": n} for n in (1, 2, 4)]
    record_cache.LISTS.clear()
    for params in pages:
        assert _cached(env, tenant, params) == _truth(env, tenant, params)
    loads = record_cache.LISTS.loads
    for step in range(30):
        _write(env, tenant, rng, step, pids)
        for params in pages:
            assert _cached(env, tenant, params) == _truth(env, tenant, params), f"after write {step}"
    assert record_cache.LISTS.loads == loads  # every write followed; the list was never read again


def test_a_list_kept_in_part_follows_writes_and_reads_further_when_it_must(
    env: Env, tenant: TenantUsers, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the first matches are kept (``MIN_ORDERED_IDS``, twice the page's end): a write beyond
    them moves the total alone; a page past what is kept reads the list again."""
    monkeypatch.setattr(record_cache, "MIN_ORDERED_IDS", 4)
    rng = random.Random(7)
    pids = [r["id"] for r in insert(env, tenant, [_asset(rng, n) for n in range(40)])]
    pages = [{"sortField": "name", "sortOrder": "asc", "pageSize": 3, "pageNum": n} for n in (1, 2, 5)]
    record_cache.LISTS.clear()
    for step in range(25):
        _write(env, tenant, rng, step, pids)
        for params in pages:
            assert _cached(env, tenant, params) == _truth(env, tenant, params), f"after write {step}"


def test_more_changes_than_a_list_follows_read_it_again(
    env: Env, tenant: TenantUsers, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(record_cache, "MAX_DELTA", 3)
    rng = random.Random(3)
    pids = [r["id"] for r in insert(env, tenant, [_asset(rng, n) for n in range(10)])]
    params = {"sortField": "name", "sortOrder": "asc", "pageSize": 5}
    record_cache.LISTS.clear()
    _cached(env, tenant, params)
    for step in range(4):
        _write(env, tenant, rng, step, pids)
    assert _cached(env, tenant, params) == _truth(env, tenant, params)
    assert record_cache.LISTS.loads == 2


def _bulk(env: Env, tenant: TenantUsers, count: int, *, epoch: bool = False) -> None:
    """``count`` assets in one INSERT ... SELECT, around the service; with ``epoch``, as a bulk writer
    that does not log its rows (``record_cache.epoch_writes``)."""
    numbers = ("SELECT generate_series(1, :n) AS n" if env.backend == "postgresql" else
               "WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < :n) SELECT n FROM g")
    document = "jsonb_build_object" if env.backend == "postgresql" else "json_object"
    statement = text(
        "INSERT INTO records (tenant_id, model, pid, version, data, search_text, created_at, updated_at) "
        f"SELECT :t, 'asset', 'rec_bulk_' || :t || '_' || n, 1, {document}('name', 'Bulk ' || n, 'serialNo', "
        f"'BK-' || n, 'status', 'in_stock'), 'bulk ' || n, :now, :now FROM ({numbers}) AS numbers"
    ).bindparams(bindparam("now", type_=UTCDateTime()))
    with env.sql.begin() as conn:
        if epoch:
            record_cache.epoch_writes(conn, "asset", tenant.tenant_id)
        conn.execute(statement, {"t": tenant.tenant_id, "n": count, "now": env.runtime.clock.now()})


def _logged(env: Env, tenant: TenantUsers) -> tuple[int, int | None, int | None]:
    """How many changes of the tenant's assets the log keeps, and the first and last ``seq``."""
    changes = record_cache.record_changes
    with env.sql.connect() as conn:
        kept = conn.execute(select(func.count(), func.min(changes.c.seq), func.max(changes.c.seq))
                            .where(changes.c.tenant_id == tenant.tenant_id, changes.c.model == "asset")).one()
    return int(kept[0]), kept[1], kept[2]


def test_a_bulk_write_around_the_service_is_logged_and_followed(env: Env, tenant: TenantUsers) -> None:
    """Every record a hand-made statement writes is a change of its own: the next list follows them."""
    params = {"sortField": "name", "sortOrder": "asc", "pageSize": 5, "keyword": "bulk"}
    record_cache.LISTS.clear()
    assert _cached(env, tenant, params) == ([], 0)
    _bulk(env, tenant, 1_001)
    assert _cached(env, tenant, params) == _truth(env, tenant, params)
    assert _cached(env, tenant, params)[1] == 1_001
    assert record_cache.LISTS.loads == 1
    assert _logged(env, tenant)[0] == 1_001


def test_a_bulk_writer_that_draws_a_new_epoch_logs_nothing_and_every_list_is_read_again(
    env: Env, tenant: TenantUsers
) -> None:
    """PostgreSQL: ``epoch_writes`` keeps a transaction's rows out of the log and changes the model's
    stamp, so the next list is read again. SQLite logs the rows anyway, and the list follows them."""
    insert(env, tenant, [_asset(random.Random(3), 1)])  # the model has a stamp: its lists are cached
    params = {"sortField": "name", "sortOrder": "asc", "pageSize": 5, "keyword": "bulk"}
    record_cache.LISTS.clear()
    assert _cached(env, tenant, params) == ([], 0)
    _bulk(env, tenant, 300, epoch=True)
    assert _cached(env, tenant, params) == _truth(env, tenant, params)
    assert _cached(env, tenant, params)[1] == 300
    postgres = env.backend == "postgresql"
    assert record_cache.LISTS.loads == (2 if postgres else 1)
    assert _logged(env, tenant)[0] == (1 if postgres else 301)


def test_the_change_log_keeps_the_last_two_thousand_changes_of_a_model_and_at_most_63_more(
    env: Env, tenant: TenantUsers
) -> None:
    """As many as a list follows at once (``MAX_DELTA``); a list further behind is read again. The
    log is pruned every 64th change, 64 changes at a time."""
    _bulk(env, tenant, 1_000)
    params = {"sortField": "name", "sortOrder": "asc", "pageSize": 5, "keyword": "bulk"}
    record_cache.LISTS.clear()
    _cached(env, tenant, params)
    for n in range(3):
        with env.sql.begin() as conn:
            conn.execute(text("UPDATE records SET data = data, search_text = 'bulk ' || :n || ' ' || pid "
                              "WHERE tenant_id = :t"), {"t": tenant.tenant_id, "n": n})
    assert _logged(env, tenant) == (2_032, 1_969, 4_000)  # the last prune: at change 3,968
    assert _cached(env, tenant, params) == _truth(env, tenant, params)  # behind the kept changes: read again
    assert record_cache.LISTS.loads == 2


def test_under_a_collation_python_cannot_follow_a_text_sorted_list_is_read_again(
    env: Env, tenant: TenantUsers, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL under a collation other than code point order: a list sorted on text is read again
    after a write; a list sorted on a number still follows. SQLite always orders text by code point."""
    monkeypatch.setattr(record_cache, "CODE_POINT_COLLATIONS", set())
    rng = random.Random(11)
    pids = [r["id"] for r in insert(env, tenant, [_asset(rng, n) for n in range(10)])]
    by_name = {"sortField": "name", "sortOrder": "asc", "pageSize": 5}
    by_value = {"sortField": "value", "sortOrder": "asc", "pageSize": 5}
    record_cache.LISTS.clear()
    _cached(env, tenant, by_name)
    _cached(env, tenant, by_value)
    _write(env, tenant, rng, 0, pids)
    assert _cached(env, tenant, by_name) == _truth(env, tenant, by_name)
    assert _cached(env, tenant, by_value) == _truth(env, tenant, by_value)
    assert record_cache.LISTS.loads == (3 if env.backend == "postgresql" else 2)


# -- the entry on its own -------------------------------------------------------------------------

def _prefix(values: list[Any], *, descending: bool = False, complete: bool = True) -> Prefix:
    ids = list(range(1, len(values) + 1))
    return Prefix(stamp=9, seq=5, ids=ids, values=values, total=len(ids) if complete else 50,
                  complete=complete, descending=descending, follows=True, delta=Statement(select(1)))


def test_a_created_match_goes_where_its_sort_value_puts_it_empty_values_last() -> None:
    entry = _prefix(["a", "c", None])
    assert entry.follow(9, 7, [Change(6, 10, False, True, None, "b"), Change(7, 11, False, True, None, None)])
    assert list(entry.ids) == [1, 10, 2, 3, 11] and entry.total == 5 and entry.seq == 7


def test_a_descending_list_puts_empty_values_first_and_larger_ids_before() -> None:
    entry = _prefix([None, "c", "a"], descending=True)
    assert entry.follow(9, 7, [Change(6, 10, False, True, None, None), Change(7, 11, False, True, None, "b")])
    assert list(entry.ids) == [10, 1, 2, 11, 3]


def test_a_record_that_moves_is_taken_out_where_it_was_and_put_where_it_is() -> None:
    entry = _prefix(["a", "b", "c"])
    assert entry.follow(9, 6, [Change(6, 1, True, True, "a", "z")])
    assert list(entry.ids) == [2, 3, 1] and entry.values == ["b", "c", "z"] and entry.total == 3


def test_a_record_changed_twice_counts_by_its_first_change_and_its_row_now() -> None:
    entry = _prefix(["a", "b"])
    assert entry.follow(9, 7, [Change(6, 2, True, False, "b", None), Change(7, 2, False, False, None, None)])
    assert list(entry.ids) == [1] and entry.total == 1


def test_a_match_beyond_a_kept_part_moves_the_total_alone() -> None:
    entry = _prefix(["a", "b"], complete=False)
    assert entry.follow(9, 7, [Change(6, 20, False, True, None, "x"), Change(7, 21, True, False, "y", None)])
    assert list(entry.ids) == [1, 2] and entry.total == 50


def test_a_gap_another_epoch_or_a_misplaced_record_cannot_be_followed() -> None:
    assert not _prefix(["a"]).follow(9, 7, [Change(7, 3, False, True, None, "b")])  # 6 is missing
    assert not _prefix(["a"]).follow(8, 6, [Change(6, 3, False, True, None, "b")])  # another stamp
    assert not _prefix(["a", "b"]).follow(9, 6, [Change(6, 7, True, False, "a", None)])  # 7 is not there


def test_a_snapshot_older_than_the_entry_leaves_it_as_it_is() -> None:
    entry = _prefix(["a"])
    assert entry.follow(9, 4, [])
    assert entry.seq == 5 and list(entry.ids) == [1]


# -- writers of one model on PostgreSQL -------------------------------------------------------------

@pytest.fixture
def pg_url() -> Iterator[str]:
    url = create_pg_database()
    upgrade(url, models=[])
    try:
        yield url
    finally:
        drop_pg_database(url)


def _insert_record(conn: Connection, pid: str) -> None:
    conn.execute(text("INSERT INTO records (tenant_id, model, pid, version, data, search_text, created_at, updated_at) "
                      "VALUES (:t, 'asset', :pid, 1, '{}', '', now(), now())"), {"t": 1, "pid": pid})


def test_writers_of_one_model_do_not_wait_for_each_other_until_they_commit(pg_url: str) -> None:
    """A change is numbered at COMMIT (a deferred trigger): a transaction that wrote a record and is
    still working holds no lock another writer of the model waits for, and the changes are numbered
    in the order the transactions committed."""
    engine = make_engine(pg_url)
    try:
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO tenants (id, code, name, status, created_at) "
                              "VALUES (1, 't', 'T', 'active', now())"))
        with engine.connect() as slow, engine.connect() as quick:
            slow.begin()
            _insert_record(slow, "rec_slow")
            quick.begin()
            quick.execute(text("SET LOCAL lock_timeout = '2s'"))  # waiting for ``slow`` would fail here
            _insert_record(quick, "rec_quick")
            quick.commit()
            slow.commit()
        with engine.connect() as conn:
            order = conn.execute(text("SELECT r.pid FROM record_changes c JOIN records r ON r.id = c.record_id "
                                      "ORDER BY c.seq")).scalars().all()
    finally:
        engine.dispose()
    assert order == ["rec_quick", "rec_slow"]
