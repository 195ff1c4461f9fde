package model

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/ast"
)

// forcedDecl is a resolved forced transition waiting for injection: the
// event and guard every injected exit shares, and the ordinary
// transitions it produced (one per source; several for !*).
type forcedDecl struct {
	owner  *State
	event  *Event
	guard  expr.Expr
	origin []*Transition // the ordinary transitions it produced, one per source
}

// buildTransitions builds the transitions of every composite in
// declaration order, expanding combos and forced transitions.
func (b *builder) buildTransitions() {
	for _, s := range b.order {
		inf := b.info[s]
		for _, it := range inf.decl.Items {
			switch d := it.(type) {
			case *ast.Transition:
				b.transition(inf.unit, s, d)
			case *ast.Forced:
				b.forcedTransition(inf.unit, s, d)
			}
		}
	}
}

// endpoint resolves a transition endpoint among the children of s; nil
// stands for [*] and is returned as nil with ok true.
func (b *builder) endpoint(u *unit, s *State, id *ast.Ident, role string) (*State, bool) {
	if id == nil {
		return nil, true
	}
	c := child(s, id.Name)
	if c == nil {
		b.errorf(u, "E_UNKNOWN_STATE", id.Pos, "unknown %s state %q in %s: transition endpoints are children of the state that declares the transition (%s)", role, id.Name, s.Path, childNames(s))
		return nil, false
	}
	return c, true
}

// hop is one resolved trigger term.
type hop struct {
	event *Event
	guard expr.Expr
	pos   ast.Pos
}

// terms resolves the terms of a trigger. localScope is the scope of bare
// "::" events; chainScope the scope of ":" paths.
func (b *builder) terms(u *unit, tg *ast.Trigger, localScope, chainScope *State) ([]hop, bool) {
	if tg == nil {
		return []hop{{}}, true
	}
	out := make([]hop, 0, len(tg.Terms))
	ok := true
	for _, t := range tg.Terms {
		h := hop{pos: t.Pos}
		if t.Event != nil {
			scope := chainScope
			if tg.Local {
				scope = localScope
			}
			h.event = b.resolveEvent(u, scope, *t.Event)
			ok = ok && h.event != nil
		} else {
			ok = b.checkSort(u, t.Guard, kindBool, &scope{u: u}) && ok
			b.renameVars(&scope{u: u}, t.Guard)
			h.guard = t.Guard
		}
		out = append(out, h)
	}
	return out, ok
}

func (b *builder) transition(u *unit, s *State, d *ast.Transition) {
	from, ok1 := b.endpoint(u, s, d.From, "source")
	to, ok2 := b.endpoint(u, s, d.To, "target")
	local := from
	if from == nil {
		local = s // entry events belong to the composite owning [*]
	}
	var hops []hop
	ok3 := true
	if ok1 {
		hops, ok3 = b.terms(u, d.Trigger, local, s)
	}
	effect := b.stmts(&scope{u: u, temps: map[string]bool{}}, d.Effect)
	if !ok1 || !ok2 || !ok3 {
		return
	}
	if d.HasEffect && effect == nil {
		effect = []Stmt{}
	}
	t := &Transition{Owner: s, From: from, To: to, Effect: effect, Doc: d.Doc, Pos: u.pos(d.Pos)}
	if len(hops) == 1 {
		t.Event, t.Guard = hops[0].event, hops[0].guard
		s.Transitions = append(s.Transitions, t)
		return
	}
	b.lintCombo(u, hops)
	b.expandCombo(s, t, hops)
}

// expandCombo turns a combo trigger into a chain of generated pseudo
// states __combo_<n>_<k> (n counts the combos of the owner, k the hop),
// one term per hop; only the last hop carries the effect. The first hop
// takes the written transition's place in priority order.
func (b *builder) expandCombo(s *State, written *Transition, hops []hop) {
	b.combos[s]++
	n := b.combos[s]
	prev := written.From
	for k, h := range hops {
		t := &Transition{Owner: s, From: prev, Event: h.event, Guard: h.guard, Origin: written, Pos: written.Pos}
		if k == 0 {
			t.Doc = written.Doc
		}
		if k == len(hops)-1 {
			t.To, t.Effect = written.To, written.Effect
		} else {
			name := fmt.Sprintf("__combo_%d_%d", n, k+1)
			c := &State{Name: name, Path: s.Path + "." + name, Pseudo: true, Combo: true, Parent: s, Pos: written.Pos}
			s.Children = append(s.Children, c)
			t.To = c
			prev = c
		}
		s.Transitions = append(s.Transitions, t)
	}
}

// lintCombo warns about a repeated event term (one input satisfies both)
// and a guard term that is constant.
func (b *builder) lintCombo(u *unit, hops []hop) {
	seen := map[*Event]bool{}
	for _, h := range hops {
		switch {
		case h.event != nil && seen[h.event]:
			b.warnf(u, "W_COMBO_DUPLICATE_EVENT", h.pos, "event %s appears twice in this combo; events are present or not, so one input satisfies both terms", h.event.Path)
		case h.event != nil:
			seen[h.event] = true
		case len(expr.FreeVars(h.guard)) == 0:
			if v, err := expr.Eval(h.guard, expr.Vars{}); err == nil && v.Type() == expr.Bool {
				b.warnf(u, "W_COMBO_CONSTANT_GUARD", h.pos, "guard term [%s] is always %v", expr.Format(h.guard), v.Bool())
			}
		}
	}
}

// forcedTransition makes the ordinary transitions of `!X -> T` (or `!* -> T`,
// one per child of s) and records the declaration: injectForced places
// them before the owner's written transitions and injects the exits into
// the composites below the sources.
func (b *builder) forcedTransition(u *unit, s *State, d *ast.Forced) {
	var sources []*State
	var local *State
	if d.From != nil {
		from, ok := b.endpoint(u, s, d.From, "source")
		if !ok {
			return
		}
		sources, local = []*State{from}, from // !X -> T :: E is X's event
	} else {
		for _, c := range s.Children {
			if !c.Combo {
				sources = append(sources, c)
			}
		}
		local = s // !* -> T :: E is the owner's event
	}
	to, ok := b.endpoint(u, s, d.To, "target")
	if !ok {
		return
	}
	hops, ok := b.terms(u, d.Trigger, local, s)
	if !ok {
		return
	}
	fd := forcedDecl{owner: s, event: hops[0].event, guard: hops[0].guard}
	for _, src := range sources {
		t := &Transition{Owner: s, From: src, To: to, Event: fd.event, Guard: fd.guard, Forced: true, Doc: d.Doc, Pos: u.pos(d.Pos)}
		fd.origin = append(fd.origin, t)
	}
	b.forced = append(b.forced, fd)
}
