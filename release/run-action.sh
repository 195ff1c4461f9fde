#!/usr/bin/env bash
# run-action.sh: the action's run step. verify runs once per file (SARIF
# runs merged into one log, each with its own automationDetails.id);
# compose runs once on all files. The step fails with the worst exit code
# (docs/reports.md#exit-codes), after the SARIF is written, so that code
# scanning still receives the findings.
set -uo pipefail
read -r -a files <<< "$FILES"
read -r -a args <<< "$ARGS"
dir=$(mktemp -d)
worst=0
rank() { case $1 in 0) echo 0 ;; 3) echo 1 ;; 1) echo 2 ;; 2) echo 3 ;; *) echo 4 ;; esac; }
run() {
  local out=$1; shift
  stateproof "$@" --format sarif -o "$out"
  local code=$?
  if [ "$(rank "$code")" -gt "$(rank "$worst")" ]; then worst=$code; fi
}
case $COMMAND in
  verify)
    i=0
    for f in "${files[@]}"; do
      i=$((i + 1))
      run "$dir/$i.sarif" verify "$f" "${args[@]}"
    done
    ;;
  compose) run "$dir/1.sarif" compose "${files[@]}" "${args[@]}" ;;
  *) echo "stateproof action: command must be verify or compose (got $COMMAND)" >&2; exit 2 ;;
esac
# One log with every run: the runs of the per-file logs, concatenated.
python3 - "$SARIF" "$dir"/*.sarif <<'PY'
import json, sys
out, logs = sys.argv[1], sys.argv[2:]
merged = None
for p in logs:
    try:
        log = json.load(open(p))
    except (OSError, ValueError):
        continue
    if merged is None:
        merged = log
    else:
        merged["runs"].extend(log["runs"])
json.dump(merged or {"version": "2.1.0", "runs": []}, open(out, "w"), indent=2)
PY
echo "sarif=$SARIF" >> "${GITHUB_OUTPUT:-/dev/null}"
echo "exit-code=$worst" >> "${GITHUB_OUTPUT:-/dev/null}"
exit "$worst"
