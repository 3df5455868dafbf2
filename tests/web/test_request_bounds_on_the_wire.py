"""Request heads past the bounds, sent to a real ``tessera serve``: the answer is the documented
414 or 431 in the surface's envelope, even where llhttp alone would stop at about 64 KiB with a
plain-text 400 (``tessera/web/protocol.py``), and a head llhttp cannot parse at all is 400 in it.
A head that takes longer than ``TESSERA_HEADER_TIMEOUT_SECONDS`` (here 3 s) to arrive has its
connection closed."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from tests.support.live_server import tessera_env, tessera_serve

HEAD_TIMEOUT = 3.0


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp: Path = tmp_path_factory.mktemp("bounds")
    env = tessera_env(tmp / "var", TESSERA_DATABASE_URL=f"sqlite:///{tmp / 'tessera.db'}",
                      TESSERA_HEADER_TIMEOUT_SECONDS=str(HEAD_TIMEOUT))
    with tessera_serve(env, demo=False) as url:
        yield url


def raw_get(base: str, target: str, extra: str = "") -> tuple[int, str, dict[str, Any]]:
    """Status, Content-Type and JSON body of a GET sent as raw bytes (HTTP clients cap URLs at 64 KiB)."""
    url = urlsplit(base)
    with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
        sock.sendall(f"GET {target} HTTP/1.1\r\nHost: {url.netloc}\r\n{extra}\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    fields = {name.lower(): value for name, _, value in (line.partition(": ") for line in lines[1:])}
    return int(lines[0].split()[1]), fields.get("content-type", ""), json.loads(body)


@pytest.mark.parametrize(("path", "code"), [("/api/audit/list", "URI_TOO_LONG"),
                                             ("/api/open/v1/whoami", "uri_too_long")])
@pytest.mark.parametrize("size", [9_000, 100_000, 2_000_000])
def test_a_url_past_the_bound_is_414_in_the_surfaces_envelope(base: str, path: str, code: str, size: int) -> None:
    status, content_type, body = raw_get(base, f"{path}?keyword={'a' * size}")
    assert status == 414
    assert content_type.startswith("application/json")
    assert body["code"] == code


@pytest.mark.parametrize("size", [20_000, 100_000])
def test_header_fields_past_the_bound_are_431_in_the_envelope(base: str, size: int) -> None:
    status, _, body = raw_get(base, "/api/health", f"X-Big: {'b' * size}\r\n")
    assert status == 431
    assert body["code"] == "REQUEST_HEADER_FIELDS_TOO_LARGE"


@pytest.mark.parametrize(("path", "code"), [("/api/dynamic/assets/list", "VALIDATION_ERROR"),
                                             ("/api/open/v1/whoami", "invalid_request"),
                                             ("/oauth2/token", "invalid_request")])
@pytest.mark.parametrize("field", ["Content-Length: +XK", "Content-Length: 1\r\nContent-Length: 2", "Bad Name: x"])
def test_a_head_llhttp_cannot_parse_is_400_in_the_surfaces_envelope(base: str, path: str, code: str,
                                                                    field: str) -> None:
    status, content_type, body = raw_get(base, path, f"{field}\r\n")
    assert status == 400
    assert content_type.startswith("application/json")
    assert body["code"] == code


def test_the_server_answers_the_next_request_after_a_refusal(base: str) -> None:
    assert raw_get(base, f"/api/audit/list?keyword={'a' * 100_000}")[0] == 414
    assert httpx.get(f"{base}/api/health", timeout=10).status_code == 200


def _closed_after(base: str, sent: bytes) -> tuple[float, bytes]:
    """Seconds until the server closed a connection that sent only ``sent``, and what it answered."""
    url = urlsplit(base)
    with socket.create_connection((url.hostname, url.port), timeout=30) as sock:
        started = time.monotonic()
        sock.sendall(sent)
        answered = b""
        while chunk := sock.recv(65536):
            answered += chunk
        return time.monotonic() - started, answered


def _by_the_bound(waited: float) -> bool:
    """Closed by the head timeout: not early, and not by the client's own 30 s timeout. The server's
    timer starts when it accepts, a moment before the client's clock does, hence the margin."""
    return HEAD_TIMEOUT - 0.5 <= waited < 30


def test_a_head_not_finished_in_time_has_its_connection_closed(base: str) -> None:
    waited, answered = _closed_after(base, b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Drip: 1\r\n")
    assert answered == b""  # not a single byte: the client is still sending, not reading
    assert _by_the_bound(waited)


def test_a_connection_that_sends_nothing_is_closed(base: str) -> None:
    waited, answered = _closed_after(base, b"")
    assert answered == b""
    assert _by_the_bound(waited)


def test_a_head_sent_in_pieces_within_the_timeout_is_answered(base: str) -> None:
    url = urlsplit(base)
    with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
        for piece in (b"GET /api/health HTTP/1.1\r\n", b"Host: x\r\n", b"Connection: close\r\n", b"\r\n"):
            sock.sendall(piece)
            time.sleep(0.1)  # 0.4 s in all: far inside the bound, even on a loaded machine
        answered = b""
        while chunk := sock.recv(65536):
            answered += chunk
    assert answered.startswith(b"HTTP/1.1 200")
