#!/usr/bin/env bash
# Exploration with Schemathesis: fresh seeds and a larger budget on every document, way of running
# it and database, until the time budget is spent (scripts/fuzz.py --help). Not part of the test
# command, which runs fixed seeds; run `bash scripts/test.sh` once first (it makes .venv and
# starts PostgreSQL).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/schemathesis ]; then
  echo "ERROR: .venv/bin/schemathesis is missing: run 'bash scripts/test.sh' once first (it installs .venv)" >&2
  exit 1
fi
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  echo "ERROR: PostgreSQL is not running on 127.0.0.1:5432 (scripts/test.sh starts it)" >&2
  exit 1
fi
exec .venv/bin/python scripts/fuzz.py "$@"
