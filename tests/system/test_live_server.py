"""The black-box tests' server start: a server is ready when it has bound its own port, never
because another process answers on the port picked for it."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support import live_server
from tests.support.live_server import tessera_env, tessera_serve


def test_a_port_taken_before_the_server_binds_it_is_given_up_for_another(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        taken = int(squatter.getsockname()[1])
        picks: Iterator[int] = iter([taken])
        real_free_port = live_server.free_port
        monkeypatch.setattr(live_server, "free_port", lambda: next(picks, None) or real_free_port())
        with tessera_serve(tessera_env(tmp_path / "var"), demo=False) as base:
            assert not base.endswith(f":{taken}")
            assert httpx.get(f"{base}/api/health", timeout=5).status_code == 200
