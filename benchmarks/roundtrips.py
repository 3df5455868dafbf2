"""PostgreSQL round trips and statements per request, Tessera against the baseline and the limit, measured
from outside.

    .venv/bin/python benchmarks/roundtrips.py [--requests 40] [--records 2000] [--only token,whoami,...]
        [--pg-log /var/log/postgresql/postgresql-15-main.log] [--keep-db]

Why: a request's latency on a fast database is mostly its round trips to it (each one a wait on the
network and a wake-up of both processes), and no server's code can be trusted to say how many
it makes, so they are counted on the wire and in PostgreSQL's own log, for whatever Tessera is in
this checkout (the suite's ``_serve.py`` target), the independent baseline (``benchmarks/baseline``, on
psycopg 3) and the limit (the baseline on asyncpg; the session list, which the suite does not measure
on it, is skipped for it).

How a round trip is counted: ``strace -f -yy -xx -e trace=network,write`` is attached to the server
process (every thread, and threads started meanwhile; ``write`` because uvloop, the limit's event loop,
writes to its sockets with it) while ``--requests`` requests of one endpoint are sent
one after the other (each POST with a unique key, as in the suite). The bytes the server sends on
each socket connected to PostgreSQL's port are decoded as the frontend protocol's messages, and a
round trip is a message after which the client must wait for PostgreSQL's answer before it can go
on: a Sync (the end of an extended-protocol batch, which is one statement, or every statement of a
pipeline), a simple Query (``BEGIN``, ``COMMIT`` as psycopg sends them), a password or function call,
and the start-up packets of a connection opened meanwhile. Messages inside a batch (Parse, Bind,
Execute) and Terminate are not round trips; a Flush is one unless it directly follows a Sync (psycopg
asks for a pipeline's results so far with a bare Flush). (Counting sends followed by a receive would count
a pipeline twice when PostgreSQL starts answering before its Sync is written, as it does once a
page of results fills its send buffer.) The total is divided by the number of requests. It includes
what the server writes in the background for those requests within the window (Tessera's and the
baseline's batched call audit, amortised over the requests of a batch). A warm-up of
``WARMUP_REQUESTS`` per endpoint and target comes first, so connections are open and statements
server-side prepared (psycopg, as Tessera uses it, prepares on a statement's 6th execution on a
connection, one extra round trip, once; the baseline prepares every statement on its first execution,
on either driver) before
the window: the figure is the steady state, give or take the preparation of a statement run less
than once per request (a call-audit batch).

How statements are counted: ``log_statement = 'all'`` is set on the run's own database (``ALTER
DATABASE``, before the servers connect); the PostgreSQL log's lines for that database during the
window are the statements each server sent (``BEGIN``, ``COMMIT``, ``ROLLBACK`` and every statement of
a pipeline included), shown per request, grouped by their text. The database is dropped at the end.

Needs ``strace``, PostgreSQL on this host writing its log to a readable file (``--pg-log``; by default
the newest ``/var/log/postgresql/*.log``) and ``TESSERA_TEST_PG_URL`` (see ``harness.databases``).
Results: ``benchmarks/results/roundtrips.json`` and ``.txt``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import re
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import psycopg
from harness import cli, log, tables
from harness import endpoints as ep
from harness.databases import PG_ADMIN_URL, fresh
from harness.endpoints import SPECS, Fixture, Spec
from harness.servers import BASELINE, LIMIT, TESSERA, Server, running
from harness.wrk import Call
from psycopg import sql

# The limit runs on asyncpg, which requirements/bench.txt installs and the test lock does not: without it
# (the test command's smoke run) the limit is left out, and the output says so. The baseline (psycopg) always
# runs.
HAS_ASYNCPG = importlib.util.find_spec("asyncpg") is not None
TARGETS = (TESSERA, BASELINE, *((LIMIT,) if HAS_ASYNCPG else ()))
# Before the window, per endpoint and target: enough requests that every pooled connection (the
# baseline's 10) has run each statement past psycopg's prepare threshold (server-side prepare on the
# 6th execution costs one extra round trip, once per connection and statement).
WARMUP_REQUESTS = 80
SETTLE_SECONDS = 0.4  # after the last response: the batched call audit (every 50 ms) lands in the window
SYSCALL = re.compile(r"^(?P<tid>\d+)\s+(?:<\.\.\. (?P<resumed>\w+) resumed>"
                     r"|(?P<name>\w+)\((?P<fd>\d+)<(?P<sock>\w+:\[[^\]]*\]|[^>]*)>)")
RESULT = re.compile(r"\)\s+=\s+(-?\d+)")
DATA = re.compile(r'(?<=, ")(?:\\x[0-9a-f]{2})*(?=")')
WAITED = frozenset(b"SQpF")  # Sync, Query, PasswordMessage, FunctionCall: the client then waits
SYNC, FLUSH = ord("S"), ord("H")
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \S+ \S+ \[\d+\] (?P<who>\S*) (?P<level>[A-Z]+):\s+(?P<text>.*)$")
STATEMENT = re.compile(r"^(?:statement|execute [^:]+):\s*(?P<sql>.*)$", re.DOTALL)
SENDS = {"sendto", "send", "write"}


# -- strace ----------------------------------------------------------------------------------------

def _sends(lines: Iterator[str], port: int) -> Iterator[tuple[str, bytes]]:
    """(socket, bytes written) for each finished send on a socket connected to ``port``, in completion
    order (a call strace printed as unfinished is joined with its resumption; a partial send keeps only
    the bytes the kernel took)."""
    pending: dict[str, tuple[str, str, str]] = {}
    for line in lines:
        found = SYSCALL.match(line)
        if not found:
            continue
        if found["resumed"]:
            if (started := pending.pop(found["tid"], None)) is None:
                continue
            name, sock, data = started
        else:
            name, sock = found["name"], found["sock"]
            data = (DATA.search(line) or [""])[0]
            if "<unfinished ...>" in line:
                pending[found["tid"]] = (name, sock, data)
                continue
        result = RESULT.search(line)
        if name in SENDS and result is not None and int(result[1]) > 0 and f":{port}]" in sock:
            yield sock, bytes.fromhex(data.replace("\\x", ""))[: int(result[1])]


def waits(stream: bytearray, last: list[int] | None = None) -> int:
    """The round trips in a client's byte stream to PostgreSQL, consumed from ``stream`` (what remains is
    an incomplete message): one per message after which the client waits for the server (``WAITED``:
    Sync, simple Query, password, function call) and per start-up packet (the untyped SSL request and
    startup message of a new connection, which begin with a zero byte where a message has its type).
    A Flush is a wait too when it does not directly follow a Sync: in pipeline mode psycopg asks for
    the results so far with a Flush (no Sync) when the code needs a row before the pipeline ends;
    ``last`` carries the previous message's type across calls for one socket."""
    last = last if last is not None else [0]
    count = 0
    while True:
        typed = bool(stream) and stream[0] != 0
        header = 5 if typed else 4
        if len(stream) < header:
            return count
        length = int.from_bytes(stream[header - 4:header], "big") + (1 if typed else 0)
        if len(stream) < length:
            return count
        kind = stream[0] if typed else 0
        if not typed or kind in WAITED or (kind == FLUSH and last[0] != SYNC):
            count += 1
        last[0] = kind
        del stream[:length]


def count_round_trips(trace: str, port: int) -> tuple[int, int, int]:
    """(round trips, bytes sent, sockets used) in an ``strace -xx`` output of the server's PostgreSQL sockets."""
    streams: dict[str, bytearray] = {}
    lasts: dict[str, list[int]] = {}
    trips = sent = 0
    for sock, data in _sends(iter(trace.splitlines()), port):
        stream = streams.setdefault(sock, bytearray())
        stream += data
        sent += len(data)
        trips += waits(stream, lasts.setdefault(sock, [0]))
    return trips, sent, len(streams)


@contextlib.contextmanager
def traced(pid: int, out: Path) -> Iterator[None]:
    """strace attached to ``pid`` (all its threads) for the block; detached (SIGINT) at its end."""
    messages = out.with_suffix(".log")
    with messages.open("w") as errors:
        process = subprocess.Popen(["strace", "-f", "-yy", "-xx", "-s", "1000000", "-e", "trace=network,write",
                                    "-o", str(out), "-p", str(pid)],
                                   stdout=subprocess.DEVNULL, stderr=errors)
    try:
        deadline = time.monotonic() + 15
        while "attached" not in messages.read_text(errors="replace"):  # "Process N attached with M threads"
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"strace did not attach to {pid}: {messages.read_text(errors='replace')[-500:]}")
            time.sleep(0.05)
        time.sleep(0.1)
        yield
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


# -- the statement log -----------------------------------------------------------------------------

def newest_log() -> Path | None:
    found = sorted(Path("/var/log/postgresql").glob("*.log"), key=lambda p: p.stat().st_mtime)
    return found[-1] if found else None


def statements(text: str, database: str) -> list[str]:
    """The statements the log shows for ``database`` (continuation lines joined), whitespace collapsed."""
    found: list[str] = []
    current: list[str] | None = None
    for line in text.splitlines():
        entry = LOG_LINE.match(line)
        if entry is None:
            if current is not None and line.startswith(("\t", " ")):
                current.append(line.strip())
            continue
        if current is not None:
            found.append(" ".join(" ".join(current).split()))
            current = None
        if entry["level"] == "LOG" and entry["who"].endswith(f"@{database}") \
                and (statement := STATEMENT.match(entry["text"])):
            current = [statement["sql"]]
    if current is not None:
        found.append(" ".join(" ".join(current).split()))
    return found


def shape(statement: str, width: int = 110) -> str:
    """A statement as a group key: its text, cut (a batch's row count and IN lists folded)."""
    if statement.strip() in ("", ";"):
        return "; (an empty statement: SQLAlchemy's pool pre-ping on checkout)"
    folded = re.sub(r"(\(\$\d+(?:::\w+)?(?:, \$\d+(?:::\w+)?)*\))(?:, \(\$\d+[^)]*\))+", r"\1, ...", statement)
    return folded if len(folded) <= width else folded[: width - 3] + "..."


# -- measuring -------------------------------------------------------------------------------------

@dataclass
class Measure:
    endpoint: str
    target: str
    requests: int
    round_trips: int
    bytes_sent: int
    sockets: int
    statements: int
    by_statement: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def per_request(self) -> float:
        return self.round_trips / self.requests

    @property
    def statements_per_request(self) -> float:
        return self.statements / self.requests


def send(server: Server, spec: Spec, calls: list[Call], count: int, tag: str) -> list[str]:
    """``count`` requests one after the other on one keep-alive connection; the non-2xx answers."""
    problems = []
    with httpx.Client(base_url=server.base_url, timeout=60) as client:
        for n in range(count):
            call = calls[n % len(calls)].with_key(f"{tag}-{n}")
            response = client.request(call.method, call.path, headers=call.headers,
                                      content=None if call.body is None else call.body.encode())
            if not response.is_success:
                problems.append(f"{spec.key} on {server.name}: HTTP {response.status_code} {response.text[:200]}")
    return problems


def measure(spec: Spec, server: Server, fx: Fixture, args: argparse.Namespace, database: str, port: int,
            work: Path) -> Measure:
    calls = ep.calls_for(spec, fx)
    problems = send(server, spec, calls, WARMUP_REQUESTS, f"rt-warm-{spec.key}-{server.name}")
    time.sleep(SETTLE_SECONDS)
    out = work / f"strace-{spec.key}-{server.name}.txt"
    offset = args.pg_log.stat().st_size
    with traced(server.pid, out):
        problems += send(server, spec, calls, args.requests, f"rt-{spec.key}-{server.name}")
        time.sleep(SETTLE_SECONDS)
    trips, sent, sockets = count_round_trips(out.read_text(errors="replace"), port)
    with args.pg_log.open("rb") as handle:
        handle.seek(offset)
        logged = statements(handle.read().decode(errors="replace"), database)
    by = Counter(shape(s) for s in logged)
    return Measure(spec.label, server.name, args.requests, trips, sent, sockets, len(logged), dict(by.most_common()),
                   problems[:3])


def report(found: list[Measure], requests: int) -> list[str]:
    """The table of round trips and statements per request, then each target's statements per request."""
    rows = [{"endpoint": spec, **{f"{m.target} {what}": value for m in found if m.endpoint == spec
                                  for what, value in (("rt", m.per_request), ("st", m.statements_per_request))}}
            for spec in dict.fromkeys(m.endpoint for m in found)]
    number = lambda v: "-" if v is None else f"{v:.2f}"  # noqa: E731 - a formatter, named for reading
    columns: list[tables.Column | str] = [tables.Column("endpoint", "endpoint", str, "<"), tables.SEP]
    columns += [tables.Column(f"{t.name} round trips/req", f"{t.name} rt", number) for t in TARGETS]
    columns += [tables.SEP, *(tables.Column(f"{t.name} statements/req", f"{t.name} st", number) for t in TARGETS)]
    lines = [f"PostgreSQL round trips and statements per request ({requests} sequential requests per endpoint and "
             "target; strace on the server's PostgreSQL sockets, and log_statement=all):",
             *tables.render(columns, rows)]
    for m in found:
        lines.append(f"\n{m.endpoint}, {m.target}: {m.per_request:.2f} round trips and {m.statements_per_request:.2f} "
                     f"statements per request, {m.bytes_sent / m.requests:,.0f} bytes sent to PostgreSQL per request "
                     f"({m.sockets} connection(s) used)")
        lines += [f"  {count / m.requests:5.2f} x {text}" for text, count in m.by_statement.items()]
        lines += [f"  PROBLEM: {p}" for p in m.problems]
    return lines


def main() -> int:
    keys = ",".join(s.key for s in SPECS)
    args = (cli.Arguments(__doc__, "roundtrips").records(2000, ep.LIST_CURSORS)
            .add("--requests", type=int, default=40, help="sequential requests per endpoint and target (default 40)")
            .add("--only", default=keys, help=f"comma-separated endpoint keys, of {keys} (default all)")
            .add("--pg-log", type=Path, default=newest_log(), help="PostgreSQL's log file").keep_db()
            .at_least("--requests", 1)
            .check(lambda a: {k.strip() for k in a.only.split(",")} <= set(keys.split(",")),
                   f"--only: choose of {keys}")
            .check(lambda _: shutil.which("strace") is not None, "needs strace on the PATH")
            .check(lambda a: a.pg_log is not None and a.pg_log.is_file(), "needs a readable PostgreSQL log (--pg-log)")
            ).parse()
    selected = [s for s in SPECS if s.key in {k.strip() for k in args.only.split(",")}]
    if not HAS_ASYNCPG:
        log("note: asyncpg is not installed (requirements/bench.txt): the limit is left out")
    started = time.perf_counter()
    found: list[Measure] = []
    with fresh("postgresql", "roundtrips", args.keep_db) as ws:
        fx = ep.setup(ws.env, args.records)
        database = ws.backend.label
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as admin:
            admin.execute(sql.SQL("ALTER DATABASE {} SET log_statement = 'all'").format(sql.Identifier(database)))
        port = urlsplit(ws.backend.url).port or 5432
        with running(TARGETS, ws.env, ws.tmp) as servers:
            for spec in selected:
                for server in servers.values():
                    if server.name == LIMIT.name and not spec.limit:
                        continue
                    m = measure(spec, server, fx, args, database, port, ws.tmp)
                    found.append(m)
                    log(f"{spec.label:<24} {server.name:<9} {m.per_request:6.2f} round trips/req "
                        f"{m.statements_per_request:6.2f} statements/req" + (f"  {m.problems}" if m.problems else ""))
    failures = [p for m in found for p in m.problems]
    info: dict[str, Any] = {"pg_log": str(args.pg_log), "targets": {t.name: list(t.command) for t in TARGETS}}
    return cli.conclude(args, {"config": info, "measures": [
        {**asdict(m), "round_trips_per_request": round(m.per_request, 3),
         "statements_per_request": round(m.statements_per_request, 3)} for m in found]},
        report(found, args.requests), failures, started)


if __name__ == "__main__":
    sys.exit(main())
