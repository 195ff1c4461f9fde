package lint

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/report"
)

// deadTransitions finds transitions that can never fire whatever the
// variables: a guard that is constantly false, and a transition written
// after an unconditional one from the same source (no event, no guard or
// a constantly true one) that leads to a stoppable leaf — that earlier
// transition is always taken, so the cycle never reaches the later one.
func deadTransitions(m *model.Model) map[*model.Transition]string {
	dead := map[*model.Transition]string{}
	var walk func(s *model.State)
	walk = func(s *model.State) {
		taken := map[*model.State]*model.Transition{} // source -> the always-taken transition
		for _, t := range s.Transitions {
			if t.From == nil {
				continue // initial transitions: the runtime tries them in order, validated
			}
			if first, ok := taken[t.From]; ok {
				dead[t] = fmt.Sprintf("the unconditional transition %s -> %s on line %d is written before it and is always taken", t.From.Name, first.To.Name, first.Pos.Line)
				continue
			}
			if v, ok := constant(t.Guard); ok && !v {
				dead[t] = fmt.Sprintf("its guard [%s] is always false", expr.Format(t.Guard))
				continue
			}
			if v, ok := constant(t.Guard); t.Event == nil && (t.Guard == nil || ok && v) && t.To != nil && t.To.Stoppable() {
				taken[t.From] = t
			}
		}
		for _, c := range s.Children {
			walk(c)
		}
	}
	walk(m.Root)
	return dead
}

// constant evaluates a guard that reads no variable.
func constant(g expr.Expr) (bool, bool) {
	if g == nil || len(expr.FreeVars(g)) > 0 {
		return false, false
	}
	v, err := expr.Eval(g, expr.Vars{})
	if err != nil || v.Type() != expr.Bool {
		return false, false
	}
	return v.Bool(), true
}

// deadFindings reports the transitions deadTransitions found, once per
// written transition (a combo is reported by the combo check instead).
func deadFindings(r *reach) []report.Finding {
	var out []report.Finding
	for t, why := range r.dead {
		if t.Origin != nil && !t.Forced {
			continue
		}
		code := "FCSTM_SHADOWED_TRANSITION"
		if t.Guard != nil {
			if v, ok := constant(t.Guard); ok && !v {
				code = "FCSTM_DEAD_GUARD"
			}
		}
		target := "[*]"
		if t.To != nil {
			target = t.To.Name
		}
		if t.Forced && code == "FCSTM_SHADOWED_TRANSITION" {
			why += "; the forced exits below " + t.From.Name + " still run, and then that earlier transition is taken instead (write the forced transition first)"
		}
		out = append(out, finding(code, t.Owner.Path, t.Pos, fmt.Sprintf("transition %s -> %s in %s never fires: %s", t.From.Name, target, t.Owner.Path, why)))
	}
	return out
}

// pseudoDeadEnds reports written pseudo states without an outgoing
// transition: a cycle that enters one cannot end on a stoppable state, so
// every transition into it is rejected (or the start is a delta).
func pseudoDeadEnds(m *model.Model) []report.Finding {
	var out []report.Finding
	var walk func(s *model.State)
	walk = func(s *model.State) {
		if s.Pseudo && !s.Combo && s.Parent != nil {
			leaves := false
			for _, t := range s.Parent.Transitions {
				leaves = leaves || t.From == s
			}
			if !leaves {
				out = append(out, finding("FCSTM_PSEUDO_DEAD_END", s.Path, s.Pos, fmt.Sprintf("pseudo state %s has no outgoing transition: a cycle that enters it cannot come to rest, so every transition into it is rejected", s.Path)))
			}
		}
		for _, c := range s.Children {
			walk(c)
		}
	}
	walk(m.Root)
	return out
}
