"""The Open Platform call audit: every business call leaves one row, written in batches off the request."""

from __future__ import annotations

import contextvars
import time
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from sqlalchemy import select

from storage.openplatform import call_audit
from storage.openplatform.call_audit import CallAudit
from storage.schema.tables import open_api_calls
from tessera.core.clock import FrozenClock
from tests.conftest import Env, TenantUsers, bearer, issue_token


def _rows(env: Env, request_prefix: str) -> list[tuple[str, int]]:
    with env.sql.connect() as conn:
        return [(r.request_id, r.status) for r in conn.execute(
            select(open_api_calls).where(open_api_calls.c.request_id.like(f"{request_prefix}%")))]


def test_each_call_is_written_within_moments_without_an_explicit_flush(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    token = issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"]
    for n in range(5):
        env.client.get("/api/open/v1/whoami", headers={**bearer(token), "X-Request-Id": f"batch-{n}"})
    deadline = time.monotonic() + 5
    while len(_rows(env, "batch-")) < 5 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert sorted(_rows(env, "batch-")) == [(f"batch-{n}", 200) for n in range(5)]


@pytest.mark.rule("op.request-id.call-audit")
def test_refused_calls_are_audited_with_their_status(env: Env) -> None:
    env.client.get("/api/open/v1/whoami", headers={**bearer("tat_not-a-token"), "X-Request-Id": "refused-1"})
    env.run(env.runtime.call_audit.flush)
    assert _rows(env, "refused-1") == [("refused-1", 401)]


def test_closing_writes_what_is_still_queued(env: Env) -> None:
    audit = CallAudit(env.runtime.db, env.runtime.clock, flush_seconds=3600)  # the flusher would wait an hour

    async def queue() -> None:  # on the app's loop, as a request would
        for n in range(3):
            audit.record(installation_id=None, tenant_id=None, client_id=None, method="GET",
                         path="/api/open/v1/whoami", status=401, request_id=f"queued-{n}")

    env.run(queue)
    assert _rows(env, "queued-") == []
    env.run(audit.close)
    assert sorted(_rows(env, "queued-")) == [(f"queued-{n}", 401) for n in range(3)]


def test_a_closed_writer_starts_again_on_the_next_call(env: Env) -> None:
    audit = CallAudit(env.runtime.db, env.runtime.clock, flush_seconds=0.01)
    env.run(audit.close)  # e.g. one app's shutdown over a shared runtime

    async def record() -> None:
        audit.record(installation_id=None, tenant_id=None, client_id=None, method="GET",
                     path="/api/open/v1/whoami", status=401, request_id="reopened-1")

    env.run(record)
    deadline = time.monotonic() + 5
    while not _rows(env, "reopened-1") and time.monotonic() < deadline:
        time.sleep(0.02)
    assert _rows(env, "reopened-1") == [("reopened-1", 401)]
    env.run(audit.close)


def test_a_path_holding_a_nul_is_audited_escaped_and_the_calls_after_it_too(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    auth = bearer(issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"])
    env.client.get("/api/open/v1/resources/assets/rec_%00x", headers={**auth, "X-Request-Id": "nul-path-1"})
    env.client.get("/api/open/v1/whoami", headers={**auth, "X-Request-Id": "nul-path-2"})
    env.run(env.runtime.call_audit.flush)
    with env.sql.connect() as conn:
        rows = {r.request_id: r.path for r in conn.execute(
            select(open_api_calls).where(open_api_calls.c.request_id.like("nul-path-%")))}
    assert rows == {"nul-path-1": "/api/open/v1/resources/assets/rec_%00x", "nul-path-2": "/api/open/v1/whoami"}


def test_a_batch_is_one_statement_and_keeps_every_value(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    at = datetime(2026, 11, 26, 14, 30, 15, 123456, tzinfo=timezone(timedelta(hours=2)))  # 12:30:15 UTC
    audit = CallAudit(env.runtime.db, FrozenClock(at), flush_seconds=3600)
    calls: list[str] = []
    # Only this flush's statements count: the session app's own writers run beside it, in their own tasks.
    flushing: contextvars.ContextVar[bool] = contextvars.ContextVar("flushing", default=False)
    for name in ("execute", "execute_many"):
        original = getattr(env.runtime.db, name)

        async def counted(*args: Any, _name: str = name, _original: Any = original) -> Any:
            if flushing.get():
                calls.append(_name)
            return await _original(*args)

        monkeypatch.setattr(env.runtime.db, name, counted)
    rows = [dict(installation_id=7, tenant_id=3, client_id="cli_a", method="GET", path="/api/open/v1/whoami",
                 status=200, request_id="arrays-1"),
            dict(installation_id=None, tenant_id=None, client_id=None, method="POST", path="/api/open/v1/x",
                 status=401, request_id="arrays-2")]

    async def queue_and_flush() -> None:
        flushing.set(True)
        for row in rows:
            audit.record(**row)
        await audit.flush()

    env.run(queue_and_flush)
    assert calls == (["execute"] if env.backend == "postgresql" else ["execute_many"])
    with env.sql.connect() as conn:
        written = conn.execute(select(open_api_calls).where(open_api_calls.c.request_id.like("arrays-%"))
                               .order_by(open_api_calls.c.request_id)).all()
    assert [{key: getattr(r, key) for key in rows[0]} for r in written] == rows
    assert [r.created_at for r in written] == [at.astimezone(UTC)] * 2


def test_rows_queued_while_a_batch_is_written_wait_for_the_next_pass(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    """Under load a request's row arrives during every write; a pass that chased them wrote one
    statement per request or two instead of one per ``FLUSH_SECONDS``."""
    audit = CallAudit(env.runtime.db, env.runtime.clock, flush_seconds=3600)
    batches: list[list[str]] = []
    ours: set[str] = set()
    write = call_audit.record_calls

    def record(request_id: str) -> None:
        ours.add(request_id)
        audit.record(installation_id=None, tenant_id=None, client_id=None, method="GET",
                     path="/api/open/v1/whoami", status=200, request_id=request_id)

    async def writing(conn: Any, rows: list[dict[str, Any]]) -> None:
        ids = [row["request_id"] for row in rows]
        if not ours.issuperset(ids):  # the session app's own call audit, writing an earlier test's requests
            await write(conn, rows)
            return
        batches.append(ids)
        if len(batches) < 3:  # a request answered while this batch is in flight (twice: a bound)
            record(f"late-{len(batches)}")
        await write(conn, rows)

    monkeypatch.setattr(call_audit, "record_calls", writing)

    async def queue_and_flush() -> None:
        for n in range(3):
            record(f"early-{n}")
        await audit.flush()

    env.run(queue_and_flush)
    assert batches == [["early-0", "early-1", "early-2"]]
    assert audit.pending == 1
    env.run(audit.flush)
    assert batches[1] == ["late-1"]
    assert sorted(_rows(env, "early-") + _rows(env, "late-1")) == [
        *((f"early-{n}", 200) for n in range(3)), ("late-1", 200)]
