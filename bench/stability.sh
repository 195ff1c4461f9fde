#!/usr/bin/env bash
# stability.sh [STATEPROOF]: how much the time of one query varies from run
# to run of the same binary. It writes one random FCSTM model (SEED,
# default 1: a machine of a few states with guarded transitions, a chain
# of pseudo states and int variables) and one random bmc query on it, runs
# `stateproof bmc` on them N times (default 10) with BUDGET_MS (default
# 30000), and prints every wall time, then min, median, max and max/min
# (the target is at most 2), for the wall time and for the CPU time
# (user+sys): on a loaded machine the wall time varies with the load, the
# CPU time with the solver. CMD=prove runs prove on a random RSC instead;
# BOUND sets the query's bound (default 6 to 11); ARGS are more flags (e.g.
# ARGS="--workers 1" runs prove's layers in turn).
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
RANDOM=${SEED:-1}
n=${N:-10}
budget=${BUDGET_MS:-30000}
m=$dir/model.fcstm
# pick N sets R to a random number below N. It runs in this shell, never
# in $(...): a subshell's RANDOM is seeded anew, and the model would not
# be the seed's.
pick() { R=$((RANDOM % $1)); }
vars=(x y z)
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
echo "# ${CMD:-bmc}, seed ${SEED:-1}: ${args[*]:2}"
times=() cpus=()
for ((r = 0; r < n; r++)); do
  set +e
  /usr/bin/time -f '%e %U %S' -o "$dir/time" "$sp" "${args[@]}" --timeout-ms "$budget" >"$dir/out" 2>&1
  code=$?
  set -e
  read -r t user sys < <(tail -1 "$dir/time") # after "Command exited with ..." when not 0
  times+=("$t")
  cpus+=("$(echo "$user + $sys" | bc)")
  printf 'run %2d  exit %d  wall %6.2f s  cpu %6.2f s  %s\n' "$r" "$code" "$t" "${cpus[-1]}" "$(head -1 "$dir/out" | cut -c1-50)"
done
# summary NAME TIMES...: min, median, max and max/min of the times.
summary() {
  local name=$1 sorted min max med
  shift
  sorted=$(printf '%s\n' "$@" | sort -n)
  min=$(echo "$sorted" | head -1)
  max=$(echo "$sorted" | tail -1)
  med=$(echo "$sorted" | sed -n "$((($# + 1) / 2))p")
  printf '%-4s min %.2f s  median %.2f s  max %.2f s  max/min %.2f\n' "$name" "$min" "$med" "$max" "$(echo "scale=4; $max / $min" | bc)"
}
summary wall "${times[@]}"
summary cpu "${cpus[@]}"
