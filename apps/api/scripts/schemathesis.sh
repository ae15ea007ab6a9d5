#!/usr/bin/env bash
# The outside fuzzer (issue 14): schemathesis from PyPI, every check, positive and negative data, the examples,
# coverage, fuzzing and stateful phases, against the whole system (`start`) on free ports with a fresh DATA_DIR,
# so the demo portfolio's real ids of schemathesis.toml exist. A fixed seed and one worker make a run repeatable
# (two workers interleave the operations differently from run to run). Exits non-zero on any failure: a 5xx, a
# response the document does not describe, a schema-valid request refused or an invalid one accepted, an
# operation that does not load.
# Needs a build (`npm run build`) and python3; installs schemathesis into a virtualenv under .data on first use.
# Usage: apps/api/scripts/schemathesis.sh [more `st run` options, e.g. --max-examples 100 --seed 7]
set -euo pipefail
VERSION=4.32.5
SEED=14
MAX_EXAMPLES=50
root="$(cd "$(dirname "$0")/../../.." && pwd)"
cd "$root"
venv="$root/.data/schemathesis-$VERSION"
if [ ! -x "$venv/bin/st" ]; then
  rm -rf "$venv"
  mkdir -p "$root/.data"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$VERSION"
fi

free_ports() {
  python3 -c 'import socket
sockets = [socket.socket() for _ in range(4)]
for s in sockets: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in sockets))'
}
read -r api_port dispatcher_port scheduler_port postgres_port < <(free_ports)
data="$(mktemp -d "${TMPDIR:-/tmp}/storage-schemathesis-XXXXXX")"
log="$data/system.log"

system=""
stop() {
  # Ctrl-C, as a user stops `npm start`: the supervisor stops the services and PostgreSQL, then exits.
  if [ -n "$system" ] && kill -0 "$system" 2>/dev/null; then
    kill -INT "$system"
    wait "$system" 2>/dev/null || true
  fi
  rm -rf "$data"
}
trap stop EXIT

# Self-contained: the embedded PostgreSQL and transport, whatever the caller's environment points at (CI's broker).
unset DATABASE_URL KAFKA_BROKERS
# No scheduler ticks: a business day run in the middle would change the rentals under the fuzzer.
# Rate limits far above the fuzzer's ~90 requests/s on one key and a handful of tenants' emails: it checks the
# document, not the limiter (tested in apps/api/test/rate-limits*), and a 429 would only hide the answer under test.
DATA_DIR="$data" API_PORT="$api_port" DISPATCHER_PORT="$dispatcher_port" SCHEDULER_PORT="$scheduler_port" \
  EMBEDDED_POSTGRES_PORT="$postgres_port" SCHEDULER_TICK_SECONDS=0 LOG_LEVEL=warn \
  RATE_LIMIT_KEY_PER_MINUTE=600000 RATE_LIMIT_KEY_BURST=100000 \
  RATE_LIMIT_VERIFICATION_PER_MINUTE=600000 RATE_LIMIT_VERIFICATION_BURST=100000 \
  RATE_LIMIT_LEASE_PAGE_PER_MINUTE=600000 RATE_LIMIT_LEASE_PAGE_BURST=100000 \
  VERIFICATION_CODES_PER_PERSON_PER_HOUR=1000000 VERIFICATION_ATTEMPTS_PER_PERSON_PER_HOUR=1000000 \
  node tools/cli/dist/main.js start >"$log" 2>&1 &
system=$!
for _ in $(seq 360); do
  grep -q 'is ready' "$log" && break
  kill -0 "$system" 2>/dev/null || break
  sleep 0.5
done
if ! grep -q 'is ready' "$log"; then
  echo "the system did not start:"
  tail -50 "$log"
  exit 1
fi

# From the data directory: hypothesis keeps its example database in the working directory, and one left from an
# earlier run would replay old examples (a run is then no longer the seed's alone); it goes with the directory.
# Its report's rulers ("=== 3 warnings in 42.38s ===") are reworded: CI would read that line as pytest's closing
# line and count a run with no test in it; the exit code still comes from schemathesis (pipefail).
cd "$data"
"$venv/bin/st" --config-file "$root/schemathesis.toml" run "http://127.0.0.1:$api_port/openapi.json" \
  -H "x-api-key: $(cat "$data/demo-api-key")" \
  --checks all --mode all --phases examples,coverage,fuzzing,stateful \
  --seed "$SEED" --max-examples "$MAX_EXAMPLES" --workers 1 --no-color "$@" \
  | sed -E 's/^=+ (.*[^ ]) =+$/schemathesis -- \1/'
