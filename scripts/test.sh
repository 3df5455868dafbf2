#!/usr/bin/env bash
# Set up a local virtual environment and run every check and the whole test suite
# (SQLite and PostgreSQL, in-process and Redis rate limits, the admin console in headless Chromium).
# Starts PostgreSQL and Redis when down; installs Debian's chromium, wrk and strace when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/venv.sh
. scripts/venv.sh

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

echo "==> Chromium for the admin console's browser tests (Debian's chromium package)"
# The browser tests drive /usr/bin/chromium through Playwright's Python API; Playwright's own
# browser downloads (`playwright install`) are never used. A CJK font keeps the zh-CN screenshots
# legible (without one, Chinese text renders as boxes; the tests check the text either way).
apt_install() {  # apt_install <package...>: as root, or through sudo when it needs no password
  local runner=()
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then runner=(sudo -n); else return 1; fi
  fi
  "${runner[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@" >/dev/null \
    || { "${runner[@]}" apt-get update -qq >/dev/null \
         && "${runner[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@" >/dev/null; }
}
if [ ! -x /usr/bin/chromium ]; then
  echo "    /usr/bin/chromium is missing: installing Debian's chromium package"
  if ! command -v apt-get >/dev/null 2>&1 || ! apt_install chromium; then
    echo "ERROR: could not install chromium (apt-get install -y chromium needs root or passwordless sudo on" >&2
    echo "       Debian/Ubuntu); the admin console's browser tests need /usr/bin/chromium" >&2
    exit 1
  fi
fi
if command -v fc-list >/dev/null 2>&1 && [ -z "$(fc-list :lang=zh 2>/dev/null)" ]; then
  apt_install fonts-wqy-microhei || echo "    warning: no CJK font (fonts-wqy-microhei): zh-CN screenshots show boxes"
fi
echo "    $(/usr/bin/chromium --version 2>/dev/null | head -n 1)"

echo "==> wrk and strace for the benchmarks' smoke runs (Debian packages)"
# tests/system/test_benchmarks_smoke.py runs the benchmarks that drive load with wrk and count
# round trips with strace, on tiny inputs.
for tool in wrk strace; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "    $tool is missing: installing Debian's $tool package"
    if ! command -v apt-get >/dev/null 2>&1 || ! apt_install "$tool"; then
      echo "ERROR: could not install $tool (apt-get install -y $tool needs root or passwordless sudo on" >&2
      echo "       Debian/Ubuntu); the benchmarks' smoke runs need it" >&2
      exit 1
    fi
  fi
done
echo "    $(wrk --version 2>&1 | head -n 1)"

# The static checks run side by side (each is one process, mostly on one core; together they keep
# both cores busy) and report in this order; any failure stops here, before the suite.
checks_dir=$(mktemp -d)
check_pids=(); check_names=()
check() {  # check <name> <title> <command...>: in the background, its output kept for the report
  local name=$1 title=$2; shift 2
  ( echo "==> $title"; "$@" ) >"$checks_dir/$name.log" 2>&1 &
  check_pids+=("$!"); check_names+=("$name")
}
check ruff "lint (ruff)" .venv/bin/ruff check .
# The benchmarks' mypy runs after the service's, in the same cache: the libraries both follow are
# analysed once (half the two runs' CPU on a fresh clone).
check mypy "types (mypy; then the benchmarks', benchmarks/mypy.ini)" \
  bash -c '.venv/bin/mypy && .venv/bin/mypy --config-file benchmarks/mypy.ini'
check imports "dependency rule (import-linter: layers, Connexion and SQLAlchemy fenced, no HTTP in features, codegen out)" \
  .venv/bin/lint-imports --config pyproject.toml --no-logo
check registry "documents, models.yaml, capabilities.yaml and settings (tessera check)" \
  env TESSERA_VAR_DIR="$(mktemp -d)" .venv/bin/tessera check
check generated "generated/ and the generated docs pages are current (tessera generate --check)" \
  env TESSERA_VAR_DIR="$(mktemp -d)" .venv/bin/tessera generate --check
check openapi "OpenAPI lint (openapi-spec-validator, Spectral, Redocly, openapi-generator validate)" \
  bash scripts/lint_openapi.sh
check catalogs "translation catalogs" .venv/bin/python scripts/check_catalogs.py
check docs "documentation site (mkdocs build --strict: every internal link and anchor)" \
  .venv/bin/mkdocs build --strict --quiet --site-dir "$(mktemp -d)/site"
checks_failed=()
for i in "${!check_pids[@]}"; do
  if ! wait "${check_pids[$i]}"; then checks_failed+=("${check_names[$i]}"); fi
  cat "$checks_dir/${check_names[$i]}.log"
done
if [ "${#checks_failed[@]}" -gt 0 ]; then
  echo "ERROR: static checks failed: ${checks_failed[*]} (their output is above)" >&2
  exit 1
fi
echo "==> test suite (SQLite and PostgreSQL)"
# --durations=15: every run ends with its 15 slowest tests, so it shows where the time goes.
# -n: in parallel, one more pytest-xdist worker than the machine has cores (much of the suite waits
# on servers, browsers and sockets); --dist loadgroup keeps a module's tests on one backend, or one
# Schemathesis run, on one worker (tests/conftest.py _xdist_group). TESSERA_TEST_WORKERS=0: serial.
# --rules: the run fails unless every rule of rules.yaml has a test naming it that ran and passed
# (tests/support/rules.py; the catalogue page is docs/development/rules.md).
workers=${TESSERA_TEST_WORKERS:-$(( $(nproc) + 1 ))}
rules=(--rules)
if [ "$#" -gt 0 ]; then rules=(); fi  # a chosen subset of the suite proves only some of the rules
.venv/bin/python -m pytest -p no:cacheprovider --durations=15 -n "$workers" --dist loadgroup "${rules[@]}" "$@"
