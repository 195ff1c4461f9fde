package prove

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/smt"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// encoder builds the formulas of one occurrence of a start or transition
// over explicitly scoped symbols: every state copy gets its own tag
// (x@0, x@1, ...) and every clause-local variable a fresh name, so a
// self-loop's pre- and post-state never share a symbol (the scoping
// decision of docs/rsc.md).
type encoder struct {
	g     *Graph
	ctx   *z3.Context
	low   *smt.Encoding
	b     *smt.Builder
	fresh int
	// locals are the clause-local constants made so far, for binders
	// when a relation is printed as a Horn clause.
	locals []local
	// bound counts the fresh constants of case relations made so far:
	// Spacer is then run without inlining (noInline).
	bound int
	cases *smt.Encoding // lowers a model's cases (made on first use)
	// states and lowered memoise state vectors by tag and formulas by
	// node, formula and state: Houdini asks about the same candidates,
	// conjoined anew, hundreds of times.
	states  map[string][]*z3.Term
	lowered map[loweredKey]*z3.Term
}

type loweredKey struct {
	node int
	f    expr.Expr
	st   **z3.Term // the state vector's array (states are memoised)
}

type local struct {
	name string
	sort sts.Sort
}

func newEncoder(ctx *z3.Context, g *Graph) *encoder {
	low := smt.NewLowerer(ctx)
	return &encoder{g: g, ctx: ctx, low: low, b: low.B(), states: map[string][]*z3.Term{}, lowered: map[loweredKey]*z3.Term{}}
}

// state returns the copy of the global state vector tagged tag (the same
// slice for the same tag: callers must not change it).
func (e *encoder) state(tag string) ([]*z3.Term, error) {
	if st, ok := e.states[tag]; ok {
		return st, nil
	}
	out := make([]*z3.Term, len(e.g.Vars))
	for i, v := range e.g.Vars {
		var err error
		out[i], err = e.constant(smtName(v.Name)+"@"+tag, v.Sort)
		if err != nil {
			return nil, err
		}
	}
	e.states[tag] = out
	return out, nil
}

// prePost returns the two state vectors every single-step query uses:
// before ("0") and after ("1") the step.
func (e *encoder) prePost() (pre, post []*z3.Term, err error) {
	if pre, err = e.state("0"); err != nil {
		return nil, nil, err
	}
	if post, err = e.state("1"); err != nil {
		return nil, nil, err
	}
	return pre, post, nil
}

func (e *encoder) constant(name string, s sts.Sort) (*z3.Term, error) {
	switch s {
	case sts.Bool:
		return e.ctx.BoolConst(name)
	case sts.Real:
		return e.ctx.RealConst(name)
	}
	return e.ctx.IntConst(name)
}

// scope resolves a node's variable names to the terms of state st.
func (e *encoder) scope(node int, st []*z3.Term) smt.Scope {
	n := &e.g.Nodes[node]
	return smt.Scope{Var: func(name string) *z3.Term {
		for i, nm := range n.Names {
			if nm == name {
				return st[n.Vars[i]]
			}
		}
		return nil
	}}
}

// formula lowers an RSC of node over state st. An undefined value (a
// division by zero) makes the formula false.
//
// A conjunction is lowered conjunct by conjunct (the same meaning: it is
// false when a conjunct is false or undefined), each one once per node
// and state.
func (e *encoder) formula(node int, f expr.Expr, st []*z3.Term) (*z3.Term, error) {
	if f == nil {
		return e.ctx.True()
	}
	if b, ok := f.(*expr.Binary); ok && b.Op == expr.Land {
		x, err := e.formula(node, b.X, st)
		if err != nil {
			return nil, err
		}
		y, err := e.formula(node, b.Y, st)
		if err != nil {
			return nil, err
		}
		return e.b.And(x, y), e.b.Err()
	}
	key := loweredKey{node: node, f: f}
	if len(st) > 0 {
		key.st = &st[0]
	}
	if t, ok := e.lowered[key]; ok {
		return t, nil
	}
	v, err := e.low.Lower(f, e.scope(node, st))
	if err != nil {
		return nil, fmt.Errorf("node %s: %w", e.g.Nodes[node].Name, err)
	}
	ax := e.low.TakeAxioms()
	t := e.b.And(append(ax, v.Def, v.T)...)
	if err := e.b.Err(); err != nil {
		return nil, err
	}
	e.lowered[key] = t
	return t, nil
}

// start is the relation of start transition i over the post-state.
func (e *encoder) start(i int, post []*z3.Term) (*z3.Term, error) {
	s := &e.g.Starts[i]
	if s.Clause != nil {
		return e.clause(s.Clause, nil, post, s.Node)
	}
	var parts []*z3.Term
	for k, init := range s.Init {
		v, err := e.low.Lower(init, smt.Scope{})
		if err != nil {
			return nil, fmt.Errorf("initial value of %s: %w", e.g.Vars[k].Name, err)
		}
		parts = append(parts, v.Def, e.b.Eq(post[k], e.coerce(v.T, e.g.Vars[k].Sort)))
	}
	return e.b.And(parts...), e.b.Err()
}

// edge is the guard and relation of edge i over pre and post.
func (e *encoder) edge(i int, pre, post []*z3.Term) (*z3.Term, error) {
	ed := &e.g.Edges[i]
	if ed.Clause != nil {
		return e.clause(ed.Clause, pre, post, ed.To)
	}
	return e.modelCase(ed, pre, post)
}

func (e *encoder) coerce(t *z3.Term, s sts.Sort) *z3.Term {
	if s == sts.Real && t != nil && t.SortKind() == z3.SortInt {
		r, err := e.ctx.ToReal(t)
		if err != nil {
			return nil
		}
		return r
	}
	return t
}

// modelCase encodes a model's case over pre and post with fresh event
// inputs: exactly the bounded encoding's case relation (guard, conditions
// at their anchors, events, priorities over the source's earlier cases,
// effects in order, frame semantics: an unassigned variable keeps its
// value), without the location, which the edge's nodes carry.
func (e *encoder) modelCase(ed *Edge, pre, post []*z3.Term) (*z3.Term, error) {
	sys := e.g.Sys
	events := make([]*z3.Term, len(sys.Events))
	for k, ev := range sys.Events {
		e.fresh++
		var err error
		name := fmt.Sprintf("event!%s!%d", smtName(ev.Name), e.fresh)
		if events[k], err = e.ctx.BoolConst(name); err != nil {
			return nil, err
		}
		e.locals = append(e.locals, local{name, sts.Bool})
	}
	if e.cases == nil {
		e.cases = smt.NewCaseLowerer(e.ctx, sys)
	}
	rel, err := e.cases.CaseRelation(sys.Cases[ed.Case.Source], ed.Index, pre, post, events)
	if err != nil {
		return nil, err
	}
	if ax := e.cases.TakeAxioms(); len(ax) > 0 {
		rel = e.b.And(append(ax, rel)...)
	}
	// The fresh constants of the relation (bound temporaries of a shared
	// choice, sqrt results) are clause-local.
	for _, c := range e.cases.TakeFresh() {
		sort := sts.Int
		switch c.SortKind() {
		case z3.SortBool:
			sort = sts.Bool
		case z3.SortReal:
			sort = sts.Real
		}
		e.locals = append(e.locals, local{c.String(), sort})
		e.bound++
	}
	return rel, e.b.Err()
}

// clause instantiates a Horn clause: its bound variables become fresh
// constants, its body predicate's arguments are equated with the pre-state
// of the source node, and its head's with the post-state of node to.
func (e *encoder) clause(cl *Clause, pre, post []*z3.Term, to int) (*z3.Term, error) {
	n := len(cl.Sorts)
	sub := make([]*z3.Term, n)
	for i := 0; i < n; i++ {
		e.fresh++
		name := fmt.Sprintf("%s!%d", smtName(cl.Names[i]), e.fresh)
		c, err := e.constant(name, cl.Sorts[i])
		if err != nil {
			return nil, err
		}
		e.locals = append(e.locals, local{name, cl.Sorts[i]})
		sub[n-1-i] = c // de Bruijn index n-1-i is the i-th declared variable
	}
	var ierr error
	inst := func(t *z3.Term) *z3.Term {
		if n == 0 || ierr != nil {
			return t
		}
		r, err := t.SubstituteVars(sub...)
		if err != nil {
			ierr = fmt.Errorf("instantiating clause %s: %w", cl.Label, err)
		}
		return r
	}
	parts := []*z3.Term{inst(cl.Constraint)}
	if cl.From >= 0 {
		for j, a := range cl.Pre {
			parts = append(parts, e.b.Eq(pre[e.g.Nodes[cl.From].Vars[j]], inst(a)))
		}
	}
	if to != e.g.ErrorNode {
		for j, a := range cl.Post {
			parts = append(parts, e.b.Eq(post[e.g.Nodes[to].Vars[j]], inst(a)))
		}
	}
	if ierr != nil {
		return nil, ierr
	}
	return e.b.And(parts...), e.b.Err()
}
