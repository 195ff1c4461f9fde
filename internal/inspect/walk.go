package inspect

import (
	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// Contexts of an expression, with pyfcstm's names for them.
const (
	ctxInit   = "var_initializer"
	ctxGuard  = "guard"
	ctxEffect = "transition_effect"
	ctxAction = "lifecycle_action"
)

// site says where an expression or statement is written.
type site struct {
	context string
	state   *model.State      // the action's state, or the transition's source (its owner for [*] ->)
	trans   *model.Transition // transitions only
	file    string
	assign  bool // an expression that is the right-hand side of an assignment
}

// states calls f for every state of the tree, parents first.
func states(s *model.State, f func(*model.State)) {
	f(s)
	for _, c := range s.Children {
		states(c, f)
	}
}

// written reports whether t stands for a transition as the user wrote it
// rather than a copy made by construction: a forced transition injected
// into a composite below its source repeats the written one.
func written(t *model.Transition) bool { return !(t.Forced && t.Origin != nil) }

// sourceState returns the state a transition leaves: its owner for
// [*] -> X, and for a hop of a combo chain the written transition's source
// rather than a generated pseudo state.
func sourceState(t *model.Transition) *model.State {
	if t.Origin != nil && t.From != nil && t.From.Combo {
		return sourceState(t.Origin)
	}
	if t.From == nil {
		return t.Owner
	}
	return t.From
}

// ends returns the written ends of a transition: for a hop of a combo
// chain, the source and target of the transition the user wrote.
func ends(t *model.Transition) (from, to *model.State) {
	if t.Origin != nil && !t.Forced {
		return t.Origin.From, t.Origin.To
	}
	return t.From, t.To
}

// endpointPath renders a transition end: the state path, or [*].
func endpointPath(s *model.State) string {
	if s == nil {
		return "[*]"
	}
	return s.Path
}

// walkCode calls guard for every guard and stmt for every statement of
// effects and concrete actions (If branches included, depth first), and
// init for every variable initialiser, each with its site. A guard shared
// by the transitions one forced declaration makes is visited once.
func (a *analysis) walkCode(init func(*model.Variable), guard func(expr.Expr, site), stmt func(model.Stmt, site)) {
	if init != nil {
		for _, v := range a.m.Vars {
			init(v)
		}
	}
	seen := map[expr.Expr]bool{}
	states(a.m.Root, func(s *model.State) {
		for _, t := range s.Transitions {
			if !written(t) {
				continue
			}
			st := site{state: sourceState(t), trans: t, file: t.Pos.File}
			if t.Guard != nil && guard != nil && !seen[t.Guard] {
				seen[t.Guard] = true
				st.context = ctxGuard
				guard(t.Guard, st)
			}
			if stmt != nil {
				st.context = ctxEffect
				walkStmts(t.Effect, st, stmt)
			}
		}
		if stmt == nil {
			return
		}
		for _, list := range [][]*model.Action{s.Enter, s.During, s.Exit, s.DuringBefore, s.DuringAfter, s.AspectBefore, s.AspectAfter} {
			for _, act := range list {
				if act.Kind == model.Concrete {
					walkStmts(act.Ops, site{context: ctxAction, state: s, file: act.Pos.File}, stmt)
				}
			}
		}
	})
}

func walkStmts(ops []model.Stmt, st site, f func(model.Stmt, site)) {
	for _, op := range ops {
		f(op, st)
		if n, ok := op.(*model.If); ok {
			for _, b := range n.Branches {
				walkStmts(b.Body, st, f)
			}
			walkStmts(n.Else, st, f)
		}
	}
}

// eachExpr calls f for every expression written in the model: variable
// initialisers, guards, assignment right-hand sides and if conditions.
func (a *analysis) eachExpr(f func(expr.Expr, site)) {
	a.walkCode(func(v *model.Variable) {
		if v.InitExpr != nil {
			f(v.InitExpr, site{context: ctxInit, file: v.Pos.File})
		}
	}, f, func(op model.Stmt, st site) {
		switch n := op.(type) {
		case *model.Assign:
			st.assign = true
			f(n.Value, st)
		case *model.If:
			for _, b := range n.Branches {
				f(b.Cond, st)
			}
		}
	})
}
