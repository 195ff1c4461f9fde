package prove

import (
	"sort"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// maxConsts caps the mined constants (after adding c ± 1), smallest
// magnitude first, so candidate sets stay small on constant-heavy models.
const maxConsts = 24

// mineFacts collects constants syntactically and initial values and
// self-loop increments with the solver: a value read from one model is a
// fact only if the solver shows no other value is possible. At the
// checker's deadline it stops with the facts found so far (fewer facts
// are fewer candidates, never a wrong one): on a 2,000-ary predicate
// encoding the rest and skipping its queries took 1–3 s past the budget
// (issue 38 item 6).
func mineFacts(c *checker) (*facts, error) {
	g := c.g
	fx := &facts{deltas: make([][]map[int]int64, len(g.Nodes))}
	seen := map[int64]bool{0: true, 1: true}
	add := func(v int64) { seen[v], seen[v-1], seen[v+1] = true, true, true }
	for _, s := range g.Starts {
		for _, e := range s.Init {
			exprConsts(e, add)
		}
		if s.Clause != nil {
			termConsts(s.Clause.Constraint, add, 0)
		}
	}
	for _, e := range g.Edges {
		if e.Case != nil {
			exprConsts(e.Case.Guard, add)
			for _, eff := range e.Case.Effects {
				exprConsts(eff.Value, add)
			}
		}
		if e.Clause != nil {
			termConsts(e.Clause.Constraint, add, 0)
		}
	}
	for v := range seen {
		fx.consts = append(fx.consts, v)
	}
	sort.Slice(fx.consts, func(i, j int) bool {
		return abs(fx.consts[i]) < abs(fx.consts[j]) || abs(fx.consts[i]) == abs(fx.consts[j]) && fx.consts[i] < fx.consts[j]
	})
	if len(fx.consts) > maxConsts {
		fx.consts = fx.consts[:maxConsts]
	}
	fx.init = map[int]int64{}
	for si := range g.Starts {
		if c.expired() {
			return fx, nil
		}
		if err := mineInit(c, si, fx.init); err != nil {
			return nil, err
		}
	}
	for ei, e := range g.Edges {
		if e.From != e.To {
			continue
		}
		if c.expired() {
			return fx, nil
		}
		d, err := mineDelta(c, ei)
		if err != nil {
			return nil, err
		}
		fx.deltas[e.To] = append(fx.deltas[e.To], d)
	}
	return fx, nil
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// fixedValue reads term t in a model of f and keeps it if f forces it.
func fixedValue(c *checker, f, t *z3.Term) (int64, bool, error) {
	a, err := c.solve(f, nil, nil)
	if err != nil || a.Result != z3.Sat {
		return 0, false, err
	}
	v, err := a.Model.Eval(t, true)
	if err != nil {
		return 0, false, err
	}
	x, err := v.Int64()
	if err != nil {
		return 0, false, nil
	}
	b := c.enc.b
	other, err := c.solve(b.And(f, b.Not(b.Eq(t, b.Int(x)))), nil, nil)
	if err != nil || other.Result != z3.Unsat {
		return 0, false, err
	}
	return x, true, nil
}

func mineInit(c *checker, si int, into map[int]int64) error {
	post, err := c.enc.state("1")
	if err != nil {
		return err
	}
	rel, err := c.enc.start(si, post)
	if err != nil {
		return err
	}
	node := &c.g.Nodes[c.g.Starts[si].Node]
	for _, k := range node.Vars {
		if c.expired() {
			return nil
		}
		if c.g.Vars[k].Sort != sts.Int {
			continue
		}
		if v, ok, err := fixedValue(c, rel, post[k]); err != nil {
			return err
		} else if ok {
			if old, dup := into[k]; dup && old != v {
				delete(into, k) // two starts disagree: no fixed value
				continue
			}
			into[k] = v
		}
	}
	return nil
}

func mineDelta(c *checker, ei int) (map[int]int64, error) {
	e := c.enc
	pre, post, err := e.prePost()
	if err != nil {
		return nil, err
	}
	rel, err := e.edge(ei, pre, post)
	if err != nil {
		return nil, err
	}
	out := map[int]int64{}
	node := &c.g.Nodes[c.g.Edges[ei].To]
	for j, k := range node.Vars {
		if c.expired() {
			return out, nil
		}
		if c.g.Vars[k].Sort != sts.Int {
			continue
		}
		diff, err := e.ctx.Sub(post[k], pre[k])
		if err != nil {
			return nil, err
		}
		if v, ok, err := fixedValue(c, rel, diff); err != nil {
			return nil, err
		} else if ok {
			out[j] = v
		}
	}
	return out, nil
}

func exprConsts(e expr.Expr, add func(int64)) {
	switch n := e.(type) {
	case *expr.IntLit:
		if n.Big == nil {
			add(n.Value)
		}
	case *expr.Unary:
		if l, ok := n.X.(*expr.IntLit); ok && n.Op == expr.Neg && l.Big == nil {
			add(-l.Value)
		}
		exprConsts(n.X, add)
	case *expr.Binary:
		exprConsts(n.X, add)
		exprConsts(n.Y, add)
	case *expr.Conditional:
		exprConsts(n.Cond, add)
		exprConsts(n.Then, add)
		exprConsts(n.Else, add)
	case *expr.FuncCall:
		exprConsts(n.Arg, add)
	}
}

func termConsts(t *z3.Term, add func(int64), depth int) {
	if t == nil || depth > 64 {
		return
	}
	if t.Kind() == z3.KindNumeral {
		if v, err := t.Int64(); err == nil {
			add(v)
			add(-v)
		}
		return
	}
	if t.Kind() != z3.KindApp {
		return
	}
	args, err := t.Args()
	if err != nil {
		return
	}
	for _, a := range args {
		termConsts(a, add, depth+1)
	}
}
