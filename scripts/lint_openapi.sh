#!/usr/bin/env bash
# Lint both OpenAPI documents: openapi-spec-validator (structure) and Spectral (.spectral.yaml:
# spectral:oas `all` plus Tessera's rules). Warnings fail too. Spectral is pinned in
# lint/package-lock.json and installed into lint/node_modules with `npm ci` when that directory is
# missing or the lock file changed. Needs Node.js (>= 20.17 or ^18.18) and npm; never skips.
set -euo pipefail
cd "$(dirname "$0")/.."

DOCUMENTS=(openapi/session-api.yaml generated/open-platform.yaml)
LINT_DIR=lint
STAMP="$LINT_DIR/node_modules/.tessera-lock.sha256"

fail() { echo "ERROR: $*" >&2; exit 1; }

command -v node >/dev/null 2>&1 \
  || fail "node is not installed: the OpenAPI lint needs Node.js >= 20.17 (or ^18.18) and npm (https://nodejs.org)"
command -v npm >/dev/null 2>&1 \
  || fail "npm is not installed: the OpenAPI lint installs Spectral with npm (it comes with Node.js)"
node -e '
  const [major, minor] = process.versions.node.split(".").map(Number);
  const ok = major > 20 || (major === 20 && minor >= 17) || (major === 18 && minor >= 18);
  process.exit(ok ? 0 : 1);
' || fail "Node.js $(node --version) is too old for Spectral: install Node.js >= 20.17 (or ^18.18)"

VALIDATOR=.venv/bin/openapi-spec-validator
[ -x "$VALIDATOR" ] || fail "$VALIDATOR is missing: install Tessera into .venv first (bash scripts/test.sh does)"

lock_sum() { sha256sum "$LINT_DIR/package-lock.json" | cut -d' ' -f1; }
if [ ! -x "$LINT_DIR/node_modules/.bin/spectral" ] || [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$(lock_sum)" ]; then
  echo "    installing the pinned Spectral into $LINT_DIR/node_modules (npm ci)"
  # --ignore-scripts: no dependency needs an install script (one would only send telemetry).
  (cd "$LINT_DIR" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null) \
    || fail "npm ci in $LINT_DIR failed (is the npm registry reachable?)"
  lock_sum >"$STAMP"
fi

echo "    openapi-spec-validator: ${DOCUMENTS[*]}"
"$VALIDATOR" "${DOCUMENTS[@]}"

echo "    spectral $("$LINT_DIR/node_modules/.bin/spectral" --version) (.spectral.yaml, warnings fail): ${DOCUMENTS[*]}"
"$LINT_DIR/node_modules/.bin/spectral" lint --ruleset .spectral.yaml --fail-severity=warn \
  --fail-on-unmatched-globs "${DOCUMENTS[@]}"
