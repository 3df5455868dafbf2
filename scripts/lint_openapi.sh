#!/usr/bin/env bash
# Lint both OpenAPI documents: openapi-spec-validator (structure), Spectral (.spectral.yaml:
# spectral:oas `all` plus Tessera's rules; warnings fail too) and Redocly (`lint --extends
# recommended`; errors fail, its warnings are shown). Spectral and Redocly are pinned in
# lint/package-lock.json and installed into lint/node_modules with `npm ci` when that directory is
# missing or the lock file changed; both run offline (Redocly's telemetry is turned off). Then
# openapi-generator's own `validate` (errors fail, its recommendations are shown), from the jar that
# the PyPI package openapi-generator-cli ships (pinned in requirements/test.txt). Needs Node.js
# (^20.19 or >= 22.12), npm and Java 17+; never skips.
set -euo pipefail
cd "$(dirname "$0")/.."

DOCUMENTS=(generated/session-api.yaml generated/open-platform.yaml)
LINT_DIR=lint
STAMP="$LINT_DIR/node_modules/.tessera-lock.sha256"

fail() { echo "ERROR: $*" >&2; exit 1; }

command -v node >/dev/null 2>&1 \
  || fail "node is not installed: the OpenAPI lint needs Node.js ^20.19 or >= 22.12 and npm (https://nodejs.org)"
command -v npm >/dev/null 2>&1 \
  || fail "npm is not installed: the OpenAPI lint installs Spectral and Redocly with npm (it comes with Node.js)"
node -e '
  const [major, minor] = process.versions.node.split(".").map(Number);
  const ok = (major === 20 && minor >= 19) || major > 22 || (major === 22 && minor >= 12);
  process.exit(ok ? 0 : 1);
' || fail "Node.js $(node --version) does not run the pinned Spectral and Redocly: install Node.js ^20.19 or >= 22.12"

VALIDATOR=.venv/bin/openapi-spec-validator
[ -x "$VALIDATOR" ] || fail "$VALIDATOR is missing: install Tessera into .venv first (bash scripts/test.sh does)"
GENERATOR=.venv/bin/openapi-generator-cli
[ -x "$GENERATOR" ] \
  || fail "$GENERATOR is missing: install requirements/test.txt into .venv first (bash scripts/test.sh does)"
command -v java >/dev/null 2>&1 \
  || fail "java is not installed: openapi-generator validate needs Java 17+ (Debian: apt-get install openjdk-17-jre-headless)"

lock_sum() { sha256sum "$LINT_DIR/package-lock.json" | cut -d' ' -f1; }
if [ ! -x "$LINT_DIR/node_modules/.bin/spectral" ] || [ ! -x "$LINT_DIR/node_modules/.bin/redocly" ] \
   || [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$(lock_sum)" ]; then
  echo "    installing the pinned Spectral and Redocly into $LINT_DIR/node_modules (npm ci)"
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

REDOCLY="$LINT_DIR/node_modules/.bin/redocly"
redocly() { REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true "$REDOCLY" "$@"; }  # offline: no telemetry
echo "    redocly $(redocly --version 2>/dev/null) (lint --extends recommended, errors fail): ${DOCUMENTS[*]}"
status=0
report=$(redocly lint --extends recommended --format summary "${DOCUMENTS[@]}" 2>&1) || status=$?
# One line per rule that matched, without the banners (Node.js 20's end-of-life notice among them).
printf '%s\n' "$report" | grep -v -e '[║╔╚]' -e '^[[:space:]]*$' | sed 's/^/      /' || true
[ "$status" = 0 ] \
  || fail "Redocly found errors in ${DOCUMENTS[*]} (details: $REDOCLY lint --extends recommended <document>)"

echo "    openapi-generator $("$GENERATOR" version 2>/dev/null) (validate, errors fail): ${DOCUMENTS[*]}"
for document in "${DOCUMENTS[@]}"; do
  status=0
  report=$("$GENERATOR" validate -i "$document" 2>&1) || status=$?
  printf '%s\n' "$report" | grep -v -e '^Validating spec' -e '^[[:space:]]*$' | sed "s|^|      $document: |" || true
  [ "$status" = 0 ] || fail "openapi-generator validate found errors in $document"
done
