#!/usr/bin/env bash
# chains.sh [STATEPROOF]: bmc and prove on FCSTM models with a chain of N
# pseudo states, each with a guarded and a default branch (2^N paths through
# one cycle), for N in LENGTHS (default 9 12 20 40), under BUDGET_MS
# (default 3000). Per run it prints the answer, the exit code and the wall
# seconds; the budget holds when every wall time is at most the budget plus
# start-up. RUNS (default 3) repeats each run; the table shows the slowest.
#
#   bmc reach:  check reach <= 4: var("y") > 0;   (a witness: the second pass)
#   bmc none:   check reach <= 4: var("y") < 0;   (none)
#   prove:      rsc "M.A": var("y") >= 0;         (proved)
#   prove:      rsc "M.B": var("y") <= 0;         (violated at depth 4)
#
# STATEPROOF defaults to a build of this checkout.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sp=${1:-}
if [ -z "$sp" ]; then
  (cd "$root" && go build -o "$dir/stateproof" ./cmd/stateproof)
  sp=$dir/stateproof
fi
budget=${BUDGET_MS:-3000}
runs=${RUNS:-3}
chain() { # chain N FILE
  local n=$1 i next
  {
    printf 'def int x = 0;\ndef int y = 0;\nstate M {\n    state A;\n    state B;\n'
    for ((i = 0; i < n; i++)); do printf '    pseudo state P%d;\n' "$i"; done
    printf '    [*] -> A;\n    A -> P0 :: Go;\n'
    for ((i = 0; i < n; i++)); do
      next=P$((i + 1))
      [ $((i + 1)) -eq "$n" ] && next=B
      printf '    P%d -> %s : if [x > %d] effect { y = y + %d; };\n' "$i" "$next" "$i" $((i + 1))
      printf '    P%d -> %s effect { x = x + 1; };\n' "$i" "$next"
    done
    printf '    B -> A :: Back;\n}\n'
  } >"$2"
}
printf 'rsc "M.A": var("y") >= 0;\n' >"$dir/holds.rsc"
printf 'rsc "M.B": var("y") <= 0;\n' >"$dir/violated.rsc"
printf '%-6s %-12s %-40s %5s %8s\n' N run answer exit wall_s
for n in ${LENGTHS:-9 12 20 40}; do
  m=$dir/chain$n.fcstm
  chain "$n" "$m"
  for what in reach none holds violated; do
    case $what in
    reach) args=(bmc "$m" --check 'check reach <= 4: var("y") > 0;') ;;
    none) args=(bmc "$m" --check 'check reach <= 4: var("y") < 0;') ;;
    holds) args=(prove "$m" --rsc "$dir/holds.rsc") ;;
    violated) args=(prove "$m" --rsc "$dir/violated.rsc") ;;
    esac
    worst=0 answer="" code=0
    for ((r = 0; r < runs; r++)); do
      t0=$(date +%s.%N)
      set +e
      out=$("$sp" "${args[@]}" --timeout-ms "$budget" 2>&1)
      code=$?
      set -e
      t=$(echo "$(date +%s.%N) - $t0" | bc)
      answer=$(echo "$out" | head -1 | sed 's/^[^:]*: //' | cut -c1-40)
      worst=$(echo "if ($t > $worst) $t else $worst" | bc)
    done
    printf '%-6s %-12s %-40s %5s %8.2f\n' "$n" "$what" "$answer" "$code" "$worst"
  done
done
