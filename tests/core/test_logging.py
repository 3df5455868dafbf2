"""Secrets never reach the logs, every log line of a request carries its request id, and a log call
never waits for the stream the lines go to."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
import time
from typing import Any

import pytest

from tessera.core.logs import LOG_QUEUE_SIZE, JsonFormatter, QueuedLogHandler, configure_logging, stop_log_writer
from tests.conftest import USER_PASSWORD, Env, TenantUsers


def _formatted(caplog: pytest.LogCaptureFixture) -> str:
    formatter = JsonFormatter()
    return "\n".join(formatter.format(record) for record in caplog.records)


@pytest.mark.rule("security.no-secrets-in-logs")
def test_passwords_and_jwts_never_appear_in_logs(
    env: Env, tenant: TenantUsers, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG):
        login = env.client.post("/api/auth/login", json={"email": tenant.emails["admin"], "password": USER_PASSWORD})
        token = login.json()["data"]["jwt"]
        env.client.get("/api/dynamic/assets/list?keyword=x", headers={"Authorization": f"Bearer {token}"})
        env.client.post("/api/auth/login", json={"email": tenant.emails["admin"], "password": "wrong-" + USER_PASSWORD})
    text = _formatted(caplog)
    assert USER_PASSWORD not in text
    assert token not in text
    assert token.split(".")[2] not in text


@pytest.mark.rule("security.no-secrets-in-urls")
def test_access_log_lines_carry_the_request_id_and_no_query_string(
    env: Env, tenant: TenantUsers, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="tessera.access"):
        env.client.get("/api/dynamic/assets/list?keyword=findme", headers={**tenant.headers(), "X-Request-Id": "log-1"})
    lines = [json.loads(line) for line in _formatted(caplog).splitlines()]
    access = [line for line in lines if line["logger"] == "tessera.access" and line.get("requestId") == "log-1"]
    assert access, lines
    assert access[0]["path"] == "/api/dynamic/assets/list"
    assert access[0]["status"] == 200
    assert "findme" not in json.dumps(access)


def _stalled_stderr(monkeypatch: pytest.MonkeyPatch) -> tuple[int, Any]:
    """A pipe in place of stderr whose reader reads nothing until the test says so."""
    read_end, write_end = os.pipe()
    monkeypatch.setattr(sys, "stderr", os.fdopen(write_end, "w", buffering=1))
    return read_end, sys.stderr


def test_a_log_call_never_waits_for_a_stalled_log_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    read_end, stalled = _stalled_stderr(monkeypatch)
    saved = logging.getLogger().handlers, logging.getLogger().level
    configure_logging("INFO", as_json=True)
    try:
        # Far more than the pipe (64 KiB) and the queue hold: written on the caller's thread, the
        # first few hundred lines would fill the pipe and the next call would block for good.
        def log_many() -> None:
            for n in range(LOG_QUEUE_SIZE * 2):
                logging.getLogger("t").info("line", extra={"n": n})

        calls = threading.Thread(target=log_many)
        calls.start()
        calls.join(timeout=60)
        assert not calls.is_alive(), "a log call blocked on the stalled reader"
        queued = logging.getLogger().handlers[0]
        assert isinstance(queued, QueuedLogHandler) and queued.dropped > 0
        drained: list[bytes] = []
        reader = threading.Thread(target=lambda: drained.extend(iter(lambda: os.read(read_end, 65536), b"")))
        reader.start()
        deadline = time.monotonic() + 60
        while queued.records.qsize() and time.monotonic() < deadline:  # the reader catches up
            time.sleep(0.01)
        logging.getLogger("t").warning("after")
        stop_log_writer()
        stalled.close()
        reader.join(timeout=60)
        lines = b"".join(drained).decode().splitlines()
        entries = [json.loads(line) for line in lines]
        assert sum(e["dropped"] for e in entries if e["event"] == "logs.dropped") > 0  # what was lost is said
        assert entries[-1]["event"] == "after"
    finally:
        stop_log_writer()
        os.close(read_end)
        logging.getLogger().handlers, _ = saved
        logging.getLogger().setLevel(saved[1])


def test_queued_log_lines_are_written_when_the_process_exits() -> None:
    program = ("import logging; from tessera.core.logs import configure_logging; "
               "configure_logging('INFO', True); "
               "[logging.getLogger('t').info('line', extra={'n': n}) for n in range(2000)]")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=True)
    assert [json.loads(line)["n"] for line in done.stderr.splitlines()] == list(range(2000))
