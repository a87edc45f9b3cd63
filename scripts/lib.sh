# Shared by the scripts (sourced, not run): free ports, starting a server
# and waiting until it answers, stopping what was started.
#
#   start_holdfast PORT_VAR PID_VAR LOG BIN [NAME=value …]
#       starts BIN with the given environment on a free port of 127.0.0.1;
#       when another process took that port before the server bound it, it
#       is tried again on another; sets PORT_VAR and PID_VAR, and remembers
#       the pid for `stop_started`.
#   wait_ready URL PID LOG [TRIES]
#       waits until URL/readyz answers; fails loudly (the log's tail on
#       stderr) when the process died or never answered.
#   stop_started
#       stops every process started here (by pid).
#   use_build_dir
#       points cargo at the build directory kept between clones (below).

started_pids=()

# A port nobody listens on right now. Another process may still take it
# before ours binds: start_holdfast tries again then.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

wait_ready() {
  local url=$1 pid=$2 log=$3 tries=${4:-150}
  for _ in $(seq 1 "$tries"); do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "!! the server (pid $pid) stopped before it was ready; last lines of $log:" >&2
      tail -n 20 "$log" >&2
      return 1
    fi
    curl -sf "$url/readyz" >/dev/null && return 0
    sleep 0.2
  done
  echo "!! $url did not become ready; last lines of $log:" >&2
  tail -n 20 "$log" >&2
  return 1
}

start_holdfast() {
  # Locals are prefixed: `printf -v` must set the caller's variables, which
  # a local of the same name would hide.
  local __port_var=$1 __pid_var=$2 __log=$3 __bin=$4
  shift 4
  local __attempt __port __pid __from
  touch "$__log"
  for __attempt in 1 2 3 4 5; do
    __port=$(free_port)
    __from=$(($(wc -c <"$__log") + 1))
    env "$@" LEPTOS_SITE_ADDR="127.0.0.1:$__port" "$__bin" >>"$__log" 2>&1 &
    __pid=$!
    if wait_ready "http://127.0.0.1:$__port" "$__pid" "$__log" 2>/dev/null; then
      started_pids+=("$__pid")
      printf -v "$__port_var" '%s' "$__port"
      printf -v "$__pid_var" '%s' "$__pid"
      return 0
    fi
    kill "$__pid" 2>/dev/null || true
    wait "$__pid" 2>/dev/null || true
    if ! tail -c "+$__from" "$__log" | grep -qi "address already in use"; then
      # Not the port: say why, loudly.
      echo "!! $__bin did not start (attempt $__attempt); last lines of $__log:" >&2
      tail -n 20 "$__log" >&2
      return 1
    fi
    echo "port $__port was taken meanwhile; trying another" >&2
  done
  echo "!! no free port after 5 attempts" >&2
  return 1
}

stop_started() {
  local p
  for p in "${started_pids[@]:-}"; do
    [ -n "$p" ] && kill "$p" 2>/dev/null || true
  done
}

# Cargo's build directory. A clone that builds in a directory of its own
# builds everything from nothing (most of an hour on a small machine), so
# by default the build directory lives outside the clone, in
# $HOLDFAST_BUILD_CACHE (~/.cache/holdfast/target), shared by the clones on
# this machine the way CI systems keep target/ between runs; cargo rebuilds
# what changed (a fresh clone's own crates, as its files are new). `target`
# in the clone is a link to it: the scripts read target/site, target/debug.
# A clone whose `target` is a directory of its own keeps building there.
# Cargo is given the resolved path, so every clone names it alike (a build
# script's output directory is part of what cargo compares).
use_build_dir() {
  if [ ! -e target ] && [ ! -L target ]; then
    local cache=${HOLDFAST_BUILD_CACHE:-$HOME/.cache/holdfast/target}
    mkdir -p "$(dirname "$cache")"
    ln -s "$cache" target
  fi
  mkdir -p "$(readlink -f target)"
  CARGO_TARGET_DIR=$(readlink -f target)
  export CARGO_TARGET_DIR
}
