"""The list benchmarks run end to end on tiny inputs in the test command, so they cannot rot between
the turns that measure with them: a fresh PostgreSQL database, the seeding, Tessera (and, for the
session list, the independent baseline) as real servers, every answer checked, the report written.
The figures of so small a run mean nothing; the exit status says every check held."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.live_server import ROOT

TINY_RUNS = {
    "session list (Tessera and the baseline)": ["session_list.py", "--records", "12000", "--duration", "0.3",
                                               "--keyword=-sn-"],
    "audit search": ["audit_search.py", "--rows", "5000", "--duration", "0.3"],
}


@pytest.mark.parametrize("arguments", TINY_RUNS.values(), ids=TINY_RUNS.keys())
def test_the_benchmark_runs_on_tiny_inputs(arguments: list[str], tmp_path: Path) -> None:
    # The reports go to a directory of the test's own, never over a real run's in benchmarks/results/.
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("TESSERA_")}, "BENCH_RESULTS_DIR": str(tmp_path)}
    result = subprocess.run([sys.executable, *arguments], cwd=ROOT / "benchmarks", env=env,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"{arguments[0]} failed:\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}"
    assert list(tmp_path.glob("*.json")), "the report was not written"
