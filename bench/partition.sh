#!/usr/bin/env bash
# partition.sh [STATEPROOF]: a partitioned search against one process on
# this machine: gen toggles 22 (override with TOGGLES=K) verified with
# --local-partitions 2 and with one process of --workers 2, interleaved,
# RUNS=3 of each; medians of wall and CPU (user+sys, children included),
# the wall ratio, the bytes the workers sent per state, and worker 0's
# split of its time (distributed levels, gathering, checks). Checks that
# both give the same report, byte for byte. On one host the workers share
# its cores and talk over loopback: expect the partitioned run to be
# slower (the toggles model fails: exit 1, which timing.sh takes as a
# result). docs/scale.md turns the bytes per state into a cost per state on
# a real network.
#
# Then the budget per worker (issue 42 item 2): the two workers started as
# --partition 0/2 and 1/2 (so that each one's peak RSS is measured), each
# with --memory a third of the one-process run's median peak RSS and a
# spill directory of its own; their report must be the one-process report
# byte for byte. Prints each worker's peak RSS, wall and CPU.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$here/timing.sh"
sp=${1:-}
if [ -z "$sp" ]; then
  (cd "$root" && go build -o "$dir/stateproof" ./cmd/stateproof)
  sp=$dir/stateproof
fi
runs=${RUNS:-3}
k=${TOGGLES:-22}
"$sp" gen toggles "$k" > "$dir/toggles.json"
cap=$(( (1 << k) + 1 ))
load0=$(cut -d' ' -f1 /proc/loadavg)
for _ in $(seq "$runs"); do
  timed one "$sp" verify "$dir/toggles.json" --json --max-states "$cap" --workers 2
  timed part "$sp" verify "$dir/toggles.json" --json --max-states "$cap" --local-partitions 2
done
"$sp" verify "$dir/toggles.json" --json --max-states "$cap" --workers 2 > "$dir/one.out" || true
"$sp" verify "$dir/toggles.json" --json --max-states "$cap" --local-partitions 2 > "$dir/part.out" 2> "$dir/part.err" || true
cmp -s "$dir/one.out" "$dir/part.out" || { echo "partition.sh: the partitioned report differs from the one-process report" >&2; exit 1; }
sent=$(grep -o '[0-9.]* per state' "$dir/part.err" | cut -d' ' -f1)
split=$(grep -o 'explored in .*' "$dir/part.err" | head -1)
checks=$(grep -o 'checks on worker 0 in .*' "$dir/part.err")
echo "gen toggles $k ($((1 << k)) states): medians of $runs interleaved runs, $(nproc) cores, load average $load0 before, $(cut -d' ' -f1 /proc/loadavg) after"
echo
echo "| run | wall | CPU | wall ratio |"
echo "|---|---|---|---|"
echo "| one process, --workers 2 | $(stat one 3) s | $(stat one 2) s | 1.00× |"
echo "| --local-partitions 2 | $(stat part 3) s | $(stat part 2) s | $(ratio "$(stat part 3)" "$(stat one 3)")× |"
echo
echo "Bytes sent by the workers: $sent per state (successor batches, keys, indexes, and gathering the graph on worker 0)."
echo "Worker 0 (last run): $split; $checks."

# The workers with a budget each: a third of the one-process peak RSS.
budget=$(( $(stat one 4) / 3 ))
ports=$(python3 -c 'import socket
ss=[socket.socket() for _ in range(2)]
[s.bind(("127.0.0.1", 0)) for s in ss]
print(" ".join(str(s.getsockname()[1]) for s in ss))')
read -r p0 p1 <<< "$ports"
head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$dir/token"
for i in 0 1; do
  mkdir -p "$dir/spill$i"
  /usr/bin/time -o "$dir/w$i" -f "%U %S %e %M" "$sp" verify "$dir/toggles.json" --json --max-states "$cap" \
    --partition "$i/2" --peers "127.0.0.1:$p0,127.0.0.1:$p1" --token-file "$dir/token" --peer-timeout 300s \
    --memory "${budget}KiB" --spill-dir "$dir/spill$i" > "$dir/spill$i.out" 2> "$dir/spill$i.err" &
done
wait || true
cmp -s "$dir/one.out" "$dir/spill0.out" || { cat "$dir/spill0.err" >&2; echo "partition.sh: the spilling workers' report differs from the one-process report" >&2; exit 1; }
echo
echo "Each worker with --memory $((budget / 1024)) MiB, a third of the one-process peak RSS ($(( $(stat one 4) / 1024 )) MiB), one run:"
echo
echo "| worker | peak RSS | wall | CPU |"
echo "|---|---|---|---|"
for i in 0 1; do
  read -r u s e m < <(tail -n 1 "$dir/w$i")
  echo "| $i | $((m / 1024)) MiB | $e s | $(echo "$u + $s" | bc) s |"
done
grep -h 'spilled its states' "$dir/spill0.err" "$dir/spill1.err" || true
