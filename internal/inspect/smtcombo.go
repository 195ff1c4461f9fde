package inspect

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/z3"
)

// comboGuards reports the SMT-backed codes of combo guard terms: a term
// that is always true or always false, and a term that the guard terms
// before it imply or contradict where nothing can change a variable
// between them. Construction makes one hop per term, in order, so the
// hops of a written combo are its terms.
func (c *smtCheck) comboGuards() {
	states(c.a.m.Root, func(s *model.State) {
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
			c.comboTerms(w, hops[w])
		}
	})
}

// comboTerms checks the guard terms of the written combo w.
func (c *smtCheck) comboTerms(w *model.Transition, hops []*model.Transition) {
	// The first hop leaves the source, whose exit actions run before the
	// second term is tried; no other hop runs an action (the effect is
	// the last hop's, after its term).
	freeFrom := 0
	if w.From != nil && exits(w.From) {
		freeFrom = 1
	}
	var prior []int           // hop indices of the guard terms before, in order
	var priorHolds []*z3.Term // when each holds
	for k, h := range hops {
		if h.Guard == nil {
			continue
		}
		holds, constant, ok := c.comboTerm(w, k, h.Guard)
		if !ok || constant == 0 {
			return // undecided, or always false: no later term is tried
		}
		if constant == 1 {
			continue // always true: implies nothing, and anything implies it
		}
		c.comboPrefix(w, k, h.Guard, holds, hops, prior, priorHolds, freeFrom)
		prior, priorHolds = append(prior, k), append(priorHolds, holds)
	}
}

// comboTerm asks whether the guard term k of combo w is always false
// (constant 0) or always true (1), reporting either; else constant is -1.
// ok is false when the question is undecided.
func (c *smtCheck) comboTerm(w *model.Transition, k int, g expr.Expr) (holds *z3.Term, constant int, ok bool) {
	const codeT, codeF = "W_COMBO_GUARD_CONST_TRUE", "W_COMBO_GUARD_CONST_FALSE"
	span := exprSpan(g)
	if why := c.outside(g, nil); why != "" {
		c.undecided(codeF, w.Pos.File, span, why)
		return nil, -1, false
	}
	v, ok := c.lower(codeF, w.Pos.File, span, g, c.scope(nil))
	if !ok {
		return nil, -1, false
	}
	holds = c.b.And(v.Def, v.T)
	refs := c.comboRefs(w, k, g)
	switch c.ask(codeF, w.Pos.File, span, holds) {
	case z3.Unsat:
		refs["folded_value"] = false
		c.a.emit(codeF, w.Pos.File, span, refs, "combo guard term [%s] is false (or raises) for every value of its int variables: the combo never completes", expr.Format(g))
		return holds, 0, true
	case z3.Unknown:
		return nil, -1, false
	}
	switch c.ask(codeT, w.Pos.File, span, c.b.Not(holds)) {
	case z3.Unsat:
		refs["folded_value"] = true
		c.a.emit(codeT, w.Pos.File, span, refs, "combo guard term [%s] is true for every value of its int variables: it constrains nothing", expr.Format(g))
		return holds, 1, true
	case z3.Unknown:
		return nil, -1, false
	}
	return holds, -1, true
}

// comboPrefix asks whether the guard terms before term k, from the first
// one after which nothing changes a variable (freeFrom), imply term k or
// contradict it, and reports the earliest prior term from which they do.
func (c *smtCheck) comboPrefix(w *model.Transition, k int, g expr.Expr, holds *z3.Term, hops []*model.Transition, prior []int, priorHolds []*z3.Term, freeFrom int) {
	const codeI, codeC = "W_COMBO_GUARD_PREFIX_IMPLIED", "W_COMBO_GUARD_PREFIX_CONTRADICTS"
	span := exprSpan(g)
	conj := c.b.Bool(true)
	for i, j := range prior {
		if j < freeFrom {
			continue // tried before the source's exit actions ran
		}
		conj = c.b.And(conj, priorHolds[i])
		code, what := "", ""
		switch {
		case c.ask(codeI, w.Pos.File, span, c.b.And(conj, c.b.Not(holds))) == z3.Unsat:
			code, what = codeI, "imply"
		case c.ask(codeC, w.Pos.File, span, c.b.And(conj, holds)) == z3.Unsat:
			code, what = codeC, "contradict"
		default:
			continue
		}
		pg := hops[j].Guard
		refs := c.comboRefs(w, k, g)
		refs["prior_term_index"], refs["prior_term_text"] = j, expr.Format(pg)
		refs["prior_value_span"] = exprSpan(pg)
		c.a.emit(code, w.Pos.File, span, refs, "the combo's guard terms from [%s] (term %d) %s term %d [%s]", expr.Format(pg), j, what, k, expr.Format(g))
		return
	}
}

// comboRefs are the refs every combo guard code carries.
func (c *smtCheck) comboRefs(w *model.Transition, k int, g expr.Expr) map[string]any {
	return map[string]any{
		"origin_id":  fmt.Sprintf("%s@%d:%d", w.Owner.Path, w.Pos.Line, w.Pos.Col),
		"term_index": k, "term_text": expr.Format(g),
		"transition_span": c.a.stmtSpan(w.Pos), "value_span": exprSpan(g),
	}
}

// exits reports whether leaving s may run an action: an exit action of s
// or of a state below it.
func exits(s *model.State) bool {
	found := false
	states(s, func(d *model.State) { found = found || len(d.Exit) > 0 })
	return found
}

// initCoverage reports W_COMPOSITE_INIT_INCOMPLETE: some values of the
// int variables and some set of present events leave every initial
// transition of a composite disabled (its event absent, or its guard
// false or raising), so entering the composite can find no child.
func (c *smtCheck) initCoverage() {
	const code = "W_COMPOSITE_INIT_INCOMPLETE"
	states(c.a.m.Root, func(s *model.State) {
		if s.IsLeaf() || s.Combo {
			return
		}
		var inits []*model.Transition
		for _, t := range s.Transitions {
			if t.From == nil && t.Origin != nil {
				return // a combo's chain: its hops are not one trigger each (not examined)
			}
			if t.From == nil {
				inits = append(inits, t)
			}
		}
		if len(inits) == 0 {
			return
		}
		span := c.a.stmtSpan(s.Pos)
		gap, events := c.b.Bool(true), map[string]*z3.Term{}
		var summaries []string
		for _, t := range inits {
			enabled := c.b.Bool(true)
			if t.Event != nil {
				if events[t.Event.Path] == nil {
					ev, err := c.ctx.BoolConst("event " + t.Event.Path)
					if err != nil {
						c.undecided(code, s.Pos.File, span, err.Error())
						return
					}
					events[t.Event.Path] = ev
				}
				enabled = events[t.Event.Path]
			}
			if t.Guard != nil {
				if why := c.outside(t.Guard, nil); why != "" {
					c.undecided(code, s.Pos.File, span, fmt.Sprintf("the guard on line %d: %s", t.Pos.Line, why))
					return
				}
				g, ok := c.lower(code, s.Pos.File, span, t.Guard, c.scope(nil))
				if !ok {
					return
				}
				enabled = c.b.And(enabled, g.Def, g.T)
			}
			gap = c.b.And(gap, c.b.Not(enabled))
			summaries = append(summaries, c.refs(t)["transition_summary"].(string))
		}
		if c.ask(code, s.Pos.File, span, gap) != z3.Sat {
			return
		}
		c.a.emit(code, s.Pos.File, span, map[string]any{
			"algorithm_name": "smt_local", "verification_scope": "smt_local", "composite_path": s.Path,
			"init_transition_count": len(inits), "init_transitions": summaries,
		}, "the initial transitions of %s leave some values and events with no child to enter: every one of its %d initial transitions can be disabled at once", s.Path, len(inits))
	})
}
