"""psycopg's private API that ``storage/drivers/psycopg_internals.py`` fences still has the shape it relies on."""

from __future__ import annotations

import asyncio
import inspect
from importlib.metadata import version

import psycopg

from storage.drivers.psycopg_internals import PSYCOPG_VERSION, forget_prepared
from tests.conftest import PG_ADMIN_URL, pg_reachable


def test_the_installed_psycopg_is_the_fenced_version() -> None:
    assert version("psycopg") == PSYCOPG_VERSION == psycopg.__version__


def test_a_connection_has_a_prepare_manager_whose_clear_forgets_what_it_prepared() -> None:
    pg_reachable()

    async def check() -> None:
        async with await psycopg.AsyncConnection.connect(PG_ADMIN_URL, prepare_threshold=0) as conn:
            manager = conn._prepared  # the shape the fence relies on
            assert inspect.signature(manager.clear).parameters == {}
            await conn.execute("SELECT 1 WHERE %s = 1", (1,))  # prepared at once (threshold 0)
            assert manager._names  # one statement prepared
            forget_prepared(conn)
            assert not manager._names
            await conn.execute("SELECT 1 WHERE %s = 1", (1,))  # still runs: prepared again

    asyncio.run(check())
