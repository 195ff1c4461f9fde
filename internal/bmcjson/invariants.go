package bmcjson

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/sts"
)

// DefaultMaxBound is the largest bound accepted unless raised (the CLI's
// --max-bound): the encoding grows linearly with the bound, so a mistyped
// bound would unroll for minutes.
const DefaultMaxBound = 10000

// InvariantQueries turns each state-predicate invariant of m into a query
// of the given bound: never-states as forbid, var-in-range as invariant with
// its scope as an implication (the initial frame always in scope, as S7
// decides it). The queries are built as trees, with every variable written
// var("…"), so no model name can read as the frame index, a constant or a
// keyword. skipped says which invariants are not state predicates and why;
// the CLI's --bound and the MCP bmc tool's bound both use it.
func InvariantQueries(m *jsonmodel.Model, sys *sts.System, bound int) (queries []*query.Query, skipped []string, err error) {
	var out []*query.Query
	skipped = []string{}
	for _, inv := range m.Invariants {
		body, kind, ok := invariantBody(m, &inv)
		if !ok {
			skipped = append(skipped, fmt.Sprintf("invariant %q (%s) is not a state predicate; --bound checks never-states and var-in-range only (verify decides it)", inv.ID, inv.Kind))
			continue
		}
		q, err := query.Build("<invariant "+inv.ID+">", &query.Query{Check: query.Check{Kind: kind, Bound: bound, Body: body}})
		if err != nil {
			return nil, nil, fmt.Errorf("invariant %q: %w", inv.ID, err)
		}
		if err := query.Bind(q, sys, query.BindOptions{}); err != nil {
			return nil, nil, fmt.Errorf("invariant %q: %w", inv.ID, err)
		}
		out = append(out, q)
	}
	if len(out) == 0 {
		return nil, nil, fmt.Errorf("--bound: the model has no never-states or var-in-range invariant to check")
	}
	return out, skipped, nil
}

// invariantBody is the check body of a state-predicate invariant, and its
// check kind; ok is false for the other kinds.
func invariantBody(m *jsonmodel.Model, inv *jsonmodel.Invariant) (body expr.Expr, kind query.Kind, ok bool) {
	switch inv.Kind {
	case jsonmodel.NeverStates:
		for _, s := range inv.States {
			body = orExpr(body, atom("active", s))
		}
		return body, query.Forbid, true
	case jsonmodel.VarInRange:
		x := query.Var(inv.Variable)
		var rng expr.Expr
		if inv.Min != nil {
			rng = andExpr(rng, &expr.Binary{Op: expr.Ge, X: x, Y: &expr.IntLit{Value: *inv.Min}})
		}
		if inv.Max != nil {
			rng = andExpr(rng, &expr.Binary{Op: expr.Le, X: x, Y: &expr.IntLit{Value: *inv.Max}})
		}
		if rng == nil {
			rng = &expr.BoolLit{Value: true} // no bound on either side
		}
		body = rng
		if inv.When != nil {
			scope := atom("active", inv.When.State)
			if inv.When.Guard != nil {
				scope = query.VarRefs(jsonmodel.GuardExpr(inv.When.Guard, m))
			}
			first := &expr.Binary{Op: expr.Eq, X: &expr.Ident{Name: "cycle"}, Y: &expr.IntLit{Value: 0}}
			body = &expr.Binary{Op: expr.Implies, X: orExpr(first, scope), Y: rng}
		}
		return body, query.Invariant, true
	}
	return nil, 0, false
}

func atom(name, arg string) expr.Expr {
	return &expr.AtomCall{Name: name, Args: []expr.Arg{{Value: &expr.StringLit{Value: arg}}}}
}

func orExpr(a, b expr.Expr) expr.Expr {
	if a == nil {
		return b
	}
	return &expr.Binary{Op: expr.Lor, X: a, Y: b}
}

func andExpr(a, b expr.Expr) expr.Expr {
	if a == nil {
		return b
	}
	return &expr.Binary{Op: expr.Land, X: a, Y: b}
}

// AggregateExit combines the exit codes of several checks: a replay
// mismatch first, then a negative verdict, then an inconclusive one.
func AggregateExit(reports []*bmc.Report) int {
	code := 0
	rank := map[int]int{0: 0, 3: 1, 1: 2, 4: 3}
	for _, r := range reports {
		if c := r.ExitCode(); rank[c] > rank[code] {
			code = c
		}
	}
	return code
}

// BoundJSON is the stateproof/bmc/v1 document of a --bound run: every
// invariant's result, what was skipped, and the aggregate exit code.
func BoundJSON(bound int, reports []*bmc.Report, skipped []string) map[string]any {
	all := make([]any, len(reports))
	for i, r := range reports {
		all[i] = r.JSON()
	}
	if skipped == nil {
		skipped = []string{}
	}
	return map[string]any{"schema": bmc.Schema, "bound": bound, "checks": all, "skipped": skipped, "exit_code": AggregateExit(reports)}
}
