#!/usr/bin/env bash
# Installs what building Holdfast needs and is missing: the wasm target and a
# wasm-bindgen CLI of exactly the version in Cargo.lock. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

rustup target list --installed | grep -q wasm32-unknown-unknown \
  || rustup target add wasm32-unknown-unknown

want=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  echo "installing wasm-bindgen-cli $want (have: ${have:-none})"
  # `cargo install --locked` fails here: the published lock wants a
  # webpki-roots release the registry does not serve. Unpack the crate,
  # re-lock that one dependency and install from the path.
  work=$(mktemp -d)
  mkdir -p "$work/probe/src" && echo 'fn main() {}' > "$work/probe/src/main.rs"
  # A dependency on the CLI crate (it has no library: cargo warns and skips
  # it as a dependency) makes `cargo fetch` download its .crate into
  # cargo's own registry cache, from the registry cargo is configured with.
  cat > "$work/probe/Cargo.toml" <<TOML
[package]
name = "probe"
version = "0.0.0"
edition = "2021"
[dependencies]
wasm-bindgen-cli = "=$want"
TOML
  (cd "$work/probe" && cargo fetch -q 2>/dev/null)
  crate=$(ls "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/*/"wasm-bindgen-cli-$want.crate" 2>/dev/null | head -n1 || true)
  if [ ! -f "$crate" ]; then
    echo "cargo could not fetch wasm-bindgen-cli $want" >&2
    exit 1
  fi
  cp "$crate" "$work/cli.crate"
  tar -xzf "$work/cli.crate" -C "$work"
  cd "$work/wasm-bindgen-cli-$want"
  cargo update -q -p webpki-roots --precise 1.0.10 2>/dev/null || true
  cargo install -q --path . --locked --force
  cd - >/dev/null
  rm -rf "$work"
fi

# wasm-opt for optimised builds: binaryen 132 from npm (Debian's 108 breaks
# hydration), pinned in tools/package-lock.json.
if [ ! -x tools/node_modules/.bin/wasm-opt ]; then
  (cd tools && npm ci --no-audit --no-fund --loglevel=error)
fi
