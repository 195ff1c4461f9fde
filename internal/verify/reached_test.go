package verify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/runtime"
)

// reachedOf is what a partitioned search tells of an exploration: the
// owners run the probes over the graph's runtimes.
func reachedOf(m *jsonmodel.Model, mc *runtime.Machine, g *explore.Graph) *Reached {
	r := &Reached{Len: g.Len(), Cap: g.Cap, Truncated: g.Truncated, States: make([]bool, len(mc.States)), Machine: mc}
	for i := range g.Len() {
		r.States[g.StateOf(i)] = true
	}
	for _, p := range Probes(m, mc) {
		h := Hit{Index: -1}
		for i := range g.Len() {
			if w := g.Runtime(i, nil); p(w, i == 0) {
				h = Hit{Index: i, Runtime: w, Path: g.Path(i)}
				break
			}
		}
		r.Hits = append(r.Hits, h)
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
	models := sameReportModels(t)
	for name, src := range sameReportModels(t) {
		// the model without the invariants that need the graph, so that
		// its concurrent pairs and idempotent events are tested here too
		if local, ok := withoutGraphInvariants(src); ok {
			models[name+" (state invariants only)"] = local
		}
	}
	for name, src := range models {
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

// withoutGraphInvariants drops a model's invariants that are not
// IsStateLocal, and its deadlines; ok is false when it has none to drop.
func withoutGraphInvariants(src []byte) ([]byte, bool) {
	var m map[string]any
	if json.Unmarshal(src, &m) != nil {
		return nil, false
	}
	invs, _ := m["invariants"].([]any)
	var kept []any
	for _, inv := range invs {
		if k, _ := inv.(map[string]any)["kind"].(string); k == jsonmodel.NeverStates || k == jsonmodel.VarInRange {
			kept = append(kept, inv)
		}
	}
	_, ticks := m["tickEvents"]
	if len(kept) == len(invs) && !ticks {
		return nil, false
	}
	m["invariants"] = kept
	if kept == nil {
		delete(m, "invariants")
	}
	delete(m, "tickEvents")
	states, _ := m["states"].([]any)
	for _, st := range states {
		delete(st.(map[string]any), "maxTicks")
	}
	out, err := json.Marshal(m)
	return out, err == nil
}

// A model with a check that reads more than the reached states and the
// least runtime of each probe (an event-before-state invariant, a
// deadline) needs the graph; state invariants, concurrent pairs and
// idempotent events do not.
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
		if got, want := ReachedEnough(res.Model), what != "event-before-state" && what != "deadline"; got != want {
			t.Errorf("%s: ReachedEnough %v, want %v", what, got, want)
		}
	}
}

// For every model ReachedEnough refuses, the report from what a
// partitioned search tells builds no graph (worker 0 never holds it) and
// differs from the one-process report only where a check needs the whole
// graph: every invariant that is not IsStateLocal, and the deadlines, are
// undecided "graph partitioned" (never a pass), and every other finding
// is the one-process one (issue 42 item 2).
func TestReachedPartitioned(t *testing.T) {
	refused := 0
	for name, src := range sameReportModels(t) {
		res, err := jsonmodel.Decode(src)
		if err != nil || !res.Valid() || ReachedEnough(res.Model) {
			continue
		}
		refused++
		for _, maxStates := range []int{10000, 7} {
			opts := DefaultOptions()
			opts.MaxStates = maxStates
			want := Run(res, opts)
			mc := runtime.Compile(res.Model)
			opts.Reached = reachedOf(res.Model, mc, explore.Search{Machine: mc, Cap: maxStates}.Run())
			got, e := runEnv(res, opts)
			if e.graph != nil {
				t.Errorf("%s, maxStates %d: a check built the graph of a partitioned search", name, maxStates)
			}
			comparePartitioned(t, fmt.Sprintf("%s, maxStates %d", name, maxStates), res.Model, want, limitFindings(got, opts.MaxFindings))
		}
	}
	if refused < 5 {
		t.Errorf("ReachedEnough refused only %d models: the test tests little", refused)
	}
}

// comparePartitioned checks a partitioned report against the one-process
// one (see TestReachedPartitioned).
func comparePartitioned(t *testing.T, name string, m *jsonmodel.Model, want, got *report.VerifyReport) {
	t.Helper()
	if len(got.Checks) != len(want.Checks) {
		t.Fatalf("%s: %d checks, want %d", name, len(got.Checks), len(want.Checks))
	}
	text := func(f report.Finding) string { b, _ := json.Marshal(f); return string(b) }
	partitioned := map[string]int{} // per check, its "graph partitioned" findings
	for i, c := range got.Checks {
		wanted := map[string]bool{}
		for _, f := range want.Checks[i].Findings {
			wanted[text(f)] = true
		}
		have := map[string]bool{}
		for _, f := range c.Findings {
			have[text(f)] = true
			if kind, _ := f.Evidence.Get("capKind").(string); f.Undecided() && kind == "partitioned" {
				partitioned[c.ID]++
				if !bytes.Contains([]byte(f.Message), []byte("graph partitioned")) {
					t.Errorf("%s: %s: %q does not say why", name, c.ID, f.Message)
				}
				continue
			}
			if !wanted[text(f)] {
				t.Errorf("%s: %s: finding not in the one-process report: %s", name, c.ID, text(f))
			}
		}
		for _, f := range want.Checks[i].Findings {
			if !have[text(f)] && partitioned[c.ID] == 0 {
				t.Errorf("%s: %s: finding dropped with nothing undecided in its place: %s", name, c.ID, text(f))
			}
		}
	}
	graphInvs := 0
	for i := range m.Invariants {
		if !IsStateLocal(&m.Invariants[i]) {
			graphInvs++
		}
	}
	if partitioned["A7"] != graphInvs {
		t.Errorf("%s: A7 has %d graph-partitioned findings, the model %d invariants that need the graph", name, partitioned["A7"], graphInvs)
	}
	deadlines := len(m.TickEvents) > 0 && slices.ContainsFunc(m.States, func(s jsonmodel.State) bool { return s.MaxTicks != nil })
	if deadlines != (partitioned["A14"] == 1) {
		t.Errorf("%s: deadlines %v, A14 graph-partitioned findings %d", name, deadlines, partitioned["A14"])
	}
	if !slices.Contains(got.StoppedBy, "partitioned") {
		t.Errorf("%s: the report's stops %v do not name the partition", name, got.StoppedBy)
	}
}
