package smt

import (
	"fmt"
	"math"
	"strconv"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/z3"
)

// Value is a lowered expression: its term and its definedness condition.
type Value struct {
	T   *z3.Term
	Def *z3.Term
}

// Unsupported is an expression form that binds but cannot be lowered in
// the executable profile (docs/queries.md).
type Unsupported struct {
	Form string
	Span expr.Span
}

func (u *Unsupported) Error() string {
	return fmt.Sprintf("%s: unsupported %s expression", u.Span, u.Form)
}

// Scope resolves the names of an expression at one frame.
type Scope struct {
	// Var returns the term of a variable, or nil when the name is not a
	// variable.
	Var func(name string) *z3.Term
	// Atom lowers an observation atom (active, var, cycle, ...); nil means
	// atoms are not allowed here.
	Atom func(a *expr.AtomCall) (Value, error)
	// Ident lowers a bare identifier that is not a variable (FBMCQ's
	// `cycle`); nil means such a name is an error.
	Ident func(id *expr.Ident) (Value, error)
}

// Lower lowers e in scope.
func (enc *Encoding) Lower(e expr.Expr, sc Scope) (Value, error) {
	l := lowerer{b: &enc.b, enc: enc, sc: sc}
	v := l.lower(e)
	if l.err != nil {
		return Value{}, l.err
	}
	if enc.b.err != nil {
		return Value{}, enc.b.err
	}
	return v, nil
}

type lowerer struct {
	b   *builder
	enc *Encoding
	sc  Scope
	err error
}

func (l *lowerer) fail(err error) Value {
	if l.err == nil {
		l.err = err
	}
	return Value{}
}

func (l *lowerer) defined(t *z3.Term) Value { return Value{T: t, Def: l.b.True()} }

func (l *lowerer) lower(e expr.Expr) Value {
	if l.err != nil || l.b.err != nil {
		return Value{}
	}
	b := l.b
	switch n := e.(type) {
	case *expr.IntLit:
		if n.Big != nil {
			return l.defined(b.intFromString(n.Big.String()))
		}
		return l.defined(b.intVal(n.Value))
	case *expr.FloatLit:
		return l.defined(b.realFromString(strconv.FormatFloat(n.Value, 'g', -1, 64)))
	case *expr.BoolLit:
		return l.defined(b.boolVal(n.Value))
	case *expr.Const:
		vals := map[string]float64{"pi": math.Pi, "E": math.E, "tau": 2 * math.Pi}
		return l.defined(b.realFromString(strconv.FormatFloat(vals[n.Name], 'g', -1, 64)))
	case *expr.Ident:
		if l.sc.Var != nil {
			if t := l.sc.Var(n.Name); t != nil {
				return l.defined(t)
			}
		}
		if l.sc.Ident != nil {
			v, err := l.sc.Ident(n)
			if err != nil {
				return l.fail(err)
			}
			return v
		}
		return l.fail(fmt.Errorf("%s: unknown variable %q", n.Loc, n.Name))
	case *expr.AtomCall:
		if l.sc.Atom == nil {
			return l.fail(fmt.Errorf("%s: %s(...) is not allowed here", n.Loc, n.Name))
		}
		v, err := l.sc.Atom(n)
		if err != nil {
			return l.fail(err)
		}
		return v
	case *expr.Unary:
		return l.unary(n)
	case *expr.Binary:
		return l.binary(n)
	case *expr.Conditional:
		c, x, y := l.lower(n.Cond), l.lower(n.Then), l.lower(n.Else)
		if l.err != nil {
			return Value{}
		}
		x, y = l.unify(x, y)
		def := b.and(c.Def, b.implies(c.T, x.Def), b.implies(b.not(c.T), y.Def))
		return Value{T: b.ite(c.T, x.T, y.T), Def: def}
	case *expr.FuncCall:
		return l.call(n)
	}
	return l.fail(&Unsupported{Form: fmt.Sprintf("%T", e), Span: e.Span()})
}

func (l *lowerer) unary(n *expr.Unary) Value {
	x := l.lower(n.X)
	if l.err != nil {
		return Value{}
	}
	switch n.Op {
	case expr.Neg:
		return Value{T: l.b.neg(x.T), Def: x.Def}
	case expr.Plus:
		return x
	case expr.Not:
		return Value{T: l.b.not(x.T), Def: x.Def}
	}
	return l.fail(&Unsupported{Form: n.Op.String(), Span: n.Loc})
}

// unify promotes an Int operand to Real when the other is Real.
func (l *lowerer) unify(x, y Value) (Value, Value) {
	xr, yr := x.T.SortKind() == z3.SortReal, y.T.SortKind() == z3.SortReal
	if xr && !yr && y.T.SortKind() == z3.SortInt {
		y.T = l.b.toReal(y.T)
	}
	if yr && !xr && x.T.SortKind() == z3.SortInt {
		x.T = l.b.toReal(x.T)
	}
	return x, y
}

func (l *lowerer) binary(n *expr.Binary) Value {
	b := l.b
	x, y := l.lower(n.X), l.lower(n.Y)
	if l.err != nil {
		return Value{}
	}
	both := b.and(x.Def, y.Def)
	switch n.Op {
	case expr.Land:
		return Value{T: b.and(x.T, y.T), Def: b.and(x.Def, b.implies(x.T, y.Def))}
	case expr.Lor:
		return Value{T: b.or(x.T, y.T), Def: b.and(x.Def, b.implies(b.not(x.T), y.Def))}
	case expr.Implies:
		return Value{T: b.implies(x.T, y.T), Def: b.and(x.Def, b.implies(x.T, y.Def))}
	case expr.Lxor:
		return Value{T: b.xor(x.T, y.T), Def: both}
	case expr.Iff:
		return Value{T: b.iff(x.T, y.T), Def: both}
	}
	x, y = l.unify(x, y)
	switch n.Op {
	case expr.Eq:
		return Value{T: b.eq(x.T, y.T), Def: both}
	case expr.Ne:
		return Value{T: b.not(b.eq(x.T, y.T)), Def: both}
	case expr.Lt, expr.Le, expr.Gt, expr.Ge:
		return Value{T: b.arith(n.Op.String(), x.T, y.T), Def: both}
	case expr.Add, expr.Sub, expr.Mul:
		return Value{T: b.arith(n.Op.String(), x.T, y.T), Def: both}
	case expr.Div:
		nonzero := b.not(b.eq(y.T, l.zeroLike(y.T)))
		return Value{T: b.arith("/", b.toReal(x.T), b.toReal(y.T)), Def: b.and(both, nonzero)}
	case expr.Mod:
		if x.T.SortKind() != z3.SortInt || y.T.SortKind() != z3.SortInt {
			return l.fail(&Unsupported{Form: "real %", Span: n.Loc})
		}
		return Value{T: l.floorMod(x.T, y.T), Def: b.and(both, b.not(b.eq(y.T, b.intVal(0))))}
	case expr.Pow:
		return l.pow(n, x, y)
	}
	return l.fail(&Unsupported{Form: "operator " + n.Op.String(), Span: n.Loc})
}

func (l *lowerer) zeroLike(t *z3.Term) *z3.Term {
	if t.SortKind() == z3.SortReal {
		return l.b.realFromString("0")
	}
	return l.b.intVal(0)
}

// floorMod is Python's a % b: the result takes the sign of b. Z3's mod is
// Euclidean (0 <= r < |b|), so a non-zero r is shifted by b when b < 0.
func (l *lowerer) floorMod(a, c *z3.Term) *z3.Term {
	b := l.b
	r := b.arith("mod", a, c)
	zero := b.intVal(0)
	return b.ite(b.arith(">", c, zero), r, b.ite(b.eq(r, zero), zero, b.arith("+", r, c)))
}

// MaxExponent is the largest constant exponent ** accepts; the power is
// built by repeated squaring, so its size grows with the exponent's bits.
const MaxExponent = 1 << 16

func (l *lowerer) pow(n *expr.Binary, x, y Value) Value {
	k, ok := n.Y.(*expr.IntLit)
	if !ok || k.Big != nil || k.Value < 0 || k.Value > MaxExponent {
		return l.fail(&Unsupported{Form: "** with a non-constant or negative exponent", Span: n.Loc})
	}
	out := l.oneLike(x.T)
	first := true
	for sq, e := x.T, k.Value; e > 0; e >>= 1 {
		if e&1 == 1 {
			if first {
				out, first = sq, false
			} else {
				out = l.b.arith("*", out, sq)
			}
		}
		if e > 1 {
			sq = l.b.arith("*", sq, sq)
		}
	}
	return Value{T: out, Def: x.Def}
}

func (l *lowerer) oneLike(t *z3.Term) *z3.Term {
	if t.SortKind() == z3.SortReal {
		return l.b.realFromString("1")
	}
	return l.b.intVal(1)
}

func (l *lowerer) call(n *expr.FuncCall) Value {
	b := l.b
	x := l.lower(n.Arg)
	if l.err != nil {
		return Value{}
	}
	isReal := x.T.SortKind() == z3.SortReal
	switch n.Fn {
	case expr.Abs:
		return Value{T: b.ite(b.arith("<", x.T, l.zeroLike(x.T)), b.neg(x.T), x.T), Def: x.Def}
	case expr.Sign:
		zero := l.zeroLike(x.T)
		return Value{T: b.ite(b.arith(">", x.T, zero), b.intVal(1), b.ite(b.arith("<", x.T, zero), b.intVal(-1), b.intVal(0))), Def: x.Def}
	case expr.Floor:
		if !isReal {
			return x
		}
		return Value{T: b.toInt(x.T), Def: x.Def}
	case expr.Ceil:
		if !isReal {
			return x
		}
		return Value{T: b.neg(b.toInt(b.neg(x.T))), Def: x.Def}
	case expr.Trunc:
		if !isReal {
			return x
		}
		fl := b.toInt(x.T)
		return Value{T: b.ite(b.arith(">=", x.T, l.zeroLike(x.T)), fl, b.neg(b.toInt(b.neg(x.T)))), Def: x.Def}
	case expr.Round:
		if !isReal {
			return x
		}
		return Value{T: l.roundHalfEven(x.T), Def: x.Def}
	case expr.Sqrt:
		xr := b.toReal(x.T)
		return Value{T: l.enc.sqrtOf(xr), Def: b.and(x.Def, b.arith(">=", xr, b.realFromString("0")))}
	}
	return l.fail(&Unsupported{Form: n.Fn.String(), Span: n.Loc})
}

// roundHalfEven is Python's round(): to the nearest integer, ties to even.
func (l *lowerer) roundHalfEven(x *z3.Term) *z3.Term {
	b := l.b
	fl := b.toInt(x)
	frac := b.arith("-", x, b.toReal(fl))
	half := b.realFromString("1/2")
	up := b.arith("+", fl, b.intVal(1))
	even := b.eq(b.arith("mod", fl, b.intVal(2)), b.intVal(0))
	return b.ite(b.arith("<", frac, half), fl, b.ite(b.arith(">", frac, half), up, b.ite(even, fl, up)))
}
