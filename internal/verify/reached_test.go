package verify

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/runtime"
)

// reachedOf is what a partitioned search tells of an exploration.
func reachedOf(m *jsonmodel.Model, mc *runtime.Machine, g *explore.Graph) *Reached {
	r := &Reached{Len: g.Len(), Cap: g.Cap, Truncated: g.Truncated, States: make([]bool, len(mc.States)), Violations: make([]*Violation, len(m.Invariants))}
	for i := range g.Len() {
		r.States[g.StateOf(i)] = true
	}
	for k := range m.Invariants {
		bad := StateViolation(m, mc, &m.Invariants[k])
		for i := range g.Len() {
			if what, ok := bad(g.Runtime(i, nil), i == 0); ok {
				r.Violations[k] = &Violation{What: what, Path: g.Path(i)}
				break
			}
		}
	}
	return r
}

// For every model ReachedEnough accepts, the report from what a
// partitioned search tells (Options.Reached) is the one-process report
// byte for byte, at caps that stop the search too, and no check builds
// the graph: worker 0 never holds it (issue 42 item 2).
func TestReachedIsEnough(t *testing.T) {
	accepted := 0
	defer func() { t.Logf("%d models accepted", accepted) }()
	for name, src := range sameReportModels(t) {
		res, err := jsonmodel.Decode(src)
		if err != nil || !res.Valid() || !ReachedEnough(res.Model) {
			continue
		}
		accepted++
		for _, maxStates := range []int{10000, 7} {
			opts := DefaultOptions()
			opts.MaxStates = maxStates
			want := reportBytes(t, src, opts)
			mc := runtime.Compile(res.Model)
			opts.Reached = reachedOf(res.Model, mc, explore.Search{Machine: mc, Cap: maxStates}.Run())
			r, e := runEnv(res, opts)
			got, err := report.Indent(limitFindings(r, opts.MaxFindings).JSON())
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s, maxStates %d: the report from Reached differs:\n%s", name, maxStates, firstDiff(want, got))
			}
			if e.graph != nil {
				t.Errorf("%s, maxStates %d: a check built the graph although ReachedEnough said it need not", name, maxStates)
			}
		}
	}
	if accepted < 5 {
		t.Errorf("ReachedEnough accepted only %d models: the test tests little", accepted)
	}
}

// A model with anything that reads more than the reached states and the
// least violation of each state invariant needs the graph.
func TestReachedEnoughRefuses(t *testing.T) {
	base := `{"schemaVersion":1,"init":"A","states":[{"id":"A"%s},{"id":"B","terminal":true}],
		"transitions":[{"from":"A","event":"go","to":"B"},{"from":"A","event":"tick","to":"A"}]%s}`
	for what, parts := range map[string][2]string{
		"nothing": {"", ""},
		"state invariants": {"", `,"invariants":[{"id":"i","description":"d","kind":"never-states","states":["B"]},
			{"id":"j","description":"d","kind":"var-in-range","variable":"x","min":0,"max":1}],"variables":[{"name":"x","kind":"integer","init":0}]`},
		"event-before-state": {"", `,"invariants":[{"id":"i","description":"d","kind":"event-before-state","event":"go","state":"B"}]`},
		"pair":               {"", `,"concurrentPairs":[["go","tick"]]`},
		"idempotent":         {"", `,"idempotentEvents":["tick"]`},
		"deadline":           {`,"maxTicks":3`, `,"tickEvents":["tick"]`},
	} {
		res, err := jsonmodel.Decode([]byte(fmt.Sprintf(base, parts[0], parts[1])))
		if err != nil || !res.Valid() {
			t.Fatalf("%s: %v %v", what, err, res.Errors)
		}
		if got, want := ReachedEnough(res.Model), what == "nothing" || what == "state invariants"; got != want {
			t.Errorf("%s: ReachedEnough %v, want %v", what, got, want)
		}
	}
}
