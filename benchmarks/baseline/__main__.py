"""Serve the baseline: ``python -m baseline --host 127.0.0.1 --port 8124`` with ``benchmarks/`` on
``PYTHONPATH`` and the same ``TESSERA_*`` variables as Tessera (``harness.servers.BASELINE``; with
``BASELINE_DRIVER=asyncpg``, ``harness.servers.LIMIT``).

uvicorn runs it with uvloop and httptools (the fastest loop and parser it has), one worker, no
access log. It refuses to start if anything of Tessera (``tessera``, ``handlers``, ``storage``,
``codegen``) or Starlette was imported: its figures must owe nothing to either; and, on psycopg, if
asyncpg was: those figures are psycopg's alone.
"""

from __future__ import annotations

import os
import sys

from harness.serving import arguments, run

from baseline import config
from baseline.app import Baseline
from baseline.pg import DRIVER_VARIABLE

FORBIDDEN = ("tessera", "handlers", "storage", "codegen", "starlette")


def independent() -> None:
    found = sorted(m for m in sys.modules if m.split(".", 1)[0] in FORBIDDEN)
    if found:
        raise SystemExit(f"the baseline imported Tessera's code or Starlette: {', '.join(found[:5])}")
    if os.environ.get(DRIVER_VARIABLE, "psycopg") == "psycopg" and "asyncpg" in sys.modules:
        raise SystemExit("the baseline on psycopg imported asyncpg")


def main() -> None:
    args = arguments(__doc__)
    app = Baseline(config.load())
    independent()
    run(app, args.host, args.port, loop="uvloop", http="httptools", lifespan="on")


if __name__ == "__main__":
    main()
