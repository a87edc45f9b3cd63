#!/usr/bin/env bash
# Holdfast behind nginx exactly as deploy/nginx/holdfast.conf sets it up
# (only its ports, certificate and upstream addresses swapped): two
# instances on one Postgres, TLS with a self-signed certificate, HTTP/2.
# Checks, with curl: HTTP/2 is spoken; a compressed answer carries one
# Content-Encoding and decodes; a hashed asset keeps its year-long cache;
# a body over Holdfast's limit stops at nginx; the per-address limit counts
# the client's address, not the proxy's (two clients on 127.0.0.5 and
# 127.0.0.6), and a forged X-Forwarded-For changes nothing. Then a buyer's
# journey in Chromium over HTTPS through it (end2end/tests/proxy.spec.js);
# an instance stopped with SIGTERM ends its streams with a word to
# reconnect, exits cleanly, and nginx carries on with the other. The
# systemd unit is verified and its sandbox scored first.
#
#   scripts/proxy-test.sh DATABASE_URL
set -euo pipefail
db_url=${1:?DATABASE_URL (Postgres: both instances share it)}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source scripts/lib.sh
work="$root/.tmp/proxy-$$"
mkdir -p "$work"
cleanup() {
  scripts/nginx.sh stop "$work/nginx"
  stop_started
}
trap cleanup EXIT

echo "--> the systemd unit (deploy/systemd) verifies, its sandbox scored"
command -v systemd-analyze >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends systemd >/dev/null
sed "s|/usr/local/bin/holdfast|$root/target/debug/holdfast|" deploy/systemd/holdfast@.service >"$work/holdfast@.service"
systemd-analyze verify "$work/holdfast@.service"
systemd-analyze security --offline=true --threshold=25 "$work/holdfast@.service" | tail -n1

echo "--> two instances behind nginx"
for i in 1 2; do
  start_holdfast "port$i" "pid$i" "$work/holdfast-$i.log" ./target/debug/holdfast \
    DATABASE_URL="$db_url" LEPTOS_SITE_ROOT=target/site \
    TRUSTED_PROXIES=127.0.0.1 TRUSTED_PROXY_HEADER=X-Forwarded-For \
    RATE_LIMIT_IP_PER_MINUTE=8 STRIPE_WEBHOOK_SECRET=whsec_holdfast_development RUST_LOG=warn
done
read -r tls plain < <(scripts/nginx.sh start "$work/nginx" "$port1" "$port2")
base="https://127.0.0.1:$tls"

fail() { echo "!! $*" >&2; exit 1; }

echo "--> HTTP/2, one Content-Encoding, cached assets, body limit"
[ "$(curl -sk -o /dev/null -w '%{http_version}' --http2 "$base/healthz")" = 2 ] || fail "nginx did not speak HTTP/2"
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$plain/events/1")" = 301 ] || fail "plain HTTP is not redirected"
curl -sk -D "$work/page.h" -o "$work/page.gz" -H 'Accept-Encoding: gzip' "$base/events/1"
encodings=$(grep -ci '^content-encoding:' "$work/page.h" || true)
[ "$encodings" = 1 ] && grep -qi '^content-encoding: gzip' "$work/page.h" || fail "the page's Content-Encoding: $(grep -i '^content-encoding' "$work/page.h")"
gunzip -c "$work/page.gz" | grep -q '</html>' || fail "the page does not decode as one gzip layer"
curl -sk -D "$work/stream.h" -o /dev/null -m 2 -H 'Accept-Encoding: gzip, br' "$base/api/events/1/seats/stream" || true
grep -qi '^content-encoding' "$work/stream.h" && fail "the live stream was compressed"
asset=$(gunzip -c "$work/page.gz" | grep -o '/pkg/[^"]*\.js' | head -n1)
curl -sk -D "$work/asset.h" -o /dev/null -H 'Accept-Encoding: br' "$base$asset"
grep -qi '^cache-control: public, max-age=31536000, immutable' "$work/asset.h" || fail "$asset lost its cache lifetime"
[ "$(grep -ci '^content-encoding:' "$work/asset.h")" -le 1 ] || fail "$asset was encoded twice"
big=$(head -c 20000 /dev/zero | tr '\0' 'x')
code=$(curl -sk -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' --data "{\"x\":\"$big\"}" "$base/api/events/1/holds")
[ "$code" = 413 ] || fail "a 20 kB body answered $code, not 413"

echo "--> the per-address limit counts the client, not the proxy"
hold() { # source address [extra header]
  local args=(-sk -o /dev/null -w '%{http_code}' --interface "$1" -X POST
    -H "Idempotency-Key: $(python3 -c 'import uuid; print(uuid.uuid4())')")
  [ -n "${2:-}" ] && args+=(-H "$2")
  curl "${args[@]}" "$base/api/events/1/seats/999999999/hold"
}
for i in $(seq 1 8); do
  code=$(hold 127.0.0.5 "X-Forwarded-For: 10.9.$i.1")
  [ "$code" != 429 ] || fail "127.0.0.5 was limited after $i attempts"
done
[ "$(hold 127.0.0.5 "X-Forwarded-For: 10.9.99.1")" = 429 ] || fail "the 9th attempt of 127.0.0.5 (a forged X-Forwarded-For) was not limited"
[ "$(hold 127.0.0.6)" != 429 ] || fail "127.0.0.6 was limited for 127.0.0.5's attempts: the proxy's address was counted"

echo "--> a buyer in Chromium over HTTPS through nginx"
(cd end2end && HOLDFAST_PROXY_URL="$base" HOLDFAST_URL="$base" npx playwright test proxy.spec.js)
echo "--> an instance stopped (SIGTERM) ends its streams and exits; nginx uses the other"
curl -sN --max-time 30 "http://127.0.0.1:$port1/api/events/1/seats/stream" >"$work/stream.txt" &
reader=$!
sleep 1
kill -TERM "$pid1"
for _ in $(seq 1 200); do kill -0 "$pid1" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid1" 2>/dev/null && fail "instance 1 still runs 20 s after SIGTERM"
wait "$pid1" || fail "instance 1 did not stop cleanly (exit status $?)"
wait "$reader" || true
grep -q "retry: 1000" "$work/stream.txt" || fail "its stream ended without the word to reconnect"
for _ in 1 2 3 4; do
  [ "$(curl -sk -o /dev/null -w '%{http_code}' "$base/api/events/1")" = 200 ] || fail "nginx did not move to the instance that stays"
done
echo "--> proxy checks passed"
