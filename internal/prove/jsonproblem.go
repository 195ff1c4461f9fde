package prove

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/frontend"
	"github.com/stateproof/stateproof/internal/frontend/jsonfront"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/z3"
)

// JSONProblem builds the problem of a JSON model: its graph, and as
// properties its state-predicate invariants (docs/rsc.md): a
// never-states invariant is the RSC false at each listed state; a
// var-in-range invariant is the range at every state, at its `when` state
// only, or guarded by its `when` guard. ids, when non-empty, selects
// invariants by id. Violations are confirmed by the bounded model checker
// and a runtime replay.
func JSONProblem(m *jsonmodel.Model, file string, ids ...string) (*Problem, error) {
	g, err := FromSystem(m.Lower(file))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	p := &Problem{Graph: g, Confirm: confirmer(m, g)}
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	for _, inv := range m.Invariants {
		if len(want) > 0 && !want[inv.ID] {
			continue
		}
		p.Props = append(p.Props, invariantProps(m, g, &inv)...)
	}
	return p, nil
}

func invariantProps(m *jsonmodel.Model, g *Graph, inv *jsonmodel.Invariant) []Property {
	src := fmt.Sprintf("invariant %q (%s)", inv.ID, inv.Kind)
	var out []Property
	switch inv.Kind {
	case jsonmodel.NeverStates:
		for _, s := range inv.States {
			out = append(out, Property{ID: inv.ID, Node: g.NodeIndex(s), Formula: &expr.BoolLit{Value: false}, Source: src})
		}
	case jsonmodel.VarInRange:
		x := ident(inv.Variable)
		var rng expr.Expr
		if inv.Min != nil {
			rng = andExpr(rng, bin(expr.Ge, x, lit(*inv.Min)))
		}
		if inv.Max != nil {
			rng = andExpr(rng, bin(expr.Le, x, lit(*inv.Max)))
		}
		if rng == nil {
			return nil
		}
		if inv.When != nil && !holdsInitially(m, rng) {
			// The initial runtime is in every scope (docs/models.md):
			// out of range there, the invariant is violated at step 0, which
			// the range as an RSC of the initial state exhibits.
			out = append(out, Property{ID: inv.ID, Node: g.NodeIndex(m.Init), Formula: rng, Source: src + ", initial state"})
		}
		switch {
		case inv.When != nil && inv.When.Guard == nil:
			return append(out, Property{ID: inv.ID, Node: g.NodeIndex(inv.When.State), Formula: rng, Source: src})
		case inv.When != nil:
			rng = bin(expr.Implies, jsonmodel.GuardExpr(inv.When.Guard, m), rng)
		}
		for n := range g.Nodes {
			out = append(out, Property{ID: inv.ID, Node: n, Formula: rng, Source: src})
		}
	}
	return out
}

// holdsInitially evaluates a range on the model's initial values.
func holdsInitially(m *jsonmodel.Model, rng expr.Expr) bool {
	vals := expr.Vars{}
	for _, v := range m.Variables {
		if v.Kind == jsonmodel.Boolean {
			vals[v.Name] = expr.BoolVal(v.Init != 0)
		} else {
			vals[v.Name] = expr.IntVal(v.Init)
		}
	}
	got, err := expr.Eval(rng, vals)
	return err == nil && got.Bool()
}

// confirmer re-finds a violation of one property with the bounded model
// checker (a forbid query at the depth the prover's search found it) and
// replays the decoded trace on the runtime.
func confirmer(m *jsonmodel.Model, g *Graph) func(*Property, int, int) (bool, string, error) {
	return func(p *Property, depth, timeoutMS int) (bool, string, error) {
		// Built as a tree, variables as var("…"): a variable named cycle,
		// pi or true keeps its meaning (see query.VarRefs).
		active := &expr.AtomCall{Name: "active", Args: []expr.Arg{{Value: &expr.StringLit{Value: g.Nodes[p.Node].Name}}}}
		body := bin(expr.Land, active, &expr.Unary{Op: expr.Not, X: query.VarRefs(p.Formula)})
		q, err := query.Build("<prove "+p.ID+">", &query.Query{Check: query.Check{Kind: query.Forbid, Bound: max(depth, 1), Body: body}})
		if err != nil {
			return false, "", fmt.Errorf("confirming %s: %w", p.ID, err)
		}
		if err := query.Bind(q, g.Sys, query.BindOptions{}); err != nil {
			return false, "", fmt.Errorf("confirming %s: %w", p.ID, err)
		}
		ctx, err := z3.NewContext()
		if err != nil {
			return false, "", err
		}
		defer ctx.Close()
		fm := &frontend.Model{Path: g.Name, Format: "json", System: g.Sys, Replayer: jsonfront.FromModel(m, g.Name).Replayer, Native: m}
		rep, err := frontend.Check(ctx, fm, q, bmc.Options{Shortest: true, TimeoutMS: timeoutMS}, "")
		if err != nil {
			return false, "", fmt.Errorf("confirming %s: %w", p.ID, err)
		}
		if rep.Replay == nil {
			return false, fmt.Sprintf("bmc found no trace (%s)", rep.Result.Status), nil
		}
		rp := rep.Replay
		if !rp.OK() {
			return false, fmt.Sprintf("the runtime replay disagrees in %d places", len(rp.Mismatches)), nil
		}
		return true, fmt.Sprintf("bmc trace of %d steps replayed on the runtime: agrees", len(rp.Steps)), nil
	}
}
