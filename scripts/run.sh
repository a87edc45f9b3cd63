#!/usr/bin/env bash
# Installs what is missing, builds, and runs Holdfast on SQLite with the demo
# data at http://127.0.0.1:3000 (override with the variables in docs/OPERATIONS.md).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
export LEPTOS_SITE_ROOT=target/site
exec ./target/debug/holdfast
