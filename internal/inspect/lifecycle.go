package inspect

import (
	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// lifecycle reports the findings about composites' entries, self loops
// and actions: a composite without an unconditional initial transition, a
// leaf self-loop that does nothing, an aspect with no leaf below it, and
// a during action that assigns the same constant every cycle.
func (a *analysis) lifecycle() {
	states(a.m.Root, func(s *model.State) {
		if s.Combo {
			return
		}
		a.initialMissing(s)
		a.selfNop(s)
		a.aspectNoLeaf(s)
		a.duringConst(s)
	})
}

func (a *analysis) initialMissing(s *model.State) {
	if s.IsLeaf() {
		return
	}
	conditional := 0
	for _, t := range s.Transitions {
		if t.From != nil || !written(t) {
			continue
		}
		if t.Event == nil && t.Guard == nil {
			return
		}
		conditional++
	}
	refs := map[string]any{"composite_path": s.Path, "existing_conditional_count": conditional}
	for _, c := range s.Children {
		if !c.Pseudo {
			refs["first_child_name"] = c.Name
			break
		}
	}
	a.emit("W_INITIAL_UNCONDITIONAL_MISSING", s.Pos.File, a.stmtSpan(s.Pos), refs,
		"composite %s has no unconditional initial transition: none of its %d initial transitions is guaranteed to fire", s.Path, conditional)
}

func (a *analysis) selfNop(s *model.State) {
	if s.Parent == nil {
		return
	}
	for _, t := range s.Parent.Transitions {
		if t.From != s || t.To != s || !s.IsLeaf() || t.Origin != nil || t.Forced || t.Event != nil || t.Guard != nil || len(t.Effect) > 0 {
			continue
		}
		if len(s.Enter) > 0 || len(s.Exit) > 0 || len(s.During) > 0 || ancestorAspects(s) {
			continue
		}
		a.emit("W_SELF_TRANSITION_NOP", t.Pos.File, a.stmtSpan(t.Pos),
			map[string]any{"state_path": s.Path, "from_path": s.Path, "to_path": s.Path, "transition_span": a.stmtSpan(t.Pos)},
			"self transition of %s has no event, guard, effect or action to run: it does nothing", s.Path)
	}
}

func ancestorAspects(s *model.State) bool {
	for p := s.Parent; p != nil; p = p.Parent {
		if len(p.AspectBefore) > 0 || len(p.AspectAfter) > 0 {
			return true
		}
	}
	return false
}

func (a *analysis) aspectNoLeaf(s *model.State) {
	if len(s.AspectBefore)+len(s.AspectAfter) == 0 || hasStoppableBelow(s) {
		return
	}
	for _, list := range []struct {
		acts []*model.Action
		when string
	}{{s.AspectBefore, "before"}, {s.AspectAfter, "after"}} {
		for _, act := range list.acts {
			a.emit("W_ASPECT_NO_DESCENDANT_LEAF", act.Pos.File, a.stmtSpan(act.Pos),
				map[string]any{"composite_path": s.Path, "aspect": list.when},
				">> during %s aspect of %s never runs: no state below %s is a leaf a cycle can rest in", list.when, s.Path, s.Path)
		}
	}
}

// hasStoppableBelow reports whether some strict descendant of s is a leaf
// that is not pseudo.
func hasStoppableBelow(s *model.State) bool {
	for _, c := range s.Children {
		if c.Stoppable() || hasStoppableBelow(c) {
			return true
		}
	}
	return false
}

// duringConst reports the direct statements of a leaf's concrete during
// actions that assign a variable a constant built from literals only.
func (a *analysis) duringConst(s *model.State) {
	for _, act := range s.During {
		if act.Kind != model.Concrete {
			continue
		}
		for _, op := range act.Ops {
			n, ok := op.(*model.Assign)
			if !ok || n.Temp || !literalOnly(n.Value) {
				continue
			}
			v, err := expr.Eval(n.Value, expr.Vars{})
			if err != nil {
				continue
			}
			var value any
			switch {
			case v.IsInt64():
				value = v.Int()
			case v.Type() == expr.Real:
				value = v.Real()
			default:
				continue
			}
			a.emit("W_DURING_CONST_ASSIGN", act.Pos.File, a.stmtSpan(n.Pos),
				map[string]any{"state_path": s.Path, "var_name": n.Name, "value": value},
				"the during action of %s assigns %s the constant %v every cycle; an enter action would do it once", s.Path, n.Name, value)
		}
	}
}

// literalOnly reports whether e is built from numeric literals and
// operators only (no variable, named constant or function).
func literalOnly(e expr.Expr) bool {
	ok := true
	expr.Inspect(e, func(x expr.Expr) bool {
		switch x.(type) {
		case *expr.IntLit, *expr.FloatLit, *expr.BoolLit, *expr.Unary, *expr.Binary, *expr.Conditional:
		default:
			ok = false
		}
		return ok
	})
	return ok
}

// abstractOwners lists the abstract actions of the model (their path, or
// their state's for an anonymous one), sorted.
func (a *analysis) abstractOwners() []string {
	set := map[string]bool{}
	states(a.m.Root, func(s *model.State) {
		for _, act := range actionsOf(s) {
			if act.Kind != model.Abstract {
				continue
			}
			if act.Path != "" {
				set[act.Path] = true
			} else {
				set[s.Path] = true
			}
		}
	})
	return sortedKeys(set)
}
