#!/usr/bin/env bash
# Every test: installs what is missing (wasm target, wasm-bindgen, Chromium,
# Playwright), starts a throwaway Postgres, runs the Rust tests on SQLite and
# on Postgres, builds and starts the app, runs Playwright in Debian's
# Chromium, and stops everything it started.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
source scripts/lib.sh
use_build_dir
# Each step's heading says how long the run has taken so far.
stage() { echo "==> $* [$((SECONDS / 60))m$((SECONDS % 60))s]"; }
work="$root/.tmp/test-$$"
mkdir -p "$work"
cleanup() {
  stop_started
  "$root/scripts/pg.sh" stop "$work/pg" || true
  # The cluster and its test databases take gigabytes; the logs stay.
  rm -rf "$work/pg"
}
trap cleanup EXIT

stage "style (format, then clippy on the server and on the browser's wasm)"
# First: a formatting slip or a lint fails in minutes, not after the build.
rustup component add rustfmt clippy >/dev/null 2>&1 || true
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --features holdfast/ssr,holdfast-app/ssr -- -D warnings

stage "layers (the model and the core depend on no web framework)"
./scripts/layers.sh

stage "alerts and dashboard (promtool check and unit tests; metrics named as exported)"
./scripts/check-alerts.sh

stage "tools"
./scripts/install-tools.sh
cargo clippy -p holdfast-app --lib --target wasm32-unknown-unknown --no-default-features --features hydrate -- -D warnings
cargo clippy -p holdfast-app --lib --target wasm32-unknown-unknown --no-default-features --features console -- -D warnings
if [ ! -x /usr/bin/chromium ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
(cd end2end && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund --loglevel=error)

stage "build (the optimised wasm a browser gets; a development server)"
./scripts/build.sh --wasm-release
./scripts/size-budget.sh

stage "postgres"
pg_url=$(./scripts/pg.sh start "$work/pg")
echo "throwaway postgres at $pg_url"

stage "rust tests (SQLite and Postgres)"
# RUST_LOG: a failing test shows its servers' errors beside it.
RUST_LOG=error HOLDFAST_TEST_PG_URL="$pg_url" cargo test --workspace --features holdfast/ssr,holdfast-app/ssr -- --test-threads=2

stage "on-sale simulation, scaled down (full size: scripts/bench.sh)"
# 1,500 buyers for the cruise's 300 cabins, 6-second holds: on SQLite; on
# three instances sharing Postgres (with the cross-instance live check);
# with one instance killed (SIGKILL) mid-sale; with Postgres stopped
# immediately mid-sale. Each run ends with every invariant checked.
cargo build -p holdfast -p holdfast-bench --no-default-features --features holdfast/ssr --bin holdfast --bin holdfast-bench
sim=(--event 2 --buyers 1500 --concurrency 64)
./scripts/onsale.sh --instances 1 --db sqlite --hold-ttl 6 -- "${sim[@]}"
./scripts/onsale.sh --instances 3 --db postgres --hold-ttl 6 -- "${sim[@]}" --live-check
./scripts/onsale.sh --instances 3 --db postgres --hold-ttl 6 --crash kill --crash-after 1 -- "${sim[@]}" --arrival 3
./scripts/onsale.sh --instances 3 --db postgres --hold-ttl 6 --crash pg --crash-after 1 -- "${sim[@]}" --arrival 3
# Postgres as production runs it (scripts/ha.sh: three nodes under Patroni,
# synchronous replication, HAProxy in front): the primary killed (SIGKILL)
# mid-sale. No acknowledged write lost, no 500 answered, the old primary
# back as a standby; the outage is printed. Holds last 30 s here: a hold
# taken just before the outage is still payable after it. Then the primary
# frozen (SIGSTOP) past its TTL and woken once another node leads: it must
# demote, and no hold it acknowledged may be lost.
./scripts/onsale.sh --instances 3 --db ha --hold-ttl 30 --crash failover --crash-after 4 -- \
  "${sim[@]}" --arrival 6 --forbid-500
./scripts/onsale.sh --instances 3 --db ha --hold-ttl 30 --crash freeze --crash-after 4 -- \
  "${sim[@]}" --arrival 6 --forbid-500
# The same crowd through a waiting room on two instances: every buyer queues
# first and holds with the admission it was given.
./scripts/onsale.sh --instances 2 --db postgres --hold-ttl 6 -- "${sim[@]}" --buyers 600 --concurrency 600 --waiting-room 3000
# A cancelled sailing's 300 bookings moved by the rebooking job on three
# instances, the one running it killed (SIGKILL) after 100 moves: another
# takes it over once its lease ends; every booking moved and mailed once.
JOB_LEASE_SECONDS=3 ./scripts/onsale.sh --instances 3 --db postgres --bench rebooking -- --bookings 300 --kill-after 100 --hold-rate 100

stage "API fuzzing (schemathesis against /api/openapi.json)"
start_holdfast fport fuzz_pid "$work/server-fuzz.log" ./target/debug/holdfast \
  DATABASE_URL="sqlite://$work/fuzz.db" LEPTOS_SITE_ROOT=target/site \
  ADMIN_TOKEN=fuzz-admin-token RATE_LIMIT_IP_PER_MINUTE=0 RUST_LOG=warn
./scripts/fuzz.sh "http://127.0.0.1:$fport" fuzz-admin-token 100
# Whatever the fuzzer sent, the invariants hold afterwards.
curl -sf -H "Authorization: Bearer fuzz-admin-token" "http://127.0.0.1:$fport/api/admin/invariants" \
  | python3 -c 'import json,sys; r=json.load(sys.stdin); print("invariants after fuzzing:", r); sys.exit(0 if r["ok"] else 1)'

stage "end-to-end (Playwright, Chromium)"
# The specs sign webhook bodies with this secret (unset, each deployment
# would make its own).
start_holdfast port e2e_pid "$work/server.log" ./target/debug/holdfast \
  DATABASE_URL="sqlite://$work/e2e.db" LEPTOS_SITE_ROOT=target/site \
  ADMIN_PASSWORD=playwright-admin STRIPE_WEBHOOK_SECRET=whsec_holdfast_development RUST_LOG=warn
# A second server with 5-second holds, for the countdown-to-expiry spec.
start_holdfast short short_pid "$work/server-short.log" ./target/debug/holdfast \
  DATABASE_URL="sqlite://$work/e2e-short.db" LEPTOS_SITE_ROOT=target/site \
  HOLD_TTL_SECONDS=5 SWEEP_INTERVAL_SECONDS=1 STRIPE_WEBHOOK_SECRET=whsec_holdfast_development RUST_LOG=warn
(cd end2end && HOLDFAST_ADMIN_PASSWORD=playwright-admin HOLDFAST_URL="http://127.0.0.1:$port" HOLDFAST_SHORT_TTL_URL="http://127.0.0.1:$short" npx playwright test)
# Then another instance on the same database, for the spec that removes a
# person on one instance and looks on the other. Started only now: on
# SQLite one instance serves the buyers (the seat map lives in it), and the
# other's jobs would run beside the specs above.
start_holdfast second second_pid "$work/server-2.log" ./target/debug/holdfast \
  DATABASE_URL="sqlite://$work/e2e.db" LEPTOS_SITE_ROOT=target/site \
  ADMIN_PASSWORD=playwright-admin STRIPE_WEBHOOK_SECRET=whsec_holdfast_development RUST_LOG=warn
(cd end2end && HOLDFAST_ADMIN_PASSWORD=playwright-admin HOLDFAST_URL="http://127.0.0.1:$port" HOLDFAST_SECOND_URL="http://127.0.0.1:$second" npx playwright test team.spec.js -g "everywhere" --output test-results/second-instance)

stage "behind nginx (deploy/nginx/holdfast.conf, two instances, HTTPS)"
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)
"$pgbin/psql" -qX "$pg_url" -c "create database behind_nginx"
./scripts/proxy-test.sh "${pg_url%/*}/behind_nginx"

stage "backups restored (Postgres to a moment, SQLite copied mid-sale)"
./scripts/restore-test.sh
stage "all tests passed (screenshots in end2end/test-results)"
