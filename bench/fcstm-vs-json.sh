#!/usr/bin/env bash
# fcstm-vs-json.sh [ROOT]: the explicit search's states per second on the
# same state space written in both model languages (gen toggles 14 and
# gen counter 100000, each as JSON and as --format fcstm), and the ratio
# FCSTM/JSON; issue 39's target is at least 0.5. ROOT is the checkout
# whose internal/fcstm/explicit benchmarks run (default: this one), so
# two builds can be compared. The machine may be shared: the benchmarks
# run ROUNDS=5 times, interleaved, and each keeps its best rate.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=${1:-$(dirname "$here")}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
(cd "$root" && go test -c -o "$dir/explicit.test" ./internal/fcstm/explicit)
for _ in $(seq "${ROUNDS:-5}"); do
  "$dir/explicit.test" -test.run '^$' -test.bench '^Benchmark(Toggles(FCSTM|JSON)14|Counter(FCSTM|JSON)100k)$' -test.benchtime "${BENCHTIME:-1s}"
done | awk '
  $1 ~ /^Benchmark/ {
    name = $1; sub(/^Benchmark/, "", name); sub(/-[0-9]+$/, "", name)
    for (i = 2; i < NF; i++) if ($(i + 1) == "states/s" && $i + 0 > best[name]) best[name] = $i + 0
  }
  END {
    printf "%-10s %14s %14s %7s\n", "family", "FCSTM st/s", "JSON st/s", "ratio"
    split("Toggles:14 Counter:100k", fams, " ")
    for (k = 1; k <= 2; k++) {
      split(fams[k], f, ":")
      fc = best[f[1] "FCSTM" f[2]]; js = best[f[1] "JSON" f[2]]
      if (fc == "" || js == "") { printf "%-10s (not in this checkout)\n", f[1] f[2]; continue }
      printf "%-10s %14.0f %14.0f %7.3f\n", f[1] f[2], fc, js, fc / js
    }
  }'
