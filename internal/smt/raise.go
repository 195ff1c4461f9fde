package smt

import (
	"fmt"
	"slices"

	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// RaiseCase is an error case of one step and its antecedent there: the
// step is at the case's source, its guard, conditions, events and
// priorities hold, so the runtime raises instead of taking any case.
type RaiseCase struct {
	Case *sts.Case
	Ante *z3.Term
}

// Raising is what step i knows about raising. The step relation excludes
// every error case (a trace never passes through one), so a query
// decided on traces alone would not see a run that raises; the checker
// asks separately whether the frames before the step can be reached and
// Cond then holds.
type Raising struct {
	Cases []RaiseCase
	// Cond is "step i raises": one of the antecedents holds, with the
	// side conditions their terms need (event discipline, the definitions
	// of fresh sqrt symbols). False when the step cannot raise.
	Cond *z3.Term
}

// addRaising records the raising condition of the step being extended.
func (enc *Encoding) addRaising(cases []RaiseCase, side []*z3.Term) {
	b := &enc.b
	cond := b.False()
	if len(cases) > 0 {
		antes := make([]*z3.Term, len(cases))
		for k, rc := range cases {
			antes[k] = rc.Ante
		}
		cond = b.and(append([]*z3.Term{b.or(antes...)}, side...)...)
	}
	enc.Raises = append(enc.Raises, Raising{Cases: cases, Cond: cond})
}

// leanRaises builds the error antecedents of step i of the lean shape. The
// lean step reads no event symbols when the events are projected out of
// the selection, and an antecedent without its events would be wrong both
// ways (an error case could seem enabled without its event, or shadowed by
// an earlier case whose event is absent), so the antecedents are built
// again over event symbols of their own, constrained as the system's
// events are. evUnits are the constraints of the step's own event terms.
func (enc *Encoding) leanRaises(i int, st *stepSyms, evUnits []*z3.Term) error {
	b := &enc.b
	sys := enc.Sys
	var side []*z3.Term
	rs := *st
	if rs.events == nil {
		rs.events = make([]*z3.Term, len(sys.Events))
		for k := range rs.events {
			rs.events[k] = b.boolConst(fmt.Sprintf("R_%d_event_%d", i, k))
		}
		if sys.OneEventPerStep && len(rs.events) > 0 {
			side = append(side, b.exactlyOne(rs.events))
		}
	} else {
		side = append(side, evUnits...)
	}
	var cases []RaiseCase
	for _, src := range sys.StepSources(i, enc.start) {
		cs := sys.Cases[src]
		if !slices.ContainsFunc(cs, func(c sts.Case) bool { return c.Kind == sts.Error }) {
			continue
		}
		ante := make([]*z3.Term, 0, len(cs))
		for k := range cs {
			a, _, _, err := enc.caseBody(&rs, &cs[k], ante)
			if err != nil {
				return fmt.Errorf("smt: case %s: %w", cs[k].Label, err)
			}
			ante = append(ante, a)
			if cs[k].Kind == sts.Error {
				cases = append(cases, RaiseCase{Case: &cs[k], Ante: a})
			}
		}
	}
	// The axioms of the step so far include those of the rebuilt terms.
	enc.addRaising(cases, append(side, enc.axioms...))
	return b.err
}
