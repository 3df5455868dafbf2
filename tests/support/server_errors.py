"""Every 5xx a server started by a test answers fails that test, unless the test says it expects one.

In-process servers (the test client, uvicorn threads) are watched through their access log: the
``tessera.access`` record of each request carries its status. Servers run as processes
(``tests/support/live_server.tessera_serve``) are judged from their own log when they stop.
A test that provokes a 5xx on purpose is marked ``@pytest.mark.allows_5xx``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Iterator
from typing import Any

ACCESS_LOGGER = "tessera.access"


class ServerErrorWatch(logging.Handler):
    """Collects the access lines of requests answered with a 5xx."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        status = getattr(record, "status", None)
        if record.name == ACCESS_LOGGER and isinstance(status, int) and status >= 500:
            self.seen.append(f"{getattr(record, 'method', '?')} {getattr(record, 'path', '?')} -> {status}")


def _entries(log_lines: Iterable[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each JSON object line of a server process's log, with its text (other lines are skipped)."""
    for line in log_lines:
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict):
            yield line, entry


def five_hundreds_in(log_lines: Iterable[str]) -> list[str]:
    """The 5xx access lines of a server process's JSON log (other lines are ignored)."""
    return [f"{entry.get('method')} {entry.get('path')} -> {entry['status']}" for _, entry in _entries(log_lines)
            if isinstance(entry.get("status"), int) and entry["status"] >= 500 and "path" in entry]


SLOW_REQUEST_MS = 1000.0


def trouble_in(log_lines: Iterable[str], limit: int = 40) -> list[str]:
    """What a failure report should show of a server process's JSON log: requests that took longer
    than ``SLOW_REQUEST_MS`` (a client's read timeout names the request, not what held it) and every
    warning or error line, in the order they were written."""
    found = []
    for line, entry in _entries(log_lines):
        duration = entry.get("duration_ms")
        slow = isinstance(duration, (int, float)) and duration > SLOW_REQUEST_MS
        if slow or entry.get("level") in ("warning", "error", "critical"):
            found.append(line.rstrip()[:600])
            if len(found) >= limit:
                break
    return found
