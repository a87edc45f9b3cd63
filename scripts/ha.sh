#!/usr/bin/env bash
# Postgres that survives losing its primary, the way production runs it, on
# this one machine: three etcd members (the consensus store), three Postgres
# nodes under Patroni with synchronous replication, and HAProxy sending
# connections to whichever node Patroni's REST API calls the primary. Three
# nodes, not two: with `synchronous_mode_strict` a primary without a
# synchronous standby accepts no commit, so after losing one node of two
# the sale would stop until it came back; with three, the new primary
# still has a standby to confirm its commits.
#
#   scripts/ha.sh start DIR [--async]   starts it all, prints the URL clients use
#   scripts/ha.sh stop DIR              stops everything started in DIR
#   scripts/ha.sh status DIR            patronictl's view of the cluster
#   scripts/ha.sh leader DIR            the primary's name (node1, node2 or node3)
#   scripts/ha.sh role DIR NODE         the node's role: primary, replica, or nothing
#   scripts/ha.sh kill DIR NODE         SIGKILL the node's Patroni and postmaster (a machine lost)
#   scripts/ha.sh freeze DIR NODE       SIGSTOP them (a machine hung: Patroni's TTL decides)
#   scripts/ha.sh thaw DIR NODE         SIGCONT what freeze stopped
#   scripts/ha.sh rejoin DIR NODE       start a killed node's Patroni again (it comes back as a standby)
#   scripts/ha.sh wait-leader DIR [S]   waits until a primary answers through HAProxy
#
# `synchronous_mode_strict`: a commit is acknowledged only once the standby
# has it, and Patroni promotes only a standby that has every acknowledged
# commit. `--async` turns synchronous replication off: the harness that
# checks for lost acknowledged writes must be able to catch what that loses.
#
# The timings (bootstrap.dcs): ttl 6 s, loop_wait 1 s, retry_timeout 2 s
# (Patroni needs ttl ≥ loop_wait + 2 × retry_timeout). A primary that stops
# renewing its leader key loses it within 6 s; a standby sees that on its
# next loop (≤ 1 s) and promotes; the other standby follows it and becomes
# the synchronous one; HAProxy's check (every 0.5 s, down after 2 failures)
# moves new connections within a second or two. A failover is over in about
# 10 s, under the 15 s aimed for, while a loop slowed by a second or two
# under load does not cost a healthy primary its key.
#
# Installs etcd, Patroni and HAProxy from Debian's packages when missing
# (services are not started by the packages: everything runs from DIR).
set -euo pipefail
cmd=${1:?start|stop|status|leader|kill|freeze|thaw|rejoin|wait-leader}
dir=${2:?directory}
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/lib.sh"
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

install_missing() {
  local want=()
  command -v etcd >/dev/null || want+=(etcd-server etcd-client)
  command -v patroni >/dev/null || want+=(patroni)
  command -v haproxy >/dev/null || want+=(haproxy)
  [ -n "$pgbin" ] || want+=(postgresql)
  [ ${#want[@]} -eq 0 ] && return 0
  # A policy that refuses to start services (Docker images have one): the
  # packages' own services would take the ports and data dirs used here.
  local guard=
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    guard=/usr/sbin/policy-rc.d
    printf '#!/bin/sh\nexit 101\n' >"$guard"
    chmod +x "$guard"
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${want[@]}" >/dev/null
  [ -n "$guard" ] && rm -f "$guard"
  pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)
}

# The ports of a cluster, written once at start and read by every command.
read_ports() { # shellcheck disable=SC1091
  source "$dir/ports"
}

patroni_config() { # node index pg_port rest_port sync(true|false)
  local node=$1 pg=$2 rest=$3 sync=$4
  cat <<YAML
scope: holdfast
name: $node
restapi:
  listen: 127.0.0.1:$rest
  connect_address: 127.0.0.1:$rest
# etcd's v2 API, not etcd3: Debian 12's Patroni (3.0.2) renews its leader key
# through etcd3 with an unconditional put, so a primary that hung past its
# TTL and wakes takes the key back from the node promoted meanwhile (two
# primaries; seen in the frozen-primary run). Through the v2 API the renewal
# is conditional (prevValue = its own name): it fails, and the node demotes.
etcd:
  hosts: 127.0.0.1:$E1C,127.0.0.1:$E2C,127.0.0.1:$E3C
bootstrap:
  dcs:
    ttl: 6
    loop_wait: 1
    retry_timeout: 2
    synchronous_mode: $sync
    synchronous_mode_strict: $sync
    # Asynchronous replication (the test of the checks) promotes a standby
    # however far behind; synchronous mode never lets one fall behind.
    maximum_lag_on_failover: $([ "$sync" = true ] && echo 1048576 || echo 1073741824)
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        max_connections: 300
        shared_buffers: 128MB
        wal_log_hints: "on"
        max_wal_senders: 5
        max_replication_slots: 5
        wal_keep_size: 256MB
        hot_standby: "on"
  initdb:
    - encoding: UTF8
    - data-checksums
postgresql:
  listen: 127.0.0.1:$pg
  connect_address: 127.0.0.1:$pg
  data_dir: $dir/$node/data
  bin_dir: $pgbin
  pgpass: $dir/$node/pgpass
  authentication:
    superuser:
      username: postgres
      password: holdfast-ha-superuser
    replication:
      username: replicator
      password: holdfast-ha-replicator
    rewind:
      username: rewinder
      password: holdfast-ha-rewinder
  parameters:
    unix_socket_directories: $dir/$node
    # Each node's own log (warnings and worse), outside its data
    # directory (pg_rewind would replace it with the new primary's).
    logging_collector: "on"
    log_directory: $dir/$node/log
    log_filename: postgresql.log
    log_min_messages: warning
    log_line_prefix: "%m [%p] %q%a "
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host replication replicator 127.0.0.1/32 trust
YAML
}

start_etcd() { # name client_port peer_port
  local name=$1 client=$2 peer=$3
  mkdir -p "$dir/etcd"
  etcd --name "$name" --data-dir "$dir/etcd/$name" \
    --listen-client-urls "http://127.0.0.1:$client" --advertise-client-urls "http://127.0.0.1:$client" \
    --listen-peer-urls "http://127.0.0.1:$peer" --initial-advertise-peer-urls "http://127.0.0.1:$peer" \
    --initial-cluster "e1=http://127.0.0.1:$E1P,e2=http://127.0.0.1:$E2P,e3=http://127.0.0.1:$E3P" \
    --initial-cluster-state new --initial-cluster-token holdfast-ha \
    --heartbeat-interval 200 --election-timeout 2000 --enable-v2=true \
    >>"$dir/etcd-$name.log" 2>&1 &
  echo $! >"$dir/etcd-$name.pid"
}

start_patroni() { # node
  local node=$1
  # A simple command in the background: its pid is Patroni's own (setpriv
  # execs it), which kill and freeze need.
  if [ "$(id -u)" = 0 ]; then
    HOME=/var/lib/postgresql setpriv --reuid=postgres --regid=postgres --init-groups -- \
      patroni "$dir/$node/patroni.yml" >>"$dir/$node/patroni.log" 2>&1 &
  else
    patroni "$dir/$node/patroni.yml" >>"$dir/$node/patroni.log" 2>&1 &
  fi
  echo $! >"$dir/$node/patroni.pid"
}

rest_port() { # node
  local var="R${1#node}"
  echo "${!var}"
}

# The node's role as its Patroni says it: `primary`, `replica` or nothing.
role_of() { # node
  curl -s -m 1 "http://127.0.0.1:$(rest_port "$1")/patroni" 2>/dev/null \
    | python3 -c 'import json,sys; print(json.load(sys.stdin).get("role",""))' 2>/dev/null || true
}

leader() {
  local node
  for node in node1 node2 node3; do
    if curl -sf -m 1 "http://127.0.0.1:$(rest_port $node)/primary" >/dev/null 2>&1; then
      echo "$node"
      return 0
    fi
  done
  return 1
}

# The node's Patroni and postmaster pids (the postmaster's children stop
# or die with it).
node_pids() { # node
  local node=$1
  cat "$dir/$node/patroni.pid" 2>/dev/null || true
  head -n1 "$dir/$node/data/postmaster.pid" 2>/dev/null || true
}

# Stops a process: SIGTERM, then SIGKILL if it is still there after 5 s.
stop_pid() {
  local pid=$1
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -9 "$pid" 2>/dev/null || true
}

wait_leader() { # seconds
  local until=$((SECONDS + ${1:-60}))
  while [ $SECONDS -lt $until ]; do
    if psql_through_proxy -c 'select 1' >/dev/null 2>&1 && leader >/dev/null; then
      return 0
    fi
    sleep 0.5
  done
  echo "!! no primary through HAProxy within ${1:-60} s" >&2
  return 1
}

psql_through_proxy() {
  "$pgbin/psql" -X -q -t -A "postgresql://postgres@127.0.0.1:$HP/postgres?connect_timeout=2" "$@"
}

case "$cmd" in
start)
  async=0
  [ "${3:-}" = --async ] && async=1
  install_missing
  mkdir -p "$dir/node1" "$dir/node2" "$dir/node3"
  [ "$(id -u)" = 0 ] && chown postgres "$dir" "$dir/node1" "$dir/node2" "$dir/node3"
  {
    for name in E1C E1P E2C E2P E3C E3P PG1 PG2 PG3 R1 R2 R3 HP; do echo "$name=$(free_port)"; done
    echo "SYNC=$([ $async = 1 ] && echo false || echo true)"
  } >"$dir/ports"
  read_ports
  start_etcd e1 "$E1C" "$E1P"
  start_etcd e2 "$E2C" "$E2P"
  start_etcd e3 "$E3C" "$E3P"
  for _ in $(seq 1 100); do
    etcdctl --endpoints "127.0.0.1:$E1C" endpoint health >/dev/null 2>&1 && break
    sleep 0.2
  done
  patroni_config node1 "$PG1" "$R1" "$SYNC" >"$dir/node1/patroni.yml"
  patroni_config node2 "$PG2" "$R2" "$SYNC" >"$dir/node2/patroni.yml"
  patroni_config node3 "$PG3" "$R3" "$SYNC" >"$dir/node3/patroni.yml"
  [ "$(id -u)" = 0 ] && chown -R postgres "$dir/node1" "$dir/node2" "$dir/node3"
  start_patroni node1
  # The others start once the first leads: they then join as standbys.
  for _ in $(seq 1 200); do leader >/dev/null && break; sleep 0.3; done
  leader >/dev/null || { echo "!! node1 did not become the primary; see $dir/node1/patroni.log" >&2; exit 1; }
  start_patroni node2
  start_patroni node3
  cat >"$dir/haproxy.cfg" <<CFG
global
    maxconn 2000
defaults
    mode tcp
    timeout connect 2s
    timeout client 30m
    timeout server 30m
    timeout check 1s
# Connections go to the node whose Patroni answers 200 on /primary; when it
# stops answering, its sessions are cut so clients reconnect to the new one.
listen postgres
    bind 127.0.0.1:$HP
    option httpchk GET /primary
    http-check expect status 200
    default-server inter 500ms fall 2 rise 2 on-marked-down shutdown-sessions
    server node1 127.0.0.1:$PG1 maxconn 600 check port $R1
    server node2 127.0.0.1:$PG2 maxconn 600 check port $R2
    server node3 127.0.0.1:$PG3 maxconn 600 check port $R3
CFG
  haproxy -f "$dir/haproxy.cfg" -D -p "$dir/haproxy.pid"
  wait_leader 60
  # Both standbys stream (and, in synchronous mode, one is the synchronous
  # one) before anyone is told the cluster is up.
  # (Patroni's /replica answers 200 for a running standby that streams.)
  for _ in $(seq 1 300); do
    curl -sf -m 1 "http://127.0.0.1:$R2/replica" >/dev/null 2>&1 \
      && curl -sf -m 1 "http://127.0.0.1:$R3/replica" >/dev/null 2>&1 && break
    sleep 0.3
  done
  if [ "$SYNC" = true ]; then
    # Patroni's /sync answers 200 on the synchronous standby.
    for _ in $(seq 1 100); do
      curl -sf -m 1 "http://127.0.0.1:$R2/sync" >/dev/null 2>&1 \
        || curl -sf -m 1 "http://127.0.0.1:$R3/sync" >/dev/null 2>&1 && break
      sleep 0.3
    done
  fi
  echo "postgres://postgres@127.0.0.1:$HP/postgres"
  ;;
stop)
  [ -f "$dir/ports" ] || exit 0
  read_ports
  for node in node1 node2 node3; do
    for p in $(node_pids $node); do kill -CONT "$p" 2>/dev/null || true; done
    [ -f "$dir/$node/patroni.pid" ] && kill "$(cat "$dir/$node/patroni.pid")" 2>/dev/null || true
  done
  # Patroni stops its Postgres on the way out; give it the time to.
  for _ in $(seq 1 60); do
    alive=0
    for node in node1 node2 node3; do
      p=$(cat "$dir/$node/patroni.pid" 2>/dev/null || true)
      [ -n "$p" ] && kill -0 "$p" 2>/dev/null && alive=1
    done
    [ $alive = 0 ] && break
    sleep 0.5
  done
  for node in node1 node2 node3; do
    if [ -f "$dir/$node/data/postmaster.pid" ]; then
      as_pg "$pgbin/pg_ctl" -D "$dir/$node/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
  done
  for f in "$dir/haproxy.pid" "$dir"/etcd-e*.pid "$dir"/node*/patroni.pid; do
    [ -f "$f" ] && stop_pid "$(cat "$f")"
  done
  ;;
status)
  read_ports
  patronictl -c "$dir/node1/patroni.yml" list 2>/dev/null || true
  ;;
leader)
  read_ports
  leader
  ;;
kill)
  read_ports
  node=${3:?node1|node2|node3}
  # shellcheck disable=SC2046 # one pid per word
  kill -9 $(node_pids "$node") 2>/dev/null || true
  ;;
freeze)
  read_ports
  node=${3:?node1|node2|node3}
  pm=$(head -n1 "$dir/$node/data/postmaster.pid")
  # The postmaster's children too: a hung machine runs none of them.
  # shellcheck disable=SC2046
  kill -STOP $(cat "$dir/$node/patroni.pid") "$pm" $(cat "/proc/$pm/task/$pm/children" 2>/dev/null) 2>/dev/null || true
  ;;
thaw)
  read_ports
  node=${3:?node1|node2|node3}
  pm=$(head -n1 "$dir/$node/data/postmaster.pid" 2>/dev/null || true)
  # shellcheck disable=SC2046
  kill -CONT $(cat "$dir/$node/patroni.pid") ${pm:+$pm} $([ -n "$pm" ] && cat "/proc/$pm/task/$pm/children" 2>/dev/null) 2>/dev/null || true
  ;;
rejoin)
  read_ports
  node=${3:?node1|node2|node3}
  start_patroni "$node"
  ;;
role)
  read_ports
  role_of "${3:?node1|node2|node3}"
  ;;
wait-leader)
  read_ports
  wait_leader "${3:-60}"
  ;;
*)
  echo "unknown command $cmd" >&2
  exit 2
  ;;
esac
