"""Structured logs: one JSON object per line, each carrying the request id of its request.

Log calls pass facts in ``extra=``; nothing in this module ever formats a secret, and the request
id it prints has already been checked to be safe (see ``tessera.requestid``).
"""

from __future__ import annotations

import json
import logging
import sys
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


def configure_logging(level: str, as_json: bool) -> None:
    install_request_id_factory()
    handler = logging.StreamHandler(sys.stderr)
    if as_json:
        handler.setFormatter(JsonFormatter())
    else:
        handler.addFilter(RequestIdFilter())
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s [%(requestId)s] %(message)s"))
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(level)
    # Uvicorn's access log prints the raw query string; ours logs method, path and status instead.
    logging.getLogger("uvicorn.access").disabled = True
