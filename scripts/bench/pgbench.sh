#!/usr/bin/env bash
# pgbench on the product's own claim SQL (scripts/bench/hold.sql), on a
# database `pgb` created beside the one PGURL names: one hold per
# transaction (the claim alone's one statement, its own transaction, as the
# server sends it) at 8, 32 and 64 clients (planned each time, pgbench's
# default, and prepared once, as the server does), and the same holds eight to a
# transaction (one commit carrying eight: the honest ceiling of group
# commit; holds/s = 8 × tps). 10 s per figure.
#
#     scripts/bench/pgbench.sh postgres://postgres@127.0.0.1:PORT/postgres
set -euo pipefail
cd "$(dirname "$0")/../.."
pg=${1:?a Postgres URL}
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)
echo "== pgbench, the claim's SQL (scripts/bench/hold.sql), 10 s each"
psql "$pg" -qc "drop database if exists pgb" -qc "create database pgb"
pgb="${pg%/*}/pgb"
# The schema and a million bench seats (seat_id only needs to exist).
for f in migrations/postgres/*.sql; do psql "$pgb" -q -f "$f"; done
psql "$pgb" -q <<'SQL'
insert into event (slug, name, kind, venue, starts_at, currency, created_at) values ('b','b','concert','v',0,'EUR',0);
insert into price_category (event_id, code, name, price_cents, color) values (1,'A','A',100,'#000');
insert into seat (event_id, category_id, section, row_label, number, label, x, y)
  select 1, 1, 'S', (g / 1000)::text, g % 1000, g::text, 0, 0 from generate_series(1, 1000000) g;
SQL
batch=$(mktemp --suffix=.sql)
trap 'rm -f "$batch"' EXIT
{
  for i in 1 2 3 4 5 6 7 8; do
    grep '^\\set' scripts/bench/hold.sql | sed "s/set seat/set seat$i/; s/set buyer/set buyer$i/; s/set key/set key$i/"
  done
  echo "begin;"
  for i in 1 2 3 4 5 6 7 8; do
    grep -v -e '^--' -e '^\\set' scripts/bench/hold.sql |
      sed "s/:seat\b/:seat$i/g; s/:buyer\b/:buyer$i/g; s/:key\b/:key$i/g"
  done
  echo "commit;"
} > "$batch"
for c in 8 32 64; do
  echo "-- pgbench -c $c, one hold per transaction"
  "$bin/pgbench" -n -c "$c" -j 2 -T 10 -f scripts/bench/hold.sql "$pgb" | grep -E "^tps|latency average"
  # The server prepares its statements once; pgbench's default protocol
  # plans each anew (a large share of its time on this SQL).
  echo "-- pgbench -c $c -M prepared, one hold per transaction"
  "$bin/pgbench" -n -M prepared -c "$c" -j 2 -T 10 -f scripts/bench/hold.sql "$pgb" | grep -E "^tps|latency average"
  echo "-- pgbench -c $c, eight holds per transaction (holds/s = 8 × tps)"
  "$bin/pgbench" -n -c "$c" -j 2 -T 10 -f "$batch" "$pgb" | grep -E "^tps|latency average"
done
