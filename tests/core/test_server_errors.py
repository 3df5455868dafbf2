"""The suite's own guard: a 5xx no test expected fails the test (tests/support/server_errors.py)."""

from __future__ import annotations

import logging

from tests.support.server_errors import ACCESS_LOGGER, ServerErrorWatch, five_hundreds_in


def _access(status: int) -> logging.LogRecord:
    record = logging.LogRecord(ACCESS_LOGGER, logging.INFO, __file__, 1, "request", None, None)
    record.__dict__.update(method="GET", path="/api/x", status=status)
    return record


def test_the_watch_collects_access_lines_of_5xx_answers_only() -> None:
    watch = ServerErrorWatch()
    for status in (200, 404, 500, 503):
        watch.emit(_access(status))
    assert watch.seen == ["GET /api/x -> 500", "GET /api/x -> 503"]


def test_a_server_process_log_is_read_for_5xx_access_lines() -> None:
    lines = ['{"message":"request","method":"POST","path":"/oauth2/token","status":500}',
             '{"message":"request","method":"GET","path":"/api/health","status":200}',
             "not json", '{"message":"webhook.attempt","httpStatus":500,"status":"retrying"}']
    assert five_hundreds_in(lines) == ["POST /oauth2/token -> 500"]
