package z3

import (
	"math/big"
	"strings"
)

// IntVal returns the integer literal v.
func (c *Context) IntVal(v int64) (*Term, error) {
	if err := c.begin("IntVal"); err != nil {
		return nil, err
	}
	return c.result("IntVal", z3_mk_int64(c.z, int64(v), c.intSort.s))
}

// IntFromString returns the integer literal written in decimal in s
// (an optional sign followed by digits; any size).
func (c *Context) IntFromString(s string) (*Term, error) {
	const op = "IntFromString"
	if err := c.begin(op); err != nil {
		return nil, err
	}
	var n big.Int
	if !isDecimalInt(s) {
		return nil, &Error{Op: op, Kind: ErrorParse, Message: "not a decimal integer: " + quote(s)}
	}
	n.SetString(s, 10)
	return c.numeral(op, n.String(), c.intSort)
}

// RealVal returns the rational literal num/den; den must not be zero.
func (c *Context) RealVal(num, den int64) (*Term, error) {
	const op = "RealVal"
	if err := c.begin(op); err != nil {
		return nil, err
	}
	if den == 0 {
		return nil, argError(op, "zero denominator")
	}
	r := new(big.Rat).SetFrac(big.NewInt(num), big.NewInt(den))
	return c.numeral(op, r.RatString(), c.realSort)
}

// RealFromString returns the rational literal written in s: an integer
// ("-7"), a fraction ("1/3") or a decimal ("2.5", "1e-3").
func (c *Context) RealFromString(s string) (*Term, error) {
	const op = "RealFromString"
	if err := c.begin(op); err != nil {
		return nil, err
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || strings.ContainsAny(s, "xXoObB_pP") {
		return nil, &Error{Op: op, Kind: ErrorParse, Message: "not a decimal rational: " + quote(s)}
	}
	return c.numeral(op, r.RatString(), c.realSort)
}

// numeral passes a canonical numeral string ("-12" or "-1/3") to Z3.
func (c *Context) numeral(op, canonical string, s *Sort) (*Term, error) {
	cs := canonical
	return c.result(op, z3_mk_numeral(c.z, cs, s.s))
}

func isDecimalInt(s string) bool {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func quote(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return "\"" + s + "\""
}

// arith checks that every term has the same arithmetic sort. want is
// SortInt or SortReal to demand that sort, or SortUnknown to accept either.
// It returns the common kind.
func (c *Context) arith(op string, as []z3_ast, want SortKind) (SortKind, error) {
	var kind SortKind
	for i, a := range as {
		k := c.rawSortKind(a)
		if k != SortInt && k != SortReal {
			return 0, sortError(op, "argument %d has sort %s, want Int or Real", i+1, k)
		}
		if want != SortUnknown && k != want {
			return 0, sortError(op, "argument %d has sort %s, want %s", i+1, k, want)
		}
		if i > 0 && k != kind {
			return 0, sortError(op, "argument %d has sort %s, argument 1 has sort %s (use ToReal or ToInt)", i+1, k, kind)
		}
		kind = k
	}
	return kind, nil
}

// arithNary builds f(ts...) over one arithmetic sort.
func (c *Context) arithNary(op string, ts []*Term, f func(z3_context, uint32, *z3_ast) z3_ast) (*Term, error) {
	as, err := c.prepare(op, ts...)
	if err != nil {
		return nil, err
	}
	if len(as) == 0 {
		return nil, argError(op, "needs at least 1 argument")
	}
	if _, err := c.arith(op, as, SortUnknown); err != nil {
		return nil, err
	}
	return c.result(op, f(c.z, uint32(len(as)), ptr(as)))
}

// arithBinary builds f(a, b) where a and b share an arithmetic sort (want,
// or either when want is SortUnknown).
func (c *Context) arithBinary(op string, a, b *Term, want SortKind, f func(z3_context, z3_ast, z3_ast) z3_ast) (*Term, error) {
	as, err := c.prepare(op, a, b)
	if err != nil {
		return nil, err
	}
	if _, err := c.arith(op, as, want); err != nil {
		return nil, err
	}
	return c.result(op, f(c.z, as[0], as[1]))
}

// arithUnary builds f(a) where a has sort want (or either arithmetic sort).
func (c *Context) arithUnary(op string, a *Term, want SortKind, f func(z3_context, z3_ast) z3_ast) (*Term, error) {
	as, err := c.prepare(op, a)
	if err != nil {
		return nil, err
	}
	if _, err := c.arith(op, as, want); err != nil {
		return nil, err
	}
	return c.result(op, f(c.z, as[0]))
}

// Add returns the sum of ts (one or more, all Int or all Real).
func (c *Context) Add(ts ...*Term) (*Term, error) {
	return c.arithNary("Add", ts, func(z z3_context, n uint32, p *z3_ast) z3_ast { return z3_mk_add(z, n, p) })
}

// Sub returns ts[0] - ts[1] - ... (one or more, all Int or all Real).
func (c *Context) Sub(ts ...*Term) (*Term, error) {
	return c.arithNary("Sub", ts, func(z z3_context, n uint32, p *z3_ast) z3_ast { return z3_mk_sub(z, n, p) })
}

// Mul returns the product of ts (one or more, all Int or all Real).
func (c *Context) Mul(ts ...*Term) (*Term, error) {
	return c.arithNary("Mul", ts, func(z z3_context, n uint32, p *z3_ast) z3_ast { return z3_mk_mul(z, n, p) })
}

// Neg returns -a.
func (c *Context) Neg(a *Term) (*Term, error) {
	return c.arithUnary("Neg", a, SortUnknown, func(z z3_context, x z3_ast) z3_ast { return z3_mk_unary_minus(z, x) })
}

// IntDiv returns a div b on integers: Euclidean division (see the package
// documentation). Both operands must be Int.
func (c *Context) IntDiv(a, b *Term) (*Term, error) {
	return c.arithBinary("IntDiv", a, b, SortInt, func(z z3_context, x, y z3_ast) z3_ast { return z3_mk_div(z, x, y) })
}

// Mod returns a mod b on integers: Euclidean, always in [0, |b|) for b ≠ 0.
func (c *Context) Mod(a, b *Term) (*Term, error) {
	return c.arithBinary("Mod", a, b, SortInt, func(z z3_context, x, y z3_ast) z3_ast { return z3_mk_mod(z, x, y) })
}

// Rem returns a rem b on integers: a mod b if b ≥ 0, else -(a mod b).
func (c *Context) Rem(a, b *Term) (*Term, error) {
	return c.arithBinary("Rem", a, b, SortInt, func(z z3_context, x, y z3_ast) z3_ast { return z3_mk_rem(z, x, y) })
}

// RealDiv returns a / b on reals. Both operands must be Real (convert Int
// operands with ToReal; Z3 would otherwise perform integer division).
func (c *Context) RealDiv(a, b *Term) (*Term, error) {
	return c.arithBinary("RealDiv", a, b, SortReal, func(z z3_context, x, y z3_ast) z3_ast { return z3_mk_div(z, x, y) })
}

// ToReal converts an Int term to Real.
func (c *Context) ToReal(a *Term) (*Term, error) {
	return c.arithUnary("ToReal", a, SortInt, func(z z3_context, x z3_ast) z3_ast { return z3_mk_int2real(z, x) })
}

// ToInt converts a Real term to Int by rounding down (floor).
func (c *Context) ToInt(a *Term) (*Term, error) {
	return c.arithUnary("ToInt", a, SortReal, func(z z3_context, x z3_ast) z3_ast { return z3_mk_real2int(z, x) })
}

// IsInt returns the predicate "the Real term a is an integer".
func (c *Context) IsInt(a *Term) (*Term, error) {
	return c.arithUnary("IsInt", a, SortReal, func(z z3_context, x z3_ast) z3_ast { return z3_mk_is_int(z, x) })
}

// Lt returns a < b (same arithmetic sort).
func (c *Context) Lt(a, b *Term) (*Term, error) {
	return c.arithBinary("Lt", a, b, SortUnknown, func(z z3_context, x, y z3_ast) z3_ast { return z3_mk_lt(z, x, y) })
}

// Le returns a ≤ b (same arithmetic sort).
func (c *Context) Le(a, b *Term) (*Term, error) {
	return c.arithBinary("Le", a, b, SortUnknown, func(z z3_context, x, y z3_ast) z3_ast { return z3_mk_le(z, x, y) })
}

// Gt returns a > b (same arithmetic sort).
func (c *Context) Gt(a, b *Term) (*Term, error) {
	return c.arithBinary("Gt", a, b, SortUnknown, func(z z3_context, x, y z3_ast) z3_ast { return z3_mk_gt(z, x, y) })
}

// Ge returns a ≥ b (same arithmetic sort).
func (c *Context) Ge(a, b *Term) (*Term, error) {
	return c.arithBinary("Ge", a, b, SortUnknown, func(z z3_context, x, y z3_ast) z3_ast { return z3_mk_ge(z, x, y) })
}
