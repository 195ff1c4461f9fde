#!/bin/sh
# budget.sh BINARY [RUNS]: wall time of prove and bmc under small time
# budgets, median of RUNS runs (default 5), in milliseconds. It measures
# how far each command overruns its --timeout-ms (the budget starts when
# the command has read its input; process start and the Z3 library load
# are outside it). Run it on an idle machine for figures worth quoting.
set -eu
bin=$1
runs=${2:-5}
cd "$(dirname "$0")/.."

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

measure() {
	label=$1
	shift
	i=0
	: >/tmp/budget.$$
	while [ "$i" -lt "$runs" ]; do
		s=$(date +%s%N)
		"$bin" "$@" >/dev/null 2>&1 || true
		e=$(date +%s%N)
		echo $(((e - s) / 1000000)) >>/tmp/budget.$$
		i=$((i + 1))
	done
	printf '%-58s %6s ms\n' "$label" "$(median </tmp/budget.$$)"
	rm -f /tmp/budget.$$
}

for t in 1 200; do
	for f in bench/fib.smt2 bench/bradley1.smt2 bench/counter2.smt2 bench/retry-unbounded.json; do
		measure "prove $f --timeout-ms $t" prove "$f" --timeout-ms "$t"
	done
done
measure "prove --help (process start)" prove --help
measure "bmc order.json reach <= 3000 --timeout-ms 300" bmc examples/order.json --check 'check reach <= 3000: active("DONE") && retry == 99;' --timeout-ms 300
measure "bmc door.fcstm -q door-opens.fbmcq (small FCSTM query)" bmc examples/fcstm/door.fcstm -q examples/fcstm/door-opens.fbmcq
