#!/usr/bin/env bash
# prove-stability.sh [STATEPROOF...]: how much the time of `stateproof
# prove` on one input varies from run to run of the same binary. For each
# binary (default a build of this checkout; give two to compare builds,
# e.g. one of main and one of a branch) and each case of CASES it runs
# prove N times (default 10) with BUDGET_MS (default 10000) and prints
# the exit codes, min, median, max and max/min of the wall time and of
# the CPU time (user+sys) in s, and the distinct ways the runs ended
# (verdict and the method or layer that answered, with how many runs
# ended so). ARGS are more flags (e.g. ARGS="--workers 1" runs the
# layers in turn). VERBOSE=1 prints every run.
#
# A case is INPUT or INPUT:RSC, relative to the repository root. The
# default cases are the JSON retry example with its RSCs, the FCSTM retry
# example with its RSCs, and one CHC problem of the shared test data
# (../shared/fixtures/chc/extra-small-lia/CHC, CHC default
# dillig12_m.smt2), skipped when that is absent.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sps=("$@")
if [ ${#sps[@]} -eq 0 ]; then
  (cd "$root" && go build -o "$dir/stateproof" ./cmd/stateproof)
  sps=("$dir/stateproof")
fi
n=${N:-10}
budget=${BUDGET_MS:-10000}
chc=$root/../shared/fixtures/chc/extra-small-lia/${CHC:-dillig12_m.smt2}
cases=${CASES:-examples/retry.json:examples/retry.rsc examples/fcstm/retry.fcstm:examples/fcstm/retry.rsc}
[ -z "${CASES:-}" ] && [ -f "$chc" ] && cases="$cases $chc"
. "$root/bench/timing.sh"
echo "# prove, $n runs each, budget $budget ms${ARGS:+, $ARGS}: times in s"
printf '%-22s %5s  %-29s  %-29s  %s\n' case exits "wall min median    max max/min" " cpu min median    max max/min" "ended"
for sp in "${sps[@]}"; do
  [ ${#sps[@]} -gt 1 ] && echo "# $sp"
  for c in $cases; do
    input=${c%%:*} rsc=
    [ "$input" != "$c" ] && rsc=${c#*:}
    case $input in /*) ;; *) input=$root/$input ;; esac
    args=(prove "$input" --format json --timeout-ms "$budget" ${ARGS:-})
    [ -n "$rsc" ] && args+=(--rsc "$root/$rsc")
    times=() cpus=() codes=() ends=()
    for ((r = 0; r < n; r++)); do
      time_once "$sp" "${args[@]}"
      times+=("$t")
      cpus+=("$cpu")
      codes+=("$code")
      # The verdict and the methods of the properties (or, when none
      # answered, the last layer that ran).
      end=$(jq -r '.verdict + " " + ([.properties[]?.method // empty] | unique | join(","))' "$dir/out" 2>/dev/null || head -1 "$dir/out")
      ends+=("${end// /:}")
      if [ -n "${VERBOSE:-}" ]; then
        printf 'run %2d  exit %d  wall %6.2f s  cpu %6.2f s  %s\n' "$r" "$code" "$t" "${cpus[-1]}" "$end"
      fi
    done
    printf '%-22s %5s  %s  %s  %s\n' "$(basename "$input")" "$(printf '%s\n' "${codes[@]}" | sort -u | paste -sd/)" \
      "$(spread "${times[@]}")" "$(spread "${cpus[@]}")" \
      "$(printf '%s\n' "${ends[@]}" | sort | uniq -c | awk '{printf "%s%s×%s", (NR > 1 ? " " : ""), $1, $2}')"
  done
done
