#!/usr/bin/env bash
# A Node.js of another major version, from the npm registry (the node-linux-<arch> package ships the official
# binary as bin/node), installed under .data/node<MAJOR>; prints the directory that holds `node`, for PATH.
# Usage: scripts/node-version.sh [MAJOR]   (24 by default)
#   PATH="$(bash scripts/node-version.sh 24):$PATH" npm test   # the test suite on Node 24
# No npm comes with it: the machine's npm (a script run by whatever `node` is first in PATH) runs on it.
# The newest release of that major is installed the first time; NODE_VERSION_REFRESH=1 looks again.
# Progress goes to stderr, so stdout is the directory alone.
set -euo pipefail

MAJOR="${1:-24}"
[[ "$MAJOR" =~ ^[0-9]+$ ]] || { echo "node-version: MAJOR must be a number, got '$MAJOR'" >&2; exit 2; }
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "$(uname -m)" in
  x86_64 | amd64) ARCH=x64 ;;
  aarch64 | arm64) ARCH=arm64 ;;
  *) echo "node-version: no node-linux package for $(uname -m)" >&2; exit 1 ;;
esac
PKG="node-linux-$ARCH"
PREFIX="$ROOT/.data/node$MAJOR"
BIN="$PREFIX/node_modules/$PKG/bin"

have() { # the installed binary runs and is of the wanted major
  [[ -x "$BIN/node" ]] && [[ "$("$BIN/node" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" == "$MAJOR" ]]
}

if [[ -n "${NODE_VERSION_REFRESH:-}" ]] || ! have; then
  echo "node-version: installing $PKG@$MAJOR into $PREFIX ..." >&2
  rm -rf "$PREFIX.tmp" && mkdir -p "$PREFIX.tmp"
  # --prefix: a project of its own there, not a workspace of this repository; nothing saved, no scripts run.
  npm install --prefix "$PREFIX.tmp" --no-save --no-package-lock --ignore-scripts --no-audit --no-fund \
    --loglevel=error "$PKG@$MAJOR" >&2
  rm -rf "$PREFIX" && mv "$PREFIX.tmp" "$PREFIX"
  have || { echo "node-version: $BIN/node is not a working Node $MAJOR" >&2; exit 1; }
fi
echo "node-version: $("$BIN/node" --version) in $BIN" >&2
echo "$BIN"
