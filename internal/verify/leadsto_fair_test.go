package verify

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/report"
)

func readExample(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile("../../examples/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func a9(t *testing.T, src string, maxStates int) []report.Finding {
	t.Helper()
	return check(run(t, src, maxStates), "A9").Findings
}

// The broken traffic light is refuted by button presses that starve the
// clock; under weak fairness of tick (examples/traffic-light-fair.json)
// that cycle is no counterexample and leads-to holds, while the same model
// without the block keeps today's counterexample.
func TestFairnessDecidesTrafficLight(t *testing.T) {
	fairSrc := readExample(t, "traffic-light-fair.json")
	if fs := a9(t, fairSrc, 0); len(fs) != 0 {
		t.Fatalf("A9 under weak fairness = %+v", fs)
	}
	unfair := strings.Replace(fairSrc, `"fairness": { "weak": ["tick"] }`, `"_fairness": "removed"`, 1)
	fs := a9(t, unfair, 0)
	if len(fs) != 1 || fs[0].Code != "A9_LEADS_TO_VIOLATION" || !strings.Contains(fs[0].Message, `Cycle avoids target ["GREEN", "OFF"], returning to state "RED"`) {
		t.Fatalf("A9 without fairness = %+v", fs)
	}
	// Fairness to the button alone does not help: the button storm takes
	// the button, and the clock may starve.
	button := strings.Replace(fairSrc, `"weak": ["tick"]`, `"weak": ["button"]`, 1)
	fs = a9(t, button, 0)
	if len(fs) != 1 || !strings.Contains(fs[0].Message, `Fair cycle avoids target ["GREEN", "OFF"], returning to state "RED"`) {
		t.Fatalf("A9 with weak button = %+v", fs)
	}
	if got := fs[0].Evidence.Get("cycleStart"); got == nil {
		t.Errorf("fair cycle finding lacks cycleStart: %+v", fs[0].Evidence)
	}
	// Strong fairness of tick refutes the storm as well.
	strong := strings.Replace(fairSrc, `"weak": ["tick"]`, `"strong": ["tick"]`, 1)
	if fs := a9(t, strong, 0); len(fs) != 0 {
		t.Fatalf("A9 under strong fairness = %+v", fs)
	}
}

// Weak fairness does not help an event that is enabled only now and
// then; strong fairness does. In A the loop `spin` toggles b; `go`
// (to the target) is enabled only when b is set.
func TestWeakAndStrongFairnessDiffer(t *testing.T) {
	const src = `{"schemaVersion": 1, "init": "A", "states": [{"id": "A"}, {"id": "B", "terminal": true}],
	  "transitions": [
	    {"from": "A", "event": "spin", "to": "A", "guard": {"variable": "b", "op": "==", "value": false}, "updates": [{"variable": "b", "op": "set", "value": true}]},
	    {"from": "A", "event": "spin", "to": "A", "guard": {"variable": "b", "op": "==", "value": true}, "updates": [{"variable": "b", "op": "set", "value": false}]},
	    {"from": "A", "event": "go", "to": "B", "guard": {"variable": "b", "op": "==", "value": true}}],
	  "variables": [{"name": "b", "kind": "boolean", "init": false}],
	  "invariants": [{"id": "ends", "description": "", "kind": "leads-to", "from": "A", "to": "B"}]%s}`
	for fairness, violated := range map[string]bool{
		``:                                 true,
		`, "fairness": {"weak": ["go"]}`:   true,
		`, "fairness": {"weak": "*"}`:      true,
		`, "fairness": {"strong": ["go"]}`: false,
		`, "fairness": {"weak": "*", "strong": ["go"]}`: false,
	} {
		fs := a9(t, fmt.Sprintf(src, fairness), 0)
		if got := len(fs) == 1 && fs[0].Code == "A9_LEADS_TO_VIOLATION"; got != violated {
			t.Errorf("%q: findings %+v, want violated %v", fairness, fs, violated)
		}
	}
}

// Under fairness a truncated exploration leaves leads-to undecided: a fair
// cycle may lie past the cap.
func TestFairLeadsToCapIsUndecided(t *testing.T) {
	const src = `{"schemaVersion": 1, "init": "A", "states": [{"id": "A"}, {"id": "B", "terminal": true}],
	  "transitions": [{"from": "A", "event": "up", "to": "A", "updates": [{"variable": "n", "op": "inc"}]}, {"from": "A", "event": "done", "to": "B"}],
	  "variables": [{"name": "n", "kind": "integer", "init": 0}],
	  "invariants": [{"id": "ends", "description": "", "kind": "leads-to", "from": "A", "to": "B"}],
	  "fairness": {"weak": ["done"]}}`
	fs := a9(t, src, 50)
	if len(fs) != 1 || fs[0].Code != "A9_LEADS_TO_UNDECIDED" {
		t.Fatalf("A9 = %+v", fs)
	}
}

// randomBoundedModel is a small model whose runtime space is finite: x
// stays in 0..2 because every increment is guarded.
func randomBoundedModel(r *rand.Rand, extra string) string {
	n := 2 + r.IntN(3)
	var states, ts []string
	for i := range n {
		states = append(states, fmt.Sprintf(`{"id": "S%d", "terminal": %t}`, i, i > 0 && r.IntN(5) == 0))
	}
	for range n + r.IntN(2*n) {
		t := fmt.Sprintf(`{"from": "S%d", "event": "e%d", "to": "S%d"`, r.IntN(n), r.IntN(3), r.IntN(n))
		switch r.IntN(4) {
		case 0:
			t += `, "guard": {"variable": "x", "op": "<", "value": 2}, "updates": [{"variable": "x", "op": "inc"}]`
		case 1:
			t += fmt.Sprintf(`, "guard": {"variable": "x", "op": "==", "value": %d}, "updates": [{"variable": "x", "op": "set", "value": %d}]`, r.IntN(3), r.IntN(3))
		}
		ts = append(ts, t+"}")
	}
	return fmt.Sprintf(`{"schemaVersion": 1, "init": "S0", "states": [%s], "transitions": [%s],
	  "variables": [{"name": "x", "kind": "integer", "init": 0, "min": 0, "max": 2}]%s}`,
		strings.Join(states, ", "), strings.Join(ts, ", "), extra)
}

// With an empty fairness block every path is fair, so the SCC decision
// must agree with the depth-first walk on every random model.
func TestEmptyFairnessAgreesWithWalk(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 9))
	violations := 0
	for i := range 400 {
		from, to := r.IntN(2), 1+r.IntN(3)
		inv := fmt.Sprintf(`, "invariants": [{"id": "l", "description": "", "kind": "leads-to", "from": "S%d", "to": "S%d"}]`, from, to)
		seed := r.Uint64()
		src := randomBoundedModel(rand.New(rand.NewPCG(seed, 0)), inv)
		if !strings.Contains(src, fmt.Sprintf(`"id": "S%d"`, to)) {
			continue
		}
		walk := a9(t, src, 0)
		scc := a9(t, randomBoundedModel(rand.New(rand.NewPCG(seed, 0)), inv+`, "fairness": {}`), 0)
		if len(walk) != len(scc) || len(walk) == 1 && walk[0].Code != scc[0].Code {
			t.Fatalf("model %d: walk %+v, fair SCC %+v\n%s", i, walk, scc, src)
		}
		violations += len(walk)
	}
	if violations < 50 {
		t.Errorf("only %d violations: the generator tests too little", violations)
	}
}

// A fair cycle among the runtimes a truncated exploration expanded is
// still a counterexample: spinning at n = 0, where done is disabled, is
// fair to done however far `up` would count.
func TestFairLeadsToCounterexamplePastCap(t *testing.T) {
	const src = `{"schemaVersion": 1, "init": "A", "states": [{"id": "A"}, {"id": "B", "terminal": true}],
	  "transitions": [{"from": "A", "event": "up", "to": "A", "updates": [{"variable": "n", "op": "inc"}]},
	    {"from": "A", "event": "spin", "to": "A"},
	    {"from": "A", "event": "done", "to": "B", "guard": {"variable": "n", "op": ">", "value": 100}}],
	  "variables": [{"name": "n", "kind": "integer", "init": 0}],
	  "invariants": [{"id": "ends", "description": "", "kind": "leads-to", "from": "A", "to": "B"}],
	  "fairness": {"weak": ["done"]}}`
	fs := a9(t, src, 50)
	if len(fs) != 1 || fs[0].Code != "A9_LEADS_TO_VIOLATION" || !strings.Contains(fs[0].Message, "Fair cycle") {
		t.Fatalf("A9 = %+v", fs)
	}
	// Weak fairness of up as well: the spin loop starves up, and every
	// other run climbs past the cap.
	fs = a9(t, strings.Replace(src, `"weak": ["done"]`, `"weak": ["done", "up"]`, 1), 50)
	if len(fs) != 1 || fs[0].Code != "A9_LEADS_TO_UNDECIDED" {
		t.Fatalf("A9 with up fair = %+v", fs)
	}
}

// TestRegionTargetsAgreeWithTarget checks that the region's batched
// targets, which the SCC search reads, are its targets one edge at a
// time: edges into a target runtime and unstored successors read -1.
func TestRegionTargetsAgreeWithTarget(t *testing.T) {
	adj := &explore.Adjacency{Off: []int{0, 3, 3, 7}, To: []int32{1, 2, -1, 0, 1, 2, 2}, Via: make([]int32, 7)}
	r := &region{adj: adj, evOf: []int32{0}, target: []bool{false, true, false}}
	buf := make([]int32, 8)
	for v := int32(0); int(v) < r.Len(); v++ {
		for i := 0; i < r.Degree(v); i++ {
			for size := 1; size <= len(buf); size++ {
				n := r.Targets(v, i, buf[:size])
				if n != min(size, r.Degree(v)-i) {
					t.Fatalf("node %d slot %d: %d targets in a batch of %d", v, i, n, size)
				}
				for j, w := range buf[:n] {
					if want := r.Target(v, i+j); w != want {
						t.Fatalf("node %d slot %d: batch says %d, Target %d", v, i+j, w, want)
					}
				}
			}
		}
	}
}
