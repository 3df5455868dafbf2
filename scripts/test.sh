#!/usr/bin/env bash
# Set up a local virtual environment and run every check and the whole test suite
# (SQLite and PostgreSQL, in-process and Redis rate limits). Starts PostgreSQL and Redis when down.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv"
  "$PYTHON" -m venv .venv
fi
echo "==> installing Tessera with test tools into .venv"
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[test]"
echo "==> installing the generated SDKs (generated/python) into .venv"
.venv/bin/python -m pip install --quiet -e generated/python/open-platform-client -e generated/python/session-client

wait_for() {  # wait_for <what> <command...>: up to 30 s
  local what=$1; shift
  for _ in $(seq 1 60); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  echo "ERROR: $what did not come up" >&2
  return 1
}

echo "==> PostgreSQL on 127.0.0.1:5432"
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    echo "    not running: starting it"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start
    wait_for PostgreSQL pg_isready -q -h 127.0.0.1 -p 5432
  else
    echo "ERROR: PostgreSQL is not running on 127.0.0.1:5432 and pg_ctlcluster is not installed" >&2
    exit 1
  fi
fi

echo "==> Redis on 127.0.0.1:6379"
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  if command -v redis-server >/dev/null 2>&1; then
    echo "    not running: starting it"
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
    wait_for Redis redis-cli -h 127.0.0.1 -p 6379 ping
  else
    echo "ERROR: Redis is not running on 127.0.0.1:6379 and redis-server is not installed" >&2
    exit 1
  fi
fi

echo "==> lint (ruff)"
.venv/bin/ruff check .
echo "==> documents, models.yaml, capabilities.yaml and settings (tessera check)"
TESSERA_VAR_DIR="$(mktemp -d)" .venv/bin/tessera check
echo "==> generated/ is current (tessera generate --check)"
TESSERA_VAR_DIR="$(mktemp -d)" .venv/bin/tessera generate --check
echo "==> OpenAPI lint (openapi-spec-validator, Spectral)"
bash scripts/lint_openapi.sh
echo "==> translation catalogs"
.venv/bin/python scripts/check_catalogs.py
echo "==> test suite (SQLite and PostgreSQL)"
.venv/bin/python -m pytest -p no:cacheprovider "$@"
