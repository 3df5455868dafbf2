"""Serve the baseline: ``python -m baseline --host 127.0.0.1 --port 8124`` with ``benchmarks/`` on
``PYTHONPATH`` and the same ``TESSERA_*`` variables as Tessera (``harness.servers.BASELINE``).

It refuses to start if anything of Tessera (``tessera``, ``handlers``, ``storage``, ``codegen``) was imported: the
baseline's figures must owe nothing to Tessera's code.
"""

from __future__ import annotations

import sys

from harness.serving import serve

from baseline import config
from baseline.app import build

TESSERA_PACKAGES = ("tessera", "handlers", "storage", "codegen")


def independent() -> None:
    found = sorted(m for m in sys.modules if m.split(".", 1)[0] in TESSERA_PACKAGES)
    if found:
        raise SystemExit(f"the baseline imported Tessera's code: {', '.join(found[:5])}")


def main() -> None:
    app = build(config.load())
    independent()
    serve(lambda: app, __doc__)


if __name__ == "__main__":
    main()
