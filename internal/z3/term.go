package z3

import (
	"math/big"
	"strings"
)

// usable returns the term's Context if the term can be used, or nil.
func (t *Term) usable() *Context {
	if t == nil || t.ctx == nil || t.ctx.closed {
		return nil
	}
	return t.ctx
}

// begin is the Term counterpart of Context.begin.
func (t *Term) begin(op string) (*Context, error) {
	if t == nil || t.ctx == nil {
		return nil, argError(op, "nil Term")
	}
	if err := t.ctx.begin(op); err != nil {
		return nil, err
	}
	return t.ctx, nil
}

// String renders the term in SMT-LIB syntax.
func (t *Term) String() string {
	c := t.usable()
	if c == nil {
		return "<invalid term>"
	}
	return z3_ast_to_string(c.z, t.ast)
}

// ID returns Z3's identifier of the term. Z3 hash-conses terms, so two
// *Term values denote the same term exactly when their IDs are equal (while
// both are alive). Useful for mapping unsat-core literals back.
func (t *Term) ID() uint32 {
	c := t.usable()
	if c == nil {
		return 0
	}
	return uint32(z3_get_ast_id(c.z, t.ast))
}

// Equal reports whether t and u are the same term (structurally, thanks to
// hash-consing).
func (t *Term) Equal(u *Term) bool {
	c := t.usable()
	if c == nil || u == nil || u.ctx != c {
		return false
	}
	return bool(z3_is_eq_ast(c.z, t.ast, u.ast))
}

// Sort returns the sort of the term.
func (t *Term) Sort() (*Sort, error) {
	c, err := t.begin("Term.Sort")
	if err != nil {
		return nil, err
	}
	return c.sortResult("Term.Sort", z3_get_sort(c.z, t.ast))
}

// SortKind returns the kind of the term's sort (SortUnknown if unusable).
func (t *Term) SortKind() SortKind {
	c := t.usable()
	if c == nil {
		return SortUnknown
	}
	return c.rawSortKind(t.ast)
}

// IsTrue reports whether the term is the constant true.
func (t *Term) IsTrue() bool {
	c := t.usable()
	return c != nil && z3_get_bool_value(c.z, t.ast) == z3_L_TRUE
}

// IsFalse reports whether the term is the constant false.
func (t *Term) IsFalse() bool {
	c := t.usable()
	return c != nil && z3_get_bool_value(c.z, t.ast) == z3_L_FALSE
}

// Bool returns the value of a term that is the constant true or false
// (typically the result of Model.Eval); any other term is an error.
func (t *Term) Bool() (bool, error) {
	c, err := t.begin("Term.Bool")
	if err != nil {
		return false, err
	}
	switch z3_get_bool_value(c.z, t.ast) {
	case z3_L_TRUE:
		return true, nil
	case z3_L_FALSE:
		return false, nil
	}
	return false, argError("Term.Bool", "not a Boolean constant: %s", t.String())
}

// Simplify returns Z3's simplification of the term; for a closed arithmetic
// term that is its value.
func (t *Term) Simplify() (*Term, error) {
	c, err := t.begin("Term.Simplify")
	if err != nil {
		return nil, err
	}
	return c.result("Term.Simplify", z3_simplify(c.z, t.ast))
}

// numeral reports whether the term is a rational numeral.
func (t *Term) numeral(op string) (*Context, error) {
	c, err := t.begin(op)
	if err != nil {
		return nil, err
	}
	if !bool(z3_is_numeral_ast(c.z, t.ast)) {
		return nil, argError(op, "not a numeral: %s", t.String())
	}
	return c, nil
}

// Int64 returns the value of an integral numeral that fits in an int64.
// Numerals that are fractions or too large are errors (use Int for
// integers of any size, Rat for fractions).
func (t *Term) Int64() (int64, error) {
	const op = "Term.Int64"
	c, err := t.numeral(op)
	if err != nil {
		return 0, err
	}
	var v int64
	ok := bool(z3_get_numeral_int64(c.z, t.ast, &v))
	if err := c.lastError(op); err != nil {
		return 0, err
	}
	if !ok {
		return 0, argError(op, "numeral %s is not an integer in the int64 range", t.String())
	}
	return int64(v), nil
}

// Int returns the exact value of an integral numeral of any size.
// Fractions are errors.
func (t *Term) Int() (*big.Int, error) {
	r, err := t.Rat()
	if err != nil {
		return nil, err
	}
	if !r.IsInt() {
		return nil, argError("Term.Int", "numeral %s is not an integer", t.String())
	}
	return new(big.Int).Set(r.Num()), nil
}

// NumeralString returns the exact value of a numeral: "-12" for integers,
// "-1/3" for fractions (Z3 normalises fractions; an integral Real is "2").
func (t *Term) NumeralString() (string, error) {
	const op = "Term.NumeralString"
	c, err := t.numeral(op)
	if err != nil {
		return "", err
	}
	s := z3_get_numeral_string(c.z, t.ast)
	if err := c.lastError(op); err != nil {
		return "", err
	}
	return s, nil
}

// Rat returns the exact value of a numeral as a big.Rat (numerator and
// denominator through Num and Denom).
func (t *Term) Rat() (*big.Rat, error) {
	s, err := t.NumeralString()
	if err != nil {
		return nil, err
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, &Error{Op: "Term.Rat", Kind: ErrorParse, Message: "unexpected numeral " + quote(s)}
	}
	return r, nil
}

// DecimalString renders a numeral, or an irrational algebraic number such
// as a model value of x in x*x = 2, in decimal notation with at most
// precision digits after the point. Z3 marks a truncated expansion with a
// trailing "?".
func (t *Term) DecimalString(precision uint) (string, error) {
	const op = "Term.DecimalString"
	c, err := t.begin(op)
	if err != nil {
		return "", err
	}
	if !bool(z3_is_numeral_ast(c.z, t.ast)) && !bool(z3_is_algebraic_number(c.z, t.ast)) {
		return "", argError(op, "not a numeral: %s", t.String())
	}
	s := z3_get_numeral_decimal_string(c.z, t.ast, uint32(precision))
	if err := c.lastError(op); err != nil {
		return "", err
	}
	return strings.TrimSpace(s), nil
}
