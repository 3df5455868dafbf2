"""Serve the limit: ``python -m limit --host 127.0.0.1 --port 8125`` with ``benchmarks/`` on
``PYTHONPATH`` and the same ``TESSERA_*`` variables as Tessera (``harness.servers.LIMIT``).

uvicorn runs it with uvloop and httptools (the fastest loop and parser it has), one worker, no
access log. It refuses to start if anything of Tessera (``tessera``, ``handlers``, ``storage``) or
Starlette was imported: the limit's figures must owe nothing to either.
"""

from __future__ import annotations

import sys

from baseline import config
from harness.serving import arguments, run

from limit.app import Limit

FORBIDDEN = ("tessera", "handlers", "storage", "starlette")


def independent() -> None:
    found = sorted(m for m in sys.modules if m.split(".", 1)[0] in FORBIDDEN)
    if found:
        raise SystemExit(f"the limit imported Tessera's code or Starlette: {', '.join(found[:5])}")


def main() -> None:
    args = arguments(__doc__)
    app = Limit(config.load())
    independent()
    run(app, args.host, args.port, loop="uvloop", http="httptools", lifespan="on")


if __name__ == "__main__":
    main()
