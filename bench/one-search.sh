#!/usr/bin/env bash
# one-search.sh [STATEPROOF]: what a model's invariants add to verify:
# gen counter 10000000 (override with COUNTER=N) with its two invariants
# (a range and an event-before-state) against the same model with none,
# the exploration alone, for --workers 1 and 2 (WORKERS). Pairs are run
# interleaved by bench/pairtime, RUNS=15 of each; read the median of the
# pairwise ratios (A/B): the target of issue 13 is at most 1.1.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sp=${1:-}
if [ -z "$sp" ]; then
  (cd "$root" && go build -o "$dir/stateproof" ./cmd/stateproof)
  sp=$dir/stateproof
fi
(cd "$root" && go build -o "$dir/pairtime" ./bench/pairtime)
"$sp" gen counter "${COUNTER:-10000000}" > "$dir/counter.json"
# the same model, its invariants list emptied (they are its last member)
awk '/"invariants"/ { print "  \"invariants\": []"; print "}"; exit } { print }' "$dir/counter.json" > "$dir/bare.json"
"$sp" verify "$dir/bare.json" --max-states 5 > /dev/null 2>&1 || [ $? -eq 3 ] || { echo "one-search.sh: the bare model does not load" >&2; exit 1; }
for w in ${WORKERS:-1 2}; do
  echo "--workers $w: A = with invariants, B = without"
  "$dir/pairtime" -n "${RUNS:-15}" -- "$sp" verify "$dir/counter.json" --json --max-states 30000000 --workers "$w" \
    --vs "$sp" verify "$dir/bare.json" --json --max-states 30000000 --workers "$w" | tail -n 9
  echo
done
