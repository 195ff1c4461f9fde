#!/usr/bin/env bash
# z3-binding.sh OLD NEW: the solver-bound figures of the binding change
# (cgo → purego, issue 24), as a ratio NEW/OLD measured pair by pair
# (bench/pairtime runs A B A B ...). OLD and NEW are stateproof binaries,
# e.g. the last cgo build and this tree:
#   git worktree add /tmp/old f92c96e && (cd /tmp/old && go build -o /tmp/sp-old ./cmd/stateproof)
#   CGO_ENABLED=0 go build -o /tmp/sp-new ./cmd/stateproof
# Rows: a small bmc query, the bound-160 pause counter (witness and none),
# and three CHC problems through prove.
set -euo pipefail
old=${1:?usage: z3-binding.sh OLD NEW}
new=${2:?usage: z3-binding.sh OLD NEW}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
(cd "$root" && go build -o "$dir/pairtime" ./bench/pairtime)
# Time copies written the same way: how a binary's file came to be in the
# page cache changes what a process pays to read it. As go build leaves
# them, a cgo build took ~130 fewer page faults per process than a
# CGO_ENABLED=0 one (461 against 591 for `stateproof --version`, ~0.7 ms
# CPU); the same bytes rewritten with cat take 604 and 588, and the same
# time (ratio 1.00) — a property of the file, not of the binding.
cat "$old" > "$dir/old" && cat "$new" > "$dir/new" && chmod +x "$dir/old" "$dir/new"
old=$dir/old new=$dir/new
"$new" gen pause-counter 1000 > "$dir/counter.json"
printf 'check reach <= 160: active("Pause") && c == 79;\n' > "$dir/witness.fbmcq"
printf 'check reach <= 160: c > 160;\n' > "$dir/none.fbmcq"
row() { # name, then the arguments
  local name=$1; shift
  echo "== $name: $*"
  "$dir/pairtime" -n "${RUNS:-10}" -- "$new" "$@" --vs "$old" "$@" || true
}
cd "$root"
row "bmc small query" bmc examples/order.json -q examples/queries/order-paid.fbmcq
row "bmc counter 160, witness" bmc "$dir/counter.json" -q "$dir/witness.fbmcq"
row "bmc counter 160, none" bmc "$dir/counter.json" -q "$dir/none.fbmcq"
row "prove fib" prove bench/fib.smt2
row "prove bradley1" prove bench/bradley1.smt2
row "prove tinelli" prove bench/tinelli.smt2
