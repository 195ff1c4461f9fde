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
func reachedOf(g *explore.Graph, states int) *Reached {
	r := &Reached{Len: g.Len(), Cap: g.Cap, Truncated: g.Truncated, States: make([]bool, states)}
	for i := range g.Len() {
		r.States[g.StateOf(i)] = true
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
			opts.Reached = reachedOf(explore.Search{Machine: mc, Cap: maxStates}.Run(), len(mc.States))
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

// A model with anything that reads more than the reached states needs
// the graph.
func TestReachedEnoughRefuses(t *testing.T) {
	base := `{"schemaVersion":1,"init":"A","states":[{"id":"A"%s},{"id":"B","terminal":true}],
		"transitions":[{"from":"A","event":"go","to":"B"},{"from":"A","event":"tick","to":"A"}]%s}`
	for what, parts := range map[string][2]string{
		"nothing":    {"", ""},
		"invariant":  {"", `,"invariants":[{"id":"i","description":"d","kind":"never-states","states":["B"]}]`},
		"pair":       {"", `,"concurrentPairs":[["go","tick"]]`},
		"idempotent": {"", `,"idempotentEvents":["tick"]`},
		"deadline":   {`,"maxTicks":3`, `,"tickEvents":["tick"]`},
	} {
		res, err := jsonmodel.Decode([]byte(fmt.Sprintf(base, parts[0], parts[1])))
		if err != nil || !res.Valid() {
			t.Fatalf("%s: %v %v", what, err, res.Errors)
		}
		if got, want := ReachedEnough(res.Model), what == "nothing"; got != want {
			t.Errorf("%s: ReachedEnough %v, want %v", what, got, want)
		}
	}
}
