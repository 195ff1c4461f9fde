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

// Ring is a ring of ten states S0..S9 stepped round by "step", with a lap
// counter taken modulo laps, and a "reset" back to S0 from every state:
// 10*laps reachable runtime states, all of them in one cycle. Three rings
// of ten laps compose into 10^6 composite states (no rendezvous).
func Ring(laps int) string {
	var ts []string
	for i := 0; i < 9; i++ {
		ts = append(ts, fmt.Sprintf(`    {"from": "S%d", "event": "step", "to": "S%d"}`, i, i+1))
	}
	ts = append(ts,
		fmt.Sprintf(`    {"from": "S9", "event": "step", "to": "S0", "guard": {"variable": "lap", "op": "<", "value": %d}, "updates": [{"variable": "lap", "op": "inc"}]}`, laps-1),
		fmt.Sprintf(`    {"from": "S9", "event": "step", "to": "S0", "guard": {"variable": "lap", "op": ">=", "value": %d}, "updates": [{"variable": "lap", "op": "set", "value": 0}]}`, laps-1))
	var ss []string
	for i := 0; i < 10; i++ {
		ss = append(ss, fmt.Sprintf(`{"id": "S%d"}`, i))
		ts = append(ts, fmt.Sprintf(`    {"from": "S%d", "event": "reset", "to": "S0", "updates": [{"variable": "lap", "op": "set", "value": 0}]}`, i))
	}
	return fmt.Sprintf(`{
  "schemaVersion": 1,
  "init": "S0",
  "states": [%s],
  "transitions": [
%s
  ],
  "variables": [{"name": "lap", "kind": "integer", "init": 0, "min": 0, "max": %d}]
}
`, strings.Join(ss, ", "), strings.Join(ts, ",\n"), laps-1)
}
