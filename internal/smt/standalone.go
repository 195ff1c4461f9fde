package smt

import "github.com/stateproof/stateproof/internal/z3"

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
