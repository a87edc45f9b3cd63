#!/usr/bin/env bash
# Backups restored, in the test command.
#
# Postgres: a cluster archiving its WAL (as docs/OPERATIONS.md sets it up),
# a base backup (scripts/backup.sh), a sale, a moment T noted, another
# sale; then scripts/restore.sh to T into a fresh cluster: it holds exactly
# the bookings (and their states) there were at T, none of the second
# sale's, and Holdfast on it finds every invariant kept.
#
# SQLite: `holdfast backup` taken in the middle of a sale; the copy checks
# whole, holds every booking made well before the copy began and none made
# after it ended, and Holdfast on it finds every invariant kept.
#
#   scripts/restore-test.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source scripts/lib.sh
work="$root/.tmp/restore-$$"
mkdir -p "$work"
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
restored_pg=
cleanup() {
  stop_started
  [ -n "$restored_pg" ] && as_pg "$pgbin/pg_ctl" -D "$restored_pg" -m immediate -w stop >/dev/null 2>&1 || true
  scripts/pg.sh stop "$work/pg" >/dev/null 2>&1 || true
}
trap cleanup EXIT
fail() { echo "!! $*" >&2; exit 1; }
token=restore-test-admin-token
server_env=(LEPTOS_SITE_ROOT=target/site ADMIN_TOKEN=$token HOLD_TTL_SECONDS=6
  SWEEP_INTERVAL_SECONDS=1 RATE_LIMIT_IP_PER_MINUTE=0 RUST_LOG=warn)
sim=(--event 2 --concurrency 32 --hold-ttl 6 --admin-token "$token")

invariants_ok() { # base URL
  curl -sf -H "Authorization: Bearer $token" "$1/api/admin/invariants" \
    | python3 -c 'import json,sys; r=json.load(sys.stdin); print("   invariants:", r["ok"], r["violations"][:3]); sys.exit(0 if r["ok"] else 1)'
}
bookings_pg() { # URL → "id status" lines, sorted
  "$pgbin/psql" -qAtX "$1" -c "select id || ' ' || status from booking order by id"
}

echo "--> Postgres: base backup, WAL archive, restore to a moment"
url=$(scripts/pg.sh start "$work/pg")
scripts/pg.sh archive "$work/pg" "$work/backup/wal"
scripts/backup.sh postgres "$url" "$work/backup"

start_holdfast port pid "$work/pg-1.log" ./target/debug/holdfast DATABASE_URL="$url" "${server_env[@]}"
./target/debug/holdfast-bench simulate --targets "http://127.0.0.1:$port" --database "$url" "${sim[@]}" --buyers 100 >"$work/sale-1.log" \
  || { tail -n 20 "$work/sale-1.log"; fail "the first sale failed"; }
kill "$pid"; wait "$pid" 2>/dev/null || true
# Nothing writes now: the state at T is what the database holds.
bookings_pg "$url" >"$work/at-t.txt"
target=$("$pgbin/psql" -qAtX "$url" -c "select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00'")
sleep 1
start_holdfast port pid "$work/pg-2.log" ./target/debug/holdfast DATABASE_URL="$url" "${server_env[@]}"
./target/debug/holdfast-bench simulate --targets "http://127.0.0.1:$port" --database "$url" "${sim[@]}" --buyers 300 --seed 11 >"$work/sale-2.log" \
  || { tail -n 20 "$work/sale-2.log"; fail "the second sale failed"; }
kill "$pid"; wait "$pid" 2>/dev/null || true
bookings_pg "$url" >"$work/after.txt"
before=$(wc -l <"$work/at-t.txt")
after=$(wc -l <"$work/after.txt")
echo "   $before bookings at T ($target), $after after the second sale"
[ "$before" -gt 0 ] && [ "$after" -gt "$before" ] || fail "the sales made no bookings to tell apart"
# The segment holding T is archived (archive_timeout does it within a minute).
segment=$("$pgbin/psql" -qAtX "$url" -c "select pg_walfile_name(pg_switch_wal())")
for _ in $(seq 1 100); do [ -f "$work/backup/wal/$segment" ] && break; sleep 0.1; done
[ -f "$work/backup/wal/$segment" ] || fail "WAL segment $segment was not archived"

restored_pg="$work/restored"
started=$(date +%s.%N)
scripts/restore.sh postgres "$work/backup" "$restored_pg" --to "$target"
rport=$(free_port)
mkdir -p "$work/restored-run"
[ "$(id -u)" = 0 ] && chown postgres "$work/restored-run"
as_pg "$pgbin/pg_ctl" -D "$restored_pg" -l "$work/restored-run/log" -w -t 120 \
  -o "-h 127.0.0.1 -p $rport -k $work/restored-run -c max_connections=300" start >/dev/null
rurl="postgres://postgres@127.0.0.1:$rport/postgres"
for _ in $(seq 1 600); do
  [ "$("$pgbin/psql" -qAtX "$rurl" -c 'select pg_is_in_recovery()' 2>/dev/null)" = f ] && break
  sleep 0.1
done
[ "$("$pgbin/psql" -qAtX "$rurl" -c 'select pg_is_in_recovery()')" = f ] || fail "the restored cluster did not finish its replay"
echo "   restored and replayed to T in $(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f} s')" "$started" "$(date +%s.%N)")"
bookings_pg "$rurl" >"$work/restored.txt"
diff -q "$work/at-t.txt" "$work/restored.txt" >/dev/null \
  || { diff "$work/at-t.txt" "$work/restored.txt" | head -n 10; fail "the restored cluster does not hold exactly the bookings at T"; }
start_holdfast rp rpid "$work/pg-restored.log" ./target/debug/holdfast DATABASE_URL="$rurl" "${server_env[@]}"
invariants_ok "http://127.0.0.1:$rp" || fail "invariants broken in the restored cluster"
echo "   exactly the $before bookings at T, none of the $((after - before)) made after"

echo "--> SQLite: an online backup in the middle of a sale"
db="$work/live.db"
start_holdfast sp spid "$work/sqlite.log" ./target/debug/holdfast DATABASE_URL="sqlite://$db" "${server_env[@]}"
./target/debug/holdfast-bench simulate --targets "http://127.0.0.1:$sp" --database "sqlite://$db" "${sim[@]}" --buyers 900 --arrival 20 >"$work/sale-sqlite.log" &
sale=$!
# Once the sale is under way (bookings being written), the copy — a little
# later, so that some bookings are older than the check's one-second margin
# (on an idle machine the first sixty come within a second).
for _ in $(seq 1 100); do
  [ "$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from booking").fetchone()[0])' "$db")" -gt 60 ] && break
  sleep 0.1
done
sleep 1.5
began=$(python3 -c 'import time; print(int(time.time() * 1000))')
DATABASE_URL="sqlite://$db" ./target/debug/holdfast backup "$work/copy.db"
ended=$(python3 -c 'import time; print(int(time.time() * 1000))')
wait "$sale" || { tail -n 20 "$work/sale-sqlite.log"; fail "the sale during the backup failed"; }
python3 - "$db" "$work/copy.db" "$began" "$ended" <<'PY' || fail "the SQLite copy is not the moment it was taken"
import sqlite3, sys
live, copy, began, ended = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rows = lambda path, sql: set(sqlite3.connect(path).execute(sql).fetchall())
everything = rows(live, "select id, created_at from booking")
kept = rows(copy, "select id, created_at from booking")
# A second's margin either side: created_at is taken before its commit.
early = {r for r in everything if r[1] < began - 1000}
late = {r for r in everything if r[1] > ended + 1000}
print(f"   the copy holds {len(kept)} of {len(everything)} bookings; {len(early)} made before it began, {len(late)} after it ended")
assert early and late, "the sale did not straddle the copy"
assert early <= kept, f"{len(early - kept)} bookings made before the copy are missing"
assert not (late & kept), "bookings made after the copy are in it"
assert kept <= everything, "the copy holds bookings the live database never had"
PY
scripts/restore.sh sqlite "$work/copy.db" "$work/restored.db"
start_holdfast rs rspid "$work/sqlite-restored.log" ./target/debug/holdfast DATABASE_URL="sqlite://$work/restored.db" "${server_env[@]}"
invariants_ok "http://127.0.0.1:$rs" || fail "invariants broken in the restored SQLite copy"
echo "--> backups restored"
