package verify

import (
	"io"

	"fmt"
	"github.com/stateproof/stateproof/internal/report"
	"slices"
	"strings"
	"testing"
)

// m builds a model with init "A" from its parts: states and transitions
// are the inner text of their arrays, rest is appended as further keys.
func m(states, trans, rest string) string {
	return `{"schemaVersion":1,"init":"A","states":[` + states + `],"transitions":[` + trans + `]` + rest + `}`
}

// unbounded is a counter that never stops: every exploration truncates.
const unboundedStates = `{"id":"A"},{"id":"B"},{"id":"Z","terminal":true}`
const unboundedTrans = `{"from":"A","event":"tick","to":"A","updates":[{"variable":"c","op":"inc"}],"cost":0},{"from":"A","event":"go","to":"B","cost":0},{"from":"B","event":"end","to":"Z","cost":0}`
const boundedTrans = `{"from":"A","event":"tick","to":"A","guard":{"variable":"c","op":"<","value":3},"updates":[{"variable":"c","op":"inc"}],"cost":0},{"from":"A","event":"go","to":"B","cost":0},{"from":"B","event":"end","to":"Z","cost":0}`
const counterVar = `,"variables":[{"name":"c","kind":"integer","init":0}]`

func capped(rest string) (bad, good string) {
	return m(unboundedStates, unboundedTrans, counterVar+rest), m(unboundedStates, boundedTrans, counterVar+rest)
}

type codeCase struct {
	code      string
	bad, good string
	maxStates int
}

func probeCases() []codeCase {
	const ab = `{"id":"A"},{"id":"B"},{"id":"C","terminal":true}`
	const xvar = `,"variables":[{"name":"x","kind":"integer","init":0,"min":0,"max":5},{"name":"y","kind":"integer","init":0,"min":0,"max":5}]`
	const res = `,"resourcePairs":[{"resource":"r","acquireEvent":"acq","releaseEvent":"rel"}]`
	const resFail = `,"resourcePairs":[{"resource":"r","acquireEvent":"acq","releaseEvent":"rel","failEvent":"fail"}]`
	const lock = `{"from":"A","event":"acq","to":"B"},{"from":"B","event":"rel","to":"A"},{"from":"A","event":"stop","to":"C"}`
	const cases = `{"from":"A","event":"go","to":"B","guard":{"variable":"x","op":"<","value":3}},{"from":"A","event":"go","to":"C","guard":{"variable":"x","op":"%s","value":3}},{"from":"B","event":"go","to":"C"}`
	const walk = `{"from":"A","event":"up","to":"A","guard":{"variable":"x","op":"<","value":600},"updates":[{"variable":"x","op":"inc"}]},{"from":"A","event":"down","to":"A","guard":{"variable":"x","op":">","value":0},"updates":[{"variable":"x","op":"dec"}]},{"from":"A","event":"escape","to":"C","weight":%s},{"from":"A","event":"fall","to":"B","guard":{"variable":"x","op":">=","value":600}}`
	const prob = `,"invariants":[{"id":"p","description":"d","kind":"probability","target":"C","op":">=","p":0.5}]`
	const walkVar = `,"variables":[{"name":"x","kind":"integer","init":0,"min":0,"max":600}]`
	const coin = `{"from":"A","event":"heads","to":"C"},{"from":"A","event":"tails","to":"B"},{"from":"B","event":"stay","to":"B"}`
	const ticks = `{"from":"A","event":"tick","to":"A","guard":{"variable":"x","op":"<","value":2},"updates":[{"variable":"x","op":"inc"}]},{"from":"A","event":"tick","to":"C"}`
	a1bad, a1good := m(ab, `{"from":"A","event":"go","to":"B"},{"from":"B","event":"go","to":"C"},{"from":"A","event":"stop","to":"C"}`, ""), m(ab, `{"from":"A","event":"go","to":"B"},{"from":"B","event":"go","to":"C"},{"from":"A","event":"stop","to":"C"},{"from":"B","event":"stop","to":"C"}`, "")
	out := []codeCase{
		{"A1_UNHANDLED_EVENT", a1bad, a1good, 0},
		{"A2_ORDER_DEPENDENT",
			m(ab, `{"from":"A","event":"s1","to":"A","updates":[{"variable":"x","op":"set","value":1}]},{"from":"A","event":"s2","to":"A","updates":[{"variable":"x","op":"set","value":2}]},{"from":"A","event":"stop","to":"C"}`, xvar+`,"concurrentPairs":[["s1","s2"]]`),
			m(ab, `{"from":"A","event":"s1","to":"A","updates":[{"variable":"x","op":"set","value":1}]},{"from":"A","event":"s2","to":"A","updates":[{"variable":"y","op":"set","value":2}]},{"from":"A","event":"stop","to":"C"}`, xvar+`,"concurrentPairs":[["s1","s2"]]`), 0},
		{"A3_ORDER_DEPENDENT",
			m(ab, `{"from":"A","event":"s1","to":"A","updates":[{"variable":"x","op":"set","value":1}]},{"from":"A","event":"s2","to":"A","updates":[{"variable":"x","op":"set","value":2}]}`, xvar),
			m(ab, `{"from":"A","event":"s1","to":"A","updates":[{"variable":"x","op":"set","value":1}]},{"from":"A","event":"s2","to":"A","updates":[{"variable":"y","op":"set","value":2}]}`, xvar), 0},
		{"A4_REACQUIRE_WITHOUT_RELEASE", m(ab, lock+`,{"from":"B","event":"acq","to":"B"}`, res), m(ab, lock+`,{"from":"B","event":"again","to":"B"}`, res), 0},
		{"A4_TERMINAL_WITH_RESOURCE",
			m(`{"id":"A"},{"id":"B"},{"id":"C","terminal":true}`, lock+`,{"from":"B","event":"crash","to":"C"}`, res),
			m(`{"id":"A"},{"id":"B"},{"id":"C","terminal":true,"onEntry":["rel"]}`, lock+`,{"from":"B","event":"crash","to":"C"}`, res), 0},
		{"A4_NO_RELEASE_REACHABLE",
			m(`{"id":"A"},{"id":"B"},{"id":"C","terminal":true},{"id":"D"}`, lock+`,{"from":"B","event":"hang","to":"D"},{"from":"D","event":"hang","to":"D"}`, res),
			m(`{"id":"A"},{"id":"B"},{"id":"C","terminal":true},{"id":"D","onExit":["rel"]}`, lock+`,{"from":"B","event":"hang","to":"D"},{"from":"D","event":"hang","to":"D"}`, res), 0},
		{"A4_UNDECIDED", chain(1001), chain(900), 0},
		{"A5_OUT_OF_DOMAIN", m(ab, fmt.Sprintf(cases, ">="), xvar+`,"boundaryChecks":[{"variable":"x","values":[6]}]`), m(ab, fmt.Sprintf(cases, ">="), xvar+`,"boundaryChecks":[{"variable":"x","values":[5]}]`), 0},
		{"A5_GUARD_HOLE", m(ab, fmt.Sprintf(cases, ">"), xvar+`,"boundaryChecks":[{"variable":"x","values":[3]}]`), m(ab, fmt.Sprintf(cases, ">"), xvar+`,"boundaryChecks":[{"variable":"x","values":[2]}]`), 0},
		{"A5_GUARD_OVERLAP", m(ab, fmt.Sprintf(cases, "<="), xvar+`,"boundaryChecks":[{"variable":"x","values":[2]}]`), m(ab, fmt.Sprintf(cases, "<="), xvar+`,"boundaryChecks":[{"variable":"x","values":[4]}]`), 0},
		{"A6_NO_FAILURE_HANDLER", m(ab, lock+`,{"from":"B","event":"fail","to":"A"}`, resFail), m(ab, lock+`,{"from":"B","event":"fail","to":"A"},{"from":"A","event":"fail","to":"A"}`, resFail), 0},
		{"A7_SHORTEST_COUNTEREXAMPLE",
			m(ab, `{"from":"A","event":"go","to":"B"},{"from":"B","event":"go","to":"C"}`, `,"invariants":[{"id":"n","description":"d","kind":"never-states","states":["C"]}]`),
			m(ab, `{"from":"A","event":"go","to":"B"},{"from":"B","event":"go","to":"A"},{"from":"A","event":"go2","to":"A"}`, `,"invariants":[{"id":"n","description":"d","kind":"never-states","states":["C"]}]`), 0},
		{"A8_NOT_REPLAYABLE", m(ab, `{"from":"A","event":"ev","to":"B"},{"from":"B","event":"go","to":"C"}`, `,"idempotentEvents":["ev"]`), m(ab, `{"from":"A","event":"ev","to":"B"},{"from":"B","event":"go","to":"C"},{"from":"B","event":"ev","to":"B"}`, `,"idempotentEvents":["ev"]`), 0},
		{"A8_NOT_IDEMPOTENT",
			m(ab, `{"from":"A","event":"ev","to":"B","updates":[{"variable":"x","op":"set","value":1}]},{"from":"B","event":"ev","to":"B","guard":{"variable":"x","op":"<","value":3},"updates":[{"variable":"x","op":"inc"}]},{"from":"B","event":"ev","to":"B"}`, xvar+`,"idempotentEvents":["ev"]`),
			m(ab, `{"from":"A","event":"ev","to":"B","updates":[{"variable":"x","op":"set","value":1}]},{"from":"B","event":"ev","to":"B"}`, xvar+`,"idempotentEvents":["ev"]`), 0},
		{"A9_LEADS_TO_VIOLATION",
			m(ab, `{"from":"A","event":"go","to":"B"},{"from":"B","event":"back","to":"A"},{"from":"B","event":"go","to":"C"}`, `,"invariants":[{"id":"l","description":"d","kind":"leads-to","from":"A","to":"C"}]`),
			m(ab, `{"from":"A","event":"go","to":"B"},{"from":"B","event":"go","to":"C"}`, `,"invariants":[{"id":"l","description":"d","kind":"leads-to","from":"A","to":"C"}]`), 0},
		{"A10_SEQUENCE_VIOLATION",
			m(ab, `{"from":"A","event":"b","to":"B"},{"from":"B","event":"a","to":"C"}`, `,"invariants":[{"id":"s","description":"d","kind":"sequence","events":["a","b"]}]`),
			m(ab, `{"from":"A","event":"a","to":"B"},{"from":"B","event":"b","to":"C"}`, `,"invariants":[{"id":"s","description":"d","kind":"sequence","events":["a","b"]}]`), 0},
		{"A11_ATOMICITY_VIOLATION",
			m(ab, `{"from":"A","event":"begin","to":"B"},{"from":"B","event":"other","to":"C"},{"from":"B","event":"commit","to":"C"}`, `,"invariants":[{"id":"t","description":"d","kind":"atomicity","events":["begin"],"commit":"commit"}]`),
			m(ab, `{"from":"A","event":"begin","to":"B"},{"from":"B","event":"commit","to":"C"}`, `,"invariants":[{"id":"t","description":"d","kind":"atomicity","events":["begin"],"commit":"commit"}]`), 0},
		{"A12_BUDGET_OVER",
			m(ab, `{"from":"A","event":"go","to":"B","cost":2},{"from":"B","event":"go","to":"C","cost":2}`, `,"invariants":[{"id":"b","description":"d","kind":"budget","budget":3}]`),
			m(ab, `{"from":"A","event":"go","to":"B","cost":2},{"from":"B","event":"go","to":"C","cost":2}`, `,"invariants":[{"id":"b","description":"d","kind":"budget","budget":4}]`), 0},
		{"A12_COST_WITHOUT_BUDGET",
			m(ab, `{"from":"A","event":"go","to":"B","cost":2},{"from":"B","event":"go","to":"C"}`, ""),
			m(ab, `{"from":"A","event":"go","to":"B","cost":2},{"from":"B","event":"go","to":"C"}`, `,"invariants":[{"id":"b","description":"d","kind":"budget","budget":4}]`), 0},
		{"A13_PROBABILITY_VIOLATION",
			m(ab, coin, `,"invariants":[{"id":"p","description":"d","kind":"probability","target":"C","op":">=","p":0.6}]`),
			m(ab, coin, `,"invariants":[{"id":"p","description":"d","kind":"probability","target":"C","op":">=","p":0.5}]`), 0},
		{"A13_NO_CONVERGENCE", m(ab, fmt.Sprintf(walk, "0.000001"), walkVar+prob), m(ab, fmt.Sprintf(walk, "1"), walkVar+prob), 0},
		{"A14_DEADLINE_MISS",
			m(`{"id":"A","maxTicks":1},{"id":"B"},{"id":"C","terminal":true}`, ticks, xvar+`,"tickEvents":["tick"]`),
			m(`{"id":"A","maxTicks":2},{"id":"B"},{"id":"C","terminal":true}`, ticks, xvar+`,"tickEvents":["tick"]`), 0},
		{"A14_NO_TICK_EVENTS",
			m(`{"id":"A","maxTicks":2},{"id":"B"},{"id":"C","terminal":true}`, ticks, xvar),
			m(`{"id":"A","maxTicks":2},{"id":"B"},{"id":"C","terminal":true}`, ticks, xvar+`,"tickEvents":["tick"]`), 0},
	}
	for _, u := range []struct{ code, rest string }{
		{"A2_UNDECIDED", `,"concurrentPairs":[["end","tick"]]`},
		{"A7_UNDECIDED", `,"invariants":[{"id":"r","description":"d","kind":"var-in-range","variable":"c","max":100}]`},
		{"A8_UNDECIDED", `,"idempotentEvents":["end"]`},
		{"A9_LEADS_TO_UNDECIDED", `,"invariants":[{"id":"l","description":"d","kind":"leads-to","from":"A","to":["B","Z"]}]`},
		{"A10_UNDECIDED", `,"invariants":[{"id":"s","description":"d","kind":"sequence","events":["go","end"]}]`},
		{"A11_UNDECIDED", `,"invariants":[{"id":"t","description":"d","kind":"atomicity","events":["go"],"commit":"end"}]`},
		{"A12_UNDECIDED", `,"invariants":[{"id":"b","description":"d","kind":"budget","budget":5}]`},
		{"A13_UNDECIDED", `,"invariants":[{"id":"p","description":"d","kind":"probability","target":"Z","op":">=","p":0.5}]`},
		{"A14_UNDECIDED", `,"tickEvents":["end"]`},
	} {
		bad, good := capped(u.rest)
		if u.code == "A14_UNDECIDED" {
			bad, good = strings.Replace(bad, `{"id":"A"}`, `{"id":"A","maxTicks":1}`, 1), strings.Replace(good, `{"id":"A"}`, `{"id":"A","maxTicks":1}`, 1)
		}
		out = append(out, codeCase{u.code, bad, good, 20})
	}
	return out
}

// chain is a line of n states whose first state acquires a resource on
// entry: A4's (state, held) graph has n nodes.
func chain(n int) string {
	var states, trans []string
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("S%d", i)
		if i == 0 {
			id = "A"
		}
		next := fmt.Sprintf("S%d", i+1)
		if i == n-1 {
			next = "A"
		}
		states = append(states, fmt.Sprintf(`{"id":%q}`, id))
		trans = append(trans, fmt.Sprintf(`{"from":%q,"event":"next","to":%q}`, id, next))
	}
	states[0] = `{"id":"A","onEntry":["acq"],"onExit":["rel"]}`
	return m(strings.Join(states, ","), strings.Join(trans, ","), `,"resourcePairs":[{"resource":"r","acquireEvent":"acq","releaseEvent":"rel"}]`)
}

// Each A-code: a model that triggers it and a near-identical one that must not.
func TestProbeCodes(t *testing.T) {
	for _, c := range probeCases() {
		t.Run(c.code, func(t *testing.T) {
			if got := codes(run(t, c.bad, c.maxStates)); !slices.Contains(got, c.code) {
				t.Errorf("triggering model gave %v, want %s", got, c.code)
			}
			if got := codes(run(t, c.good, c.maxStates)); slices.Contains(got, c.code) {
				t.Errorf("near-identical model still gives %s (all: %v)", c.code, got)
			}
		})
	}
}

// Every check id and name, in order.
func TestChecksInOrder(t *testing.T) {
	r := run(t, modelB, 0)
	want := "S1 Reachability|S2 Deadlock|S3 Liveness|S4 Determinism|S5 Event Completeness|S6 Guard Completeness|S7 Invariant Validity|S8 Variable Declarations|" +
		"A1 Unexpected Event Injection|A2 Race Interleaving|A3 Order Permutation|A4 Pair Symmetry|A5 Boundary Blast|A6 Resource Injection|A7 Minimal Counter-Example|" +
		"A8 Idempotent Replay|A9 Leads-To|A10 Sequence Order|A11 Atomicity|A12 Budget|A13 Probability|A14 Deadline"
	var got []string
	for _, c := range r.Checks {
		got = append(got, c.ID+" "+c.Name)
	}
	if strings.Join(got, "|") != want {
		t.Errorf("checks = %v", got)
	}
}

// A truncated run reports every check it could not decide, never a pass.
func TestTruncatedRunIsUndecided(t *testing.T) {
	bad, _ := capped(`,"invariants":[{"id":"r","description":"d","kind":"var-in-range","variable":"c","max":100},
	  {"id":"l","description":"d","kind":"leads-to","from":"A","to":["B","Z"]},
	  {"id":"s","description":"d","kind":"sequence","events":["go","end"]},
	  {"id":"t","description":"d","kind":"atomicity","events":["go"],"commit":"end"},
	  {"id":"b","description":"d","kind":"budget","budget":5},
	  {"id":"p","description":"d","kind":"probability","target":"Z","op":">=","p":0.5}],
	  "concurrentPairs":[["end","tick"]],"idempotentEvents":["end"],"tickEvents":["end"]`)
	bad = strings.Replace(bad, `{"id":"A"}`, `{"id":"A","maxTicks":1}`, 1)
	r := run(t, bad, 20)
	if !r.Truncated {
		t.Fatal("summary.truncated is false")
	}
	got := codes(r)
	for _, want := range []string{"S7_UNDECIDED", "A2_UNDECIDED", "A7_UNDECIDED", "A8_UNDECIDED", "A9_LEADS_TO_UNDECIDED",
		"A10_UNDECIDED", "A11_UNDECIDED", "A12_UNDECIDED", "A13_UNDECIDED", "A14_UNDECIDED"} {
		if !slices.Contains(got, want) {
			t.Errorf("codes %v lack %s", got, want)
		}
	}
	for _, id := range []string{"A2", "A7", "A8", "A9", "A10", "A11", "A12", "A13", "A14"} {
		if c := check(r, id); c.Status() == "pass" {
			t.Errorf("%s passed on a truncated run: %s", id, c.Detail)
		}
	}
	// The leads-to walk stops at 20 x maxStates on its own cap.
	for _, f := range check(r, "A9").Findings {
		if f.Evidence.Get("capKind") != "leadsToWalk" || f.Evidence.Get("cap") != 400 || f.Evidence.Get("invariant") != "l" {
			t.Errorf("A9 undecided evidence = %v", f.Evidence)
		}
	}
	var text strings.Builder
	if err := writeText(&text, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "not decided A9_LEADS_TO_UNDECIDED") {
		t.Errorf("text report does not say not decided:\n%s", text.String())
	}
}

func writeText(w io.Writer, r *report.VerifyReport) error {
	return report.WriteVerifyText(w, "model.json", r, report.Style{})
}
