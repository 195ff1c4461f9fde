package prove

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/frontend"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// ModelProblem builds the problem of a loaded model, whatever its format:
// its graph (FromSystem), and as properties the state-predicate
// invariants it declares (docs/rsc.md): each placement is an RSC at its
// location, or at every node when it names none; an invariant's AtStart
// formula, when it does not hold on the initial values, is an RSC of the
// start node (the violation at step 0). ids, when non-empty, selects
// invariants by id. Violations are confirmed by the bounded model checker
// and replayed on the model's runtime (its Replayer).
func ModelProblem(m *frontend.Model, ids ...string) (*Problem, error) {
	g, err := FromSystem(m.System)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.Path, err)
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
		props, err := invariantProps(g, &inv)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.Path, err)
		}
		p.Props = append(p.Props, props...)
	}
	return p, nil
}

func invariantProps(g *Graph, inv *frontend.Invariant) ([]Property, error) {
	var out []Property
	if inv.AtStart != nil && !holdsInitially(g, inv.AtStart) {
		// The initial state is in every scope (docs/models.md): out of
		// range there, the invariant is violated at step 0, which the
		// formula as an RSC of the start node exhibits.
		out = append(out, Property{ID: inv.ID, Node: g.Starts[0].Node, Formula: inv.AtStart, Source: inv.Source + ", initial state"})
	}
	for _, pl := range inv.Placements {
		if pl.Location == "" {
			for n := range g.Nodes {
				out = append(out, Property{ID: inv.ID, Node: n, Formula: pl.Formula, Source: inv.Source})
			}
			continue
		}
		n := g.NodeIndex(pl.Location)
		if n < 0 {
			return nil, fmt.Errorf("invariant %q: no state %q a run rests in", inv.ID, pl.Location)
		}
		out = append(out, Property{ID: inv.ID, Node: n, Formula: pl.Formula, Source: inv.Source})
	}
	return out, nil
}

// holdsInitially evaluates f on the initial values of the variables.
func holdsInitially(g *Graph, f expr.Expr) bool {
	vals := expr.Vars{}
	for k, v := range g.Vars {
		x, err := expr.Eval(g.Starts[0].Init[k], nil)
		if err != nil {
			return false
		}
		vals[v.Name] = x
	}
	got, err := expr.Eval(f, vals)
	return err == nil && got.Bool()
}

// nodeFormula is the query formula of "the run rests on node n": the
// location (active of its name, which for a composite would include its
// descendants, but a node is never a composite), termination, or for the
// cold-start sentinel neither termination nor any location.
func nodeFormula(g *Graph, n int) expr.Expr {
	active := func(name string) expr.Expr {
		return &expr.AtomCall{Name: "active", Args: []expr.Arg{{Value: &expr.StringLit{Value: name}}}}
	}
	terminated := &expr.AtomCall{Name: "terminated"}
	switch id := g.Nodes[n].Location; id {
	case sts.TerminatedID:
		return terminated
	case sts.InitID:
		var some expr.Expr = terminated
		for _, l := range g.Sys.Locations {
			if len(l.Ancestors) == 0 {
				some = bin(expr.Lor, some, active(l.Name))
			}
		}
		return &expr.Unary{Op: expr.Not, X: some}
	}
	return active(g.Nodes[n].Name)
}

// confirmer re-finds a violation of one property with the bounded model
// checker (a forbid query at the depth the prover's search found it) and
// replays the decoded trace on the model's runtime.
func confirmer(m *frontend.Model, g *Graph) func(*Property, int, int) (bool, string, error) {
	return func(p *Property, depth, timeoutMS int) (bool, string, error) {
		// Built as a tree, variables as var("…"): a variable named cycle,
		// pi or true keeps its meaning (see query.VarRefs).
		body := bin(expr.Land, nodeFormula(g, p.Node), &expr.Unary{Op: expr.Not, X: query.VarRefs(p.Formula)})
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
		rep, err := frontend.Check(ctx, m, q, bmc.Options{Shortest: true, TimeoutMS: timeoutMS}, "")
		if err != nil {
			return false, "", fmt.Errorf("confirming %s: %w", p.ID, err)
		}
		switch {
		case rep.Result.Trace == nil:
			return false, fmt.Sprintf("bmc found no trace (%s)", rep.Result.Status), nil
		case rep.Replay == nil:
			return false, "bmc found a trace, but the model has no runtime to replay it on", nil
		case !rep.Replay.OK():
			return false, fmt.Sprintf("the runtime replay disagrees in %d places", len(rep.Replay.Mismatches)), nil
		}
		return true, fmt.Sprintf("bmc trace of %d steps replayed on the runtime: agrees", len(rep.Replay.Steps)), nil
	}
}
