"""Run the real Tessera service under uvicorn, one worker, configured from ``TESSERA_*`` variables.

The ``tessera`` target of the benchmarks (``harness.servers.TESSERA``): what ``tessera serve`` runs,
minus migrating, seeding (the benchmark has done both) and the in-process delivery worker task
(``create_app(..., workers=0)``: the benchmarks that measure deliveries start ``tessera worker``
processes of their own, and the others leave the outbox rows of their writes in the database)::

    python benchmarks/_serve.py --port 8123

With ``TESSERA_BENCH_TRACEMALLOC_DIR`` set (``benchmarks/soak.py --tracemalloc``), Python's allocations
are traced from the start, and every ``SIGUSR1`` writes a snapshot into that directory
(``snapshot-<n>.pickle``), so a soak can tell which lines of code hold the memory that grew.
"""

from __future__ import annotations

import os
import signal
import tracemalloc
from pathlib import Path
from typing import Any

from harness.serving import serve

from tessera.app import create_app, tune_gc
from tessera.core.logs import configure_logging
from tessera.core.settings import load_settings
from tessera.tracing.setup import configure as configure_tracing


def trace_allocations(directory: Path) -> None:
    """Trace allocations; each SIGUSR1 dumps a snapshot (the handler runs between bytecodes, on the loop)."""
    tracemalloc.start(8)
    taken = [0]

    def dump(_signum: int, _frame: object) -> None:
        taken[0] += 1
        tracemalloc.take_snapshot().dump(str(directory / f"snapshot-{taken[0]}.pickle"))

    signal.signal(signal.SIGUSR1, dump)


def build() -> Any:
    if trace_dir := os.environ.get("TESSERA_BENCH_TRACEMALLOC_DIR"):
        trace_allocations(Path(trace_dir))
    settings = load_settings()
    configure_logging(settings.log_level, settings.log_json)
    configure_tracing()  # as `tessera serve` does: off unless OTEL_TRACES_EXPORTER is set (benchmarks/tracing.py)
    app = create_app(settings, workers=0)
    tune_gc()  # as `tessera serve` does
    return app


if __name__ == "__main__":
    serve(build, __doc__)
