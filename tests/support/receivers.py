"""Real HTTP webhook receivers on 127.0.0.1 for the tests: they record every request as received."""

from __future__ import annotations

import threading
import time
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
    in_flight: int = 0  # requests being answered now
    most_in_flight: int = 0  # the most ever answered at once
    arrivals: list[float] = field(default_factory=list)  # time.monotonic() of each request

    def next_status(self) -> int:
        with self.lock:
            return self.statuses.pop(0) if len(self.statuses) > 1 else self.statuses[0]


@contextmanager
def receiver(*statuses: int, headers: dict[str, str] | None = None, body: bytes = b"",
             delay: float = 0.0) -> Iterator[Receiver]:
    """A receiver answering ``statuses`` in turn, each time with ``headers`` and ``body``, after
    ``delay`` seconds (so requests overlap and ``most_in_flight`` means something)."""
    state: Receiver | None = None

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            assert state is not None
            length = int(self.headers.get("Content-Length") or 0)
            received = self.rfile.read(length)
            with state.lock:
                state.requests.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, received))
                state.arrivals.append(time.monotonic())
                state.in_flight += 1
                state.most_in_flight = max(state.most_in_flight, state.in_flight)
            if delay:
                time.sleep(delay)
            with state.lock:
                state.in_flight -= 1
            self.send_response(state.next_status())
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

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
