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

// Probes is a batch job for the adversarial probes: after `start`, two
// workers advance counters a and b to k each (stepA, stepB, in any
// interleaving), then `finish` reaches DONE; `fail` may abort from RUN at
// any time with a small weight. (k+1)^2 + 3 reachable runtime states. It
// declares one invariant of every path kind, a concurrent pair, an
// idempotent event, boundary values and a deadline, all of which hold, so
// every probe searches the whole space instead of stopping at a witness.
func Probes(k int) string {
	return fmt.Sprintf(`{
  "schemaVersion": 1,
  "init": "IDLE",
  "states": [{"id": "IDLE"}, {"id": "RUN", "maxTicks": %[1]d, "onEntry": ["open_batch"], "onExit": ["close_batch"]},
    {"id": "DONE", "terminal": true}, {"id": "FAILED", "terminal": true}],
  "transitions": [
    {"from": "IDLE", "event": "start", "to": "RUN"},
    {"from": "RUN", "event": "stepA", "to": "RUN", "guard": {"variable": "a", "op": "<", "value": %[1]d}, "updates": [{"variable": "a", "op": "inc"}]},
    {"from": "RUN", "event": "stepB", "to": "RUN", "guard": {"variable": "b", "op": "<", "value": %[1]d}, "updates": [{"variable": "b", "op": "inc"}]},
    {"from": "RUN", "event": "finish", "to": "DONE", "guard": {"all": [{"variable": "a", "op": "==", "value": %[1]d}, {"variable": "b", "op": "==", "value": %[1]d}]}, "cost": 0},
    {"from": "RUN", "event": "fail", "to": "FAILED", "weight": 0.0001, "cost": 0, "updates": [{"variable": "a", "op": "set", "value": 0}, {"variable": "b", "op": "set", "value": 0}]},
    {"from": "FAILED", "event": "fail", "to": "FAILED", "cost": 0}
  ],
  "variables": [{"name": "a", "kind": "integer", "init": 0, "min": 0, "max": %[1]d}, {"name": "b", "kind": "integer", "init": 0, "min": 0, "max": %[1]d}],
  "invariants": [
    {"id": "a-bounded", "description": "worker A never passes k", "kind": "var-in-range", "variable": "a", "min": 0, "max": %[1]d},
    {"id": "ends", "description": "a running batch always ends", "kind": "leads-to", "from": "RUN", "to": ["DONE", "FAILED"]},
    {"id": "start-then-finish", "description": "finish only after start", "kind": "sequence", "events": ["start", "finish"]},
    {"id": "batch-atomic", "description": "a started batch finishes or fails", "kind": "atomicity", "events": ["start", "stepA", "stepB"], "commit": "finish", "rollback": "fail"},
    {"id": "work-budget", "description": "a batch costs at most 2k+1", "kind": "budget", "budget": %[2]d},
    {"id": "mostly-done", "description": "most batches complete", "kind": "probability", "target": "DONE", "op": ">=", "p": 0.5}
  ],
  "concurrentPairs": [["stepA", "stepB"]],
  "idempotentEvents": ["fail"],
  "boundaryChecks": [{"variable": "a", "values": [0, %[1]d]}],
  "resourcePairs": [{"resource": "batch", "acquireEvent": "open_batch", "releaseEvent": "close_batch"}],
  "tickEvents": ["stepA"]
}
`, k, 2*k+1)
}
