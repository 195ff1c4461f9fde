#!/usr/bin/env bash
# wide-model.sh STATES EVENTS: a schema-v1 model with STATES states in a
# chain and EVENTS events, each state handling only its own "next" event,
# so every other (state, event) pair is an S5/A1 finding:
# STATES x (EVENTS - 1) of each. 1000 x 1000 is about 64 KB.
set -euo pipefail
n=${1:?usage: wide-model.sh STATES EVENTS}
e=${2:?usage: wide-model.sh STATES EVENTS}
awk -v n="$n" -v e="$e" 'BEGIN {
  printf "{\"schemaVersion\":1,\"init\":\"s0\",\"states\":["
  for (i = 0; i < n; i++) printf "%s{\"id\":\"s%d\"%s}", (i ? "," : ""), i, (i == n-1 ? ",\"terminal\":true" : "")
  printf "],\"transitions\":["
  for (i = 0; i < n-1; i++) printf "%s{\"from\":\"s%d\",\"event\":\"e%d\",\"to\":\"s%d\"}", (i ? "," : ""), i, i % e, i+1
  # every event appears at least once so the alphabet has EVENTS events
  for (k = n-1; k < e; k++) printf ",{\"from\":\"s0\",\"event\":\"e%d\",\"to\":\"s0\"}", k
  printf "]}\n"
}'
