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

// Random writes a small random model for differential tests: up to five
// states (some terminal), one integer and one boolean variable, two or
// three events, guarded and default transitions with inc/dec/set updates.
// The same seed gives the same model.
func Random(seed uint64) string {
	r := new(rng)
	*r = rng(seed)
	nStates := 2 + r.intn(4)
	nEvents := 2 + r.intn(2)
	var states, ts []string
	for i := 0; i < nStates; i++ {
		term := i > 0 && r.intn(4) == 0
		states = append(states, fmt.Sprintf(`{"id": "S%d", "terminal": %t}`, i, term))
	}
	ops := []string{"<", "<=", "==", "!=", ">", ">="}
	nTrans := nStates + r.intn(2*nStates)
	for k := 0; k < nTrans; k++ {
		t := fmt.Sprintf(`{"from": "S%d", "event": "e%d", "to": "S%d"`, r.intn(nStates), r.intn(nEvents), r.intn(nStates))
		switch r.intn(4) {
		case 0:
			t += fmt.Sprintf(`, "guard": {"variable": "x", "op": "%s", "value": %d}`, ops[r.intn(len(ops))], r.intn(4))
		case 1:
			t += fmt.Sprintf(`, "guard": {"all": [{"variable": "x", "op": "%s", "value": %d}, {"variable": "b", "op": "==", "value": %t}]}`, ops[r.intn(len(ops))], r.intn(4), r.intn(2) == 0)
		}
		switch r.intn(5) {
		case 0:
			t += `, "updates": [{"variable": "x", "op": "inc"}]`
		case 1:
			t += `, "updates": [{"variable": "x", "op": "dec", "value": 2}]`
		case 2:
			t += fmt.Sprintf(`, "updates": [{"variable": "x", "op": "set", "value": %d}, {"variable": "b", "op": "set", "value": %t}]`, r.intn(4), r.intn(2) == 0)
		}
		ts = append(ts, t+"}")
	}
	return fmt.Sprintf(`{"schemaVersion": 1, "init": "S0", "states": [%s], "transitions": [%s],
  "variables": [{"name": "x", "kind": "integer", "init": %d}, {"name": "b", "kind": "boolean", "init": false}]}`,
		strings.Join(states, ", "), strings.Join(ts, ", "), r.intn(3))
}

// rng is a small deterministic generator (splitmix64), so generated models
// do not depend on math/rand's algorithm across Go versions.
type rng uint64

func (r *rng) next() uint64 {
	*r += 0x9E3779B97F4A7C15
	z := uint64(*r)
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

// PauseCounter is the BMC benchmark family: state Run with an inc
// self-loop, dec to Pause, and Pause back to Run while c < limit.
func PauseCounter(limit int) string {
	return fmt.Sprintf(`{
  "schemaVersion": 1,
  "init": "Run",
  "states": [{"id": "Run"}, {"id": "Pause"}],
  "transitions": [
    {"from": "Run", "event": "inc", "to": "Run", "updates": [{"variable": "c", "op": "inc"}]},
    {"from": "Run", "event": "dec", "to": "Pause", "updates": [{"variable": "c", "op": "dec"}]},
    {"from": "Pause", "event": "resume", "to": "Run", "guard": {"variable": "c", "op": "<", "value": %d}}
  ],
  "variables": [{"name": "c", "kind": "integer", "init": 0}]
}
`, limit)
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

// BigSteps writes a model for differential tests of exact integers: in
// state A, `up` adds about 2^63 to x (1024 increments of a step near 2^53)
// while c < L, for L from 1 to 4, so x ends just short of 2^63 on some
// models and far past it on others; `mark` sets b once c >= K; `turn`
// moves to B, where `down` takes about as much off again; `fin` reaches
// BAD when b is set, c is back to 0 and x satisfies a comparison. Whether
// BAD is reachable depends on x being counted exactly all the way up and
// down; every path is at most 11 steps. The same seed gives the same model.
func BigSteps(seed uint64) string {
	r := new(rng)
	*r = rng(seed)
	const reps = 1024
	up := int64(1<<53 - 1 - r.intn(4))
	down := up - int64(r.intn(2))
	limit := 1 + r.intn(4)
	mark := max(1, limit-r.intn(2))
	init := int64(r.intn(3)-1) * up
	finals := []string{`"==", "value": 0`, `"==", "value": %d`, `">", "value": 0`, `"<", "value": 0`, `">=", "value": %d`, `"<=", "value": -%d`}
	final := finals[r.intn(len(finals))]
	if strings.Contains(final, "%d") {
		final = fmt.Sprintf(final, map[bool]int64{true: init, false: up}[strings.HasPrefix(final, `"=="`)])
	}
	updates := func(op string, by int64) string {
		us := make([]string, reps)
		for i := range us {
			us[i] = fmt.Sprintf(`{"variable": "x", "op": "%s", "value": %d}`, op, by)
		}
		return strings.Join(us, ", ")
	}
	return fmt.Sprintf(`{"schemaVersion": 1, "init": "A",
  "states": [{"id": "A"}, {"id": "B"}, {"id": "BAD", "terminal": true}],
  "transitions": [
    {"from": "A", "event": "up", "to": "A", "guard": {"variable": "c", "op": "<", "value": %[1]d}, "updates": [%[2]s, {"variable": "c", "op": "inc"}]},
    {"from": "A", "event": "mark", "to": "A", "guard": {"variable": "c", "op": ">=", "value": %[3]d}, "updates": [{"variable": "b", "op": "set", "value": true}]},
    {"from": "A", "event": "turn", "to": "B"},
    {"from": "B", "event": "down", "to": "B", "guard": {"variable": "c", "op": ">", "value": 0}, "updates": [%[4]s, {"variable": "c", "op": "dec"}]},
    {"from": "B", "event": "fin", "to": "BAD", "guard": {"all": [{"variable": "b", "op": "==", "value": true}, {"variable": "c", "op": "==", "value": 0}, {"variable": "x", "op": %[5]s}]}}
  ],
  "variables": [{"name": "x", "kind": "integer", "init": %[6]d}, {"name": "c", "kind": "integer", "init": 0}, {"name": "b", "kind": "boolean", "init": false}],
  "invariants": [{"id": "never-bad", "description": "BAD is never reached", "kind": "never-states", "states": ["BAD"]}]}`,
		limit, updates("inc", up), mark, updates("dec", down), final, init)
}
