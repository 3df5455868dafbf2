"""A real uvicorn server on a free loopback port, in a background thread, for black-box tests."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import httpx
import uvicorn

from tests.support.server_errors import five_hundreds_in


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serve(app: Any) -> Iterator[str]:
    """Run ``app`` on 127.0.0.1 until the block ends; yields its base URL.

    The server binds port 0 and the URL names the port the kernel gave it: a port picked before the
    start could be taken by another test's server in between, whose answers would then stand in for it.
    """
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_config=None, access_log=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start within 20 s")
        time.sleep(0.02)
    port = int(server.servers[0].sockets[0].getsockname()[1])
    try:
        yield f"http://127.0.0.1:{port}"
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


class PortTaken(Exception):
    """The port picked for a server was taken by another process before the server could bind it."""


def wait_until_bound(proc: subprocess.Popen[str], log: IO[str], base: str, deadline: float) -> None:
    """Return once the ``tessera serve`` writing ``log`` has bound ``base``'s port.

    A port picked before the start can be taken by another test's server in between, whose health
    check would then pass in this one's place: so readiness is the server's own announcement, and a
    server that could not bind raises ``PortTaken``. The log is read with ``pread``: the child shares
    the file's offset, and a seek here would move where it writes next.
    """
    announced = f"Uvicorn running on {base} ".encode()
    while True:
        written = os.pread(log.fileno(), os.fstat(log.fileno()).st_size, 0)
        if announced in written:
            return
        if proc.poll() is not None:
            if b"address already in use" in written.lower():
                raise PortTaken(base)
            raise RuntimeError(f"tessera serve did not start (exit {proc.returncode}):\n"
                               + written.decode(errors="replace")[-4000:])
        if time.monotonic() > deadline:
            raise RuntimeError(f"tessera serve did not bind {base} in time:\n"
                               + written.decode(errors="replace")[-4000:])
        time.sleep(0.1)


def start_tessera(args: list[str], env: dict[str, str], *, log_path: Path | None = None, scheme: str = "http",
                  verify: ssl.SSLContext | bool = True, shell: str | None = None,
                  startup_seconds: float = 60) -> tuple[subprocess.Popen[str], IO[str], str]:
    """``tessera *args --host 127.0.0.1 --port P`` on a free port P (or the command line ``shell``, such
    as ``bash scripts/demo.sh``, with ``TESSERA_HOST`` and ``TESSERA_PORT`` set so), once it has bound P
    and ``/api/health`` answers 200
    there: the process, its log (at ``log_path``, else a temporary file; the caller closes it) and its
    base URL. A port taken before the server bound it is given up for another (three tries)."""
    deadline = time.monotonic() + startup_seconds
    for _ in range(3):
        port = free_port()
        base = f"{scheme}://127.0.0.1:{port}"
        log = log_path.open("w+") if log_path is not None else tempfile.TemporaryFile(mode="w+")  # noqa: SIM115
        command = ([*TESSERA, *args, "--host", "127.0.0.1", "--port", str(port)] if shell is None
                   else ["bash", "-c", shell])
        # A session of its own: stop() ends the whole group (a shell's children included).
        proc = subprocess.Popen(command, cwd=ROOT, env={**env, "TESSERA_HOST": "127.0.0.1", "TESSERA_PORT": str(port)},
                                stdout=log, stderr=subprocess.STDOUT, text=True, start_new_session=True)
        try:
            wait_until_bound(proc, log, base, deadline)
            # Several processes listen only once each has started: until then a connection is refused.
            with httpx.Client(timeout=1, verify=verify) as poll:
                while not _healthy(poll, base):
                    if proc.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(f"tessera serve bound {base} but never answered /api/health with 200")
                    time.sleep(0.1)
        except PortTaken:
            log.close()
            continue
        except BaseException:
            stop(proc)
            log.close()
            raise
        return proc, log, base
    raise RuntimeError("three free ports were taken by other processes before tessera serve could bind them")


def _healthy(client: httpx.Client, base: str) -> bool:
    try:
        return client.get(f"{base}/api/health").status_code == 200
    except httpx.TransportError:
        return False


def stop(proc: subprocess.Popen[str]) -> None:
    """Terminate ``proc``'s process group (``start_tessera`` gives it one) and wait for ``proc``
    (the group is killed after 20 s)."""
    _signal_group(proc, signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        _signal_group(proc, signal.SIGKILL)
        proc.wait()


def _signal_group(proc: subprocess.Popen[str], sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):  # the group has ended
        os.killpg(proc.pid, sig)


@contextmanager
def tessera_serve(env: dict[str, str], *, demo: bool = True, startup_seconds: float = 60,
                  allow_5xx: bool = False, log_path: Path | None = None, shell: str | None = None) -> Iterator[str]:
    """``tessera serve [--demo]`` as a real process on a free loopback port; yields its base URL.

    This is the service exactly as the README starts it (its in-process workers included), so
    black-box tests see what an integrator sees. Its output is kept and shown if it dies early.
    When it stops, any 5xx in its access log fails the tests that used it (unless ``allow_5xx``).
    Its log is kept at ``log_path`` when given (a test reads it to explain a failure), else discarded.
    With ``shell`` (``bash scripts/demo.sh``), that command line starts it instead, as a user types it.
    """
    args = [] if shell is not None else ["serve", *(["--demo"] if demo else [])]
    proc, log, base = start_tessera(args, env, log_path=log_path, shell=shell, startup_seconds=startup_seconds)
    try:
        yield base
    finally:
        stop(proc)
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
