package prove

import (
	"fmt"
	"time"

	"github.com/stateproof/stateproof/internal/z3"
)

// derivation is a bounded search's counterexample on a CHC problem as
// ground data: the start clause of frame 0, the edge into every later
// frame, and per frame its node and the values of the node's variables
// (numerals of the search's model, by Node.Vars).
type derivation struct {
	start  int
	edges  []int
	nodes  []int
	values [][]*z3.Term
}

// derivation reads frames 0..n of a model of the unrolling as a
// derivation; nil when the model does not say which clause or node a
// frame has.
func (u *unrolling) derivation(m *z3.Model, n int) *derivation {
	d := &derivation{start: -1}
	for si, sel := range u.ssel {
		if isTrue(m, sel) {
			d.start = si
			break
		}
	}
	for i := 0; i <= n; i++ {
		node := u.nodeAt(m, i)
		if node < 0 {
			return nil
		}
		d.nodes = append(d.nodes, node)
		var vals []*z3.Term
		for _, k := range u.c.g.Nodes[node].Vars {
			v, err := m.Eval(u.st[i][k], true)
			if err != nil {
				return nil
			}
			vals = append(vals, v)
		}
		d.values = append(d.values, vals)
		if i == 0 {
			continue
		}
		edge := -1
		for ei, sel := range u.sel[i-1] {
			if isTrue(m, sel) {
				edge = ei
				break
			}
		}
		d.edges = append(d.edges, edge)
	}
	if d.start < 0 {
		return nil
	}
	return d
}

// checkDerivation confirms a derivation independently of the search that
// found it: clause by clause, each instantiated with the derivation's
// values as its body's and head's arguments, on a fresh solver; the last
// frame, unless it is the error node, must satisfy the body of a query
// clause. Each instance must be satisfiable with every division and
// modulo by a nonzero divisor: where a divisor is 0 the value is left
// unspecified by SMT-LIB, and the derivation holds only for some
// interpretations of it, so it is not a counterexample.
func checkDerivation(ctx *z3.Context, g *Graph, d *derivation, timeoutMS int, deadline time.Time, stop *stopper) (bool, string, error) {
	if d == nil || len(d.nodes) == 0 {
		return false, "the search's model does not name a derivation", nil
	}
	c, err := newChecker(ctx, g, timeoutMS, deadline)
	if err != nil {
		return false, "", err
	}
	c.stop = stop
	st := func(i int) []*z3.Term {
		v := make([]*z3.Term, len(g.Vars))
		for j, k := range g.Nodes[d.nodes[i]].Vars {
			v[k] = d.values[i][j]
		}
		return v
	}
	s := g.Starts[d.start]
	if s.Clause == nil || s.Node != d.nodes[0] {
		return false, "frame 0 is not derived by a fact", nil
	}
	if ok, why, err := c.groundInstance(s.Clause, nil, st(0), s.Node); err != nil || !ok {
		return ok, why, err
	}
	for i, ei := range d.edges {
		if ei < 0 || ei >= len(g.Edges) {
			return false, fmt.Sprintf("frame %d is not derived by a clause", i+1), nil
		}
		ed := &g.Edges[ei]
		if ed.Clause == nil || ed.From != d.nodes[i] || ed.To != d.nodes[i+1] {
			return false, fmt.Sprintf("%s does not lead from %s to %s", ed.Label, g.Nodes[d.nodes[i]].Name, g.Nodes[d.nodes[i+1]].Name), nil
		}
		if ok, why, err := c.groundInstance(ed.Clause, st(i), st(i+1), ed.To); err != nil || !ok {
			return ok, why, err
		}
	}
	last := len(d.nodes) - 1
	if d.nodes[last] == g.ErrorNode {
		return true, "", nil
	}
	why := fmt.Sprintf("no query clause of %s holds on the last frame", g.Nodes[d.nodes[last]].Name)
	for ei := range g.Edges {
		ed := &g.Edges[ei]
		if ed.From != d.nodes[last] || ed.To != g.ErrorNode || ed.Clause == nil {
			continue
		}
		ok, w, err := c.groundInstance(ed.Clause, st(last), nil, ed.To)
		if err != nil || ok {
			return ok, w, err
		}
		why = w
	}
	return false, why, nil
}

// groundInstance checks one clause with its predicates' arguments fixed
// to pre and post (see checkDerivation).
func (c *checker) groundInstance(cl *Clause, pre, post []*z3.Term, to int) (bool, string, error) {
	c.enc.locals = nil
	inst, err := c.enc.clause(cl, pre, post, to)
	if err != nil {
		return false, "", err
	}
	ans, err := c.solve(inst, nil, nil)
	if err != nil {
		return false, "", err
	}
	switch ans.Result {
	case z3.Unsat:
		return false, fmt.Sprintf("%s does not derive the next frame from the values of the derivation", cl.Label), nil
	case z3.Unknown:
		return false, fmt.Sprintf("re-checking %s: solver %s", cl.Label, ans.Reason), nil
	}
	if t, zero := zeroDivisor(ans.Model, inst, 0); zero {
		return false, fmt.Sprintf("%s divides by %s, which is zero on the derivation (SMT-LIB leaves that value unspecified, so the derivation holds only for some interpretations of it)", cl.Label, t), nil
	}
	return true, "", nil
}

// zeroDivisor finds a division, modulo or remainder in t whose divisor
// the model does not evaluate to a nonzero numeral.
func zeroDivisor(m *z3.Model, t *z3.Term, depth int) (string, bool) {
	if t.Kind() != z3.KindApp {
		return "", t.Kind() == z3.KindQuantifier || depth > 1000 // not read: assume the worst
	}
	args, err := t.Args()
	if err != nil {
		return t.String(), true
	}
	switch t.DeclKind() {
	case z3.DeclIntDiv, z3.DeclMod, z3.DeclRem, z3.DeclRealDiv:
		if len(args) != 2 {
			return t.String(), true
		}
		v, err := m.Eval(args[1], true)
		if err != nil {
			return args[1].String(), true
		}
		r, err := v.Rat()
		if err != nil || r.Sign() == 0 {
			return args[1].String(), true
		}
	}
	for _, a := range args {
		if s, bad := zeroDivisor(m, a, depth+1); bad {
			return s, true
		}
	}
	return "", false
}
