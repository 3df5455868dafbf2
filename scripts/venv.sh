#!/usr/bin/env bash
# .venv with Tessera, the generated SDKs and the test tools, from the hash-checked lock file; sourced by
# scripts/test.sh and scripts/fast.sh (nothing else is fetched: the packages install with --no-deps).
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv"
  "$PYTHON" -m venv .venv
fi
echo "==> installing Tessera, the generated SDKs and the test tools into .venv (pinned, hash-checked:"
echo "    requirements/test.txt; nothing else is fetched: the packages install with --no-deps)"
.venv/bin/python -m pip install --quiet --require-hashes --no-deps -r requirements/test.txt
.venv/bin/python -m pip install --quiet --no-deps --no-build-isolation \
  -e . -e generated/python/open-platform-client -e generated/python/session-client
.venv/bin/python -m pip check
