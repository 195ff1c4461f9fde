package verify

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/runtime"
)

// G (from -> F to) is leads-to: on random bounded models with random
// fairness, A15 and A9 agree on every pair, and every A15 counterexample
// replays on the runtime.
func TestLTLResponseAgreesWithLeadsTo(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 15))
	fairness := []string{``, `, "fairness": {}`, `, "fairness": {"weak": "*"}`, `, "fairness": {"weak": ["e0"], "strong": ["e1"]}`, `, "fairness": {"strong": ["e2", "e0"]}`}
	violated, fairCycles := 0, 0
	for i := range 300 {
		seed := r.Uint64()
		probe := randomBoundedModel(rand.New(rand.NewPCG(seed, 0)), "")
		from, to := "S"+fmt.Sprint(r.IntN(2)), "S"+fmt.Sprint(1+r.IntN(3))
		fr := fairness[r.IntN(len(fairness))]
		if !strings.Contains(probe, `"id": "`+to+`"`) || !eventsDeclared(probe, fr) {
			continue
		}
		inv := fmt.Sprintf(`, "invariants": [{"id": "lt", "description": "", "kind": "leads-to", "from": %q, "to": %q}, {"id": "ltl", "description": "", "kind": "ltl", "formula": "G (%s -> F %s)"}]`, from, to, from, to)
		src := randomBoundedModel(rand.New(rand.NewPCG(seed, 0)), inv+fr)
		rep := run(t, src, 0)
		a9, a15 := check(rep, "A9").Findings, check(rep, "A15").Findings
		if len(a9) != len(a15) || len(a9) == 1 && (a9[0].Code != "A9_LEADS_TO_VIOLATION" || a15[0].Code != "A15_LTL_VIOLATION") {
			t.Fatalf("model %d: A9 %+v, A15 %+v\n%s", i, a9, a15, src)
		}
		if len(a15) == 1 {
			violated++
			assertLassoReplays(t, src, a15[0])
			if a9[0].Evidence.Get("cycleStart") != nil { // a fair A9 cycle is a lasso too
				assertLassoReplays(t, src, a9[0])
				fairCycles++
			}
		}
	}
	if violated < 40 || fairCycles < 10 {
		t.Errorf("only %d violations, %d of them fair A9 cycles", violated, fairCycles)
	}
}

// eventsDeclared: the fairness block names only events the model has.
func eventsDeclared(src, fairness string) bool {
	for _, e := range []string{"e0", "e1", "e2"} {
		if strings.Contains(fairness, `"`+e+`"`) && !strings.Contains(src, `"event": "`+e+`"`) {
			return false
		}
	}
	return true
}

// assertLassoReplays re-executes a lasso finding's path on a fresh runtime,
// trying every branch the steps allow, and requires one run where the
// cycle returns to the runtime at cycleStart (or, with an empty cycle,
// ends where no event is enabled).
func assertLassoReplays(t *testing.T, src string, f report.Finding) {
	t.Helper()
	res, _ := jsonmodel.Decode([]byte(src))
	mc := runtime.Compile(res.Model)
	cs, ok := f.Evidence.Get("cycleStart").(int)
	if !ok || cs > len(f.Path) {
		t.Fatalf("cycleStart %v of %d steps", f.Evidence.Get("cycleStart"), len(f.Path))
	}
	var try func(r, loop []int64, i int) bool
	try = func(r, loop []int64, i int) bool {
		if i == cs {
			loop = append([]int64(nil), r...)
		}
		if i == len(f.Path) {
			if cs == len(f.Path) {
				for ev := range mc.Events {
					if mc.Enabled(r, ev) {
						return false
					}
				}
				return true
			}
			return mc.Key(r) == mc.Key(loop)
		}
		st := f.Path[i]
		var buf runtime.StepBuffer
		for _, o := range mc.Fire(r, mc.EventIndex(st.Event), &buf) {
			if mc.States[r[0]] == st.From && mc.States[o.Next[0]] == st.To && try(append([]int64(nil), o.Next...), loop, i+1) {
				return true
			}
		}
		return false
	}
	if !try(mc.Initial(make([]int64, mc.Width())), nil, 0) {
		t.Fatalf("lasso %+v (cycle from step %d) does not replay\n%s", f.Path, cs, src)
	}
}

// The fair traffic light answers its button under weak fairness of tick,
// and without that block a button storm is the lasso.
func TestLTLTrafficLight(t *testing.T) {
	src := readExample(t, "traffic-light-fair.json")
	if fs := check(run(t, src, 0), "A15").Findings; len(fs) != 0 {
		t.Fatalf("A15 under fairness = %+v", fs)
	}
	unfair := strings.Replace(src, `"fairness": { "weak": ["tick"] }`, `"_fairness": "removed"`, 1)
	fs := check(run(t, unfair, 0), "A15").Findings
	if len(fs) != 1 || fs[0].Code != "A15_LTL_VIOLATION" || !strings.Contains(fs[0].Message, "forever and violates G (@button -> F (YELLOW || OFF))") {
		t.Fatalf("A15 without fairness = %+v", fs)
	}
	assertLassoReplays(t, unfair, fs[0])
	// A7 gives the same lasso, with its cycleStart, so it draws as one.
	a7 := check(run(t, unfair, 0), "A7").Findings
	var got any
	for _, f := range a7 {
		if f.Evidence.Get("invariant") == "button-answered" {
			got = f.Evidence.Get("cycleStart")
		}
	}
	if got != fs[0].Evidence.Get("cycleStart") {
		t.Errorf("A7 cycleStart %v, A15 %v", got, fs[0].Evidence.Get("cycleStart"))
	}
}

// A model without ltl invariants has no A15 check; one with a truncated
// exploration leaves its ltl invariant undecided.
func TestLTLCheckPresenceAndCap(t *testing.T) {
	if c := check(run(t, readExample(t, "traffic-light.json"), 0), "A15"); c != nil {
		t.Errorf("A15 in a model without ltl invariants: %+v", c)
	}
	const src = `{"schemaVersion": 1, "init": "A", "states": [{"id": "A"}, {"id": "B", "terminal": true}],
	  "transitions": [{"from": "A", "event": "up", "to": "A", "updates": [{"variable": "n", "op": "inc"}]}, {"from": "A", "event": "done", "to": "B"}],
	  "variables": [{"name": "n", "kind": "integer", "init": 0}],
	  "invariants": [{"id": "small", "description": "", "kind": "ltl", "formula": "G (n < 1000)"}]}`
	rep := run(t, src, 50)
	fs := check(rep, "A15").Findings
	if len(fs) != 1 || fs[0].Code != "A15_LTL_UNDECIDED" {
		t.Fatalf("A15 = %+v", fs)
	}
	if v, _ := rep.Verdict(); v == report.Pass {
		t.Errorf("undecided LTL passes")
	}
	// A dead end violates F: the run stops in B and never sees n == 5.
	dead := strings.Replace(src, `"G (n < 1000)"`, `"F (n == 5)"`, 1)
	fs = check(run(t, dead, 50), "A15").Findings
	if len(fs) != 1 || fs[0].Code != "A15_LTL_VIOLATION" || !strings.Contains(fs[0].Message, `stops in state "B"`) {
		t.Fatalf("A15 on a dead end = %+v", fs)
	}
}

// Under a state cap a safety formula's bad prefix is a counterexample:
// G (x < 30) is violated by the 30 increments the capped exploration
// holds, a finite path with no cycle, which replays to x = 30. A
// violation that would depend on what lies past the cap (x reaching 1000,
// a disjunct F not yet fulfilled, a liveness formula) stays undecided.
func TestLTLBadPrefixUnderCap(t *testing.T) {
	const src = `{"schemaVersion": 1, "init": "A", "states": [{"id": "A"}],
	  "transitions": [{"from": "A", "event": "up", "to": "A", "updates": [{"variable": "x", "op": "inc"}]}],
	  "variables": [{"name": "x", "kind": "integer", "init": 0}],
	  "invariants": [{"id": "small", "description": "", "kind": "ltl", "formula": "G (x < 30)"}]}`
	fs := check(run(t, src, 100), "A15").Findings
	if len(fs) != 1 || fs[0].Code != "A15_LTL_VIOLATION" || len(fs[0].Path) != 30 || fs[0].Evidence.Get("cycleStart") != nil ||
		!strings.Contains(fs[0].Message, "violates G (x < 30) whatever it does next") {
		t.Fatalf("A15 = %+v", fs)
	}
	res, _ := jsonmodel.Decode([]byte(src))
	mc := runtime.Compile(res.Model)
	r := mc.Initial(make([]int64, mc.Width()))
	var buf runtime.StepBuffer
	for i, st := range fs[0].Path {
		outs := mc.Fire(r, mc.EventIndex(st.Event), &buf)
		if len(outs) != 1 {
			t.Fatalf("step %d (%+v) does not fire", i, st)
		}
		r = append(r[:0:0], outs[0].Next...)
	}
	if x := mc.Int(r[1+mc.VarIndex("x")]); x.Int64() != 30 {
		t.Fatalf("the path ends with x = %v", x)
	}
	for _, formula := range []string{"G (x < 1000)", "G (x < 30) || F (x == 200)", "F (x < 0)", "G F (x == 0)"} {
		open := strings.Replace(src, `"G (x < 30)"`, fmt.Sprintf("%q", formula), 1)
		if fs := check(run(t, open, 100), "A15").Findings; len(fs) != 1 || fs[0].Code != "A15_LTL_UNDECIDED" {
			t.Errorf("%s under a cap: %+v", formula, fs)
		}
	}
}

// D2 re-decides a BEFORE ltl invariant in AFTER with its states mapped:
// BEFORE's DONE is AFTER's FINISHED, and AFTER can loop in A forever.
func TestLTLContinuity(t *testing.T) {
	const before = `{"schemaVersion": 1, "init": "A", "states": [{"id": "A"}, {"id": "DONE", "terminal": true}],
	  "transitions": [{"from": "A", "event": "go", "to": "DONE"}],
	  "invariants": [{"id": "ends", "description": "", "kind": "ltl", "formula": "F DONE"}]}`
	after := `{"schemaVersion": 1, "init": "A", "states": [{"id": "A"}, {"id": "FINISHED", "terminal": true}],
	  "transitions": [{"from": "A", "event": "go", "to": "FINISHED"}%s]}`
	r := compare(t, fmt.Sprintf(after, ""), before, map[string]string{"DONE": "FINISHED"}, 0)
	if fs := findingsOf(r, "D2"); len(fs) != 0 {
		t.Fatalf("D2 with the same behaviour = %+v", fs)
	}
	r = compare(t, fmt.Sprintf(after, `, {"from": "A", "event": "wait", "to": "A"}`), before, map[string]string{"DONE": "FINISHED"}, 0)
	fs := findingsOf(r, "D2")
	if len(fs) != 1 || fs[0].Code != "D2_INVARIANT_REGRESSION" || !strings.Contains(fs[0].Message, "violates F FINISHED") {
		t.Fatalf("D2 after adding a loop = %+v", fs)
	}
	r = compare(t, fmt.Sprintf(after, ""), before, nil, 0)
	if fs := findingsOf(r, "D2"); len(fs) != 1 || fs[0].Code != "D2_MAPPED_STATE_MISSING" || fs[0].Target != "DONE" {
		t.Fatalf("D2 without the mapping = %+v", fs)
	}
}
