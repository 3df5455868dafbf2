"""Idle connections kept at hand in front of psycopg's pool (``storage.drivers.idle_connections``), on PostgreSQL.

The hand saves the pool's checkout on every statement; these tests hold the rules that keep the
pool the owner of every connection: waiters are served first, a connection that is not idle, is
out too long or belongs to a replaced pool goes back, and the pool's figures count the hand as idle.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import psycopg
import pytest
from psycopg_pool import AsyncConnectionPool
from sqlalchemy import func, literal, select, text

from storage.drivers.engine import Statement
from storage.drivers.idle_connections import Hand, Held
from storage.drivers.postgres import PostgresDatabase
from tests.conftest import PG_ADMIN_URL, pg_reachable

T = TypeVar("T")
SELECT_ONE = text("SELECT 1")


def _run(test: Callable[[], Awaitable[T]]) -> T:
    pg_reachable()
    return asyncio.run(test())  # type: ignore[arg-type]


async def _pool() -> AsyncConnectionPool:
    pool = AsyncConnectionPool(PG_ADMIN_URL, min_size=1, max_size=2, kwargs={"autocommit": True}, open=False)
    await pool.open(wait=True)
    return pool


def test_statements_one_after_another_take_from_the_pool_once() -> None:
    async def test() -> dict[str, int]:
        db = PostgresDatabase(PG_ADMIN_URL)
        try:
            for _ in range(20):
                await db.execute(SELECT_ONE)
            return db.pool_stats()
        finally:
            await db.close()

    stats = _run(test)
    assert stats["requests_num"] == 1


def test_a_request_waiting_in_the_pool_gets_the_connection_released() -> None:
    async def test() -> float:
        db = PostgresDatabase(PG_ADMIN_URL, min_size=1, max_size=1, timeout=5.0)
        try:
            await db.execute(SELECT_ONE)
            loop = asyncio.get_running_loop()
            async with db.read() as tx:
                await tx.execute(SELECT_ONE)  # holds the pool's only connection
                waiter = asyncio.ensure_future(db.execute(SELECT_ONE))
                await asyncio.sleep(0.05)
                assert not waiter.done()
                released = loop.time()
            await waiter
            return loop.time() - released
        finally:
            await db.close()

    assert _run(test) < 1.0  # served at once, not after the pool's timeout


def test_a_connection_left_in_a_transaction_goes_back_to_the_pool() -> None:
    async def test() -> list[Held]:
        pool = await _pool()
        try:
            conn = await pool.getconn()
            await conn.execute("BEGIN")
            held = Held(conn, pool, until=100.0)
            back = Hand().keep(held, pool, now=0.0)
            await pool.putconn(conn)
            return back
        finally:
            await pool.close()

    back = _run(test)
    assert len(back) == 1


def test_an_idle_connection_is_kept_at_hand_until_its_time() -> None:
    async def test() -> tuple[int, list[Held], Held | None]:
        pool = await _pool()
        try:
            conn = await pool.getconn()
            hand = Hand()
            kept = hand.keep(Held(conn, pool, until=100.0), pool, now=0.0)
            taken = hand.take()
            late = hand.keep(Held(conn, pool, until=100.0), pool, now=100.0)
            await pool.putconn(conn)
            return len(kept), late, taken
        finally:
            await pool.close()

    kept, late, taken = _run(test)
    assert kept == 0 and taken is not None
    assert len(late) == 1


def test_the_oldest_connection_past_its_time_goes_back_on_any_release() -> None:
    async def test() -> tuple[list[Held], int]:
        pool = await _pool()
        try:
            first, second = await pool.getconn(), await pool.getconn()
            hand = Hand()
            hand.keep(Held(first, pool, until=10.0), pool, now=0.0)
            back = hand.keep(Held(second, pool, until=100.0), pool, now=50.0)
            left = len(hand)
            for held in [*back, *hand.drain()]:
                await pool.putconn(held.conn)
            return back, left
        finally:
            await pool.close()

    back, left = _run(test)
    assert [held.until for held in back] == [10.0]
    assert left == 1


def test_a_connection_of_a_replaced_pool_goes_back_to_it() -> None:
    async def test() -> list[Held]:
        old, new = await _pool(), await _pool()
        try:
            conn = await old.getconn()
            back = Hand().keep(Held(conn, old, until=100.0), new, now=0.0)
            await old.putconn(conn)
            return back
        finally:
            await old.close()
            await new.close()

    assert len(_run(test)) == 1


def test_a_connection_is_not_kept_while_a_request_waits_in_the_pool() -> None:
    async def test() -> list[Held]:
        pool = await _pool()
        try:
            conn = await pool.getconn()
            hand = Hand()
            hand.waiting = 1
            back = hand.keep(Held(conn, pool, until=100.0), pool, now=0.0)
            await pool.putconn(conn)
            return back
        finally:
            await pool.close()

    assert len(_run(test)) == 1


def test_pool_figures_count_connections_at_hand_as_idle() -> None:
    async def test() -> dict[str, int]:
        db = PostgresDatabase(PG_ADMIN_URL, min_size=1, max_size=1)  # a pool that never grows
        try:
            await db.execute(SELECT_ONE)
            return db.pool_stats()
        finally:
            await db.close()

    stats = _run(test)
    assert stats["pool_size"] - stats["pool_available"] == 0  # none in use


def test_a_statement_failing_for_its_own_reason_leaves_the_connection_usable() -> None:
    async def test() -> Any:
        db = PostgresDatabase(PG_ADMIN_URL, min_size=1, max_size=1)
        try:
            with pytest.raises(psycopg.errors.DivisionByZero):
                await db.execute(text("SELECT 1/0"))
            return (await db.execute(SELECT_ONE)).rowcount  # SELECT 1: one row
        finally:
            await db.close()

    assert _run(test) == 1


def test_statements_on_one_connection_each_get_their_own_result() -> None:
    """The one-statement path reuses its connection's cursor: no result leaks into the next."""
    many = Statement(select(func.generate_series(1, 3).label("n")))
    word = Statement(select(literal("x").label("w")))

    async def test() -> list[Any]:
        db = PostgresDatabase(PG_ADMIN_URL, min_size=1, max_size=1)
        try:
            seen: list[Any] = [[tuple(row) for row in (await db.execute(many)).all()]]
            with pytest.raises(psycopg.errors.DivisionByZero):
                await db.execute(text("SELECT 1/0"))
            seen.append([tuple(row) for row in (await db.execute(word)).all()])
            seen.append((await db.execute(text("SELECT generate_series(1, 5)"))).rowcount)
            seen.append([tuple(row) for row in (await db.execute(many)).all()])
            return seen
        finally:
            await db.close()

    assert _run(test) == [[(1,), (2,), (3,)], [("x",)], 5, [(1,), (2,), (3,)]]
