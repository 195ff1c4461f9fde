package bmc

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/smt"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// problem is a compiled query: the encoding unrolled to the bound, the
// initialisation and assumption groups, and the objective.
type problem struct {
	sys *sts.System
	q   *query.Query
	enc *smt.Encoding
	b   *smt.Builder
	n   int
	// eventSupport marks (step, event) pairs the property reads, which
	// makes them replay inputs (property_support).
	eventSupport map[[2]int]bool
	// fairReads are, by (step, event), "the step takes the fair event"
	// on a system with free inputs (fair.go): where the model makes one
	// true, the event is a replay input (property_support), so that the
	// trace shows the loop fair, not only the states it passes.
	fairReads map[[2]int]*z3.Term
	// frameHits are the per-frame disjuncts of the objective of reach,
	// forbid and invariant (nil for the other kinds): the frames where a
	// model meets the goal or violates the property.
	frameHits []*z3.Term
	// loops are the per-loop-start disjuncts of a fair check's objective
	// (fair.go); nil for a check without a fair clause.
	loops []*z3.Term
	// cancelled reports why the encoding must stop (nil: go on); it is
	// checked once per frame.
	cancelled func() error
	// scenarios are the decided (sat or unsat) checks of groups alone,
	// with no objective, by stages and number of groups: the feasibility
	// stages of the queries SolveAll checks over one unrolling are the same
	// formulas, so each is solved once.
	scenarios map[scenarioKey]checkResult
	// meter sends the solve's progress (nil reporter: nothing).
	meter meter
}

type scenarioKey struct {
	stages string
	groups int
}

// compile builds the problem at bound 0 (unroll extends it). tracked
// selects the tracked shape, one group per constraint behind activation
// literals, which explanations need; otherwise the lean shape
// (docs/queries.md, "The encoding, and what symbol_count counts").
func compile(ctx *z3.Context, sys *sts.System, q *query.Query, tracked bool) (*problem, error) {
	var enc *smt.Encoding
	var err error
	if tracked {
		enc, err = smt.NewEncoding(ctx, sys)
	} else {
		enc, err = smt.NewLeanEncoding(ctx, sys, readsEvents(q))
	}
	if err != nil {
		return nil, err
	}
	p := &problem{sys: sys, q: q, enc: enc, b: enc.B(), eventSupport: map[[2]int]bool{}}
	enc.Cancelled = p.checkCancelled
	if err := p.initGroups(); err != nil {
		return nil, err
	}
	return p, nil
}

// unroll extends the encoding to n steps and adds the assumption groups of
// the new frames and steps.
func (p *problem) unroll(n int) error {
	for p.n < n {
		if err := p.checkCancelled(); err != nil {
			return err
		}
		p.meter.stage(p.n+1, "encoding")
		if err := p.enc.Extend(); err != nil {
			return err
		}
		p.n++
		if err := p.assumeGroups(p.n); err != nil {
			return err
		}
	}
	return nil
}

// checkCancelled returns errCancelled once the solve's context is done.
func (p *problem) checkCancelled() error {
	if p.cancelled != nil && p.cancelled() != nil {
		return errCancelled
	}
	return nil
}

// frameScope resolves variables and observation atoms at frame i.
func (p *problem) frameScope(i int) smt.Scope {
	vars := p.enc.VarScope(i)
	return smt.Scope{
		// A bare `cycle` is the frame index even when a model variable has
		// that name (the variable is var("cycle") then), as binding reads it.
		Var: func(name string) *z3.Term {
			if name == "cycle" {
				return nil
			}
			return vars(name)
		},
		Atom:  func(a *expr.AtomCall) (smt.Value, error) { return p.atom(a, i) },
		Ident: func(id *expr.Ident) (smt.Value, error) { return p.ident(id, i) },
	}
}

func (p *problem) ident(id *expr.Ident, i int) (smt.Value, error) {
	if id.Name == "cycle" {
		return smt.Value{T: p.b.Int(int64(i)), Def: p.b.Bool(true)}, nil
	}
	return smt.Value{}, fmt.Errorf("%s: unknown variable %q", id.Loc, id.Name)
}

func (p *problem) lowerAt(e expr.Expr, i int) (smt.Value, error) {
	v, err := p.enc.Lower(e, p.frameScope(i))
	if err != nil {
		return smt.Value{}, err
	}
	if ax := p.enc.TakeAxioms(); len(ax) > 0 {
		v.Def = p.b.And(append(ax, v.Def)...)
	}
	return v, nil
}

func (p *problem) group(g *smt.Group) { p.enc.AddGroup(g) }

// initGroups builds I_0 (docs/architecture.md): the start location, the initial
// value of every variable not havocked, and the `where` condition.
func (p *problem) initGroups() error {
	b := p.b
	start, mode := p.sys.Start, query.Cold
	havoc := map[string]bool{}
	in := p.q.Init
	if in != nil {
		mode = in.Mode
		switch in.Mode {
		case query.State:
			l := p.sys.LocationByName(in.State.Name)
			if l == nil {
				return fmt.Errorf("%s: unknown state %q", in.State.Span, in.State.Name)
			}
			start = l.ID
		case query.Terminated:
			start = sts.TerminatedID
		}
		for _, h := range in.Havoc {
			havoc[h.Name] = true
		}
	}
	p.enc.SetStart(start)
	p.group(&smt.Group{ID: "initial.target", Stage: smt.Init, Role: "initial_fact", Frame: 0, Src: p.clauseSrc(in),
		Formula: p.enc.At(0, start)})
	for k, v := range p.sys.Vars {
		if (in != nil && in.HavocAll) || havoc[v.Name] {
			continue
		}
		val, err := p.enc.InitValue(k)
		if err != nil {
			return err
		}
		p.group(&smt.Group{ID: "initial.variable." + v.Name, Stage: smt.Init, Role: "initial_fact", Frame: 0, Src: v.Src,
			Formula: b.And(val.Def, b.Eq(p.enc.Vars[0][k], val.T))})
	}
	_ = mode
	if in != nil && in.Where != nil {
		w, err := p.lowerAt(in.Where, 0)
		if err != nil {
			return err
		}
		p.group(&smt.Group{ID: "initial.where", Stage: smt.Init, Role: "initial_fact", Frame: 0, Src: p.exprSrc(in.Where), Formula: w.T})
		p.group(&smt.Group{ID: "initial.where.definedness.0000", Stage: smt.Init, Role: "definedness", Frame: 0, Src: p.exprSrc(in.Where), Formula: w.Def})
	}
	return b.Err()
}

// assumeGroups adds the environment constraints that concern frame n and
// step n-1, so that unrolling one more step adds exactly its assumptions.
func (p *problem) assumeGroups(n int) error {
	b := p.b
	for ai := range p.q.Assumes {
		a := &p.q.Assumes[ai]
		src := p.spanSrc(a.Span)
		switch a.Kind {
		case query.AssumeAlways, query.AssumeAt:
			frames := []int{n}
			if n == 1 {
				frames = []int{0, 1} // frame 0 joins with the first step
			}
			for _, f := range frames {
				if a.Kind == query.AssumeAt && a.Frame != f {
					continue
				}
				v, err := p.lowerAt(a.Cond, f)
				if err != nil {
					return err
				}
				id := fmt.Sprintf("assumption.%04d.frame.%04d", ai, f)
				p.group(&smt.Group{ID: id, Stage: smt.Assumption, Role: "assumption", Frame: f, Src: src, Formula: v.T})
				p.group(&smt.Group{ID: id + ".definedness.0000", Stage: smt.Assumption, Role: "definedness", Frame: f, Src: src, Formula: v.Def})
			}
		case query.AssumeEvent:
			step := n - 1
			if !a.Steps.All && (step < a.Steps.Lo || step > a.Steps.Hi) {
				continue
			}
			ev := p.sys.EventIndex(a.Event.Name)
			lit := p.enc.Events[step][ev]
			if !a.Value {
				lit = b.Not(lit)
			}
			p.group(&smt.Group{ID: fmt.Sprintf("assumption.%04d.event.%04d", ai, step), Stage: smt.Assumption, Role: "assumption", Frame: step, Src: src, Formula: lit})
		case query.AssumeCardinality:
			if a.Any {
				continue
			}
			step := n - 1
			var pool []*z3.Term
			for _, e := range a.Pool {
				pool = append(pool, p.enc.Events[step][p.sys.EventIndex(e.Name)])
			}
			p.group(&smt.Group{ID: fmt.Sprintf("assumption.%04d.cardinality.%04d", ai, step), Stage: smt.Assumption, Role: "assumption", Frame: step, Src: src, Formula: b.AtMostOne(pool)})
		}
	}
	return b.Err()
}

func (p *problem) spanSrc(sp expr.Span) sts.Source {
	return sts.Source{File: p.q.File, Line: sp.Start.Line, Col: sp.Start.Col, EndLine: sp.End.Line, EndCol: sp.End.Col, Excerpt: excerpt(p.q.Text, sp)}
}

func (p *problem) exprSrc(e expr.Expr) sts.Source { return p.spanSrc(e.Span()) }

func (p *problem) clauseSrc(in *query.Init) sts.Source {
	if in == nil && p.sys.StartSrc.Line > 0 {
		return p.sys.StartSrc
	}
	if in == nil {
		// A cold start begins in the model's declared initial state.
		return sts.Source{File: p.sys.Name, Path: "init", Excerpt: fmt.Sprintf("%q", p.sys.LocationName(p.sys.Start))}
	}
	return p.spanSrc(in.Span)
}

// readsEvents reports whether anything in q besides the model's cases
// reads the step events: an event or cardinality assumption, or an
// event(...) atom anywhere.
func readsEvents(q *query.Query) bool {
	exprs := []expr.Expr{q.Check.Body, q.Check.Trigger, q.Check.Target}
	if q.Init != nil {
		exprs = append(exprs, q.Init.Where)
	}
	for _, a := range q.Assumes {
		if a.Kind == query.AssumeEvent || (a.Kind == query.AssumeCardinality && !a.Any) {
			return true
		}
		exprs = append(exprs, a.Cond)
	}
	for _, f := range q.Calls {
		exprs = append(exprs, f.Where)
	}
	found := false
	for _, e := range exprs {
		expr.Inspect(e, func(x expr.Expr) bool {
			if a, ok := x.(*expr.AtomCall); ok && a.Name == "event" {
				found = true
			}
			return !found
		})
	}
	return found
}

// excerpt returns the text of a span, when the span is valid.
func excerpt(text string, sp expr.Span) string {
	s, e := sp.Start.Offset, sp.End.Offset
	if !sp.Start.IsValid() || s < 0 || e > len(text) || s >= e {
		return ""
	}
	return text[s:e]
}
