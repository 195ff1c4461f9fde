package smt

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/z3"
)

// builder wraps a Z3 context with a sticky error, so that encodings read as
// formulas rather than as error checks; the first failure is kept and
// every later call returns nil.
type builder struct {
	ctx *z3.Context
	err error
	// beyondLIA records that a term outside linear integer arithmetic was
	// built (a product or quotient of two non-constants, a real constant,
	// a conversion between the sorts), so an engine can keep such
	// formulas away from solver paths that are only safe for linear ones.
	beyondLIA bool
	// nonlinear records a product of two non-numerals or a division by
	// a non-numeral: Z3's incremental core is weak there (see NonLinear).
	nonlinear bool
}

// isNumeral reports whether t is a numeral.
func isNumeral(t *z3.Term) bool {
	return t.Kind() == z3.KindNumeral
}

func (b *builder) fail(err error) *z3.Term {
	if b.err == nil && err != nil {
		b.err = err
	}
	return nil
}

func (b *builder) t(t *z3.Term, err error) *z3.Term {
	if b.err != nil {
		return nil
	}
	if err != nil {
		return b.fail(err)
	}
	return t
}

func (b *builder) ok(ts ...*z3.Term) bool {
	if b.err != nil {
		return false
	}
	for _, t := range ts {
		if t == nil {
			b.fail(fmt.Errorf("smt: internal error: missing term"))
			return false
		}
	}
	return true
}

func (b *builder) boolConst(name string) *z3.Term { return b.t(b.ctx.BoolConst(name)) }

func (b *builder) intConst(name string) *z3.Term { return b.t(b.ctx.IntConst(name)) }

func (b *builder) realConst(name string) *z3.Term {
	b.beyondLIA = true
	return b.t(b.ctx.RealConst(name))
}

func (b *builder) True() *z3.Term { return b.t(b.ctx.True()) }

func (b *builder) False() *z3.Term { return b.t(b.ctx.False()) }

func (b *builder) boolVal(v bool) *z3.Term {
	if v {
		return b.True()
	}
	return b.False()
}

func (b *builder) intVal(v int64) *z3.Term { return b.t(b.ctx.IntVal(v)) }

func (b *builder) intFromString(s string) *z3.Term { return b.t(b.ctx.IntFromString(s)) }

func (b *builder) realFromString(s string) *z3.Term {
	b.beyondLIA = true
	return b.t(b.ctx.RealFromString(s))
}

func (b *builder) not(a *z3.Term) *z3.Term {
	if !b.ok(a) {
		return nil
	}
	if a.IsTrue() {
		return b.False()
	}
	if a.IsFalse() {
		return b.True()
	}
	return b.t(b.ctx.Not(a))
}

// and builds a conjunction, dropping literal trues (the empty conjunction
// is true).
func (b *builder) and(ts ...*z3.Term) *z3.Term { return b.junction(false, ts, b.ctx.And) }

// or builds a disjunction, dropping literal falses (the empty disjunction
// is false).
func (b *builder) or(ts ...*z3.Term) *z3.Term { return b.junction(true, ts, b.ctx.Or) }

// junction folds literals out of a conjunction (absorbing false) or a
// disjunction (absorbing true): the absorbing literal decides it, the
// neutral one is dropped, and zero or one operand needs no Z3 term.
func (b *builder) junction(absorbing bool, ts []*z3.Term, mk func(...*z3.Term) (*z3.Term, error)) *z3.Term {
	if !b.ok(ts...) {
		return nil
	}
	isAbsorbing := func(t *z3.Term) bool { return (absorbing && t.IsTrue()) || (!absorbing && t.IsFalse()) }
	isNeutral := func(t *z3.Term) bool { return (absorbing && t.IsFalse()) || (!absorbing && t.IsTrue()) }
	var keep []*z3.Term
	for _, t := range ts {
		if isAbsorbing(t) {
			return b.boolVal(absorbing)
		}
		if !isNeutral(t) {
			keep = append(keep, t)
		}
	}
	switch len(keep) {
	case 0:
		return b.boolVal(!absorbing)
	case 1:
		return keep[0]
	}
	return b.t(mk(keep...))
}

func (b *builder) implies(a, c *z3.Term) *z3.Term {
	if !b.ok(a, c) {
		return nil
	}
	if a.IsTrue() {
		return c
	}
	if a.IsFalse() || c.IsTrue() {
		return b.True()
	}
	return b.t(b.ctx.Implies(a, c))
}

func (b *builder) iff(a, c *z3.Term) *z3.Term {
	if !b.ok(a, c) {
		return nil
	}
	return b.t(b.ctx.Iff(a, c))
}

func (b *builder) xor(a, c *z3.Term) *z3.Term {
	if !b.ok(a, c) {
		return nil
	}
	return b.t(b.ctx.Xor(a, c))
}

func (b *builder) eq(a, c *z3.Term) *z3.Term {
	if !b.ok(a, c) {
		return nil
	}
	return b.t(b.ctx.Eq(a, c))
}

func (b *builder) ite(c, x, y *z3.Term) *z3.Term {
	if !b.ok(c, x, y) {
		return nil
	}
	if c.IsTrue() {
		return x
	}
	if c.IsFalse() {
		return y
	}
	return b.t(b.ctx.Ite(c, x, y))
}

func (b *builder) atMostOne(ts []*z3.Term) *z3.Term {
	if !b.ok(ts...) {
		return nil
	}
	if len(ts) <= 1 {
		return b.True()
	}
	return b.t(b.ctx.AtMost(1, ts...))
}

// exactlyOne is AtMost(1) ∧ Or.
func (b *builder) exactlyOne(ts []*z3.Term) *z3.Term {
	return b.and(b.atMostOne(ts), b.or(ts...))
}

func (b *builder) arith(op string, x, y *z3.Term) *z3.Term {
	if !b.ok(x, y) {
		return nil
	}
	switch op {
	case "*":
		nl := !isNumeral(x) && !isNumeral(y)
		b.nonlinear, b.beyondLIA = b.nonlinear || nl, b.beyondLIA || nl
	case "div", "mod", "/":
		nl := !isNumeral(y)
		b.nonlinear, b.beyondLIA = b.nonlinear || nl, b.beyondLIA || nl
	}
	switch op {
	case "+":
		return b.t(b.ctx.Add(x, y))
	case "-":
		return b.t(b.ctx.Sub(x, y))
	case "*":
		return b.t(b.ctx.Mul(x, y))
	case "div":
		return b.t(b.ctx.IntDiv(x, y))
	case "mod":
		return b.t(b.ctx.Mod(x, y))
	case "/":
		return b.t(b.ctx.RealDiv(x, y))
	case "<":
		return b.t(b.ctx.Lt(x, y))
	case "<=":
		return b.t(b.ctx.Le(x, y))
	case ">":
		return b.t(b.ctx.Gt(x, y))
	case ">=":
		return b.t(b.ctx.Ge(x, y))
	}
	return b.fail(fmt.Errorf("smt: unknown arithmetic operator %q", op))
}

func (b *builder) neg(x *z3.Term) *z3.Term {
	if !b.ok(x) {
		return nil
	}
	return b.t(b.ctx.Neg(x))
}

func (b *builder) toReal(x *z3.Term) *z3.Term {
	if !b.ok(x) {
		return nil
	}
	if x.SortKind() == z3.SortReal {
		return x
	}
	b.beyondLIA = true
	return b.t(b.ctx.ToReal(x))
}

func (b *builder) toInt(x *z3.Term) *z3.Term {
	if !b.ok(x) {
		return nil
	}
	b.beyondLIA = true
	return b.t(b.ctx.ToInt(x))
}
