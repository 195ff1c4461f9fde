package prove

import (
	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/z3"
)

// CHCProblem parses a linear CHC problem. Its property is that the error
// node `false` is unreachable. When every query clause P(x̄) ∧ c(x̄) → false
// has distinct variables as P's arguments and no other variables, the
// property is stated where it lives instead, φ_P = ¬c at node P, so that
// k-induction and Houdini see it (a query edge into `false` hides it from
// every state of P).
func CHCProblem(ctx *z3.Context, name, src string) (*Problem, error) {
	g, err := ParseCHC(ctx, name, src)
	if err != nil {
		return nil, err
	}
	p := &Problem{Graph: g, reload: func(ctx *z3.Context) (*Graph, error) { return ParseCHC(ctx, name, src) }, source: src}
	if g.ErrorNode < 0 {
		return p, nil
	}
	lifted := map[int]expr.Expr{}
	ok := true
	for _, s := range g.Starts {
		ok = ok && s.Node != g.ErrorNode
	}
	for _, e := range g.Edges {
		if !ok || e.To != g.ErrorNode {
			continue
		}
		f, good := liftQuery(e.Clause, g.Nodes[e.From].Names)
		if !good {
			ok = false
			break
		}
		lifted[e.From] = andExpr(lifted[e.From], f)
	}
	if !ok {
		p.Props = append(p.Props, Property{ID: "safe", Node: g.ErrorNode, Formula: &expr.BoolLit{Value: false}, Source: "query clauses"})
		return p, nil
	}
	for n := range g.Nodes {
		if f, has := lifted[n]; has {
			p.Props = append(p.Props, Property{ID: "safe@" + g.Nodes[n].Name, Node: n, Formula: f, Source: "query clauses into false"})
		}
	}
	return p, nil
}

func andExpr(a, b expr.Expr) expr.Expr {
	if a == nil {
		return b
	}
	return bin(expr.Land, a, b)
}

// liftQuery turns P(v̄) ∧ c → false into ¬c over P's argument names when
// the arguments are distinct bound variables covering every variable of c.
func liftQuery(cl *Clause, names []string) (expr.Expr, bool) {
	n := len(cl.Names)
	byIndex := make([]string, n) // de Bruijn index -> argument name
	for j, a := range cl.Pre {
		if a.Kind() != z3.KindVar {
			return nil, false
		}
		i, err := a.VarIndex()
		if err != nil || i >= n || byIndex[i] != "" {
			return nil, false
		}
		byIndex[i] = names[j]
	}
	for _, nm := range byIndex {
		if nm == "" {
			return nil, false // a clause-local variable: the property would need a quantifier
		}
	}
	f, err := termExpr(cl.Constraint, byIndex, 0)
	if err != nil {
		return nil, false
	}
	if u, ok := f.(*expr.Unary); ok && u.Op == expr.Not {
		return u.X, true
	}
	return &expr.Unary{Op: expr.Not, X: f}, true
}
