#!/usr/bin/env bash
# The fast loop: the unit tests alone (`pytest -m unit`: no PostgreSQL, Redis, Chromium, Node or Java,
# no server), without the static checks, in parallel. Extra arguments go to pytest
# (`bash scripts/fast.sh tests/core/test_timestamps.py -x`). It is not the test command: `bash scripts/test.sh` runs
# everything, and CI runs that. Installs .venv from the lock file when it is missing or stale.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ] || [ requirements/test.txt -nt .venv/bin/python ]; then
  # shellcheck source=scripts/venv.sh
  . scripts/venv.sh
fi
# A test that needs PostgreSQL or Redis and is still marked unit is skipped here, never in CI
# (tests/conftest.py, TESSERA_TEST_FAST).
TESSERA_TEST_FAST=1 exec .venv/bin/python -m pytest -p no:cacheprovider -q -m unit \
  -n "${TESSERA_TEST_WORKERS:-$(( $(nproc) + 1 ))}" "$@"
