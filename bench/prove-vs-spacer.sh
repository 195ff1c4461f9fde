#!/usr/bin/env bash
# prove-vs-spacer.sh [RUNS] [FIXTURE_DIR] — time to proof of `stateproof prove FILE`
# against Spacer alone (`z3 FILE`, Z3's HORN solver on the file itself), both as
# whole processes, on the extra-small-lia problems both prove (the shared
# fixtures, not in the repository: ../shared/fixtures/chc/ next to it). Each
# problem runs A B A B … RUNS times (bench/pairtime); the table gives the
# median wall times and the median of the pair-by-pair wall and cpu ratios,
# and the last line the median of the per-problem wall ratios. STATEPROOF=BINARY
# times that binary instead of one built from this tree.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-9}
dir=${2:-../shared/fixtures/chc/extra-small-lia}
if [ ! -d "$dir" ]; then
	echo "no CHC fixtures in $dir: skipped" >&2
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sp=${STATEPROOF:-$tmp/stateproof}
if [ -z "${STATEPROOF:-}" ]; then
	go build -o "$sp" ./cmd/stateproof
fi
go build -o "$tmp/pairtime" ./bench/pairtime
# The problems Spacer alone proves within 10 s apart from dillig21_m and
# s_disj_ite_05 (5–10 s each: a pair of runs would take half a minute).
problems="const_mod_1 const_mod_2 const_mod_3 dillig02_m dillig22_m s_disj_ite_06
s_multipl_24 s_mutants_20 three_dots_moving_2"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| problem | prove wall | Spacer alone wall | wall ratio | cpu ratio |"
echo "|---|---|---|---|---|"
for p in $problems; do
	f=$dir/$p.smt2
	out=$("$tmp/pairtime" -n "$runs" -- "$sp" prove "$f" --vs z3 "$f")
	med() { echo "$out" | awk -v k="$1" 'index($0, k) == 1 { print $(NF - 1) }'; }
	printf '| %s | %.0f ms | %.0f ms | %.2f× | %.2f× |\n' "$p" \
		"$(echo "$(med 'A wall s') * 1000" | bc -l)" "$(echo "$(med 'B wall s') * 1000" | bc -l)" \
		"$(med 'A/B wall')" "$(med 'A/B cpu')"
	med 'A/B wall' >>"$tmp/ratios"
done
sort -g "$tmp/ratios" | awk '{ r[NR] = $1 } END { printf "median wall ratio over %d problems: %.2f× (min %.2f×, max %.2f×)\n", NR, r[int((NR + 1) / 2)], r[1], r[NR] }'
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
