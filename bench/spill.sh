#!/usr/bin/env bash
# Beyond RAM (issue 25, docs/scale.md#beyond-ram): each model is verified
# in memory, then again with --memory at one tenth of the in-memory run's
# peak RSS. Prints per model: wall time and peak RSS (of the child, from
# /usr/bin/time -v) of both runs, their ratio, whether the reports are
# byte-identical, and what the spilling run wrote (its stderr line:
# spilled states, peak disk, bytes per state on disk).
#
#   bash bench/spill.sh                       # gen counter 30000000, gen toggles 24
#   COUNTER=3000000 TOGGLES=20 bash bench/spill.sh   # smaller, for a loaded machine
#   WORKERS=2 bash bench/spill.sh
#   TOGGLES=0 bash bench/spill.sh             # the counter only
#   MEM_TIMEOUT=600 SPILL_TIMEOUT=1800 bash bench/spill.sh   # limits per run (s)
#
# Each run has its own time limit (timeout(1)): a spilling run stopped by
# it prints "stopped by the time limit" and its peak RSS so far. CPU
# seconds (user + sys) are printed beside the wall time: on a shared,
# loaded machine they are the figure to compare.
set -euo pipefail
cd "$(dirname "$0")/.."
COUNTER=${COUNTER:-30000000}
TOGGLES=${TOGGLES:-24}
WORKERS=${WORKERS:-1}
MEM_TIMEOUT=${MEM_TIMEOUT:-1800}
SPILL_TIMEOUT=${SPILL_TIMEOUT:-3600}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/stateproof" ./cmd/stateproof
sp=$tmp/stateproof

# measure NAME LIMIT ARGS...: runs verify for at most LIMIT seconds, leaves
# wall seconds, CPU seconds and peak RSS (KiB) in $wall, $cpu and $rss, the
# report in $tmp/NAME.json, stderr in $tmp/NAME.err; $stopped is "yes" when
# the time limit ended it
measure() {
  local name=$1 limit=$2
  shift 2
  stopped=no
  /usr/bin/time -v timeout "$limit" "$sp" verify "$@" --json -o "$tmp/$name.json" 2> "$tmp/$name.err" || true
  grep -q 'Exit status: 124' "$tmp/$name.err" && stopped=yes
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,t,":"); s=0; for(i=1;i<=n;i++) s=s*60+t[i]; print s}' "$tmp/$name.err")
  cpu=$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u+s}' "$tmp/$name.err")
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tmp/$name.err")
}

one() {
  local label=$1 model=$2 states=$3
  measure mem "$MEM_TIMEOUT" "$model" --max-states "$states" --workers "$WORKERS"
  local mwall=$wall mcpu=$cpu mrss=$rss
  local budget=$((mrss / 10))
  measure spill "$SPILL_TIMEOUT" "$model" --max-states "$states" --workers "$WORKERS" --memory "${budget}KiB"
  local same=no
  cmp -s "$tmp/mem.json" "$tmp/spill.json" && same=yes
  printf '%s\n' "$label"
  printf '  in memory: %8.2f s wall, %8.2f s CPU, peak RSS %8d KiB\n' "$mwall" "$mcpu" "$mrss"
  printf '  --memory %dKiB: %8.2f s wall, %8.2f s CPU, peak RSS %8d KiB (budget + 64 MiB = %d KiB)\n' "$budget" "$wall" "$cpu" "$rss" $((budget + 65536))
  [ "$stopped" = yes ] && printf '  stopped by the time limit (%s s)\n' "$SPILL_TIMEOUT"
  awk -v a="$wall" -v b="$mwall" -v c="$cpu" -v d="$mcpu" 'BEGIN {printf "  wall ratio %.2f, CPU ratio %.2f\n", a/b, c/d}'
  printf '  same report bytes: %s\n' "$same"
  grep '^stateproof: spilled' "$tmp/spill.err" | sed 's/^/  /' || echo "  (did not spill)"
}

# COUNTER=0 or TOGGLES=0 skips that model
if [ "$COUNTER" -gt 0 ]; then
  "$sp" gen counter "$COUNTER" > "$tmp/counter.json"
  one "gen counter $COUNTER" "$tmp/counter.json" $((COUNTER + 2))
fi
if [ "$TOGGLES" -gt 0 ]; then
  "$sp" gen toggles "$TOGGLES" > "$tmp/toggles.json"
  one "gen toggles $TOGGLES" "$tmp/toggles.json" $((1 << TOGGLES))
fi
