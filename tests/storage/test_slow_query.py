"""A slow database stalls nothing else: while one request waits on the database, other requests to
the same process keep being answered.

The slow request is a command whose row lock another session holds (on PostgreSQL a ``FOR UPDATE``
in an open transaction; on SQLite the file's write lock) until the test lets go. A data path that
ran its queries on the event loop would freeze every request of the process for as long as that.

No wall-clock bound decides the outcome, so a loaded machine cannot fail it: the test lets the lock
go only after the other requests were answered, so on a frozen loop they would never be; their
timeout (``HANG_SECONDS``) only keeps that failure from hanging the suite.
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
from sqlalchemy import text

from tessera.app import create_app
from tests.conftest import Env, TenantUsers
from tests.support.live_server import serve
from tests.support.openplatform import Integration, new_key, seed_assets

COMMAND = "/api/open/v1/commands/assets.assign:execute"
READS = 20
HANG_SECONDS = 15.0

Scope = MutableMapping[str, Any]
Asgi = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]


def _hold_the_row(env: Env, pid: str, held: threading.Event, release: threading.Event) -> None:
    """Another session locks the record and keeps it until ``release`` (at most a minute)."""
    with env.sql.connect() as conn:
        if env.backend == "postgresql":
            conn.execute(text("SELECT id FROM records WHERE pid = :pid FOR UPDATE"), {"pid": pid})
        else:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        held.set()
        release.wait(60)
        conn.commit()


def _noting_arrival(app: Asgi, path: str, arrived: threading.Event) -> Asgi:
    """``app``, setting ``arrived`` when a request for ``path`` reaches it."""

    async def wrapped(scope: Scope, receive: Callable[[], Awaitable[Any]],
                      send: Callable[[Any], Awaitable[None]]) -> None:
        if scope["type"] == "http" and scope["path"] == path:
            arrived.set()
        await app(scope, receive, send)

    return wrapped


def test_other_requests_are_answered_while_one_waits_on_the_database(env: Env, tenant: TenantUsers) -> None:
    integration = Integration(env, tenant)
    slow_pid, read_pid = seed_assets(tenant, 2, prefix="SLOW")
    tag = integration.etag(slow_pid)
    held, release, arrived = threading.Event(), threading.Event(), threading.Event()
    app = _noting_arrival(create_app(env.runtime.settings, env.runtime), COMMAND, arrived)
    with serve(app) as base, ThreadPoolExecutor(2) as pool:
        holder = pool.submit(_hold_the_row, env, slow_pid, held, release)
        try:
            assert held.wait(10)
            slow = pool.submit(
                httpx.post, f"{base}{COMMAND}", timeout=60,
                json={"targetPid": slow_pid, "input": {"assignee": "dana"}},
                headers={**integration.auth, "If-Match": tag, "Idempotency-Key": new_key()},
            )
            assert arrived.wait(10)
            for n in range(READS):
                try:
                    response = httpx.get(f"{base}/api/open/v1/resources/assets/{read_pid}",
                                         headers=integration.auth, timeout=HANG_SECONDS)
                except httpx.TimeoutException:
                    raise AssertionError(f"read {n + 1} got no answer while the command waited on the "
                                         "database: the process stalls on a slow query") from None
                assert response.status_code == 200, response.text
            assert not slow.done(), slow.result().text  # the command still waits on the lock
        finally:
            release.set()
        holder.result(10)
        assert slow.result(30).status_code == 200  # and it went through once the lock was let go
