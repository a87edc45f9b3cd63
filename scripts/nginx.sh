#!/usr/bin/env bash
# nginx as deploy/nginx/holdfast.conf sets it up, for tests and benches:
# the shipped site file with only its ports, certificate (self-signed,
# made here) and upstream addresses swapped, under Debian's main context.
#
#   scripts/nginx.sh start DIR PORT1 PORT2   prints "TLS_PORT PLAIN_PORT"
#   scripts/nginx.sh stop DIR
#
# Installs Debian's nginx-light when nginx is missing (its own service is
# kept from starting: it would take port 80).
set -euo pipefail
cmd=${1:?start|stop}
dir=${2:?directory}
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/lib.sh"

case "$cmd" in
start)
  port1=${3:?first instance port}
  port2=${4:?second instance port}
  if ! command -v nginx >/dev/null; then
    guard=
    if [ ! -e /usr/sbin/policy-rc.d ]; then
      guard=/usr/sbin/policy-rc.d
      printf '#!/bin/sh\nexit 101\n' >"$guard"
      chmod +x "$guard"
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx-light >/dev/null
    [ -n "$guard" ] && rm -f "$guard"
  fi
  mkdir -p "$dir"
  tls=$(free_port)
  plain=$(free_port)
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 \
    -keyout "$dir/key.pem" -out "$dir/cert.pem" 2>/dev/null
  sed -e "s|listen 443 ssl http2;|listen 127.0.0.1:$tls ssl http2;|" \
      -e "s|listen 80;|listen 127.0.0.1:$plain;|" \
      -e '/listen \[::\]/d' \
      -e "s|server 127.0.0.1:3001 |server 127.0.0.1:$port1 |" \
      -e "s|server 127.0.0.1:3002 |server 127.0.0.1:$port2 |" \
      -e "s|/etc/ssl/certs/holdfast.example.com.pem|$dir/cert.pem|" \
      -e "s|/etc/ssl/private/holdfast.example.com.key|$dir/key.pem|" \
      -e "s|server_name holdfast.example.com;|server_name 127.0.0.1;|" \
      "$root/deploy/nginx/holdfast.conf" >"$dir/holdfast.conf"
  grep -q "127.0.0.1:$port2" "$dir/holdfast.conf" || { echo "!! the site file's upstream was not found to swap" >&2; exit 1; }
  # The main context as Debian's nginx.conf has it (gzip on: the site file
  # must turn it off for itself), in this directory.
  cat >"$dir/nginx.conf" <<CONF
worker_processes 2;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 4096; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log $dir/access.log;
    client_body_temp_path $dir/body;
    proxy_temp_path $dir/proxy;
    fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi;
    scgi_temp_path $dir/scgi;
    gzip on;
    include $dir/holdfast.conf;
}
CONF
  nginx -t -q -p "$dir" -c "$dir/nginx.conf"
  nginx -p "$dir" -c "$dir/nginx.conf"
  for _ in $(seq 1 50); do curl -skf "https://127.0.0.1:$tls/healthz" >/dev/null && break; sleep 0.1; done
  echo "$tls $plain"
  ;;
stop)
  [ -f "$dir/nginx.pid" ] && kill "$(cat "$dir/nginx.pid")" 2>/dev/null || true
  ;;
esac
