# timing.sh: helpers sourced by the bench scripts. They need $dir, a
# scratch directory.

# timed LABEL CMD...: runs CMD once and appends "LABEL cpu wall rss_kib" to
# $dir/times (cpu = user + sys seconds). Exit status 1 of stateproof verify
# (a report that fails: the toggles model has findings) is a result, not
# an error (docs/reports.md#exit-codes).
timed() {
  local label=$1; shift
  local rc=0
  /usr/bin/time -o "$dir/t" -f "%U %S %e %M" "$@" > /dev/null 2> "$dir/err" || rc=$?
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
    cat "$dir/err" >&2
    exit "$rc"
  fi
  local u s e m
  # GNU time puts "Command exited with non-zero status N" first.
  read -r u s e m < <(tail -n 1 "$dir/t")
  echo "$label $(echo "$u + $s" | bc) $e $m" >> "$dir/times"
}

# stat LABEL FIELD: the median of field FIELD (2 cpu, 3 wall, 4 rss) of the
# runs labelled LABEL.
stat() {
  grep "^$1 " "$dir/times" | awk -v f="$2" '{print $f}' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

# ratio A B: A/B to two decimals.
ratio() { echo "scale=4; $1 / $2" | bc | xargs printf "%.2f"; }

# spread TIMES...: min, median, max and max/min of the times, to two
# decimals. A run under 10 ms of CPU reads 0.00: it counts as 0.01 in the
# ratio.
spread() {
  local sorted min max med
  sorted=$(printf '%s\n' "$@" | sort -n)
  min=$(echo "$sorted" | head -1)
  max=$(echo "$sorted" | tail -1)
  med=$(echo "$sorted" | sed -n "$((($# + 1) / 2))p")
  printf '%5.2f %6.2f %6.2f %6.2f' "$min" "$med" "$max" "$(echo "scale=4; $max / ($min + ($min == 0) * 0.01)" | bc)"
}

# time_once CMD...: runs CMD once with its output in $dir/out and sets t
# (wall s), cpu (user + sys s) and code (its exit status, a result here).
time_once() {
  local user sys
  set +e
  /usr/bin/time -f '%e %U %S' -o "$dir/time" "$@" >"$dir/out" 2>&1
  code=$?
  set -e
  read -r t user sys < <(tail -1 "$dir/time") # after "Command exited with ..." when not 0
  cpu=$(echo "$user + $sys" | bc)
}
