"""Load from wrk: the requests file, the run, and what it reported.

Why wrk: it is written in C and runs on a CPU of its own, so the load generator is not what limits
a run, and its latency histogram holds every completed request. ``wrk.lua`` (beside this module)
rotates over a list of request variants, fills a unique key into every POST, counts each HTTP
status and prints one JSON line that ``run`` parses.
"""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from harness.order import at_once
from harness.servers import pinned

LUA_SCRIPT = Path(__file__).with_name("wrk.lua")
TIMEOUT = "30s"
KEY = "@KEY@"  # replaced, in a header or the body, by a key unique to the request


def available() -> bool:
    return shutil.which("wrk") is not None


def whole_seconds(*values: float) -> bool:
    """Whether every value is a duration wrk takes: whole seconds, at least one (``-d 0.5s`` is refused)."""
    return all(value >= 1 and value == int(value) for value in values)


@dataclass(frozen=True)
class Call:
    """One request variant."""

    method: str
    path: str
    headers: dict[str, str]
    body: str | None = None

    def with_key(self, key: str) -> Call:
        """The variant as wrk would send it with ``key``."""
        return Call(self.method, self.path, {k: v.replace(KEY, key) for k, v in self.headers.items()},
                    None if self.body is None else self.body.replace(KEY, key))


def _lua_string(text: str) -> str:
    """A Lua string literal: printable ASCII as is, every other byte as a decimal escape."""
    return '"' + "".join(chr(b) if 0x20 <= b < 0x7F and b not in (0x22, 0x5C) else f"\\{b:03d}"
                         for b in text.encode()) + '"'


def write_requests(path: Path, calls: list[Call]) -> Path:
    """The requests file ``wrk.lua`` loads with ``dofile``."""
    lines = ["return {"]
    for call in calls:
        headers = ", ".join(f"[{_lua_string(k)}] = {_lua_string(v)}" for k, v in call.headers.items())
        body = "nil" if call.body is None else _lua_string(call.body)
        lines.append(f"  {{method = {_lua_string(call.method)}, path = {_lua_string(call.path)}, "
                     f"headers = {{{headers}}}, body = {body}}},")
    path.write_text("\n".join([*lines, "}"]) + "\n")
    return path


@dataclass
class WrkRun:
    """What one wrk run reported."""

    requests: int  # completed responses, any status
    seconds: float
    sent: int  # requests written, including those in flight when wrk stopped
    statuses: dict[str, int]
    socket_errors: dict[str, int]
    p50_ms: float
    p95_ms: float
    p99_ms: float
    mean_ms: float
    max_ms: float
    samples: list[str]

    @property
    def ok(self) -> int:
        return sum(n for status, n in self.statuses.items() if status.startswith("2"))

    @property
    def not_ok(self) -> int:
        return self.requests - self.ok

    @property
    def bad(self) -> int:
        """Non-2xx answers and socket errors."""
        return self.not_ok + sum(self.socket_errors.values())

    @property
    def rps(self) -> float:
        """2xx responses per second."""
        return self.ok / self.seconds if self.seconds else 0.0


def run(base_url: str, requests_file: Path, tag: str, seconds: float, connections: int, threads: int = 1,
        cpus: set[int] | None = None) -> WrkRun:
    """One wrk run (on ``cpus`` when given); ``tag`` prefixes the unique keys of its POSTs."""
    command = ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds:g}s", "--timeout", TIMEOUT,
               "-s", str(LUA_SCRIPT), base_url, "--", str(requests_file), tag]
    done = subprocess.run(command, capture_output=True, text=True, errors="replace", timeout=seconds + 120,
                          preexec_fn=pinned(cpus), check=False)
    line = next((raw for raw in done.stdout.splitlines() if raw.startswith("SUITE_RESULT ")), None)
    if done.returncode != 0 or line is None:
        raise RuntimeError(f"wrk failed (exit {done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    data = json.loads(line.removeprefix("SUITE_RESULT "))
    latency = data["latency_us"]
    return WrkRun(
        requests=data["requests"], seconds=data["duration_us"] / 1e6, sent=data["sent"],
        statuses={str(k): int(v) for k, v in data["statuses"].items()},
        socket_errors={k: int(v) for k, v in data["errors"].items() if k != "status" and v},
        p50_ms=latency["p50"] / 1000, p95_ms=latency["p95"] / 1000, p99_ms=latency["p99"] / 1000,
        mean_ms=latency["mean"] / 1000, max_ms=latency["max"] / 1000, samples=data["samples"],
    )


def run_parallel(targets: list[tuple[str, int]], requests_file: Path, tag: str, seconds: float) -> list[WrkRun]:
    """One wrk (one thread, not pinned) per (base URL, connections), all at once."""
    return at_once([functools.partial(run, url, requests_file, f"{tag}-{i}", seconds, c)
                    for i, (url, c) in enumerate(targets)])
