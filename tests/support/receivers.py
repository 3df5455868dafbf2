"""Real HTTP webhook receivers on 127.0.0.1 for the tests: they record every request as received."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """Answers with ``statuses`` in turn (the last one repeats) and records every request."""

    url: str
    statuses: list[int]
    requests: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def next_status(self) -> int:
        with self.lock:
            return self.statuses.pop(0) if len(self.statuses) > 1 else self.statuses[0]


@contextmanager
def receiver(*statuses: int) -> Iterator[Receiver]:
    state: Receiver | None = None

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            assert state is not None
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            with state.lock:
                state.requests.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            self.send_response(state.next_status())
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state = Receiver(f"http://127.0.0.1:{server.server_address[1]}/hooks", list(statuses or (200,)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
