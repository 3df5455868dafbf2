"""A slow database stalls nothing else: one request waits 2 s on the database while other requests
to the same process keep answering at their usual latency.

The slow request is a command whose row lock is held by another session for 2 s (on PostgreSQL
that session sleeps in ``pg_sleep(2)``; on SQLite it holds the file's write lock). A data path that
ran its queries on the event loop would freeze every request of the process for those 2 s.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
from sqlalchemy import text

from tessera.app import create_app
from tests.conftest import Env, TenantUsers
from tests.support.live_server import serve
from tests.support.openplatform import Integration, new_key, seed_assets

HOLD_SECONDS = 2.0
# Usual latency here is a few milliseconds; a stalled loop would make one of these wait ~2 s.
USUAL_CEILING_SECONDS = 0.5


def _hold_the_row(env: Env, pid: str, held: threading.Event) -> None:
    """Another session locks the record, sleeps in the database, then lets go."""
    with env.sql.connect() as conn:
        if env.backend == "postgresql":
            conn.execute(text("SELECT id FROM records WHERE pid = :pid FOR UPDATE"), {"pid": pid})
            held.set()
            conn.execute(text("SELECT pg_sleep(:s)"), {"s": HOLD_SECONDS})
        else:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
            held.set()
            time.sleep(HOLD_SECONDS)
        conn.commit()


def test_one_slow_query_leaves_the_other_requests_at_their_usual_latency(env: Env, tenant: TenantUsers) -> None:
    integration = Integration(env, tenant)
    slow_pid, read_pid = seed_assets(tenant, 2, prefix="SLOW")
    tag = integration.etag(slow_pid)
    held = threading.Event()
    with serve(create_app(env.runtime.settings, env.runtime)) as base, ThreadPoolExecutor(2) as pool:
        holder = pool.submit(_hold_the_row, env, slow_pid, held)
        assert held.wait(10)
        started = time.monotonic()
        slow = pool.submit(
            httpx.post, f"{base}/api/open/v1/commands/assets.assign:execute", timeout=30,
            json={"targetPid": slow_pid, "input": {"assignee": "dana"}},
            headers={**integration.auth, "If-Match": tag, "Idempotency-Key": new_key()},
        )
        latencies = []
        while not slow.done() and time.monotonic() - started < HOLD_SECONDS * 3:
            sent = time.monotonic()
            response = httpx.get(f"{base}/api/open/v1/resources/assets/{read_pid}", headers=integration.auth)
            latencies.append(time.monotonic() - sent)
            assert response.status_code == 200, response.text
        holder.result(10)
        assert slow.result(30).status_code == 200
        waited = time.monotonic() - started
    assert waited >= HOLD_SECONDS * 0.9  # the command really waited on the database
    assert len(latencies) >= 10, latencies  # and the process kept answering meanwhile
    assert max(latencies) < USUAL_CEILING_SECONDS, sorted(latencies)[-5:]
