"""CPU and memory from Linux ``/proc``, read the same way by every benchmark.

Why: a ratio of requests per second says which target is faster, not where the time goes, and on a
shared 2-core host it moves with whatever else runs. CPU seconds per request of each process (the
server, the load generator, PostgreSQL with every backend it forked, the rest of the host) tell
both. ``Meter`` reads named sources before and after a run; ``Usage`` is the difference, as
milliseconds per request or as percent of one core.
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

TICKS = os.sysconf("SC_CLK_TCK")

Source = Callable[[], float | None]  # CPU seconds so far, None when it cannot be read


def proc_stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/<pid>/stat`` after the command name (state is [0], ppid [1])."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def process_cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process so far."""
    fields = proc_stat(pid)
    return None if fields is None else (int(fields[11]) + int(fields[12])) / TICKS


def host_cpu_seconds() -> tuple[float, float] | None:
    """(busy, total) CPU seconds of the whole host, summed over CPUs (``/proc/stat``)."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    except (OSError, ValueError, IndexError):
        return None
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle + iowait
    total = sum(values[:8])  # guest time is already counted in user
    return (total - idle) / TICKS, total / TICKS


def children_cpu_seconds() -> float:
    """CPU seconds of this process's reaped children (the wrk processes of a run, once it is over)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def memory_mib(pid: int, key: str = "VmRSS") -> float | None:
    """A ``/proc/<pid>/status`` figure in MiB: ``VmRSS`` (resident now), ``VmHWM`` (peak), ``RssAnon``..."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def postmaster_pid(database_url: str) -> int | None:
    """The PostgreSQL server's main process when it runs on this host and is visible (else None)."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        row = conn.execute("SELECT pg_backend_pid()").fetchone()
    fields = proc_stat(int(row[0])) if row else None
    if not fields:
        return None
    parent = int(fields[1])
    try:
        return parent if "postgres" in Path(f"/proc/{parent}/comm").read_text() else None
    except OSError:
        return None


def postgres_cpu_seconds(postmaster: int | None) -> float | None:
    """CPU seconds of the whole PostgreSQL server: the postmaster, its live children and (through its
    cutime/cstime) the children it already reaped, so backends that came and went are counted too."""
    main = proc_stat(postmaster) if postmaster is not None else None
    if main is None:
        return None
    ticks = sum(int(main[i]) for i in (11, 12, 13, 14))  # utime, stime, cutime, cstime
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            fields = proc_stat(int(entry.name))
            if fields and int(fields[1]) == postmaster:
                ticks += int(fields[11]) + int(fields[12])
    return ticks / TICKS


def of_processes(pids: Iterable[int]) -> Source:
    """The summed CPU of some processes (None if one cannot be read)."""
    chosen = list(pids)

    def read() -> float | None:
        found = [process_cpu_seconds(pid) for pid in chosen]
        return None if any(v is None for v in found) else sum(v for v in found if v is not None)

    return read


def descendants(pid: int) -> list[int]:
    """The process and every live process under it (gunicorn's workers are children of its arbiter)."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit() and (fields := proc_stat(int(entry.name))):
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo += children.get(current, [])
    return found


def of_tree(pid: int) -> Source:
    """The summed CPU of a server and its live children, looked up at each reading: a server that
    forks its workers (gunicorn) is measured whole, like one that does not (uvicorn, one process)."""
    return lambda: of_processes(descendants(pid))()


def tree_memory_mib(pid: int, key: str = "VmHWM") -> float | None:
    """A ``/proc/<pid>/status`` figure summed over the process and its live children."""
    found = [memory_mib(p, key) for p in descendants(pid)]
    return None if any(v is None for v in found) else round(sum(v for v in found if v is not None), 1)


def of_postgres(postmaster: int | None) -> Source:
    return lambda: postgres_cpu_seconds(postmaster)


@dataclass(frozen=True)
class Reading:
    at: float  # monotonic
    host: tuple[float, float] | None
    values: dict[str, float | None]


class Meter:
    """Reads named CPU sources, and the host, at once."""

    def __init__(self, sources: dict[str, Source]) -> None:
        self.sources = sources

    def read(self) -> Reading:
        return Reading(time.monotonic(), host_cpu_seconds(), {k: s() for k, s in self.sources.items()})


def _delta(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else b - a


@dataclass(frozen=True)
class Usage:
    """CPU used between two readings: per source, by the whole host, and by the rest of it."""

    wall: float
    busy: float | None  # host CPU seconds used, all CPUs
    capacity: float | None  # host CPU seconds available, all CPUs
    seconds: dict[str, float | None]

    @staticmethod
    def between(before: Reading, after: Reading, **given: float | None) -> Usage:
        """The difference; ``given`` sources are passed as measured elsewhere (a process that reports its own)."""
        seconds = {k: _delta(before.values[k], after.values[k]) for k in before.values} | given
        busy = capacity = None
        if before.host and after.host and after.host[1] > before.host[1]:
            busy, capacity = after.host[0] - before.host[0], after.host[1] - before.host[1]
        return Usage(max(after.at - before.at, 1e-6), busy, capacity, seconds)

    @property
    def other(self) -> float | None:
        """The rest of the host: clamped, since the sources tick separately and can overshoot a little."""
        return None if self.busy is None else max(0.0, self.busy - sum(v for v in self.seconds.values() if v))

    def host_pct(self) -> float | None:
        """How busy all CPUs were (100: every CPU saturated)."""
        return None if self.busy is None or not self.capacity else round(100 * self.busy / self.capacity, 1)

    def other_pct(self) -> float | None:
        """The rest of the host's share of all CPUs."""
        other = self.other
        return None if other is None or not self.capacity else round(100 * other / self.capacity, 1)

    def ms_per(self, count: int, digits: int = 2) -> dict[str, float | None]:
        """Milliseconds of CPU per unit of work (request, delivery), per source and ``other``."""
        per = max(1, count) / 1000
        values = {**self.seconds, "other": self.other}
        return {k: None if v is None else round(v / per, digits) for k, v in values.items()}

    def pct_of_core(self) -> dict[str, float | None]:
        """Per source and ``other``: percent of one core over the wall time."""
        values = {**self.seconds, "other": self.other}
        return {k: None if v is None else round(v / self.wall * 100, 1) for k, v in values.items()}

    def raw(self) -> dict[str, Any]:
        """The measurements behind the columns, for the JSON."""
        values = {**self.seconds, "host_busy": self.busy, "host_capacity": self.capacity}
        return {k: round(v, 3) for k, v in values.items() if v is not None}


def noise(label: str, other_pct: float | None, other_db_xacts: int | None, threshold_pct: float) -> list[str]:
    """Why a run's host was noisy, if it was: the rest of the host at ``threshold_pct`` of all CPUs or more,
    or transactions in other databases (whose CPU lands in the PostgreSQL column). Noise is reported, not failed."""
    found = []
    if other_pct is not None and other_pct >= threshold_pct:
        found.append(f"{label}: the rest of the host used {other_pct:.0f}% of all CPUs")
    if other_db_xacts:
        found.append(f"{label}: {other_db_xacts:,} transactions in other databases (their CPU is in the postgres "
                     "column)")
    return found


def noise_lines(noisy: list[str], threshold_pct: float, quiet: str = "") -> list[str]:
    return [f"NOISY HOST: {n}" for n in noisy] or [
        f"host quiet: the rest of the host used less than {threshold_pct:g}% of all CPUs in every run{quiet}"]
