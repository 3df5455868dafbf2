#!/usr/bin/env bash
# Set up a local virtual environment and run Tessera on SQLite with demo data at http://127.0.0.1:8080.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv"
  "$PYTHON" -m venv .venv
fi
# Installed once, and again when the lock file or the project's metadata changed since (a second start,
# or a .venv that scripts/test.sh made, starts at once).
if [ ! -x .venv/bin/tessera ] || [ requirements/service.txt -nt .venv/bin/tessera ] || [ pyproject.toml -nt .venv/bin/tessera ]; then
  echo "==> installing Tessera into .venv (pinned, hash-checked: requirements/service.txt)"
  .venv/bin/python -m pip install --quiet --require-hashes --no-deps -r requirements/service.txt
  .venv/bin/python -m pip install --quiet --no-deps --no-build-isolation -e .
fi
echo "==> starting Tessera (SQLite at var/tessera.db, demo data)"
# The integrator quickstart (docs/integrator/quickstart.md) registers a webhook receiver on 127.0.0.1: the demo allows
# loopback endpoints (production refuses them; see TESSERA_WEBHOOK_ALLOW_LOOPBACK).
export TESSERA_WEBHOOK_ALLOW_LOOPBACK="${TESSERA_WEBHOOK_ALLOW_LOOPBACK:-true}"
exec .venv/bin/tessera serve --demo --host "${TESSERA_HOST:-127.0.0.1}" --port "${TESSERA_PORT:-8080}"
