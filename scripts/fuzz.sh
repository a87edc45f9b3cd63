#!/usr/bin/env bash
# API fuzzing: schemathesis (from PyPI, in a virtualenv of its own) against
# the server's /api/openapi.json — examples, boundary values, random inputs
# and stateful sequences along the document's links.
#
#   scripts/fuzz.sh BASE_URL ADMIN_TOKEN [max examples per operation]
#
# Fails on any 5xx and on any error outside the API's error shape
# (scripts/fuzz/hooks.py); seat streams (never-ending SSE) are left out.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?base URL}
token=${2:?admin token}
examples=${3:-25}
venv="${HOLDFAST_TOOLS:-$HOME/.cache/holdfast}/schemathesis-4.32.5"
if [ ! -x "$venv/bin/schemathesis" ]; then
  python3 -m venv "$venv" 2>/dev/null || {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    python3 -m venv "$venv"
  }
  "$venv/bin/pip" install -q --disable-pip-version-check "schemathesis==4.32.5"
fi
hooks="$(pwd)/scripts/fuzz"
report="$(pwd)/.tmp/fuzz"
mkdir -p "$report"
# Schemathesis keeps its example cache in the working directory: not ours.
cd "$report"
SCHEMATHESIS_HOOKS=hooks PYTHONPATH="$hooks" \
  "$venv/bin/schemathesis" run "$base/api/openapi.json" \
  --url "$base" \
  --checks not_a_server_error,error_shape \
  --header "Authorization: Bearer $token" \
  --exclude-path-regex '/stream$' \
  --max-examples "$examples" \
  --seed 20261130 \
  --request-timeout 10 \
  --workers 1 \
  --no-color \
  --report junit --report-dir "$report"
