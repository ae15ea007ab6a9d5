#!/usr/bin/env bash
# Validates OpenAPI documents with openapi-spec-validator (PyPI), the validator integrators' tools use: the
# OpenAPI 3.1 schema and the rules it cannot express (every path template parameter declared, ...).
# Installs it on first use into a virtualenv under node_modules/.cache, so it needs python3 and nothing else.
# Usage: openapi-spec-validator.sh <file>...
set -euo pipefail
VERSION=0.9.0
root="$(cd "$(dirname "$0")/../../.." && pwd)"
venv="$root/node_modules/.cache/openapi-spec-validator-$VERSION"
if [ ! -x "$venv/bin/openapi-spec-validator" ]; then
  # flock: test files run in parallel and may both find it missing.
  mkdir -p "$(dirname "$venv")"
  exec 9>"$venv.lock"
  flock 9
  if [ ! -x "$venv/bin/openapi-spec-validator" ]; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "openapi-spec-validator==$VERSION" >&2
  fi
  flock -u 9
fi
exec "$venv/bin/openapi-spec-validator" "$@"
