"""A real uvicorn server on a free loopback port, in a background thread, for black-box tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from tests.support.server_errors import five_hundreds_in


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
    with httpx.Client(timeout=1) as poll:  # one client: each new one builds an SSL context (milliseconds of CPU)
        while True:
            try:
                poll.get(f"{base}/api/health")
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


ROOT = Path(__file__).resolve().parents[2]
TESSERA = [sys.executable, "-m", "tessera.cli"]


def tessera_env(var_dir: Path, **settings: str) -> dict[str, str]:
    """This process' environment without any TESSERA_* of its own, plus the given settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TESSERA_")}
    env.update(TESSERA_VAR_DIR=str(var_dir), **settings)
    return env


@contextmanager
def tessera_serve(env: dict[str, str], *, demo: bool = True, startup_seconds: float = 60,
                  allow_5xx: bool = False, log_path: Path | None = None) -> Iterator[str]:
    """``tessera serve [--demo]`` as a real process on a free loopback port; yields its base URL.

    This is the service exactly as the README starts it (its in-process workers included), so
    black-box tests see what an integrator sees. Its output is kept and shown if it dies early.
    When it stops, any 5xx in its access log fails the tests that used it (unless ``allow_5xx``).
    Its log is kept at ``log_path`` when given (a test reads it to explain a failure), else discarded.
    """
    port = free_port()
    # Closed in the finally block.
    log = log_path.open("w+") if log_path is not None else tempfile.TemporaryFile(mode="w+")  # noqa: SIM115
    args = [*TESSERA, "serve", *(["--demo"] if demo else []), "--host", "127.0.0.1", "--port", str(port)]
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + startup_seconds
        with httpx.Client(timeout=1) as poll:
            while True:
                try:
                    if poll.get(f"{base}/api/health").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if proc.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    raise RuntimeError(f"tessera serve did not start (exit {proc.poll()}):\n{log.read()[-4000:]}")
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.seek(0)
        errors = [] if allow_5xx else five_hundreds_in(log)
        log.seek(0)
        faults = [line for line in log.read().splitlines() if "unhandled_error" in line][:3] if errors else []
        log.close()
    if errors:
        raise AssertionError(f"tessera serve answered {len(errors)} 5xx no test expected: {errors[:5]}\n"
                             + "\n".join(fault[-3000:] for fault in faults))


@contextmanager
def demo_on(backend: str, tmp: Path, **settings: str) -> Iterator[tuple[str, dict[str, str]]]:
    """``tessera serve --demo`` on a fresh database of ``backend``; yields its base URL and environment.

    SQLite: a file under ``tmp``; PostgreSQL: a database of its own, dropped afterwards. The
    server's log is ``tmp / "serve.log"``. Passwords are hashed at the minimal argon2id cost unless
    ``settings`` say otherwise: no answer changes, but the Schemathesis runs fuzz the login
    operation, and at the standard cost each attempt is 0.13 s of the server's CPU.
    """
    from tests.conftest import create_pg_database, drop_pg_database

    database_url = f"sqlite:///{tmp / 'tessera.db'}" if backend == "sqlite" else create_pg_database()
    env = tessera_env(tmp / "var", TESSERA_DATABASE_URL=database_url,
                      **{"TESSERA_PASSWORD_HASH_COST": "minimal", **settings})
    try:
        with tessera_serve(env, log_path=tmp / "serve.log") as base:
            yield base, env
    finally:
        if backend == "postgresql":
            drop_pg_database(database_url)
