"""Run the real Tessera service under uvicorn, one worker, configured from ``TESSERA_*`` variables.

Started as a subprocess by ``benchmarks/session_list.py`` and ``benchmarks/op_token.py`` so the server
has its own interpreter (and GIL), apart from the load generator. It is what ``tessera serve`` does,
minus migrating and seeding (the benchmark has done both): ``python benchmarks/_serve.py --port 8123``.

With ``TESSERA_BENCH_TRACEMALLOC_DIR`` set (``benchmarks/soak.py --tracemalloc``), Python's allocations
are traced from the start, and every ``SIGUSR1`` writes a snapshot into that directory
(``snapshot-<n>.pickle``), so a soak can tell which lines of code hold the memory that grew.
"""

from __future__ import annotations

import argparse
import os
import signal
import tracemalloc
from pathlib import Path

import uvicorn

from tessera.app import create_app
from tessera.core.logs import configure_logging
from tessera.core.settings import load_settings


def trace_allocations(directory: Path) -> None:
    """Trace allocations; each SIGUSR1 dumps a snapshot (the handler runs between bytecodes, on the loop)."""
    tracemalloc.start(8)
    taken = [0]

    def dump(_signum: int, _frame: object) -> None:
        taken[0] += 1
        tracemalloc.take_snapshot().dump(str(directory / f"snapshot-{taken[0]}.pickle"))

    signal.signal(signal.SIGUSR1, dump)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    if trace_dir := os.environ.get("TESSERA_BENCH_TRACEMALLOC_DIR"):
        trace_allocations(Path(trace_dir))
    settings = load_settings()
    configure_logging(settings.log_level, settings.log_json)
    app = create_app(settings)
    uvicorn.run(app, host=args.host, port=args.port, log_config=None, access_log=False, workers=1)


if __name__ == "__main__":
    main()
