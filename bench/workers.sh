#!/usr/bin/env bash
# workers.sh [STATEPROOF]: the scaling table of verify --workers: gen
# counter 10000000 and gen toggles 22 (override with COUNTER=N TOGGLES=K)
# with --workers 1 and --workers 2 (WORKERS="1 2 4" for more), interleaved,
# RUNS=3 of each; medians of wall, CPU (user+sys) and max RSS, and the
# wall-time speed-up over one worker. Checks that every worker count gives
# the same report, byte for byte. Run it on a quiet machine: the load
# average is printed with the table.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$here/timing.sh"
sp=${1:-}
if [ -z "$sp" ]; then
  (cd "$root" && go build -o "$dir/stateproof" ./cmd/stateproof)
  sp=$dir/stateproof
fi
runs=${RUNS:-3}
workers=${WORKERS:-1 2}
"$sp" gen counter "${COUNTER:-10000000}" > "$dir/counter.json"
"$sp" gen toggles "${TOGGLES:-22}" > "$dir/toggles.json"
load0=$(cut -d' ' -f1 /proc/loadavg)
for _ in $(seq "$runs"); do
  for m in counter toggles; do
    for w in $workers; do
      timed "$m-$w" "$sp" verify "$dir/$m.json" --json --max-states 30000000 --workers "$w"
    done
  done
done
for m in counter toggles; do
  for w in $workers; do
    "$sp" verify "$dir/$m.json" --json --max-states 30000000 --workers "$w" > "$dir/$m-$w.out" || true
    cmp -s "$dir/$m-1.out" "$dir/$m-$w.out" || { echo "workers.sh: $m: the report with --workers $w differs from --workers 1" >&2; exit 1; }
  done
done
echo "verify --workers: medians of $runs interleaved runs, $(nproc) cores, load average $load0 before, $(cut -d' ' -f1 /proc/loadavg) after"
echo
echo "| model | workers | wall | CPU | max RSS | speed-up (wall) |"
echo "|---|---|---|---|---|---|"
for m in counter toggles; do
  base=$(stat "$m-1" 3)
  for w in $workers; do
    echo "| $m | $w | $(stat "$m-$w" 3) s | $(stat "$m-$w" 2) s | $(( $(stat "$m-$w" 4) / 1024 )) MiB | $(ratio "$base" "$(stat "$m-$w" 3)")× |"
  done
done
echo
echo "Commands: stateproof gen counter ${COUNTER:-10000000} > counter.json; stateproof gen toggles ${TOGGLES:-22} > toggles.json;"
echo "  stateproof verify MODEL.json --json --max-states 30000000 --workers N"
