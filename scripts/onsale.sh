#!/usr/bin/env bash
# The on-sale simulation against real server processes:
#
#   scripts/onsale.sh [--instances N] [--db postgres|sqlite|ha|ha-async]
#                     [--crash none|kill|pg|failover|freeze|lagging]
#                     [--profile debug|release] [--hold-ttl S] [--bench simulate|rebooking]
#                     [--pg-socket] -- [the bench's options]
#
# starts a throwaway database (Postgres, or a SQLite file), N instances of
# the server on it (ports of their own, workers on all of them), and runs
# `holdfast-bench simulate` spreading buyers over them. With `--crash kill`
# the second instance is killed with SIGKILL a few seconds in and started
# again; with `--crash pg` Postgres is stopped immediately (no checkpoint)
# and started again. The simulator then checks that every acknowledged hold
# and booking survived and that every invariant holds. `--bench rebooking`
# runs the cancelled sailing's rebooking instead (holdfast-bench rebooking).
# `--db ha` runs Postgres as production does (scripts/ha.sh: three nodes
# under Patroni, synchronous replication, HAProxy in front) and the
# instances reach it through HAProxy; `--db ha-async` the same with
# asynchronous replication. `--crash failover` then kills the primary
# (SIGKILL: its Patroni and its postmaster, a machine lost), `--crash
# freeze` stops them (SIGSTOP: a machine hung, Patroni's TTL decides); a
# standby takes over, and the old primary, started or woken again, must
# come back as a standby. `--crash lagging` first stops the primary's WAL
# senders for a few seconds, then kills the primary: with
# asynchronous replication acknowledged writes are lost, which the checks
# must catch. The simulator prints the outage's length.
# With `--pg-socket` the instances and the simulator reach Postgres through
# its Unix socket instead of TCP on 127.0.0.1. At the end (without a crash)
# it prints the CPU time the servers, Postgres and the simulator used.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
instances=3 db=postgres crash=none profile=debug ttl=300 crash_after=3 bench=simulate pg_socket=0
while [ $# -gt 0 ]; do
  case "$1" in
    --instances) instances=$2; shift 2 ;;
    --db) db=$2; shift 2 ;;
    --crash) crash=$2; shift 2 ;;
    --crash-after) crash_after=$2; shift 2 ;;
    --profile) profile=$2; shift 2 ;;
    --hold-ttl) ttl=$2; shift 2 ;;
    --bench) bench=$2; shift 2 ;;
    --pg-socket) pg_socket=1; shift ;;
    --) shift; break ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
bin="$root/target/$profile"
[ -x "$bin/holdfast" ] && [ -x "$bin/holdfast-bench" ] || {
  echo "build first: cargo build $([ "$profile" = release ] && echo --release) --features ssr --bins" >&2; exit 2; }

work="$root/.tmp/onsale-$$"
mkdir -p "$work"
pids=()
cleanup() {
  for p in "${pids[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done
  [ "$db" = postgres ] && "$root/scripts/pg.sh" stop "$work/pg" || true
  case "$db" in ha*) "$root/scripts/ha.sh" stop "$work/ha" || true
    for n in node1 node2 node3; do
      [ -f "$work/ha/$n/patroni.log" ] && cp "$work/ha/$n/patroni.log" "$work/$n-patroni.log"
      [ -f "$work/ha/$n/log/postgresql.log" ] && cp "$work/ha/$n/log/postgresql.log" "$work/$n-postgres.log"
    done
    rm -rf "$work/ha" ;; esac
  # Postgres's own log (lock waits, deadlocks) stays beside the instances'.
  [ -f "$work/pg/log" ] && cp "$work/pg/log" "$work/postgres.log" || true
  rm -rf "$work/pg" "$work"/*.db*
}
trap cleanup EXIT

if [ "$db" = postgres ]; then
  url=$("$root/scripts/pg.sh" start "$work/pg")
  if [ "$pg_socket" = 1 ]; then
    # The instances reach Postgres through its Unix socket, as a server on
    # the same host would (Debian's packages set Postgres up this way).
    port=${url##*:}; port=${port%%/*}
    url="postgres://postgres@localhost/postgres?host=$work/pg&port=$port"
  fi
elif [ "$db" = ha ] || [ "$db" = ha-async ]; then
  url=$("$root/scripts/ha.sh" start "$work/ha" $([ "$db" = ha-async ] && echo --async))
  echo "postgres under Patroni ($("$root/scripts/ha.sh" leader "$work/ha") leads), through HAProxy: $url"
else
  url="sqlite://$work/onsale.db"
fi
source "$root/scripts/lib.sh"
token=onsale-admin-token
ports=() targets=""
start_instance() { # index port
  DATABASE_URL="$url" LEPTOS_SITE_ADDR="127.0.0.1:$2" LEPTOS_SITE_ROOT="$root/target/site" \
    HOLD_TTL_SECONDS="$ttl" SWEEP_INTERVAL_SECONDS=1 RECONCILE_INTERVAL_SECONDS=5 \
    JOB_LEASE_SECONDS="${JOB_LEASE_SECONDS:-15}" \
    ADMIN_TOKEN=$token ADMIN_PASSWORD=onsale-admin-password \
    RATE_LIMIT_IP_PER_MINUTE=0 RUST_LOG=warn \
    "$bin/holdfast" >> "$work/instance-$1.log" 2>&1 &
  pids[$1]=$!
  wait_ready "http://127.0.0.1:$2" "${pids[$1]}" "$work/instance-$1.log"
}
# One after the other: the first applies the migrations and the demo data.
for i in $(seq 0 $((instances - 1))); do
  ports[$i]=$(free_port)
  start_instance "$i" "${ports[$i]}"
  targets="$targets${targets:+,}http://127.0.0.1:${ports[$i]}"
done
echo "$instances instance(s) on $db: $targets"

# A line of the chaos, stamped with the time: to find it in the servers'
# and the database nodes' logs.
chaos_says() { echo "!! $(date -u +%T.%3NZ) $*"; }
chaos() {
  sleep "$crash_after"
  case "$crash" in
    kill)
      victim=$((instances > 1 ? 1 : 0))
      chaos_says "kill -9 instance $victim (pid ${pids[$victim]})"
      kill -9 "${pids[$victim]}"
      sleep 2
      chaos_says "instance $victim starts again"
      start_instance "$victim" "${ports[$victim]}"
      ;;
    failover|freeze|lagging)
      old=$("$root/scripts/ha.sh" leader "$work/ha")
      if [ "$crash" = lagging ]; then
        # The primary stops sending WAL to its standbys: what it
        # acknowledges now, only it has (with synchronous replication it
        # acknowledges nothing meanwhile).
        senders=$(pgrep -f "walsender" || true)
        chaos_says "the primary's WAL senders stopped: $(echo $senders)"
        # shellcheck disable=SC2086
        kill -STOP $senders 2>/dev/null || true
        sleep 3
      fi
      if [ "$crash" = freeze ]; then
        chaos_says "SIGSTOP the primary $old (Patroni and Postgres): Patroni's TTL decides"
        "$root/scripts/ha.sh" freeze "$work/ha" "$old"
      else
        chaos_says "SIGKILL the primary $old (Patroni and its postmaster)"
        "$root/scripts/ha.sh" kill "$work/ha" "$old"
      fi
      # Stopped senders of a dead primary wake only to find it gone and exit.
      # shellcheck disable=SC2086
      [ "$crash" = lagging ] && { kill -CONT $senders 2>/dev/null || true; }

      if "$root/scripts/ha.sh" wait-leader "$work/ha" 60; then
        chaos_says "$("$root/scripts/ha.sh" leader "$work/ha") is the primary now"
      fi
      sleep 2
      if [ "$crash" = freeze ]; then
        chaos_says "$old wakes up"
        "$root/scripts/ha.sh" thaw "$work/ha" "$old"
      else
        chaos_says "$old starts again"
        "$root/scripts/ha.sh" rejoin "$work/ha" "$old"
      fi
      for _ in $(seq 1 120); do
        [ "$("$root/scripts/ha.sh" role "$work/ha" "$old")" = replica ] && break
        sleep 0.5
      done
      if [ "$("$root/scripts/ha.sh" role "$work/ha" "$old")" = replica ]; then
        chaos_says "$old is a standby again"
      else
        chaos_says "$old did not come back as a standby" | tee "$work/rejoin-failed"
      fi
      ;;
    pg)
      chaos_says "postgres: immediate stop"
      "$root/scripts/pg.sh" crash "$work/pg"
      sleep 2
      chaos_says "postgres starts again (recovery)"
      "$root/scripts/pg.sh" resume "$work/pg"
      ;;
  esac
}
# CPU time spent in the run, by whom (clock ticks from /proc): the servers,
# Postgres (its live backends, and those it has reaped), the simulator.
# Sampled every half second while the simulator runs; the last sample is
# printed at the end. On a machine the run saturates, CPU per booking says
# more than the wall clock, which moves with the machine's other tenants.
# Shell builtins only: a sampler that forks a reader per process would take
# a share of the machine from the sale it measures.
ticks=0
add_ticks() { # with_children(0|1) pid... → adds utime+stime (+ cutime+cstime) to $ticks
  local with_children=$1 p f
  shift
  for p in "$@"; do
    { read -r -a f < "/proc/$p/stat"; } 2>/dev/null || continue
    ticks=$((ticks + f[13] + f[14]))
    if [ "$with_children" = 1 ]; then ticks=$((ticks + f[15] + f[16])); fi
  done
}
cpu_sampler() { # simulator pid
  local pm="" hz servers pg backends
  hz=$(getconf CLK_TCK)
  [ "$db" = postgres ] && read -r pm < "$work/pg/data/postmaster.pid"
  while kill -0 "$1" 2>/dev/null; do
    ticks=0; add_ticks 0 "${pids[@]}"; servers=$ticks
    ticks=0
    if [ -n "$pm" ]; then
      backends=""
      { read -r backends < "/proc/$pm/task/$pm/children"; } 2>/dev/null || true
      add_ticks 1 "$pm"
      # shellcheck disable=SC2086 # one pid per word
      add_ticks 0 $backends
    fi
    pg=$ticks
    ticks=0; add_ticks 0 "$1"
    # A sample read as the simulator ended is not kept: the one before is.
    if kill -0 "$1" 2>/dev/null; then
      echo "servers $servers postgres $pg simulator $ticks hz $hz" > "$work/cpu"
    fi
    sleep 0.5
  done
}
report_cpu() {
  [ -f "$work/cpu" ] || return 0
  read -r _ servers _ pg _ sim _ hz < "$work/cpu"
  awk -v s="$servers" -v p="$pg" -v m="$sim" -v hz="$hz" 'BEGIN {
    printf "cpu: servers %.1f s, postgres %.1f s, simulator %.1f s (the whole run, sampled every 0.5 s)\n", s/hz, p/hz, m/hz }'
}
status=0
if [ "$crash" != none ]; then
  # The chaos runs beside the simulation, in this shell (it restarts
  # instances whose pids the cleanup must know).
  "$bin/holdfast-bench" "$bench" --targets "$targets" --database "$url" \
    --admin-token $token --hold-ttl "$ttl" "$@" & sim=$!
  chaos
  wait $sim || status=$?
  [ -f "$work/rejoin-failed" ] && status=1
else
  "$bin/holdfast-bench" "$bench" --targets "$targets" --database "$url" \
    --admin-token $token --hold-ttl "$ttl" "$@" & sim=$!
  cpu_sampler $sim & sampler=$!
  wait $sim || status=$?
  wait $sampler || true
  report_cpu
fi
if [ $status -ne 0 ]; then
  for f in "$work"/instance-*.log; do echo "--- $f"; grep -v "^\s*$" "$f" | tail -n 15; done
  # Under Patroni: what each node's Patroni decided, and what its Postgres
  # refused or cut off.
  for n in node1 node2 node3; do
    f="$work/ha/$n/patroni.log"
    [ -f "$f" ] && { echo "--- $n: Patroni"; grep -E '^[0-9]{4}-' "$f" \
      | grep -v -E 'no action|Exception happened|Traceback|Lock owner|in progress' | tail -n 25; }
    f="$work/ha/$n/log/postgresql.log"
    [ -f "$f" ] && { echo "--- $n: Postgres"; tail -n 25 "$f"; }
  done
fi
exit $status
