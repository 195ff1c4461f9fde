#!/bin/sh
# budget.sh BINARY [RUNS]: wall time of prove and bmc under small time
# budgets, median of RUNS runs (default 5), in milliseconds. It measures
# how far each command overruns its --timeout-ms: prove's budget counts
# from the process start, so on a problem that runs out of budget
# (budget-hard.smt2) the wall time should stay within 10% of it; the last
# column is wall time / budget. Run it on an idle machine for figures
# worth quoting.
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
	m=$(median </tmp/budget.$$)
	if [ -n "${budget:-}" ]; then
		printf '%-58s %6s ms  %s\n' "$label" "$m" "$(awk -v m="$m" -v b="$budget" 'BEGIN {printf "%.2f", m / b}')"
	else
		printf '%-58s %6s ms\n' "$label" "$m"
	fi
	rm -f /tmp/budget.$$
}

for t in 1 200; do
	for f in bench/fib.smt2 bench/bradley1.smt2 bench/counter2.smt2 bench/retry-unbounded.json; do
		measure "prove $f --timeout-ms $t" prove "$f" --timeout-ms "$t"
	done
done
for budget in 200 1000; do
	measure "prove bench/budget-hard.smt2 --timeout-ms $budget" prove bench/budget-hard.smt2 --timeout-ms "$budget"
done
budget=
measure "prove --help (process start)" prove --help
measure "bmc order.json reach <= 3000 --timeout-ms 300" bmc examples/order.json --check 'check reach <= 3000: active("DONE") && retry == 99;' --timeout-ms 300
measure "bmc door.fcstm -q door-opens.fbmcq (small FCSTM query)" bmc examples/fcstm/door.fcstm -q examples/fcstm/door-opens.fbmcq
