#!/usr/bin/env bash
# vs-spin.sh [STATEPROOF]: stateproof verify against SPIN's pan -DSAFETY on
# the same state spaces (gen counter 10000000, gen toggles 22; override with
# COUNTER=N TOGGLES=K), runs interleaved (stateproof, pan, stateproof, ...),
# RUNS=3 of each; prints medians of CPU seconds (user+sys), wall seconds and
# max RSS, the ratios stateproof/SPIN, and the commands. The Promela twins
# come from bench/promela. SPIN is installed with apt-get when missing
# (skipped with a message when that is not possible). SP_WORKERS sets
# stateproof's --workers (default 0: one per core; pan runs on one).
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
counter=${COUNTER:-10000000}
toggles=${TOGGLES:-22}
spw=${SP_WORKERS:-0} # stateproof --workers (0: one per core)
if ! command -v spin >/dev/null; then
  echo "spin not found: installing it with apt-get" >&2
  if ! { apt-get update -qq && apt-get install -y -qq spin; } >&2 || ! command -v spin >/dev/null; then
    echo "vs-spin.sh: SPIN is not installed and apt-get could not install it; skipping" >&2
    exit 0
  fi
fi
(cd "$root" && go build -o "$dir/promela" ./bench/promela)

. "$here/timing.sh"

declare -a rows cmds
model() { # name, gen args, promela args, max depth
  local name=$1 gen=$2 pml=$3 depth=$4
  "$sp" gen $gen > "$dir/$name.json"
  "$dir/promela" $pml > "$dir/$name.pml"
  (cd "$dir" && mkdir -p "pan-$name" && cd "pan-$name" && spin -a "../$name.pml" > /dev/null &&
    cc -O2 -DSAFETY -DMEMLIM=16384 -o pan pan.c)
  local spcmd=("$sp" verify "$dir/$name.json" --json --max-states 30000000 --workers "$spw")
  local pancmd=("$dir/pan-$name/pan" -m"$depth" -w26)
  for _ in $(seq "$runs"); do
    timed "sp-$name" "${spcmd[@]}"
    timed "pan-$name" "${pancmd[@]}"
  done
  local sc sw sm pc pw pm
  sc=$(stat "sp-$name" 2); sw=$(stat "sp-$name" 3); sm=$(stat "sp-$name" 4)
  pc=$(stat "pan-$name" 2); pw=$(stat "pan-$name" 3); pm=$(stat "pan-$name" 4)
  rows+=("| $name | $sc s | $pc s | $(ratio "$sc" "$pc")× | $sw s | $pw s | $(ratio "$sw" "$pw")× | $((sm / 1024)) MiB | $((pm / 1024)) MiB | $(ratio "$sm" "$pm")× |")
  cmds+=("$name: stateproof gen $gen > $name.json && stateproof verify $name.json --json --max-states 30000000 --workers $spw")
  cmds+=("$name: go run ./bench/promela $pml > $name.pml && spin -a $name.pml && cc -O2 -DSAFETY -DMEMLIM=16384 -o pan pan.c && ./pan -m$depth -w26")
}
model counter "counter $counter" "counter $counter" $((counter + 10))
model toggles "toggles $toggles" "toggles $toggles" 100

echo "stateproof vs SPIN $(spin -V | head -1 | awk '{print $3}'): medians of $runs interleaved runs, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| model | stateproof CPU | pan CPU | ratio | stateproof wall | pan wall | ratio | stateproof RSS | pan RSS | ratio |"
echo "|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "Commands:"
printf '  %s\n' "${cmds[@]}"
