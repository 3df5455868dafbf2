"""What a server process of the benchmarks runs: ``--host`` and ``--port``, one uvicorn worker.

Why a process of its own per server: the server then has its own interpreter and GIL, apart from
the load generator, and its CPU and memory can be read from ``/proc`` alone. Every server of a
comparison is run the same way (one worker, no access log, logging left to the app), so they differ
only in what is being compared. This module imports nothing but uvicorn, so it adds nothing to the
memory a server is measured with.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import uvicorn


def arguments(description: str | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    return parser.parse_args()


def run(app: Any, host: str, port: int, **options: Any) -> None:
    uvicorn.run(app, host=host, port=port, log_config=None, access_log=False, workers=1, **options)


def serve(build: Callable[[], Any], description: str | None) -> None:
    """Parse ``--host``/``--port``, build the ASGI app, serve it until SIGTERM."""
    args = arguments(description)
    run(build(), args.host, args.port)
