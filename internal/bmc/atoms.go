package bmc

import (
	"fmt"
	"slices"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/smt"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// atom lowers an observation atom at frame i (docs/queries.md). Binding
// has already checked names, arities and contexts; the checks here only
// guard against an unbound query reaching the engine.
func (p *problem) atom(a *expr.AtomCall, i int) (smt.Value, error) {
	b := p.b
	yes := b.Bool(true)
	str := func(k int) (string, error) {
		if k < len(a.Args) {
			if s, ok := a.Args[k].Value.(*expr.StringLit); ok {
				return s.Value, nil
			}
		}
		return "", fmt.Errorf("%s: %s(...) needs a string argument %d", a.Loc, a.Name, k+1)
	}
	switch a.Name {
	case "var":
		name, err := str(0)
		if err != nil {
			return smt.Value{}, err
		}
		k := p.sys.VarIndex(name)
		if k < 0 {
			return smt.Value{}, fmt.Errorf("%s: unknown variable %q", a.Loc, name)
		}
		return smt.Value{T: p.enc.Vars[i][k], Def: yes}, nil
	case "active":
		name, err := str(0)
		if err != nil {
			return smt.Value{}, err
		}
		return smt.Value{T: p.activeTerm(name, i), Def: yes}, nil
	case "terminated":
		return smt.Value{T: p.terminatedTerm(i), Def: yes}, nil
	case "event":
		name, err := str(0)
		if err != nil {
			return smt.Value{}, err
		}
		ev := p.sys.EventIndex(name)
		if ev < 0 || i >= p.enc.Bound() {
			return smt.Value{}, fmt.Errorf("%s: event(%q, current) has no step at frame %d", a.Loc, name, i)
		}
		p.eventSupport[[2]int{i, ev}] = true
		return smt.Value{T: p.enc.Events[i][ev], Def: yes}, nil
	case "called", "call_count":
		f := p.q.Calls[a]
		if f == nil {
			f = &query.CallFilter{}
		}
		count, err := p.callCount(f, i)
		if err != nil {
			return smt.Value{}, err
		}
		if a.Name == "called" {
			return smt.Value{T: p.gt0(count), Def: yes}, nil
		}
		return smt.Value{T: count, Def: yes}, nil
	}
	return smt.Value{}, fmt.Errorf("%s: %s(...) is not allowed here", a.Loc, a.Name)
}

// activeTerm holds when frame i is in the location named name or in one of
// its descendants, or at the init sentinel when name is the state a fresh
// machine reads as (System.StartActive).
func (p *problem) activeTerm(name string, i int) *z3.Term {
	b := p.b
	var opts []*z3.Term
	if name != "" && name == p.sys.StartActive {
		opts = append(opts, p.enc.At(i, sts.InitID))
	}
	for _, l := range p.sys.Locations {
		if l.Name == name || slices.Contains(l.Ancestors, name) {
			opts = append(opts, p.enc.At(i, l.ID))
		}
	}
	return b.Or(opts...)
}

// terminatedTerm holds when frame i is the terminated sentinel or a
// location declared terminal.
func (p *problem) terminatedTerm(i int) *z3.Term {
	b := p.b
	opts := []*z3.Term{p.enc.At(i, sts.TerminatedID)}
	for _, l := range p.sys.Locations {
		if l.Terminal {
			opts = append(opts, p.enc.At(i, l.ID))
		}
	}
	return b.Or(opts...)
}

// callCount sums, over the steps of the filter's window around the anchor
// step i, the matching call records of the selected case.
func (p *problem) callCount(f *query.CallFilter, anchor int) (*z3.Term, error) {
	ctx := p.enc.Ctx()
	zero, err := ctx.IntVal(0)
	if err != nil {
		return nil, err
	}
	terms := []*z3.Term{zero}
	lo, hi := f.Steps.Window(anchor, p.enc.Bound())
	for j := lo; j <= hi; j++ {
		for _, sel := range p.enc.Sels[j] {
			for k, call := range sel.Case.Calls {
				m, err := p.matchCall(f, call.Action, call.Stage, call.Role, call.State, call.ActiveLeaf, call.NamedRef, j, sel.Snapshots[k])
				if err != nil {
					return nil, err
				}
				one, _ := ctx.IntVal(1)
				t, err := ctx.Ite(p.b.And(sel.Term, m), one, zero)
				if err != nil {
					return nil, err
				}
				terms = append(terms, t)
			}
		}
	}
	if len(terms) == 1 {
		return zero, nil
	}
	return ctx.Add(terms...)
}

// matchCall is the static match of one call record, plus its `where`
// evaluated on the call's snapshot (the variable values the call sees,
// part-way through its case). An undefined `where` does not match.
func (p *problem) matchCall(f *query.CallFilter, action, stage, role, state, leaf, ref string, step int, snap []*z3.Term) (*z3.Term, error) {
	b := p.b
	static := (f.Action == "" || f.Action == action) && (f.Stage == "" || f.Stage == stage) &&
		(f.Role == "" || f.Role == role) && (f.State == "" || f.State == state) &&
		(f.ActiveLeaf == "" || f.ActiveLeaf == leaf) && (f.NamedRef == nil || *f.NamedRef == ref)
	if !static {
		return b.Bool(false), nil
	}
	if f.Where == nil {
		return b.Bool(true), nil
	}
	// The `where` of a call filter sees the call's snapshot variables only:
	// bare names and var("x"), no other atoms.
	value := func(name string) *z3.Term {
		if k := p.sys.VarIndex(name); k >= 0 {
			return snap[k]
		}
		return nil
	}
	sc := smt.Scope{Var: value, Atom: func(a *expr.AtomCall) (smt.Value, error) {
		if a.Name != "var" {
			return smt.Value{}, fmt.Errorf("%s: %s(...) is not allowed in a call filter's where", a.Loc, a.Name)
		}
		if len(a.Args) == 1 {
			if s, ok := a.Args[0].Value.(*expr.StringLit); ok && value(s.Value) != nil {
				return smt.Value{T: value(s.Value), Def: p.b.Bool(true)}, nil
			}
		}
		return p.atom(a, step) // the same errors as var() elsewhere
	}}
	v, err := p.enc.Lower(f.Where, sc)
	if err != nil {
		return nil, err
	}
	return b.And(v.Def, v.T), nil
}

func (p *problem) gt0(t *z3.Term) *z3.Term {
	ctx := p.enc.Ctx()
	zero, _ := ctx.IntVal(0)
	r, err := ctx.Gt(t, zero)
	if err != nil {
		return p.b.Bool(false)
	}
	return r
}
