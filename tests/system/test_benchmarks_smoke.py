"""The benchmarks run end to end on tiny inputs in the test command, so they cannot rot between the
turns that measure with them: a fresh database, the seeding, Tessera (and the independent baseline
where the script compares with it) as real servers and workers, every check of the script, the
report written. The figures of so small a run mean nothing; the exit status says every check held.

The test command (``scripts/test.sh``, which CI runs) installs wrk and strace, so the wrk-driven
``scaleout.py`` and ``soak.py`` run here too; a benchmark never skips for a missing tool (each stops at
once and says what is missing). ``suite.py`` has no tiny run here: it needs the peers' packages
(``requirements/bench.txt``), which the test command does not install. ``roundtrips.py`` needs strace and
PostgreSQL's log file, which the test command provides; without them it fails and says so.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.live_server import ROOT

# Each takes seconds; --warmup 0 where a script warms up before each measured run, as nothing is measured.
TINY_RUNS = {
    "session list (Tessera and the baseline)": ["session_list.py", "--records", "12000", "--duration", "0.3",
                                               "--warmup", "0", "--keyword=-sn-", "--writes", "0,5",
                                               "--execute", "0.3"],
    "audit search": ["audit_search.py", "--rows", "5000", "--duration", "0.3", "--warmup", "0", "--writes", "0,5"],
    "published reads and cursor walks (Tessera and the baseline)": [
        "open_read.py", "--assets", "200", "--limit", "50", "--duration", "0.3", "--warmup", "0", "--solo-walks", "1"],
    # One read and one write: the strace decoding and the statement log, not every endpoint.
    "round trips (strace, log_statement)": ["roundtrips.py", "--records", "200", "--requests", "2",
                                            "--only", "whoami,command"],
    # A consumer's catch-up across an outage, the cost of a poll at the head (its statements counted in
    # PostgreSQL's log) and the feed index in the plans.
    "events feed": ["events_feed.py", "--events", "2000", "--outage-events", "10", "--polls", "20"],
    # Batches of 50: the 800 expired call-audit rows take more than one purge's ten batches, so the purge
    # runs pass after pass as it does on a backlog; on PostgreSQL and SQLite.
    "retention purge": ["retention.py", "--rows", "2000", "--batch", "50"],
    "webhook deliveries (workers and the bare loop)": ["webhooks.py", "--events", "10", "--rate", "10",
                                                       "--duration", "0.5"],
    # The real lease is still waited for, shortened from 30 s + the timeout to 1 s + 3 s.
    "worker killed with kill -9": ["worker_kill.py", "--deliveries", "10", "--timeout", "3", "--lease-margin", "1"],
    # Every event accepted and consumed exactly once, the drain within --keep-up-seconds; no ratio of
    # automation runs to accepts, which a burst of 50 cannot show.
    "inbound event burst": ["inbound_burst.py", "--events", "50", "--concurrency", "8", "--keep-up-ratio", "0"],
    # A rename moved by `tessera migrate` after `--plan`, on SQLite (the moves' SQL on both databases is
    # tests/storage/test_field_moves.py's): every value moved, every unique claim renamed.
    "field rename moved by migrate": ["field_rename.py", "--backend", "sqlite", "--records", "300"],
    # Three servers (tracing off, on, sampled) and a real OTLP/HTTP sink: every answer 200, spans from
    # the traced servers only.
    "tracing off, on and sampled": ["tracing.py", "--backend", "sqlite", "--duration", "0.5", "--warmup", "0",
                                    "--concurrency", "2"],
    # wrk-driven (the test command installs wrk): 12 s of mixed load, RSS sampled each second.
    "memory soak": ["soak.py", "--records", "200", "--minutes", "0.2", "--slice", "3", "--sample", "1",
                    "--warmup-minutes", "0.05", "--connections", "4"],
    # Two API processes and two workers on one PostgreSQL with Redis: shared limits, one execution per
    # idempotency key, every delivery once (about 45 s: the limits' own windows are waited for).
    "scale-out": ["scaleout.py", "--records", "200", "--duration", "1", "--warmup", "1", "--keys", "5",
                  "--delivery-seconds", "5", "--connections", "4"],
}


@pytest.mark.parametrize("arguments", TINY_RUNS.values(), ids=TINY_RUNS.keys())
def test_the_benchmark_runs_on_tiny_inputs(arguments: list[str], tmp_path: Path) -> None:
    # The reports go to a directory of the test's own, never over a real run's in benchmarks/results/.
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("TESSERA_")}, "BENCH_RESULTS_DIR": str(tmp_path)}
    result = subprocess.run([sys.executable, *arguments], cwd=ROOT / "benchmarks", env=env,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"{arguments[0]} failed:\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}"
    assert list(tmp_path.glob("*.json")), "the report was not written"
