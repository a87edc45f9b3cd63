#!/usr/bin/env bash
# Benchmarks: holdfast-bench (release) on SQLite and on a throwaway Postgres,
# then pgbench running the same SQL transaction on that Postgres; the
# full-size on-sale simulation (100,000 buyers, the 10,000-seat arena) on
# three instances sharing Postgres, through a failover of Postgres under
# Patroni, and on one SQLite instance; and a
# server's memory with 1,000 SSE clients connected.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
use_build_dir
./scripts/install-tools.sh
cargo build --release -p holdfast -p holdfast-bench --no-default-features --features holdfast/ssr --bin holdfast --bin holdfast-bench
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
work="$(pwd)/.tmp/bench-$$"
mkdir -p "$work"
trap './scripts/pg.sh stop "$work/pg"; stop_started' EXIT
pg=$(./scripts/pg.sh start "$work/pg")
echo "== SQLite"
./target/release/holdfast-bench
echo "== Postgres"
./target/release/holdfast-bench "$pg"
./scripts/bench/pgbench.sh "$pg"
echo "== claims piling up on one 44,000-seat event (Postgres)"
psql "$pg" -qc "create database claims" && ./target/release/holdfast-bench claims "${pg%/*}/claims"

echo "== on-sale simulation, full size: 100,000 buyers for the arena, 3 instances on Postgres (its Unix socket)"
# A failed check is reported and the bench goes on to the next figure.
./scripts/onsale.sh --profile release --pg-socket --instances 3 --db postgres --hold-ttl 20 -- \
  --buyers 100000 --concurrency 256 --live-check || echo "!! the simulation above reported failures"
echo "== the same, Postgres over TCP on 127.0.0.1"
./scripts/onsale.sh --profile release --instances 3 --db postgres --hold-ttl 20 -- \
  --buyers 100000 --concurrency 256 --live-check || echo "!! the simulation above reported failures"
echo "== on-sale simulation, full size, through a failover: Postgres under Patroni (3 nodes, synchronous), primary killed (SIGKILL) mid-sale"
./scripts/onsale.sh --profile release --instances 3 --db ha --hold-ttl 20 --crash failover --crash-after 20 -- \
  --buyers 100000 --concurrency 256 --forbid-500 || echo "!! the simulation above reported failures"
echo "== the same, the primary frozen (SIGSTOP)"
./scripts/onsale.sh --profile release --instances 3 --db ha --hold-ttl 20 --crash freeze --crash-after 20 -- \
  --buyers 100000 --concurrency 256 --forbid-500 || echo "!! the simulation above reported failures"
echo "== on-sale simulation, full size, 1 instance on SQLite"
./scripts/onsale.sh --profile release --instances 1 --db sqlite --hold-ttl 20 -- \
  --buyers 100000 --concurrency 256 || echo "!! the simulation above reported failures"

echo "== server memory with 1,000 SSE clients (release, SQLite)"
start_holdfast port server "$work/sse-server.log" ./target/release/holdfast \
  DATABASE_URL="sqlite://$work/sse.db" RUST_LOG=warn
./target/release/holdfast-bench sse-memory "http://127.0.0.1:$port" "$server" 1000
