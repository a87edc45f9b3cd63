#!/usr/bin/env bash
# The crates are the layers: the plain data and the booking core know no web
# framework. Cargo already refuses an import of a crate a layer does not
# depend on; this refuses the dependency itself.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
refuse() {
  local crate=$1
  shift
  local found
  found=$(cargo tree -p "$crate" "$@" -e normal --prefix none --format '{p}' \
    | awk '{print $1}' | grep -E '^(axum|axum-core|leptos|leptos_[a-z_]+|tower-sessions)$' | sort -u || true)
  if [ -n "$found" ]; then
    echo "layers: $crate depends on $(echo $found | tr '\n' ' ')— the core and the model know no web framework" >&2
    status=1
  fi
}
refuse holdfast-model
refuse holdfast-model --features ssr
refuse holdfast-core
[ "$status" = 0 ] && echo "layers: holdfast-model and holdfast-core depend on no web framework"
exit "$status"
