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
func shadowedBy(m *model.Model) map[*model.Transition]*model.Transition {
	out := map[*model.Transition]*model.Transition{}
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
					if shadows(e, t) {
						out[t] = e
						break
					}
				}
			}
			if t.Origin == nil && t.To != nil && t.To.Stoppable() {
				takers = append(takers, t)
			}
		}
	})
	return out
}

// shadows reports whether e, written before t, is taken whenever t could be.
func shadows(e, t *model.Transition) bool {
	if e.From != t.From {
		return false
	}
	if e.Event != nil && (t.Event == nil || e.Event.Path != t.Event.Path) {
		return false
	}
	if e.Guard == nil {
		return true
	}
	if v, ok := lint.ConstantGuard(e.Guard); ok {
		return v
	}
	if t.Guard == nil {
		return false
	}
	have := map[string]bool{}
	for _, c := range conjuncts(t.Guard, nil) {
		have[expr.Format(c)] = true
	}
	for _, c := range conjuncts(e.Guard, nil) {
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
