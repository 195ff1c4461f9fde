#!/usr/bin/env bash
# ltl.sh [STATEPROOF]: the cost of deciding an LTL response property under
# fairness, against the plain reachability search of the same model, and
# against SPIN on the same property (docs/liveness.md#performance).
#
# Model: gen toggles K (K=18 by default, TOGGLES=K to change): 2^K runtimes,
# K events. Property: G (!b0 -> F b0), which holds only under fairness; the
# model gets "fairness": {"weak": "*"}, SPIN's weak fairness (pan -f) over
# one process per switch, the same condition. Runs are interleaved,
# RUNS=3 of each; the table has medians of CPU seconds (user+sys), wall
# seconds and max RSS, and the ratios. SPIN is installed with apt-get when
# missing, and its column skipped when that is not possible.
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
runs=${RUNS:-3}
k=${TOGGLES:-18}

# timed, stat and ratio (bench/timing.sh); verify exits 1 when the toggles
# model fails (it has a closed cycle), which timed takes as a result.
. "$here/timing.sh"

"$sp" gen toggles "$k" > "$dir/plain.json"
# The same model with the fairness block and the property (the generated
# JSON ends with "]\n}").
sed '$d' "$dir/plain.json" > "$dir/ltl.json"
cat >> "$dir/ltl.json" <<'JSON'
, "fairness": { "weak": "*" },
  "invariants": [{ "id": "resp", "description": "b0 turns true again", "kind": "ltl", "formula": "G (!b0 -> F b0)" }]
}
JSON
cap=$(( (1 << k) + 10 ))
plain=("$sp" verify "$dir/plain.json" --json --max-states "$cap")
ltl=("$sp" verify "$dir/ltl.json" --json --max-states "$cap")
"${ltl[@]}" > "$dir/ltl.out" || true
if ! grep -q '"detail": "The LTL invariant holds"' "$dir/ltl.out"; then
  echo "ltl.sh: the property is not reported as holding:" >&2
  grep -A4 '"A15"' "$dir/ltl.out" >&2
  exit 1
fi

spin_ok=1
if ! command -v spin > /dev/null; then
  echo "spin not found: installing it with apt-get" >&2
  if ! { apt-get update -qq && apt-get install -y -qq spin; } >&2 || ! command -v spin > /dev/null; then
    echo "ltl.sh: SPIN is not installed and apt-get could not install it; its column is skipped" >&2
    spin_ok=0
  fi
fi
if [ "$spin_ok" = 1 ]; then
  {
    echo "/* gen toggles $k for SPIN: one process per switch, so weak process fairness (pan -f) is weak fairness of every flip */"
    for i in $(seq 0 $((k - 1))); do echo "bool b$i;"; done
    for i in $(seq 0 $((k - 1))); do echo "active proctype T$i() { do :: d_step { b$i = !b$i } od }"; done
    echo 'ltl resp { [] (!b0 -> <> b0) }'
  } > "$dir/toggles.pml"
  (cd "$dir" && spin -a toggles.pml > /dev/null && cc -O2 -DMEMLIM=16384 -DNFAIR=$(( k / 8 + 4 )) -o pan pan.c)
  pan=("$dir/pan" -a -f -m3000000 -w24 -n)
  "${pan[@]}" > "$dir/pan.out"
  if ! grep -q "errors: 0" "$dir/pan.out"; then
    echo "ltl.sh: SPIN finds an acceptance cycle:" >&2
    cat "$dir/pan.out" >&2
    exit 1
  fi
fi

for _ in $(seq "$runs"); do
  timed plain "${plain[@]}"
  timed ltl "${ltl[@]}"
  if [ "$spin_ok" = 1 ]; then timed pan "${pan[@]}"; fi
done

pc=$(stat plain 2); pw=$(stat plain 3); pm=$(stat plain 4)
lc=$(stat ltl 2); lw=$(stat ltl 3); lm=$(stat ltl 4)
echo "LTL G (!b0 -> F b0) under weak fairness on gen toggles $k: medians of $runs interleaved runs, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| run | CPU | wall | RSS | CPU vs plain verify |"
echo "|---|---|---|---|---|"
echo "| stateproof verify (plain reachability and the 22 checks) | $pc s | $pw s | $((pm / 1024)) MiB | 1.00× |"
echo "| stateproof verify + fairness + ltl (A15) | $lc s | $lw s | $((lm / 1024)) MiB | $(ratio "$lc" "$pc")× |"
if [ "$spin_ok" = 1 ]; then
  sc=$(stat pan 2); sw=$(stat pan 3); sm=$(stat pan 4)
  echo "| SPIN $(spin -V | head -1 | awk '{print $3}') pan -a -f | $sc s | $sw s | $((sm / 1024)) MiB | $(ratio "$sc" "$pc")× (stateproof LTL / SPIN: $(ratio "$lc" "$sc")×) |"
fi
echo
echo "commands:"
echo "  stateproof gen toggles $k > plain.json; ltl.json = plain.json + fairness + the ltl invariant"
echo "  ${plain[*]#"$dir/"}"
echo "  ${ltl[*]#"$dir/"}"
if [ "$spin_ok" = 1 ]; then echo "  spin -a toggles.pml && cc -O2 -DMEMLIM=16384 -DNFAIR=$(( k / 8 + 4 )) -o pan pan.c && ./pan -a -f -m3000000 -w24 -n"; fi
