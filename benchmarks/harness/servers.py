"""The processes a benchmark starts and stops: servers under test, workers, helpers.

Why this shape: a comparison is a list of targets, and a target is only a name, a command line, a
port and environment (``Target``). Adding a server to an ABBA comparison (another baseline, a peer
framework under gunicorn) is then one more ``Target`` in that list; starting it, waiting until it
listens, pinning it to a CPU, reading its log and stopping it are the same for every target.
Every process listens on 127.0.0.1 only.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import httpx

from harness import BENCH_DIR, ROOT, log

HOST = "127.0.0.1"
START_TIMEOUT = 60.0
STOP_TIMEOUT = 15.0  # seconds a process group gets after SIGTERM before SIGKILL
TESSERA_BIN = Path(sys.prefix) / "bin" / "tessera"  # the serving command of this virtualenv


@dataclass(frozen=True)
class Target:
    """Something to start: ``{host}`` and ``{port}`` in ``command`` are filled in at start."""

    name: str
    command: tuple[str, ...]
    port: int | None = None  # None: a free port, chosen at start, when the command takes one
    env: Mapping[str, str] = field(default_factory=dict)  # on top of the run's environment
    health: str | None = "/api/health"  # a path that answers 2xx once the server is up (None: the port accepting)
    ready_line: str | None = None  # for a process without a port: the log line that says it runs

    @property
    def listens(self) -> bool:
        return self.port is not None or any("{port}" in part for part in self.command)


def script(name: str, path: str, health: str | None = "/api/health") -> Target:
    """A Python server script in ``benchmarks/`` taking ``--host`` and ``--port``."""
    return Target(name, (sys.executable, str(BENCH_DIR / path), "--host", "{host}", "--port", "{port}"),
                  health=health)


# The real service: what `tessera serve` runs, minus migrating, seeding and the in-process worker task.
TESSERA = script("tessera", "_serve.py")


def package(name: str, module: str, *options: str) -> Target:
    """A server package of ``benchmarks/`` run as ``python -m <module>``, with ``benchmarks/`` as the path it
    adds (instead of the checkout's root: such a server is not meant to import Tessera)."""
    return Target(name, (sys.executable, "-m", module, "--host", "{host}", "--port", "{port}", *options),
                  env={"PYTHONPATH": str(BENCH_DIR)})


# Tessera's endpoints written by hand on the same tables (``benchmarks/baseline``): a bare ASGI callable on
# uvicorn (uvloop, httptools), psycopg 3 (Tessera's driver; aiosqlite on SQLite), one statement per request.
BASELINE = package("baseline", "baseline")
# The same server on asyncpg, whose round trip costs about half psycopg's CPU: the floor under any Python
# service on these tables (PostgreSQL only; on SQLite both would be aiosqlite).
LIMIT = replace(BASELINE, name="limit", env={**BASELINE.env, "BASELINE_DRIVER": "asyncpg"})
# What a team would pick instead, for token issue, whoami and read by pid (``benchmarks/peers/``).
FASTAPI_PEER = package("fastapi", "peers.fastapi_app")


def authlib_peer(threads: int) -> Target:
    """Authlib's client credentials grant on Flask under gunicorn: one gthread worker, ``threads`` threads."""
    return Target("authlib", (sys.executable, "-m", "gunicorn", "--workers", "1", "--worker-class", "gthread",
                              "--threads", str(threads), "--bind", "{host}:{port}", "--pythonpath", str(BENCH_DIR),
                              "--log-level", "warning", "--graceful-timeout", "5", "peers.authlib_flask:create_app()"),
                  env={"PYTHONPATH": str(BENCH_DIR), "PEER_THREADS": str(threads)})


def worker(name: str, tasks: int = 1) -> Target:
    """A `tessera worker` process (webhook deliveries and automations, no HTTP) running ``tasks`` workers."""
    code = f"import sys; from tessera.cli import main; sys.exit(main(['worker', '--tasks', '{tasks}']))"
    return Target(name, (sys.executable, "-c", code), health=None, ready_line="Tessera worker running")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def pinned(cpus: set[int] | None) -> Callable[[], None] | None:
    """A ``preexec_fn`` that pins the child, before its interpreter starts, so no thread escapes the mask."""
    if not cpus:
        return None
    return lambda: os.sched_setaffinity(0, cpus)


@dataclass(frozen=True)
class Pinning:
    """Which CPUs the servers and the load generator run on (None: not pinned)."""

    server: set[int] | None
    load: set[int] | None

    @staticmethod
    def choose() -> Pinning:
        """The first CPU of this process's mask for the servers, the second for the load; none with fewer."""
        available = sorted(os.sched_getaffinity(0))
        return Pinning({available[0]}, {available[1]}) if len(available) >= 2 else Pinning(None, None)

    def describe(self) -> str:
        if self.server is None or self.load is None:
            return "not pinned (fewer than two CPUs available)"
        return f"servers on CPU {min(self.server)}, wrk on CPU {min(self.load)}, the database unpinned"


@dataclass
class Server:
    """A started target."""

    target: Target
    process: subprocess.Popen[bytes]
    log_path: Path
    port: int | None

    @property
    def name(self) -> str:
        return self.target.name

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def died(self) -> str | None:
        """Why it is not running any more, or None while it runs."""
        if self.process.poll() is None:
            return None
        return f"{self.name} exited with {self.process.returncode}:\n{self.log_tail()}"

    def stop(self) -> None:
        """SIGTERM (uvicorn and the worker shut down cleanly), then SIGKILL after 15 s."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)

    def _ready(self) -> bool:
        target = self.target
        if target.ready_line is not None:
            return target.ready_line in self.log_path.read_text(errors="replace")
        listening = False
        with contextlib.suppress(OSError), socket.create_connection((HOST, self.port or 0), timeout=1):
            listening = True
        if not listening or target.health is None:
            return listening
        try:  # once listening only: each new client builds an SSL context, milliseconds of CPU per poll
            return httpx.get(self.base_url + target.health, timeout=2).is_success
        except httpx.TransportError:
            return False


def launch(target: Target, env: Mapping[str, str], log_dir: Path, cpus: set[int] | None = None) -> Server:
    """Start ``target``'s process (``wait_ready`` waits until it serves)."""
    port = (target.port or free_port()) if target.listens else None
    command = [part.format(host=HOST, port=port) for part in target.command]
    log_path = log_dir / f"{target.name}.log"
    with log_path.open("wb") as log_file:
        process = subprocess.Popen(command, cwd=ROOT, env={**env, **target.env}, stdout=log_file,
                                   stderr=subprocess.STDOUT, preexec_fn=pinned(cpus))
    return Server(target, process, log_path, port)


def wait_ready(server: Server, timeout: float = START_TIMEOUT) -> Server:
    """Until the server listens (or its ready line is logged); stopped, and an error, if it dies or times out."""
    deadline = time.monotonic() + timeout
    while not server._ready():
        if (why := server.died()) is not None:
            raise RuntimeError(f"{why}\n(before it was ready)")
        if time.monotonic() > deadline:
            server.stop()
            raise RuntimeError(f"{server.name} was not ready within {timeout:g} s:\n{server.log_tail()}")
        time.sleep(0.05)
    return server


def start(target: Target, env: Mapping[str, str], log_dir: Path, cpus: set[int] | None = None) -> Server:
    """Start ``target`` and return once it is ready."""
    return wait_ready(launch(target, env, log_dir, cpus))


def start_all(targets: Sequence[Target], env: Mapping[str, str], log_dir: Path,
              cpus: set[int] | None = None) -> list[Server]:
    """Start every target at once and return when all are ready (all stopped if one fails)."""
    launched = [launch(target, env, log_dir, cpus) for target in targets]
    try:
        for server in launched:
            wait_ready(server)
            log(f"{server.name} {'listening on ' + server.base_url if server.port else 'running'} (pid {server.pid})")
    except BaseException:
        stop_all(launched)
        raise
    return launched


@contextlib.contextmanager
def running(targets: Sequence[Target], env: Mapping[str, str], log_dir: Path,
            cpus: set[int] | None = None) -> Iterator[dict[str, Server]]:
    """The targets started (by name), every one stopped at the end."""
    servers = {s.name: s for s in start_all(targets, env, log_dir, cpus)}
    try:
        yield servers
    finally:
        stop_all(servers.values())


def stop_all(servers: Iterable[Server]) -> list[str]:
    """Stop every server; returns why any of them had already died."""
    chosen = list(servers)
    problems = [why for s in chosen if (why := s.died()) is not None]
    for server in chosen:  # all at once: each finishes what it is doing meanwhile
        if server.process.poll() is None:
            server.process.terminate()
    for server in chosen:
        server.stop()
    return problems


def check_alive(servers: Iterable[Server]) -> None:
    for server in servers:
        if (why := server.died()) is not None:
            raise RuntimeError(why)


# -- the serving command as an operator runs it, in a process group of its own --------------------

def serve_command(name: str, processes: int) -> Target:
    """``tessera serve --workers <processes>``: with more than one, uvicorn's supervisor and that many HTTP
    processes on one socket (and, unless ``TESSERA_WORKERS_IN_PROCESS=false``, one worker process)."""
    return Target(name, (str(TESSERA_BIN), "serve", "--host", "{host}", "--port", "{port}",
                         "--workers", str(processes)))


def launch_group(target: Target, env: Mapping[str, str], log_dir: Path) -> tuple[Server, list[str]]:
    """``launch``, but in a process group of its own, so the whole tree can be stopped (``stop_group``);
    the server and its command line."""
    port = free_port()
    command = [part.format(host=HOST, port=port) for part in target.command]
    log_path = log_dir / f"{target.name}.log"
    with log_path.open("wb") as log_file:
        process = subprocess.Popen(command, cwd=ROOT, env={**env, **target.env}, stdout=log_file,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    return Server(target, process, log_path, port), command


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stop_group(server: Server, timeout: float = STOP_TIMEOUT) -> str:
    """SIGTERM to the group, then SIGKILL to whatever is left of it after ``timeout``; how it ended."""
    pgid = server.pid  # start_new_session: the leader's pid is the group's id
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    with contextlib.suppress(subprocess.TimeoutExpired):
        server.process.wait(timeout=timeout)
    while _group_alive(pgid) and time.monotonic() < deadline:
        time.sleep(0.1)
    killed = _group_alive(pgid) or server.process.poll() is None
    if killed:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pgid, signal.SIGKILL)
        server.process.wait(timeout=10)
    code = server.process.returncode
    how = f"killed (SIGKILL after {timeout:g} s)" if killed else "stopped"
    # One process: uvicorn shuts down gracefully on SIGTERM and then raises the signal again.
    return f"{how}, exit {code}" + (" (SIGTERM re-raised after a graceful shutdown)" if code == -signal.SIGTERM else "")
