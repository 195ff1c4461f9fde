package inspect

import (
	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/lint"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// shadowedBy finds, for each written transition, an earlier transition of
// the same owner that is always taken whenever it could be: the runtime
// tries a state's transitions in the order written and takes the first
// that matches, so the later one never fires. The earlier transition
// shadows when it leaves the same source, its event is none or the later
// one's, its guard holds whenever the later one's does (decided by
// structure: it has none, it is constant true, or each of its conjuncts
// is one of the later guard's), and it leads to a stoppable leaf, so that
// the cycle that takes it always comes to rest there (a transition into a
// pseudo state or a composite may be rejected, and the next one tried).
//
// It also returns, for each written transition it leaves undecided, the
// earlier ones that would shadow it but for their guards (smtShadowed
// asks the solver whether those guards cover its guard).
func shadowedBy(m *model.Model) (out map[*model.Transition]*model.Transition, candidates map[*model.Transition][]*model.Transition) {
	out, candidates = map[*model.Transition]*model.Transition{}, map[*model.Transition][]*model.Transition{}
	states(m.Root, func(s *model.State) {
		var takers []*model.Transition
		for _, t := range s.Transitions {
			if t.From == nil {
				continue // initial transitions: a separate selection, not examined
			}
			// A forced transition from a composite still fires its copies
			// below it, so it is examined from a leaf only.
			if t.Origin == nil && !(t.Forced && !t.From.IsLeaf()) {
				for _, e := range takers {
					if !sameTrigger(e, t) {
						continue
					}
					if guardCovers(e.Guard, t.Guard) {
						out[t] = e
						break
					}
					candidates[t] = append(candidates[t], e)
				}
				if out[t] != nil {
					delete(candidates, t)
				}
			}
			if t.Origin == nil && t.To != nil && t.To.Stoppable() {
				takers = append(takers, t)
			}
		}
	})
	return out, candidates
}

// sameTrigger reports whether e, tried before t, leaves t's source on
// every input t does: no event, or t's.
func sameTrigger(e, t *model.Transition) bool {
	return e.From == t.From && (e.Event == nil || t.Event != nil && e.Event.Path == t.Event.Path)
}

// guardCovers reports whether the guard eg holds whenever tg does, by
// structure.
func guardCovers(eg, tg expr.Expr) bool {
	if eg == nil {
		return true
	}
	if v, ok := lint.ConstantGuard(eg); ok {
		return v
	}
	if tg == nil {
		return false
	}
	have := map[string]bool{}
	for _, c := range conjuncts(tg, nil) {
		have[expr.Format(c)] = true
	}
	for _, c := range conjuncts(eg, nil) {
		if !have[expr.Format(c)] {
			return false
		}
	}
	return true
}

// conjuncts appends the operands of a chain of && in g to out.
func conjuncts(g expr.Expr, out []expr.Expr) []expr.Expr {
	if b, ok := g.(*expr.Binary); ok && b.Op == expr.Land {
		return conjuncts(b.Y, conjuncts(b.X, out))
	}
	return append(out, g)
}
