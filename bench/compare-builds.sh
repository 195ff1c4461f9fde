#!/usr/bin/env bash
# compare-builds.sh OLD NEW: the verify figures quoted in the closing notes,
# as a ratio NEW/OLD measured pair by pair (bench/pairtime runs A B A B ...).
# OLD and NEW are stateproof binaries, e.g. built from two commits with
#   git worktree add /tmp/old REV && (cd /tmp/old && go build -o /tmp/sp-old ./cmd/stateproof)
# Rows: gen toggles 20, gen counter 1000000 (the exact-integer change), and
# the wide model (1000 states x 1000 events, the --max-findings change).
set -euo pipefail
old=${1:?usage: compare-builds.sh OLD NEW}
new=${2:?usage: compare-builds.sh OLD NEW}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
(cd "$(dirname "$0")/.." && go build -o "$dir/pairtime" ./bench/pairtime)
"$new" gen toggles 20 > "$dir/toggles20.json"
"$new" gen counter 1000000 > "$dir/counter1m.json"
"$(dirname "$0")/wide-model.sh" 1000 1000 > "$dir/wide.json"
row() { # name, then the verify arguments
  local name=$1; shift
  echo "== $name: $*"
  "$dir/pairtime" -n "${RUNS:-10}" -- "$new" verify "$@" --vs "$old" verify "$@" || true
}
row "gen toggles 20" "$dir/toggles20.json" --json --max-states 1100000
row "gen counter 1000000" "$dir/counter1m.json" --json --max-states 2000000
RUNS=${WIDE_RUNS:-3} row "wide 1000x1000" "$dir/wide.json" --json
