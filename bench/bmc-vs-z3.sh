#!/usr/bin/env bash
# bmc-vs-z3.sh [STATEPROOF [OLD]]: `stateproof bmc` on `gen pause-counter 1000`
# against `z3 FILE.smt2` on the hand-written unrolling of the same model and
# query (bench/unroll), for both query kinds and bounds 20..320. Each pair is
# run interleaved (z3, stateproof[, old], z3, ...) RUNS times (default 3);
# the table shows the median CPU seconds (user+sys of the process) and the
# ratio stateproof/z3. With OLD (another stateproof binary, e.g. built from
# main) it adds OLD's median and ratio, for before/after tables.
#
#   witness: check reach <= N: active("Pause") && c == N/2-1;   (sat)
#   none:    check reach <= N: c > N;                            (unsat)
#
# STATEPROOF defaults to a build of this checkout. z3 comes from the OS
# package (apt-get install -y z3); without it the script says so and stops.
# A run longer than RUN_TIMEOUT seconds (default 300) is cut and shown as
# ">RUN_TIMEOUT". BOUNDS overrides the bound list.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if ! command -v z3 >/dev/null; then
  echo "bmc-vs-z3.sh: the z3 command is missing (Debian: apt-get install -y z3); nothing measured" >&2
  exit 0
fi
new=${1:-}
if [ -z "$new" ]; then
  (cd "$root" && go build -o "$dir/stateproof" ./cmd/stateproof)
  new=$dir/stateproof
fi
old=${2:-}
(cd "$root" && go build -o "$dir/unroll" ./bench/unroll)
runs=${RUNS:-3}
limit=${RUN_TIMEOUT:-300}
"$new" gen pause-counter 1000 > "$dir/model.json"

# cpu CMD...: prints the user+sys CPU seconds of CMD, or >limit.
cpu() {
  local t
  TIMEFORMAT='%U %S'
  if t=$( { time timeout "$limit" "$@" >/dev/null 2>&1; } 2>&1 ) || [ $? -ne 124 ]; then
    awk -v t="$t" 'BEGIN { split(t, a, " "); printf "%.3f\n", a[1] + a[2] }'
  else
    echo ">$limit"
  fi
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $0 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { case "$1$2" in *'>'*) echo "-" ;; *) awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f×", a / b }' ;; esac; }

header="| query | bound | z3 (s) | stateproof (s) | ratio |"
rule="|---|---|---|---|---|"
if [ -n "$old" ]; then
  header="$header old (s) | old ratio |"
  rule="$rule---|---|"
fi
echo "$header"
echo "$rule"
for kind in witness none; do
  for n in ${BOUNDS:-20 40 80 160 320}; do
    if [ "$kind" = witness ]; then q="check reach <= $n: active(\"Pause\") && c == $((n / 2 - 1));"; else q="check reach <= $n: c > $n;"; fi
    "$dir/unroll" -limit 1000 -bound "$n" -query "$kind" > "$dir/u.smt2"
    zs=() ns=() os=()
    for _ in $(seq "$runs"); do
      zs+=("$(cpu z3 "$dir/u.smt2")")
      ns+=("$(cpu "$new" bmc "$dir/model.json" --check "$q")")
      if [ -n "$old" ]; then os+=("$(cpu "$old" bmc "$dir/model.json" --check "$q")"); fi
    done
    z=$(median "${zs[@]}") s=$(median "${ns[@]}")
    line="| $kind | $n | $z | $s | $(ratio "$s" "$z") |"
    if [ -n "$old" ]; then
      o=$(median "${os[@]}")
      line="$line $o | $(ratio "$o" "$z") |"
    fi
    echo "$line"
  done
done
