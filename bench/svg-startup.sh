#!/usr/bin/env bash
# svg-startup.sh OLD NEW: what drawing SVG pictures costs every process,
# for two stateproof binaries (e.g. before and after the own SVG layout):
#   git worktree add /tmp/old REV && (cd /tmp/old && go build -o /tmp/sp-old ./cmd/stateproof)
# Rows (bench/pairtime runs A B A B ...: NEW is A, OLD is B): verify of
# examples/order.json (start-up and peak memory), the same with an empty
# TMPDIR on every run (a first run: no cache of any kind), and drawing the
# largest JSON and FCSTM examples as SVG; then the two binary sizes.
set -euo pipefail
old=${1:?usage: svg-startup.sh OLD NEW}
new=${2:?usage: svg-startup.sh OLD NEW}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
(cd "$root" && go build -o "$dir/pairtime" ./bench/pairtime)
row() { # name, then the arguments (OLD and NEW are prepended)
  local name=$1; shift
  echo "== $name: $*"
  "$dir/pairtime" -n "${RUNS:-20}" -- "$new" "$@" --vs "$old" "$@" || true
}
fresh() { # a shell script that runs a command with a new, empty TMPDIR
  printf '%s' "d=\$(mktemp -d -p $dir) && TMPDIR=\$d $1 $2; rc=\$?; rm -rf \$d; exit \$rc"
}
row "verify order.json" verify "$root/examples/order.json"
echo "== verify order.json, empty TMPDIR"
"$dir/pairtime" -n "${RUNS:-20}" -- sh -c "$(fresh "$new" "verify $root/examples/order.json")" \
  --vs sh -c "$(fresh "$old" "verify $root/examples/order.json")" || true
row "draw tcp.json as SVG" draw "$root/examples/tcp.json" --format svg -o "$dir/tcp.svg"
row "draw washing_machine.fcstm as SVG" draw "$root/examples/fcstm/washing_machine.fcstm" --format svg -o "$dir/wm.svg"
echo "== binary size (bytes)"
printf 'old %s\nnew %s\n' "$(stat -c %s "$old")" "$(stat -c %s "$new")"
