package bmc

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/runtime"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

func decodeModel(t *testing.T, src string) (*jsonmodel.Model, *sts.System) {
	t.Helper()
	res, err := jsonmodel.Decode([]byte(src))
	if err != nil || !res.Valid() {
		t.Fatalf("model: %v %v\n%s", err, res.Errors, src)
	}
	return res.Model, res.Model.Lower("test.json")
}

func decodeModelB(b *testing.B, src string) (*jsonmodel.Model, *sts.System) {
	res, err := jsonmodel.Decode([]byte(src))
	if err != nil || !res.Valid() {
		b.Fatalf("model: %v %v", err, res.Errors)
	}
	return res.Model, res.Model.Lower("bench.json")
}

func boolLit(v bool) expr.Expr { return &expr.BoolLit{Value: v} }

// TestDifferentialReach: on generated models, BMC `reach <= N: active(s)`
// agrees with the explicit explorer's reachability within N steps, and
// every witness replays on the runtime.
func TestDifferentialReach(t *testing.T) {
	const bound = 3
	models := 200
	if testing.Short() {
		models = 40
	}
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	for seed := uint64(1); seed <= uint64(models); seed++ {
		m, sys := decodeModel(t, gen.Random(seed))
		mc := runtime.Compile(m)
		// Breadth-first to depth `bound` only: the counters are unbounded.
		g := explore.Search{Machine: mc, Cap: 100000, OnEdge: func(g *explore.Graph, from, _ int, _ []int64) explore.Edge {
			if g.Depth(from) >= bound {
				return explore.Prune
			}
			return explore.Keep
		}}.Run()
		if g.Truncated {
			t.Fatalf("seed %d: exploration truncated", seed)
		}
		within := map[int]bool{}
		for i := 0; i < g.Len(); i++ {
			if g.Depth(i) <= bound {
				within[g.StateOf(i)] = true
			}
		}
		for _, loc := range sys.Locations {
			q := &query.Query{Check: query.Check{Kind: query.Reach, Bound: bound, Body: active(loc.Name)}}
			r, err := Solve(ctx, sys, q, Options{})
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if got := r.Outcome == "witness_found"; got != within[loc.ID] {
				t.Fatalf("seed %d state %s: bmc says %s, explorer says reachable=%v\n%s", seed, loc.Name, r.Outcome, within[loc.ID], gen.Random(seed))
			}
			if r.Trace != nil {
				if rep := mc.Replay(r.Trace); !rep.OK() {
					t.Fatalf("seed %d state %s: replay mismatches %v", seed, loc.Name, rep.Mismatches)
				}
			}
		}
	}
}

// manyLocations is a machine of n locations (more than the lean shape's
// if-then-else chain holds, so its location and step terms are trees):
// "go" steps around a ring, "jump" doubles the index while x < 3.
func manyLocations(n int) string {
	var b strings.Builder
	b.WriteString(`{"schemaVersion": 1, "init": "S0", "states": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id": "S%d"}`, i)
	}
	b.WriteString(`], "transitions": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"from": "S%d", "event": "go", "to": "S%d"},`, i, (i+1)%n)
		fmt.Fprintf(&b, `{"from": "S%d", "event": "jump", "guard": {"variable": "x", "op": "<", "value": 3}, "updates": [{"variable": "x", "op": "inc"}], "to": "S%d"}`, i, (2*i+1)%n)
	}
	b.WriteString(`], "variables": [{"name": "x", "kind": "integer", "init": 0}]}`)
	return b.String()
}

// TestDifferentialReachManyLocations: past the lean shape's chain limit
// (its terms become trees over the location bits), bmc still agrees with
// the explorer on which locations are reachable within the bound.
func TestDifferentialReachManyLocations(t *testing.T) {
	const bound = 4
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	for _, n := range []int{65, 300} {
		src := manyLocations(n)
		m, sys := decodeModel(t, src)
		mc := runtime.Compile(m)
		g := explore.Search{Machine: mc, Cap: 100000, OnEdge: func(g *explore.Graph, from, _ int, _ []int64) explore.Edge {
			if g.Depth(from) >= bound {
				return explore.Prune
			}
			return explore.Keep
		}}.Run()
		within := map[int]bool{}
		for i := 0; i < g.Len(); i++ {
			if g.Depth(i) <= bound {
				within[g.StateOf(i)] = true
			}
		}
		// Every location within the bound and a few beyond it, spread
		// over the codes.
		var asked []int
		for id := range sys.Locations {
			if within[id] || id%(n/6) == 0 {
				asked = append(asked, id)
			}
		}
		for _, id := range asked {
			loc := sys.Locations[id]
			q := &query.Query{Check: query.Check{Kind: query.Reach, Bound: bound, Body: active(loc.Name)}}
			r, err := Solve(ctx, sys, q, Options{})
			if err != nil {
				t.Fatalf("%d locations: %v", n, err)
			}
			if got := r.Outcome == "witness_found"; got != within[loc.ID] {
				t.Fatalf("%d locations, %s: bmc says %s, explorer says reachable=%v", n, loc.Name, r.Outcome, within[loc.ID])
			}
			if r.Trace != nil {
				if rep := mc.Replay(r.Trace); !rep.OK() {
					t.Fatalf("%d locations, %s: replay mismatches %v", n, loc.Name, rep.Mismatches)
				}
			}
		}
	}
}

const rootModel = `{"schemaVersion": 1, "init": "Root", "states": [{"id": "Root"}], "transitions": [], "variables": [{"name": "x", "kind": "integer", "init": 0}]}`

// The verdict truth table over both polarities and the response tail.
func TestOutcomes(t *testing.T) {
	_, sys := decodeModel(t, rootModel)
	x := &expr.Ident{Name: "x"}
	eq := func(a expr.Expr, v int64) expr.Expr {
		return &expr.Binary{Op: expr.Eq, X: a, Y: &expr.IntLit{Value: v}}
	}
	cases := []struct {
		name    string
		q       query.Query
		opts    Options
		outcome string
		sat     *bool
		role    string
		exit    int
	}{
		{"reach holds", query.Query{Check: query.Check{Kind: query.Reach, Bound: 1, Body: active("Root")}}, Options{}, "witness_found", ptr(true), "primary_witness", 0},
		{"reach impossible", query.Query{Check: query.Check{Kind: query.Reach, Bound: 1, Body: boolLit(false)}}, Options{}, "no_witness", ptr(false), "", 1},
		{"forbid violated", query.Query{Check: query.Check{Kind: query.Forbid, Bound: 1, Body: active("Root")}}, Options{}, "property_violated", ptr(false), "primary_counterexample", 1},
		{"forbid holds", query.Query{Check: query.Check{Kind: query.Forbid, Bound: 1, Body: eq(x, 1)}}, Options{}, "property_satisfied", ptr(true), "", 0},
		{"invariant holds", query.Query{Check: query.Check{Kind: query.Invariant, Bound: 2, Body: eq(x, 0)}}, Options{}, "property_satisfied", ptr(true), "", 0},
		{"invariant violated", query.Query{Check: query.Check{Kind: query.Invariant, Bound: 2, Body: eq(x, 1)}}, Options{}, "property_violated", ptr(false), "primary_counterexample", 1},
		{"must_reach violated", query.Query{Check: query.Check{Kind: query.MustReach, Bound: 2, Body: eq(x, 1)}}, Options{}, "property_violated", ptr(false), "primary_counterexample", 1},
		{"must_reach holds", query.Query{Check: query.Check{Kind: query.MustReach, Bound: 2, Body: eq(x, 0)}}, Options{}, "property_satisfied", ptr(true), "", 0},
		{"exists_always", query.Query{Check: query.Check{Kind: query.ExistsAlways, Bound: 2, Body: eq(x, 0)}}, Options{}, "witness_found", ptr(true), "primary_witness", 0},
		{"response horizon open", query.Query{Check: query.Check{Kind: query.Response, Bound: 1, Trigger: boolLit(true), Target: boolLit(false), Window: 2}}, Options{}, "incomplete", nil, "incomplete_suffix", 3},
		{"response tail disabled", query.Query{Check: query.Check{Kind: query.Response, Bound: 1, Trigger: boolLit(true), Target: boolLit(false), Window: 2}}, Options{NoIncompleteCheck: true}, "incomplete", nil, "", 3},
		{"response violated inside the bound", query.Query{Check: query.Check{Kind: query.Response, Bound: 1, Trigger: boolLit(true), Target: boolLit(false), Window: 1}}, Options{}, "property_violated", ptr(false), "primary_counterexample", 1},
		{"response satisfied", query.Query{Check: query.Check{Kind: query.Response, Bound: 2, Trigger: boolLit(true), Target: active("Root"), Window: 1}}, Options{}, "property_satisfied", ptr(true), "", 0},
		{"response, no trigger", query.Query{Check: query.Check{Kind: query.Response, Bound: 1, Trigger: boolLit(false), Target: boolLit(false), Window: 2}}, Options{}, "property_satisfied", ptr(true), "", 0},
		{"scenario infeasible", query.Query{Assumes: []query.Assume{
			{Kind: query.AssumeAt, Frame: 1, Cond: eq(&expr.AtomCall{Name: "var", Args: []expr.Arg{{Value: &expr.StringLit{Value: "x"}}}}, 1)},
			{Kind: query.AssumeAt, Frame: 1, Cond: eq(x, 2), Index: 1}},
			Check: query.Check{Kind: query.Reach, Bound: 1, Body: boolLit(true)}}, Options{}, "scenario_infeasible", nil, "", 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := c.q
			r := solve(t, sys, &q, c.opts)
			if r.Outcome != c.outcome {
				t.Fatalf("outcome %s, want %s (status %s, feasibility %+v)", r.Outcome, c.outcome, r.Status, r.Feasibility)
			}
			if (r.Satisfied == nil) != (c.sat == nil) || (c.sat != nil && *r.Satisfied != *c.sat) {
				t.Errorf("property_satisfied = %v, want %v", deref(r.Satisfied), deref(c.sat))
			}
			role := ""
			if r.Trace != nil {
				role = r.Trace.Role
			}
			if role != c.role {
				t.Errorf("model role %q, want %q", role, c.role)
			}
			if got := ExitCode(r.Outcome, true); got != c.exit {
				t.Errorf("exit %d, want %d", got, c.exit)
			}
		})
	}
}

func TestInfeasibleStagesAreLocalised(t *testing.T) {
	_, sys := decodeModel(t, rootModel)
	x := &expr.Ident{Name: "x"}
	q := &query.Query{Assumes: []query.Assume{{Kind: query.AssumeAt, Frame: 1, Cond: &expr.Binary{Op: expr.Eq, X: x, Y: &expr.IntLit{Value: 5}}}},
		Check: query.Check{Kind: query.Reach, Bound: 1, Body: boolLit(true)}}
	r := solve(t, sys, q, Options{})
	f := r.Feasibility
	if r.Outcome != "scenario_infeasible" || f.InfeasibleStage != "assumptions" || f.LocalizationStatus != "complete" {
		t.Fatalf("outcome %s, stage %q (%s)", r.Outcome, f.InfeasibleStage, f.LocalizationStatus)
	}
	if f.Assumptions.Status != "unsat" || f.Initialization.Status != "sat" || f.Kernel.Status != "sat" || f.Kernel.Origin != "inferred" {
		t.Errorf("stages: %+v", f)
	}
}

// Equation (5): |X_N| = (N+1)(V+1) + N(E+2) + Σ K_i.
func TestSymbolCount(t *testing.T) {
	_, sys := loadModel(t, "../../examples/retry.json")
	for _, n := range []int{1, 5, 12} {
		q := &query.Query{Check: query.Check{Kind: query.Reach, Bound: n, Body: boolLit(false)}}
		r := solve(t, sys, q, Options{})
		v, e, k := len(sys.Vars), len(sys.Events), sys.CaseCount()
		want := (n+1)*(v+1) + n*(e+2) + n*k
		if r.Symbols != want {
			t.Errorf("N=%d: %d symbols, want %d (V=%d E=%d K=%d)", n, r.Symbols, want, v, e, k)
		}
	}
	_, root := decodeModel(t, `{"schemaVersion": 1, "init": "Root", "states": [{"id": "Root"}], "transitions": []}`)
	r := solve(t, root, &query.Query{Check: query.Check{Kind: query.Reach, Bound: 1, Body: active("Root")}}, Options{})
	if r.Symbols != 5 { // F_0_state, F_1_state, Delta_0, Gamma_0, the stutter selector
		t.Errorf("one-state model: %d symbols, want 5", r.Symbols)
	}
}

// A budget that runs out gives timeout (or unknown), never a verdict, and
// no model.
func TestTimeoutIsInconclusive(t *testing.T) {
	_, sys := decodeModel(t, `{"schemaVersion": 1, "init": "A", "states": [{"id": "A"}], "transitions": [],
	  "variables": [{"name": "x", "kind": "integer", "init": 0}, {"name": "y", "kind": "integer", "init": 0}, {"name": "z", "kind": "integer", "init": 0}]}`)
	cube := func(n string) expr.Expr {
		v := &expr.Ident{Name: n}
		return &expr.Binary{Op: expr.Mul, X: v, Y: &expr.Binary{Op: expr.Mul, X: v, Y: v}}
	}
	sum := &expr.Binary{Op: expr.Add, X: cube("x"), Y: &expr.Binary{Op: expr.Add, X: cube("y"), Y: cube("z")}}
	body := &expr.Binary{Op: expr.Land, X: &expr.Binary{Op: expr.Eq, X: sum, Y: &expr.IntLit{Value: 33}},
		Y: &expr.Binary{Op: expr.Gt, X: &expr.Ident{Name: "x"}, Y: &expr.IntLit{Value: 1000}}}
	q := &query.Query{Init: &query.Init{Mode: query.State, State: query.Name{Name: "A"}, HavocAll: true},
		Check: query.Check{Kind: query.Reach, Bound: 1, Body: body}}
	r := solve(t, sys, q, Options{TimeoutMS: 200})
	if (r.Outcome != "timeout" && r.Outcome != "unknown") || r.Trace != nil || r.Satisfied != nil {
		t.Fatalf("outcome %s with trace %v", r.Outcome, r.Trace != nil)
	}
	if r.Reason == "" {
		t.Error("an inconclusive result must carry Z3's reason")
	}
	if ExitCode(r.Outcome, true) != 3 {
		t.Error("inconclusive exit code must be 3")
	}
}

func ptr(b bool) *bool { return &b }

func deref(b *bool) string {
	if b == nil {
		return "null"
	}
	return fmt.Sprint(*b)
}

// TestLeanAgreesWithTracked: the lean shape (the default) and the tracked
// shape (--explain) give the same outcome and the same symbol count on
// generated models, for reach, invariant, cover and event queries, with
// and without --shortest, and every lean witness replays on the runtime.
func TestLeanAgreesWithTracked(t *testing.T) {
	models := 60
	if testing.Short() {
		models = 15
	}
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	evAtom := func(name string) expr.Expr {
		return &expr.AtomCall{Name: "event", Args: []expr.Arg{{Value: &expr.StringLit{Value: name}}, {Value: &expr.Ident{Name: "current"}}}}
	}
	feasible := map[string]int{} // checked scenario statuses seen
	for seed := uint64(1); seed <= uint64(models); seed++ {
		m, sys := decodeModel(t, gen.Random(seed))
		mc := runtime.Compile(m)
		last := sys.Locations[len(sys.Locations)-1].Name
		queries := []*query.Query{
			{Check: query.Check{Kind: query.Reach, Bound: 4, Body: active(last)}},
			{Check: query.Check{Kind: query.Invariant, Bound: 4, Body: cmp(expr.Lt, sys.Vars[0].Name, 3)}},
			{Assumes: []query.Assume{{Kind: query.AssumeEvent, Event: query.Name{Name: sys.Events[0].Name}, Steps: query.StepRange{Lo: 1, Hi: 1}, Value: true}},
				Check: query.Check{Kind: query.Reach, Bound: 3, Body: active(last)}},
			{Check: query.Check{Kind: query.Response, Bound: 3, Window: 1, Trigger: evAtom(sys.Events[0].Name), Target: active(last)}},
		}
		for _, c := range sys.Cases[0] {
			if c.Kind == sts.Transition {
				queries = append(queries, &query.Query{Check: query.Check{Kind: query.Cover, Bound: 3, CaseLabel: c.Label}})
				break
			}
		}
		for qi, q := range queries {
			for _, shortest := range []bool{false, true} {
				lean, err := Solve(ctx, sys, q, Options{Shortest: shortest})
				if err != nil {
					t.Fatalf("seed %d query %d: %v", seed, qi, err)
				}
				tracked, err := Solve(ctx, sys, q, Options{Shortest: shortest, Explain: "formal", Explainer: func(*ExplainRequest) (*Refinement, error) { return &Refinement{}, nil }})
				if err != nil {
					t.Fatalf("seed %d query %d: %v", seed, qi, err)
				}
				if lean.Outcome != tracked.Outcome || lean.SolvedBound != tracked.SolvedBound || lean.Symbols != tracked.Symbols {
					t.Fatalf("seed %d query %d shortest=%v: lean %s at %d (%d symbols), tracked %s at %d (%d symbols)\n%s", seed, qi, shortest,
						lean.Outcome, lean.SolvedBound, lean.Symbols, tracked.Outcome, tracked.SolvedBound, tracked.Symbols, gen.Random(seed))
				}
				// The lean shape checks S ∧ ¬phi where the tracked one checks
				// the bare scenario S: the staged record must not differ.
				lf, tf := lean.Feasibility, tracked.Feasibility
				if lf.Assumptions.Status != tf.Assumptions.Status || lf.InfeasibleStage != tf.InfeasibleStage || lf.LocalizationStatus != tf.LocalizationStatus {
					t.Fatalf("seed %d query %d shortest=%v: lean feasibility %+v, tracked %+v", seed, qi, shortest, lf, tf)
				}
				if lf.Assumptions.Origin == "checked" {
					feasible[lf.Assumptions.Status]++
				}
				if lean.Trace != nil {
					if rep := mc.Replay(lean.Trace); !rep.OK() {
						t.Fatalf("seed %d query %d: lean replay mismatches %v", seed, qi, rep.Mismatches)
					}
				}
			}
		}
	}
	t.Logf("scenario checks after an UNSAT primary check: %v", feasible)
	if feasible["sat"] == 0 || feasible["unsat"] == 0 {
		t.Errorf("the queries did not reach both a feasible and an infeasible scenario check: %v", feasible)
	}
}
