package inspect

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/fcstm/ast"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// combos reports a combo trigger that names one event twice. The hops
// construction made from the trigger, one per term in order, say which
// terms resolve to the same event; the syntax tree gives their text.
func (a *analysis) combos() {
	states(a.m.Root, func(s *model.State) {
		var order []*model.Transition
		hops := map[*model.Transition][]*model.Transition{}
		for _, t := range s.Transitions {
			if t.Origin == nil || t.Forced {
				continue
			}
			if hops[t.Origin] == nil {
				order = append(order, t.Origin)
			}
			hops[t.Origin] = append(hops[t.Origin], t)
		}
		for _, w := range order {
			a.comboDuplicates(w, hops[w])
		}
	})
}

func (a *analysis) comboDuplicates(w *model.Transition, hops []*model.Transition) {
	terms := a.triggerTerms(w)
	first := map[*model.Event]int{}
	for k, h := range hops {
		if h.Event == nil {
			continue
		}
		j, seen := first[h.Event]
		if !seen {
			first[h.Event] = k
			continue
		}
		text := func(i int) string {
			if i < len(terms) && terms[i].Event != nil {
				return terms[i].Event.String()
			}
			return h.Event.Name
		}
		refs := map[string]any{
			"origin_id":  fmt.Sprintf("%s@%d:%d", w.Owner.Path, w.Pos.Line, w.Pos.Col),
			"event_name": h.Event.Path, "term_index": k, "first_term_index": j,
			"term_text": text(k), "first_term_text": text(j), "transition_span": a.stmtSpan(w.Pos),
		}
		if k < len(terms) && j < len(terms) {
			refs["term_span"] = a.src.word(terms[k].Pos.Line, terms[k].Pos.Col)
			refs["first_term_span"] = a.src.word(terms[j].Pos.Line, terms[j].Pos.Col)
		}
		a.emit("W_COMBO_DUPLICATE_EVENT", w.Pos.File, a.stmtSpan(w.Pos), refs,
			"combo trigger names event %s twice (terms %d and %d); one input satisfies both", h.Event.Path, j+1, k+1)
	}
}

// triggerTerms returns the terms of the root-file transition written at
// w's position, or nil. The index of the file's triggers is built on the
// first call.
func (a *analysis) triggerTerms(w *model.Transition) []ast.Term {
	if a.tree == nil || a.tree.Root == nil || w.Pos.File != a.file {
		return nil
	}
	if a.triggers == nil {
		a.triggers = map[[2]int][]ast.Term{}
		declStates(a.tree.Root, "", func(_ string, d *ast.StateDecl) {
			for _, it := range d.Items {
				if t, ok := it.(*ast.Transition); ok && t.Trigger != nil {
					a.triggers[[2]int{t.Pos.Line, t.Pos.Col}] = t.Trigger.Terms
				}
			}
		})
	}
	return a.triggers[[2]int{w.Pos.Line, w.Pos.Col}]
}
