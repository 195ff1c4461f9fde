#!/usr/bin/env bash
# stability.sh [STATEPROOF]: how much the time of one query varies from run
# to run of the same binary. For each case of CASES (default "fixture
# 1@40 2@40 4@30 5@50") it runs `stateproof bmc` on the case's model and
# query N times (default 20) with BUDGET_MS (default 30000) and prints
# min, median, max and max/min (the target is at most 2) of the wall time
# and of the CPU time (user+sys): on a loaded machine the wall time varies
# with the load, the CPU time with the solver. VERBOSE=1 prints every run.
#
# A case "fixture" is ../shared/fixtures/bmc-stability (a random model on
# which the same query took 0.4 s or ran out of 30 s, issue 38); SEED or
# SEED@BOUND is a random FCSTM model written here (a machine of a few
# states with guarded transitions, a chain of pseudo states and int
# variables) with one random bmc query on it, of bound BOUND (the default
# cases take 0.5-2 s of CPU each; at small bounds a query takes
# milliseconds, where the 10 ms resolution of the CPU time makes max/min
# meaningless). BOUND sets the bound of a SEED without @ (default 6 to
# 11). CMD=prove runs prove on a random RSC of the seed's model instead
# (the fixture has none); ARGS are more flags (e.g. ARGS="--workers 1"
# runs prove's layers in turn).
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
n=${N:-20}
bound0=${BOUND:-}
budget=${BUDGET_MS:-30000}
# pick N sets R to a random number below N. It runs in this shell, never
# in $(...): a subshell's RANDOM is seeded anew, and the model would not
# be the seed's.
pick() { R=$((RANDOM % $1)); }
vars=(x y z)
# generate SEED: writes $dir/model.fcstm and model.rsc and sets args to
# the command's arguments.
generate() {
  RANDOM=$1
  m=$dir/model.fcstm
  {
    printf 'def int x = 0;\ndef int y = 0;\ndef int z = 0;\nstate M {\n'
    for s in A B C; do printf '    state %s;\n' "$s"; done
    pick 5
    k=$((4 + R))
    for ((i = 0; i < k; i++)); do printf '    pseudo state P%d;\n' "$i"; done
    printf '    [*] -> A;\n    A -> P0 :: Go;\n'
    for ((i = 0; i < k; i++)); do
      next=P$((i + 1))
      [ $((i + 1)) -eq "$k" ] && next=B
      pick 3; v=${vars[$R]}
      pick 3; w=${vars[$R]}
      pick 7; c=$((R - 3))
      pick 3; d=$((R + 1))
      pick 2; e=$((R + 1))
      printf '    P%d -> %s : if [%s > %d] effect { %s = %s + %d; };\n' "$i" "$next" "$v" "$c" "$w" "$w" "$d"
      printf '    P%d -> %s effect { %s = %s - %d; };\n' "$i" "$next" "$v" "$v" "$e"
    done
    pick 3; v=${vars[$R]}
    pick 9; c=$((R - 2))
    printf '    B -> C :: Step + [%s < %d] effect { %s = %s * 2 + 1; };\n' "$v" "$c" "$v" "$v"
    printf '    B -> A :: Back;\n    C -> A :: Back effect { z = z + x; };\n}\n'
  } >"$m"
  pick 3; v=${vars[$R]}
  pick 6; bound=${BOUND:-$((6 + R))}
  pick 20; c=$((5 + R))
  query="check reach <= $bound: active(\"M.C\") && $v > $c;"
  pick 4
  printf 'rsc "M.A": var("%s") >= %d;\n' "$v" $((-R)) >"$dir/model.rsc"
  case ${CMD:-bmc} in
  bmc) args=(bmc "$m" --check "$query" ${ARGS:-}) ;;
  prove) args=(prove "$m" --rsc "$dir/model.rsc" ${ARGS:-}) ;;
  *) echo "stability.sh: CMD is bmc or prove" >&2; exit 2 ;;
  esac
}
. "$root/bench/timing.sh"
fixture=$root/../shared/fixtures/bmc-stability
echo "# ${CMD:-bmc}, $n runs each, budget $budget ms: times in s"
printf '%-8s %5s  %-32s  %-31s  %s\n' case exits "     min  median    max max/min" "    min  median    max max/min" "first answer"
for name in ${CASES:-fixture 1@40 2@40 4@30 5@50}; do
  if [ "$name" = fixture ]; then
    [ -d "$fixture" ] || { echo "stability.sh: no $fixture" >&2; continue; }
    args=(bmc "$fixture/model.fcstm" -q "$fixture/query.fbmcq" ${ARGS:-})
  else
    BOUND=${name#*@} && [ "$BOUND" = "$name" ] && BOUND=${bound0:-}
    generate "${name%@*}"
  fi
  [ -n "${VERBOSE:-}" ] && echo "# $name: ${args[*]:1}"
  times=() cpus=() codes=()
  for ((r = 0; r < n; r++)); do
    time_once "$sp" "${args[@]}" --timeout-ms "$budget"
    times+=("$t")
    cpus+=("$cpu")
    codes+=("$code")
    [ "$r" -eq 0 ] && first=$(head -1 "$dir/out" | cut -c1-50)
    if [ -n "${VERBOSE:-}" ]; then
      printf 'run %2d  exit %d  wall %6.2f s  cpu %6.2f s  %s\n' "$r" "$code" "$t" "${cpus[-1]}" "$(head -1 "$dir/out" | cut -c1-50)"
    fi
  done
  printf '%-8s %5s  %s  %s  %s\n' "$name" "$(printf '%s\n' "${codes[@]}" | sort -u | paste -sd/)" \
    "wall $(spread "${times[@]}")" "cpu $(spread "${cpus[@]}")" "$first"
done
