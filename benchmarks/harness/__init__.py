"""What every benchmark shares, so no script carries its own copy: databases and seeding, server
processes, load generators, CPU and memory accounting, ABBA ordering, tables and result files.

Modules, each named for what it does: ``databases`` (fresh databases, the servers' environment),
``seeding`` (fixtures through the services, records in bulk), ``servers`` (targets, processes,
pinning), ``serving`` (what a server process runs), ``wrk`` and ``clients`` (load: wrk, and httpx
clients that check every answer), ``cpu`` (``/proc`` accounting), ``order`` (ABBA), ``stats``,
``tables``, ``results``, ``cli`` (the shared options and a run's end), and two catalogues used by
more than one script: ``endpoints`` (the suite's eight endpoints) and ``deliveries`` (the webhook
receiver and the delivery checks).

Importing the package puts this checkout's root first on ``sys.path``. A script run as
``python benchmarks/<name>.py`` has ``benchmarks/`` first instead, and ``tessera``, ``storage`` and
``handlers`` would then come from wherever the virtualenv's editable install points, which need not
be this checkout: a benchmark must measure the code beside it. So every script imports the harness
before any of those packages (the import order ruff enforces does that: third-party before
first-party).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH_DIR = ROOT / "benchmarks"
# BENCH_RESULTS_DIR sends the reports elsewhere: the test command's smoke runs, whose figures mean
# nothing, must not overwrite those of a real run.
RESULTS_DIR = Path(os.environ.get("BENCH_RESULTS_DIR") or BENCH_DIR / "results")

if sys.path[:1] != [str(ROOT)]:
    sys.path.insert(0, str(ROOT))


def log(message: str = "") -> None:
    """Progress goes to stdout at once: the benchmarks run for minutes."""
    print(message, flush=True)
