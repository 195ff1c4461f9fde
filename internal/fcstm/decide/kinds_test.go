package decide_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/fcstm/decide"
	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/frontend"
	"github.com/stateproof/stateproof/internal/z3"
)

// TestAllDepthsDiameter: the diameter is the greatest breadth-first depth
// of a reachable state. Under the assumption the door is never opened, a
// run starts (frame 1, Closed), locks (frame 2) and breaks (frame 3, ended
// for good): four states, diameter 3, whatever path is taken.
func TestAllDepthsDiameter(t *testing.T) {
	m, fm, mc := setup(t, door)
	r, err := decide.Decide(m, fm.System, mc, bind(t, fm, "assume always: opened == 0;\ncheck forbid <= 1: active(\"Door.Open\");"), decide.Options{MaxStates: 500, AllDepths: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome != "property_satisfied" || r.States != 4 || r.Diameter != 3 {
		t.Errorf("%s, %d states, diameter %d; want property_satisfied, 4 states, diameter 3", r.Outcome, r.States, r.Diameter)
	}
}

// TestDeadline: a search whose deadline has passed decides nothing that
// needs the missing states, and says the deadline stopped it, not the cap.
func TestDeadline(t *testing.T) {
	m, fm, mc := setup(t, door)
	for _, all := range []bool{false, true} {
		q := bind(t, fm, "assume always: opened == 0;\ncheck forbid <= 4: active(\"Door.Open\");")
		r, err := decide.Decide(m, fm.System, mc, q, decide.Options{MaxStates: 500, AllDepths: all, Deadline: time.Now().Add(-time.Second)})
		if err != nil {
			t.Fatal(err)
		}
		if r.Outcome != "unknown" || !strings.Contains(r.Reason, "time share ran out") {
			t.Errorf("all depths %v: %s (%s), want unknown for the deadline", all, r.Outcome, r.Reason)
		}
	}
}

// TestMaxDepth: a state deeper than MaxDepth stops the search, undecided
// (the door's end is at depth 3 under opened == 0). That a state the
// assumptions rule out does not stop it is shown through bmc's note
// (cmd/stateproof, TestBMCEveryDepthNote).
func TestMaxDepth(t *testing.T) {
	m, fm, mc := setup(t, door)
	text := "assume always: opened == 0;\ncheck forbid <= 1: active(\"Door.Open\");"
	for _, tc := range []struct {
		depth int
		want  string
	}{{2, "unknown"}, {3, "property_satisfied"}} {
		r, err := decide.Decide(m, fm.System, mc, bind(t, fm, text), decide.Options{MaxStates: 500, AllDepths: true, MaxDepth: tc.depth})
		if err != nil {
			t.Fatal(err)
		}
		if r.Outcome != tc.want || tc.want == "unknown" && !strings.Contains(r.Reason, "depth cap reached") {
			t.Errorf("MaxDepth %d: %s (%s), want %s", tc.depth, r.Outcome, r.Reason, tc.want)
		}
	}
}

// TestMustReach pins must_reach answers on the door, reasoned by hand: a
// counterexample is a whole run of N steps that never meets the goal.
func TestMustReach(t *testing.T) {
	m, fm, mc := setup(t, door)
	for _, tc := range []struct {
		text, want string
		steps      int // the counterexample's length; 0 without one
	}{
		// the root is active from frame 0 (a cold start) on
		{`check must_reach <= 3: active("Door");`, "property_satisfied", 0},
		// a run that never pushes stays closed (or locked)
		{`check must_reach <= 3: active("Door.Open");`, "property_violated", 3},
		// every run is closed at frame 1
		{`check must_reach <= 2: active("Door.Closed");`, "property_satisfied", 0},
		{"assume always: !active(\"Door.Closed\");\ncheck must_reach <= 2: active(\"Door.Open\");", "scenario_infeasible", 0},
		// undefined is not good: 1 / opened is undefined until a push
		{`check must_reach <= 1: 1 / opened > 0;`, "property_violated", 1},
	} {
		r, err := decide.Decide(m, fm.System, mc, bind(t, fm, tc.text), decide.Options{MaxStates: 10000})
		if err != nil {
			t.Fatalf("%s: %v", tc.text, err)
		}
		if r.Outcome != tc.want || len(r.Steps) != tc.steps || tc.steps > 0 && len(r.Frames) != tc.steps+1 {
			t.Errorf("%s: %s (%s) with %d steps, want %s with %d", tc.text, r.Outcome, r.Reason, len(r.Steps), tc.want, tc.steps)
		}
	}
	_, err := decide.Decide(m, fm.System, mc, bind(t, fm, `check must_reach <= 3: active("Door.Open");`), decide.Options{AllDepths: true})
	var ref *decide.Refusal
	if !errors.As(err, &ref) {
		t.Errorf("must_reach with AllDepths: %v, want a refusal", err)
	}
}

// TestMustReachAgreesWithBMC is the differential test of must_reach: the
// random queries of TestAgreesWithBMC with their kind made must_reach, on
// the examples and random models (seeds logged).
func TestMustReachAgreesWithBMC(t *testing.T) { agreeAsKind(t, "must_reach", 300) }

// TestExistsAlwaysAgreesWithBMC is the same differential for
// exists_always.
func TestExistsAlwaysAgreesWithBMC(t *testing.T) { agreeAsKind(t, "exists_always", 500) }

// agreeAsKind compares the explicit outcome with bmc's on random queries
// made of kind.
func agreeAsKind(t *testing.T, kind string, seedBase uint64) {
	ctx, err := z3.NewContext()
	if err != nil {
		t.Skip("no Z3:", err)
	}
	defer ctx.Close()
	compared := map[string]int{}
	check := func(name string, m *model.Model, seed uint64, n int) {
		m, fm, mc := engines(t, m)
		for _, text := range randomQueries(seed, fm.System, n) {
			if strings.Contains(text, "check cover") {
				continue
			}
			i := strings.Index(text, "check ")
			j := strings.Index(text, " <=")
			text = text[:i] + "check " + kind + text[j:]
			q := bind(t, fm, text)
			r, err := decide.Decide(m, fm.System, mc, q, decide.Options{MaxStates: 200000})
			if err != nil {
				t.Fatalf("%s: %s: %v", name, text, err)
			}
			rep, err := frontend.Check(ctx, fm, q, bmc.Options{TimeoutMS: 60000}, "")
			if err != nil {
				t.Fatalf("%s: %s: %v", name, text, err)
			}
			if want := rep.Result.Outcome; want != "timeout" && r.Outcome != want {
				t.Errorf("%s: %s\nexplicit %s (%s), bmc %s (%s)", name, text, r.Outcome, r.Reason, want, rep.Result.Reason)
			}
			compared[rep.Result.Outcome]++
		}
	}
	paths, _ := filepath.Glob("../../../examples/fcstm/*.fcstm")
	for _, p := range paths {
		m, err := model.Load(p)
		if err != nil {
			t.Fatal(err)
		}
		check(p, m, seedBase%7, 6)
	}
	check("raises", parse(t, raises), seedBase%11, 12)
	for seed := uint64(1); seed <= 12; seed++ {
		t.Logf("random model seed %d", seed)
		check(fmt.Sprintf("seed %d", seed), parse(t, fcstmtest.RandomModel(seed)), seed+seedBase, 6)
	}
	for seed := uint64(1); seed <= 6; seed++ {
		t.Logf("random raising model seed %d", seed)
		check(fmt.Sprintf("raising seed %d", seed), parse(t, fcstmtest.RandomRaisingModel(seed)), seed+seedBase, 6)
	}
	t.Logf("outcomes compared: %v", compared)
}

// TestExistsAlways pins exists_always answers on the door, by hand: a
// witness is a whole run of N steps on which the body always holds.
func TestExistsAlways(t *testing.T) {
	m, fm, mc := setup(t, door)
	for _, tc := range []struct {
		text, want string
		steps      int
	}{
		{`check exists_always <= 3: active("Door");`, "witness_found", 3},
		{`check exists_always <= 3: !active("Door.Open");`, "witness_found", 3},
		// frame 0 is the cold start: only the root is active
		{`check exists_always <= 3: active("Door.Closed");`, "no_witness", 0},
		// undefined never holds
		{`check exists_always <= 2: 1 / opened > 0;`, "no_witness", 0},
	} {
		r, err := decide.Decide(m, fm.System, mc, bind(t, fm, tc.text), decide.Options{MaxStates: 10000})
		if err != nil {
			t.Fatalf("%s: %v", tc.text, err)
		}
		if r.Outcome != tc.want || len(r.Steps) != tc.steps {
			t.Errorf("%s: %s (%s) with %d steps, want %s with %d", tc.text, r.Outcome, r.Reason, len(r.Steps), tc.want, tc.steps)
		}
	}
}

// TestResponse pins response answers on the door, reasoned by hand.
func TestResponse(t *testing.T) {
	m, fm, mc := setup(t, door)
	for _, tc := range []struct{ text, want string }{
		// Open at frame 2 may stay open at frame 3 (no Pull)
		{`check response <= 4: trigger active("Door.Open") -> within 1 active("Door.Closed");`, "property_violated"},
		{"assume event(\"Door.Open.Pull\", *) == true;\ncheck response <= 4: trigger active(\"Door.Open\") -> within 1 active(\"Door.Closed\");", "property_satisfied"},
		// closed at frame 1, its window reaches past the bound: bmc's tail
		{`check response <= 3: trigger active("Door.Closed") -> within 3 active("Door.Open");`, "incomplete"},
		// Push is free on the first cycle, which only enters Closed
		{`check response <= 3: trigger event("Door.Closed.Push", current) -> within 1 active("Door.Open");`, "property_violated"},
		{"assume event(\"Door.Closed.Push\", 0) == false;\nassume event(\"Door.Open.Pull\", *) == false;\ncheck response <= 3: trigger event(\"Door.Closed.Push\", current) && active(\"Door.Closed\") -> within 1 active(\"Door.Open\");", "property_satisfied"},
		// an undefined trigger violates at once
		{`check response <= 3: trigger 1 / opened > 0 -> within 1 true;`, "property_violated"},
	} {
		r, err := decide.Decide(m, fm.System, mc, bind(t, fm, tc.text), decide.Options{MaxStates: 10000})
		if err != nil {
			t.Fatalf("%s: %v", tc.text, err)
		}
		if r.Outcome != tc.want {
			t.Errorf("%s: %s (%s), want %s", tc.text, r.Outcome, r.Reason, tc.want)
		}
	}
}

// TestResponseAgreesWithBMC is the differential test of response: random
// triggers (reading states, variables and the step's events), targets,
// windows and assumptions, on the examples and random models (seeds
// logged).
func TestResponseAgreesWithBMC(t *testing.T) {
	ctx, err := z3.NewContext()
	if err != nil {
		t.Skip("no Z3:", err)
	}
	defer ctx.Close()
	compared := map[string]int{}
	check := func(name string, m *model.Model, seed uint64, n int) {
		m, fm, mc := engines(t, m)
		r := rand.New(rand.NewPCG(seed, 40))
		_, events, _, _ := vocabulary(fm.System)
		for i, base := range randomQueries(seed, fm.System, n) {
			// keep the assumptions; the body becomes the target or the trigger
			j := strings.Index(base, "check ")
			body := bodyOf(base)
			if strings.Contains(body, "case(") || strings.Contains(body, "cycle") {
				body = "true"
			}
			trigger, target := "true", body
			if i%2 == 0 {
				trigger, target = body, randomQueries(seed+uint64(i), fm.System, 1)[0]
				target = bodyOf(target)
				if strings.Contains(target, "case(") || strings.Contains(target, "cycle") {
					target = "terminated()"
				}
			}
			if len(events) > 0 && r.IntN(2) == 0 {
				trigger = fmt.Sprintf("event(%q, current) && %s", events[r.IntN(len(events))], trigger)
			}
			// the bound stays the base query's: its assumptions name steps
			c := base[j:]
			bound := c[strings.Index(c, "<= ")+3 : strings.Index(c, ":")]
			text := fmt.Sprintf("%scheck response <= %s: trigger %s -> within %d %s;", base[:j], bound, trigger, 1+r.IntN(4), target)
			q := bind(t, fm, text)
			res, err := decide.Decide(m, fm.System, mc, q, decide.Options{MaxStates: 200000})
			if err != nil {
				t.Fatalf("%s: %s: %v", name, text, err)
			}
			rep, err := frontend.Check(ctx, fm, q, bmc.Options{TimeoutMS: 60000}, "")
			if err != nil {
				t.Fatalf("%s: %s: %v", name, text, err)
			}
			if want := rep.Result.Outcome; want != "timeout" && res.Outcome != want {
				t.Errorf("%s: %s\nexplicit %s (%s), bmc %s (%s)", name, text, res.Outcome, res.Reason, want, rep.Result.Reason)
			}
			compared[rep.Result.Outcome]++
		}
	}
	paths, _ := filepath.Glob("../../../examples/fcstm/*.fcstm")
	for _, p := range paths {
		m, err := model.Load(p)
		if err != nil {
			t.Fatal(err)
		}
		check(p, m, 3, 6)
	}
	check("raises", parse(t, raises), 7, 12)
	for seed := uint64(1); seed <= 12; seed++ {
		t.Logf("random model seed %d", seed)
		check(fmt.Sprintf("seed %d", seed), parse(t, fcstmtest.RandomModel(seed)), seed+400, 6)
	}
	for seed := uint64(1); seed <= 6; seed++ {
		t.Logf("random raising model seed %d", seed)
		check(fmt.Sprintf("raising seed %d", seed), parse(t, fcstmtest.RandomRaisingModel(seed)), seed+400, 6)
	}
	t.Logf("outcomes compared: %v", compared)
}

// bodyOf is the body of a generated query's check clause.
func bodyOf(text string) string {
	c := text[strings.LastIndex(text, "check "):]
	return c[strings.Index(c, ": ")+2 : len(c)-1]
}
