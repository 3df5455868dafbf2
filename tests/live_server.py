"""A real uvicorn server on a free loopback port, in a background thread, for black-box tests."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import uvicorn


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serve(app: Any) -> Iterator[str]:
    """Run ``app`` on 127.0.0.1 until the block ends; yields its base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, access_log=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        try:
            httpx.get(f"{base}/api/health", timeout=1)
            break
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise RuntimeError("the test server did not start within 20 s") from None
            time.sleep(0.05)
    try:
        yield base
    finally:
        server.should_exit = True
        thread.join(timeout=10)
