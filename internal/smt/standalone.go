package smt

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// NewLowerer returns an Encoding without a system, frames or solver: only
// Lower, B and TakeAxioms are meaningful on it. Engines that build their
// own per-step formulas (the inductive prover's triples) use it to lower
// expressions with exactly the semantics of the bounded encoding.
func NewLowerer(ctx *z3.Context) *Encoding {
	return &Encoding{b: builder{ctx: ctx}}
}

// Arith builds a comparison or arithmetic term ("+", "-", "*", "<", "<=",
// ">", ">="); nil on a prior error.
func (x *Builder) Arith(op string, a, c *z3.Term) *z3.Term { return x.b.arith(op, a, c) }

// NewCaseLowerer returns an Encoding of sys without frames or solver, for
// CaseRelation (and Lower, B and TakeAxioms).
func NewCaseLowerer(ctx *z3.Context, sys *sts.System) *Encoding {
	return &Encoding{b: builder{ctx: ctx}, Sys: sys}
}

// CaseRelation is the relation of case k of one source's ordered cases
// over the variables pre and post and the step's event inputs, exactly
// as the bounded encoding builds it, without the location: the guard, the
// conditions at their anchors, the events, the priorities over the
// earlier cases' antecedents, the effects' definedness and post as the
// effects leave the variables. An Error case's relation is false.
func (enc *Encoding) CaseRelation(cases []sts.Case, k int, pre, post, events []*z3.Term) (*z3.Term, error) {
	if k < 0 || k >= len(cases) {
		return nil, fmt.Errorf("smt: no case %d", k)
	}
	// Only the antecedents the priorities reach are built (a JSON case
	// has none), earlier cases first, so each finds its own.
	need := make([]bool, k)
	var mark func(c *sts.Case)
	mark = func(c *sts.Case) {
		for _, p := range c.Priority {
			if p < k && !need[p] {
				need[p] = true
				mark(&cases[p])
			}
		}
	}
	mark(&cases[k])
	st := &stepSyms{pre: pre, post: post, events: events}
	ante := make([]*z3.Term, k)
	for j := range k {
		if !need[j] {
			continue
		}
		a, _, _, err := enc.caseBody(st, &cases[j], ante[:j])
		if err != nil {
			return nil, fmt.Errorf("smt: case %s: %w", cases[j].Label, err)
		}
		ante[j] = a
	}
	_, body, _, err := enc.caseBody(st, &cases[k], ante)
	if err != nil {
		return nil, fmt.Errorf("smt: case %s: %w", cases[k].Label, err)
	}
	return body, nil
}
