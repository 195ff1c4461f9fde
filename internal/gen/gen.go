// Package gen writes JSON models of known size and shape, for benchmarks
// and differential tests: `stateproof gen` exposes them on the command line.
package gen

import (
	"fmt"
	"strings"
)

// Counter is a bounded counter: RUN --tick--> RUN while c < n, and
// the default branch of tick goes to DONE.
func Counter(n int) string {
	return fmt.Sprintf(`{
  "schemaVersion": 1,
  "init": "RUN",
  "states": [{"id": "RUN"}, {"id": "DONE", "terminal": true}],
  "transitions": [
    {"from": "RUN", "event": "tick", "to": "RUN", "guard": {"variable": "c", "op": "<", "value": %[1]d}, "updates": [{"variable": "c", "op": "inc"}]},
    {"from": "RUN", "event": "tick", "to": "DONE"}
  ],
  "variables": [{"name": "c", "kind": "integer", "init": 0, "min": 0, "max": %[1]d}],
  "invariants": [
    {"id": "c-bounded", "description": "the counter never passes its limit", "kind": "var-in-range", "variable": "c", "min": 0, "max": %[1]d},
    {"id": "done-after-tick", "description": "DONE is entered only after a tick", "kind": "event-before-state", "event": "tick", "state": "DONE"}
  ]
}
`, n)
}

// Toggles has k boolean switches in one state, each flipped by its own
// event: 2^k reachable runtime states, every one of them an SCC member.
func Toggles(k int) string {
	var ts, vs []string
	for i := 0; i < k; i++ {
		for _, from := range []bool{false, true} {
			ts = append(ts, fmt.Sprintf(`    {"from": "ON", "event": "flip%d", "to": "ON", "guard": {"variable": "b%d", "op": "==", "value": %t}, "updates": [{"variable": "b%d", "op": "set", "value": %t}]}`, i, i, from, i, !from))
		}
		vs = append(vs, fmt.Sprintf(`{"name": "b%d", "kind": "boolean", "init": false}`, i))
	}
	return fmt.Sprintf(`{
  "schemaVersion": 1,
  "init": "ON",
  "states": [{"id": "ON"}],
  "transitions": [
%s
  ],
  "variables": [%s]
}
`, strings.Join(ts, ",\n"), strings.Join(vs, ", "))
}
