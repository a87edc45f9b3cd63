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
  cat > "$work/probe/Cargo.toml" <<TOML
[package]
name = "probe"
version = "0.0.0"
edition = "2021"
[dependencies]
wasm-bindgen-cli-support = "=$want"
TOML
  # Fetching the CLI crate itself is not possible as a dependency (it has no
  # library), so download its .crate through cargo's own registry cache.
  (cd "$work/probe" && cargo fetch -q)
  crate=$(ls -d "$HOME"/.cargo/registry/cache/*/ | head -n1)
  if [ ! -f "$crate/wasm-bindgen-cli-$want.crate" ]; then
    curl -sSfL "https://static.crates.io/crates/wasm-bindgen-cli/wasm-bindgen-cli-$want.crate" \
      -o "$work/cli.crate"
  else
    cp "$crate/wasm-bindgen-cli-$want.crate" "$work/cli.crate"
  fi
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
