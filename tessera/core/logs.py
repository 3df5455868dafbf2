"""Structured logs: one JSON object per line, each carrying the request id of its request.

Log calls pass facts in ``extra=``; nothing in this module ever formats a secret, and the request
id it prints has already been checked to be safe (see ``tessera.requestid``).

A log call never writes: it puts the record on a bounded queue, and a thread of its own formats and
writes it. Writing to stderr on the event loop blocks the loop, and every request on it, whenever
the reader of that stream is slow (a full pipe, a throttled log collector, a busy disk). When the
queue is full a record is dropped and counted, and the writer reports how many before its next line.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import logging
import logging.handlers
import queue
import sys
import threading
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

request_id_var: ContextVar[str | None] = ContextVar("tessera_request_id", default=None)

_STANDARD = set(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


class RequestIdFilter(logging.Filter):
    """Gives plain-text records a ``requestId`` even outside a request."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not getattr(record, "requestId", None):
            record.requestId = "-"
        return True


def install_request_id_factory() -> None:
    """Stamp each log record with the request id when it is created.

    Formatting may happen later or elsewhere (queued handlers, test capture), when the context
    variable no longer holds the request's id; the record must carry it from birth.
    """
    current = logging.getLogRecordFactory()
    if getattr(current, "_tessera", False):
        return

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = current(*args, **kwargs)
        request_id = request_id_var.get()
        if request_id and not hasattr(record, "requestId"):
            record.requestId = request_id
        return record

    factory._tessera = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(factory)


# Records waiting for the writer thread; past this, new records are dropped and counted.
LOG_QUEUE_SIZE = 10_000


class QueuedLogHandler(logging.handlers.QueueHandler):
    """Puts records on the bounded queue without ever waiting (see the module docstring)."""

    def __init__(self, records: queue.Queue[logging.LogRecord | None]) -> None:
        super().__init__(records)
        self.records = records
        self.dropped = 0

    def prepare(self, record: logging.LogRecord) -> logging.LogRecord:
        # The message is rendered now, while its arguments still hold the values of the call; the
        # JSON line is formatted by the writer, off the caller's thread.
        record.msg, record.args = record.getMessage(), None
        return record

    def enqueue(self, record: logging.LogRecord) -> None:
        try:
            self.queue.put_nowait(record)
        except queue.Full:
            self.dropped += 1


class _Writer(logging.StreamHandler):  # type: ignore[type-arg]
    """The writer thread's handler: reports records dropped since its last line, then writes."""

    def __init__(self, source: QueuedLogHandler) -> None:
        super().__init__(sys.stderr)
        self._source = source

    def handle(self, record: logging.LogRecord) -> bool:
        dropped, self._source.dropped = self._source.dropped, 0
        if dropped:
            super().handle(logging.makeLogRecord({
                "name": "tessera.logs", "levelno": logging.WARNING, "levelname": "WARNING",
                "msg": "logs.dropped", "dropped": dropped}))
        return super().handle(record)


# How long exit waits for the writer to write what is queued (a stalled stream must not hang exit).
STOP_WAIT_SECONDS = 5.0


class _LogWriter:
    """The thread that writes the queued records; a ``None`` record stops it."""

    def __init__(self, records: queue.Queue[logging.LogRecord | None], handler: logging.Handler) -> None:
        self._records = records
        self._handler = handler
        self._thread = threading.Thread(target=self._run, name="tessera-log-writer", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while (record := self._records.get()) is not None:
            self._handler.handle(record)
        self._handler.flush()

    def stop(self) -> None:
        with contextlib.suppress(queue.Full):
            self._records.put(None, timeout=STOP_WAIT_SECONDS)
            self._thread.join(STOP_WAIT_SECONDS)


_writer: _LogWriter | None = None


def stop_log_writer() -> None:
    """Write what is queued and stop the writer thread (at exit, or before a new configuration)."""
    global _writer
    if _writer is not None:
        _writer.stop()
        _writer = None


atexit.register(stop_log_writer)


def configure_logging(level: str, as_json: bool) -> None:
    """Structured lines on stderr, written by a thread of their own (the module docstring says why);
    the lines still queued are written when the process exits."""
    global _writer
    install_request_id_factory()
    records: queue.Queue[logging.LogRecord | None] = queue.Queue(LOG_QUEUE_SIZE)
    queued = QueuedLogHandler(records)
    handler = _Writer(queued)
    if as_json:
        handler.setFormatter(JsonFormatter())
    else:
        handler.addFilter(RequestIdFilter())
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s [%(requestId)s] %(message)s"))
    stop_log_writer()
    _writer = _LogWriter(records, handler)
    root = logging.getLogger()
    root.handlers = [queued]
    root.setLevel(level)
    # Uvicorn's access log prints the raw query string; ours logs method, path and status instead.
    logging.getLogger("uvicorn.access").disabled = True
