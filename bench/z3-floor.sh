#!/usr/bin/env bash
# z3-floor.sh [STATEPROOF] — what a small bmc query costs against Z3's own
# floor: a C program that only creates a Z3 context and a solver and checks
# `true`, against `stateproof bmc` on a small bundled query, interleaved
# (bench/pairtime, 20 pairs; read the median cpu and the A/B ratio).
# Needs gcc and libz3-dev (installed by .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
sp=${1:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "$sp" ]; then
  go build -o "$tmp/stateproof" ./cmd/stateproof
  sp=$tmp/stateproof
fi
cat > "$tmp/z3floor.c" <<'C'
#include <z3.h>
int main(void) {
  Z3_config c = Z3_mk_config();
  Z3_context x = Z3_mk_context_rc(c);
  Z3_solver s = Z3_mk_solver(x);
  Z3_solver_inc_ref(x, s);
  Z3_solver_check(x, s);
  return 0; /* the context is left to the exiting process, as stateproof does */
}
C
gcc -O2 "$tmp/z3floor.c" -o "$tmp/z3floor" -lz3
go build -o "$tmp/pairtime" ./bench/pairtime
"$tmp/pairtime" -n 20 -- "$sp" bmc examples/order.json -q examples/queries/order-paid.fbmcq --vs "$tmp/z3floor"
