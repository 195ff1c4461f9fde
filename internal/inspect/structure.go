package inspect

import (
	"github.com/stateproof/stateproof/internal/fcstm/ast"
	"github.com/stateproof/stateproof/internal/fcstm/lint"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// structure reports the state-graph findings: states no run enters
// (lint's structural reachability, the one implementation of it), leaves
// without a way out, named actions that can never run, and composites
// that transition to themselves.
func (a *analysis) structure() {
	live := lint.Enterable(a.m)
	a.live = live
	states(a.m.Root, func(s *model.State) {
		if s.Combo {
			return
		}
		span := a.stateSpan(s)
		if a.searched != nil && a.searched.reached[s.Path] {
			live[s] = true // a configuration the search reached rests in it
		}
		if !live[s] {
			a.emit("W_UNREACHABLE_STATE", s.Pos.File, span, map[string]any{"state_path": s.Path},
				"state %s can never be entered: no initial transition, and no transition from a state a run can enter, leads to it", s.Path)
		} else {
			a.unreachedBySearch(s, span)
		}
		if s.Parent != nil && s.Stoppable() && !hasOutgoing(s) {
			a.emit("W_LEAF_NO_OUTGOING_TRANSITION", s.Pos.File, span,
				map[string]any{"state_path": s.Path, "parent_path": s.Parent.Path, "reason": "no_outgoing_transition"},
				"leaf state %s has no transition out of it: once entered, it stays active until a parent-level transition leaves", s.Path)
		}
		for _, t := range s.Transitions {
			if t.Origin == nil && t.From != nil && t.From == t.To && !t.From.IsLeaf() {
				a.emit("I_TRANSITION_TO_SELF_VIA_PARENT", t.Pos.File, a.stmtSpan(t.Pos),
					map[string]any{"state_path": t.From.Path, "crosses_composite": true},
					"composite %s transitions to itself: it exits every active child and re-enters through its initial transition", t.From.Path)
			}
		}
	})
	a.deadActions(live)
}

// hasOutgoing reports whether some transition of s's parent leaves s.
func hasOutgoing(s *model.State) bool {
	for _, t := range s.Parent.Transitions {
		if t.From == s {
			return true
		}
	}
	return false
}

// deadActions reports the named actions of states no run enters that no
// action of an enterable state refers to.
func (a *analysis) deadActions(live map[*model.State]bool) {
	referenced := map[*model.Action]bool{}
	states(a.m.Root, func(s *model.State) {
		if !live[s] {
			return
		}
		for _, act := range actionsOf(s) {
			if act.Kind == model.Ref && act.Target != nil {
				referenced[act.Target] = true
			}
		}
	})
	states(a.m.Root, func(s *model.State) {
		if live[s] || s.Combo {
			return
		}
		for _, act := range actionsOf(s) {
			if act.Name == "" || referenced[act] {
				continue
			}
			a.emit("W_DEAD_NAMED_ACTION", act.Pos.File, a.stmtSpan(act.Pos),
				map[string]any{"function_name": act.Name, "defined_in": s.Path},
				"named action %s never runs: its state %s can never be entered and no action of an enterable state refers to it", act.Path, s.Path)
		}
	})
}

func actionsOf(s *model.State) []*model.Action {
	var out []*model.Action
	for _, list := range [][]*model.Action{s.Enter, s.During, s.Exit, s.DuringBefore, s.DuringAfter, s.AspectBefore, s.AspectAfter} {
		out = append(out, list...)
	}
	return out
}

// events reports the events declared in the root file that no transition
// uses (imported files' declarations are the imported file's business).
func (a *analysis) events() {
	if a.tree == nil || a.tree.Root == nil {
		return
	}
	used := map[*model.Event]bool{}
	states(a.m.Root, func(s *model.State) {
		for _, t := range s.Transitions {
			if t.Event != nil {
				used[t.Event] = true
			}
		}
	})
	declStates(a.tree.Root, "", func(path string, d *ast.StateDecl) {
		for _, it := range d.Items {
			e, ok := it.(*ast.EventDecl)
			if !ok {
				continue
			}
			ev := a.m.EventByPath[path+"."+e.Name.Name]
			if ev == nil || used[ev] {
				continue
			}
			a.emit("W_UNUSED_EVENT", a.file, a.stmtSpan(model.Pos{File: a.file, Line: e.Pos.Line, Col: e.Pos.Col}),
				map[string]any{"event_qualified_name": ev.Path, "scope": "local"},
				"event %s is declared but no transition is triggered by it", ev.Path)
		}
	})
}

// declStates calls f for every state declaration of the root file's
// tree with its dotted path.
func declStates(d *ast.StateDecl, parent string, f func(path string, d *ast.StateDecl)) {
	path := d.Name.Name
	if parent != "" {
		path = parent + "." + path
	}
	f(path, d)
	for _, it := range d.Items {
		if c, ok := it.(*ast.StateDecl); ok {
			declStates(c, path, f)
		}
	}
}

// stateSpan is the span of a state's name (pyfcstm's state_identifier).
func (a *analysis) stateSpan(s *model.State) Span {
	if s.Pos.File != a.file {
		return point(s.Pos.Line, s.Pos.Col)
	}
	return a.src.ident(s.Pos, s.Name)
}

// stmtSpan is the span of the declaration or statement at p.
func (a *analysis) stmtSpan(p model.Pos) Span {
	if p.File != a.file {
		return point(p.Line, p.Col)
	}
	return a.src.statement(p)
}
