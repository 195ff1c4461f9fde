#!/usr/bin/env bash
# chc-dir.sh DIR [EXPECTED]: every CHC problem (*.smt2, any depth) under DIR
# through `stateproof prove FILE --timeout-ms 10000` and, right after it,
# through Spacer alone (`z3 FILE` under `timeout 10`), both as whole
# processes; prints one row per problem and a summary: solved by each,
# solved by one only, the median and max wall-time ratio prove/Spacer on the
# problems both solve, and every wrong answer or disagreement.
#
# It is meant for problems that are not in this repository, such as a sample
# of the CHC-COMP LIA-Lin benchmarks fetched from the competition's
# repository. Their expected verdicts, when known, come from EXPECTED: lines
# "RELATIVE/PATH.smt2 safe|unsafe" (the path relative to DIR); a file's own
# `(set-info :status sat|unsat)` counts too. prove answers proved (safe) or
# violated (unsafe); z3 answers sat (safe) or unsat (unsafe).
# STATEPROOF=BINARY times that binary instead of one built from this tree.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:?usage: chc-dir.sh DIR [EXPECTED]}
expected=${2:-}
command -v z3 >/dev/null || { echo "chc-dir.sh: the z3 command is missing (Debian: apt-get install -y z3)" >&2; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sp=${STATEPROOF:-$tmp/stateproof}
[ -n "${STATEPROOF:-}" ] || (cd "$root" && go build -o "$sp" ./cmd/stateproof)

# wall CMD...: runs CMD, prints "SECONDS OUTPUT-FIRST-WORD-OR-VERDICT".
wall() {
  local t0 t1 out
  t0=$(date +%s.%N)
  out=$("$@" 2>/dev/null || true)
  t1=$(date +%s.%N)
  echo "$(echo "$t1 - $t0" | bc -l) $out"
}
want_of() { # the expected verdict of relative path $1: safe, unsafe or ?
  local w=""
  [ -n "$expected" ] && w=$(awk -v f="$1" '$1 == f { print $2 }' "$expected")
  if [ -z "$w" ]; then
    if grep -q ':status sat' "$dir/$1"; then w=safe; elif grep -q ':status unsat' "$dir/$1"; then w=unsafe; fi
  fi
  echo "${w:-?}"
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| problem | expected | prove | time | Spacer alone | time | ratio |"
echo "|---|---|---|---|---|---|---|"
: >"$tmp/rows"
(cd "$dir" && find . -name '*.smt2' | sed 's|^\./||' | sort) | while read -r f; do
  want=$(want_of "$f")
  read -r pt pv < <(wall sh -c "'$sp' prove '$dir/$f' --timeout-ms 10000 --json | sed -n 's/^  \"verdict\": \"\\(.*\\)\"$/\\1/p'")
  read -r zt zv < <(wall timeout 10 z3 "$dir/$f")
  case "$pv" in proved) p=safe ;; violated) p=unsafe ;; *) p="?" ;; esac
  case "$zv" in sat) z=safe ;; unsat) z=unsafe ;; *) z="?" ;; esac
  ratio=""
  [ "$p" != "?" ] && [ "$z" != "?" ] && ratio=$(echo "$pt / $zt" | bc -l)
  printf '| %s | %s | %s | %.0f ms | %s | %.0f ms | %s |\n' "$f" "$want" "${pv:-unknown}" \
    "$(echo "$pt * 1000" | bc -l)" "${zv:-unknown}" "$(echo "$zt * 1000" | bc -l)" "${ratio:+$(printf '%.2f×' "$ratio")}"
  echo "$f $want $p $z ${ratio:-x}" >>"$tmp/rows"
done
awk '
  function sort(a, n,   i, j, v) { for (i = 2; i <= n; i++) { v = a[i]; j = i - 1; while (j > 0 && a[j] > v) { a[j + 1] = a[j]; j-- } a[j + 1] = v } }
  { n++ }
  $3 != "?" { prove++ }
  $4 != "?" { spacer++ }
  $3 != "?" && $4 == "?" { onlyp = onlyp " " $1 }
  $4 != "?" && $3 == "?" { onlys = onlys " " $1 }
  $5 != "x" { r[++k] = $5 }
  $5 != "x" && $3 == "safe" { q[++m] = $5 }
  ($2 != "?" && $3 != "?" && $3 != $2) || ($3 != "?" && $4 != "?" && $3 != $4) { wrong = wrong " " $1 }
  END {
    printf "\n%d problems: prove solves %d, Spacer alone %d; only prove:%s; only Spacer:%s\n", n, prove, spacer, onlyp ? onlyp : " none", onlys ? onlys : " none"
    if (k > 0) {
      sort(r, k)
      printf "wall-time ratio prove/Spacer on the %d both solve: median %.2f×, max %.2f×\n", k, r[int((k + 1) / 2)], r[k]
    }
    if (m > 0) {
      sort(q, m)
      printf "on the %d both prove safe: median %.2f×, max %.2f×\n", m, q[int((m + 1) / 2)], q[m]
    }
    printf "wrong answers or disagreements:%s\n", wrong ? wrong : " none"
  }' "$tmp/rows"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
