"""Run the real Tessera service under uvicorn, one worker, configured from ``TESSERA_*`` variables.

Started as a subprocess by ``benchmarks/session_list.py`` and ``benchmarks/op_token.py`` so the server
has its own interpreter (and GIL), apart from the load generator. It is what ``tessera serve`` does,
minus migrating and seeding (the benchmark has done both): ``python benchmarks/_serve.py --port 8123``.
"""

from __future__ import annotations

import argparse

import uvicorn

from tessera.app import create_app
from tessera.logs import configure_logging
from tessera.settings import load_settings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    settings = load_settings()
    configure_logging(settings.log_level, settings.log_json)
    app = create_app(settings)
    uvicorn.run(app, host=args.host, port=args.port, log_config=None, access_log=False, workers=1)


if __name__ == "__main__":
    main()
