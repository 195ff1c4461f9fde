package expr

import (
	"fmt"
	"math"
	"math/big"
)

// Cause classifies an undefined result.
type Cause uint8

// Causes of an undefined result. The runtime maps them to the errors the
// FCSTM semantics raise (docs/fcstm.md).
const (
	_                   Cause = iota
	DivisionByZero            // a / 0
	ModuloByZero              // a % 0
	ZeroNegativePower         // 0 ** -n
	NegativeShift             // a << -n, a >> -n
	IntOverflow               // an Int result of more than MaxIntBits bits
	FloatOverflow             // a float result that is infinite ("math range error")
	DomainError               // a math function outside its domain; negative ** fractional
	IntTooLargeForFloat       // an Int operand or quotient beyond every float64 (Python's OverflowError)
	NonFiniteToInt            // ceil, floor, round or trunc of an infinite or NaN float (Python's OverflowError, ValueError)
)

// MaxIntBits bounds the size of an Int result. Ints are exact at any size
// below it; a result that would be larger (2 ** 10 ** 9, 1 << 10 ** 9) is
// undefined (IntOverflow) instead of exhausting memory.
const MaxIntBits = 1 << 16

var causeText = [...]string{
	DivisionByZero:      "division by zero",
	ModuloByZero:        "modulo by zero",
	ZeroNegativePower:   "zero cannot be raised to a negative power",
	NegativeShift:       "negative shift count",
	IntOverflow:         "integer result too large (over 65536 bits)",
	FloatOverflow:       "float overflow",
	DomainError:         "math domain error",
	IntTooLargeForFloat: "integer too large to convert to a float",
	NonFiniteToInt:      "cannot convert a non-finite float to an integer",
}

// String describes the cause.
func (c Cause) String() string {
	if int(c) < len(causeText) && causeText[c] != "" {
		return causeText[c]
	}
	return "undefined"
}

// Undefined is the error Eval returns when an operation has no value:
// division or modulo by zero, a bad power or shift, overflow, a math domain
// error. Span is the operation's node. It is a result, not a failure of
// the evaluator: the caller decides what an undefined guard or effect means.
type Undefined struct {
	Span   Span
	Cause  Cause
	Detail string // e.g. "sqrt(-1)"; for NonFiniteToInt the float ("+Inf"); may be empty
}

func (u *Undefined) Error() string {
	return u.Span.Start.String() + ": undefined: " + u.Reason()
}

// Reason describes what is undefined: the cause and, when there is one,
// the operation ("division by zero in x / 0"). The runtime and the
// generated code report this text, so they must agree on it byte for byte.
func (u *Undefined) Reason() string {
	if u.Cause == NonFiniteToInt && u.Detail != "" {
		return "cannot convert float " + u.Detail + " to an integer"
	}
	if u.Detail == "" {
		return u.Cause.String()
	}
	return u.Cause.String() + " in " + u.Detail
}

// Valuation supplies variable values and atom results to Eval.
type Valuation interface {
	// Value returns the value of variable name, or false if there is none.
	Value(name string) (Value, bool)
	// Atom evaluates an atom call.
	Atom(call *AtomCall) (Value, error)
}

// Vars is a Valuation of variables only; an atom call is an error.
type Vars map[string]Value

// Value implements Valuation.
func (m Vars) Value(name string) (Value, bool) {
	v, ok := m[name]
	return v, ok
}

// Atom implements Valuation: Vars has no atoms.
func (m Vars) Atom(c *AtomCall) (Value, error) {
	return Value{}, typeErrorf(c.Loc, "unknown function %q", c.Name)
}

// Eval evaluates e with Python-like semantics (docs/fcstm.md):
//
//   - + - * on two Ints give an Int, otherwise a Real; / is true division
//     and always gives a Real; % is floored modulo (the result has the
//     divisor's sign) for Ints and Reals;
//   - Int ** Int with a non-negative exponent is an Int; with a negative
//     exponent it is the Real float(a) ** b, as in Python (2 ** -1 is 0.5,
//     which the pyfcstm fixtures pin), and 0 ** -n is undefined; with a
//     Real operand the result is a Real;
//   - << >> & | ^ take Ints; >> floors; a negative shift count is undefined;
//   - comparisons between Int and Real are exact;
//   - &&, || and => short-circuit; xor, iff, == and != evaluate both sides;
//     a conditional evaluates only the selected branch;
//   - the math functions follow Python's math module; ceil, floor, trunc,
//     round (half to even) and sign give Ints, abs keeps its operand's type.
//
// Ints are exact at any size, as in Python: an int64 fast path, and big
// integers once a result leaves it. An Int converted to a float (mixed
// arithmetic, true division, a math function) that no float64 can hold is
// undefined (IntTooLargeForFloat) where Python raises OverflowError.
//
// Decisions where Python differs: an Int result over MaxIntBits bits is
// undefined (IntOverflow) rather than a memory error; a Real
// result that is infinite is undefined (FloatOverflow) rather than inf; a
// negative base with a fractional exponent is undefined (DomainError)
// rather than complex; a conditional whose branches are Int and Real gives
// a Real whichever branch is taken (its static type, as Check types it).
//
// An undefined operation returns an *Undefined error. An unknown variable
// or an operand of the wrong type (an expression that does not Check)
// returns a *TypeError. Errors from Valuation.Atom are returned as they are.
// Eval never panics.
func Eval(e Expr, v Valuation) (Value, error) {
	ev := evaluator{v: v}
	return ev.eval(e)
}

type evaluator struct{ v Valuation }

func undef(e Expr, c Cause) *Undefined {
	return &Undefined{Span: e.Span(), Cause: c, Detail: describeExpr(e)}
}

func (ev *evaluator) eval(e Expr) (Value, error) {
	switch n := e.(type) {
	case *IntLit:
		if n.Big != nil {
			return BigIntVal(n.Big), nil
		}
		return IntVal(n.Value), nil
	case *FloatLit:
		return RealVal(n.Value), nil
	case *BoolLit:
		return BoolVal(n.Value), nil
	case *Const:
		if f, ok := constValues[n.Name]; ok {
			return RealVal(f), nil
		}
		return Value{}, typeErrorf(n.Loc, "unknown constant %q", n.Name)
	case *Ident:
		if val, ok := ev.v.Value(n.Name); ok {
			return val, nil
		}
		return Value{}, typeErrorf(n.Loc, "unknown variable %q", n.Name)
	case *Unary:
		return ev.unary(n)
	case *Binary:
		return ev.binary(n)
	case *Conditional:
		return ev.conditional(n)
	case *FuncCall:
		a, err := ev.eval(n.Arg)
		if err != nil {
			return Value{}, err
		}
		return evalFunc(n, a)
	case *AtomCall:
		return ev.v.Atom(n)
	case nil:
		return Value{}, typeErrorf(Span{}, "missing expression")
	}
	return Value{}, typeErrorf(e.Span(), "%s cannot be evaluated", describeExpr(e))
}

func (ev *evaluator) unary(n *Unary) (Value, error) {
	x, err := ev.eval(n.X)
	if err != nil {
		return Value{}, err
	}
	return unaryOp(n, x)
}

// unaryOp applies n's operator to its evaluated operand.
func unaryOp(n *Unary, x Value) (Value, error) {
	switch {
	case n.Op == Not && x.t == Bool:
		return BoolVal(!x.Bool()), nil
	case n.Op == Plus && x.t.IsNumeric():
		return x, nil
	case n.Op == Neg && x.t == Int:
		if x.IsInt64() && x.i != math.MinInt64 {
			return IntVal(-x.i), nil
		}
		b := x.bigInt()
		return BigIntVal(b.Neg(b)), nil
	case n.Op == Neg && x.t == Real:
		return RealVal(-x.f), nil
	}
	return Value{}, typeErrorf(n.Loc, "operator %q is not defined on %s", n.Op.String(), x.t)
}

func (ev *evaluator) binary(n *Binary) (Value, error) {
	x, err := ev.eval(n.X)
	if err != nil {
		return Value{}, err
	}
	if r, done, err := shortCircuit(n, x); done {
		return r, err
	}
	y, err := ev.eval(n.Y)
	if err != nil {
		return Value{}, err
	}
	return strictOrLogic(n, x, y)
}

// shortCircuit decides n from its left operand x alone when it can: done
// is true with the result or error when the right operand must not be
// evaluated.
func shortCircuit(n *Binary, x Value) (r Value, done bool, err error) {
	if n.Op != Land && n.Op != Lor && n.Op != Implies {
		return Value{}, false, nil
	}
	if x.t != Bool {
		return Value{}, true, typeErrorf(n.X.Span(), "left operand of %q is %s, not bool", n.Op.String(), x.t)
	}
	// Short circuit: && stops at false, || at true, => at a false premise.
	if n.Op == Land && !x.Bool() || n.Op == Lor && x.Bool() || n.Op == Implies && !x.Bool() {
		return BoolVal(n.Op != Land), true, nil
	}
	return Value{}, false, nil
}

// strictOrLogic computes n from both evaluated operands (when shortCircuit
// did not decide it).
func strictOrLogic(n *Binary, x, y Value) (Value, error) {
	if n.Op == Land || n.Op == Lor || n.Op == Implies {
		if y.t != Bool {
			return Value{}, typeErrorf(n.Y.Span(), "right operand of %q is %s, not bool", n.Op.String(), y.t)
		}
		return y, nil
	}
	return apply(n, x, y)
}

// apply computes a strict binary operation.
func apply(n *Binary, x, y Value) (Value, error) {
	switch {
	case opPrec(n.Op) == 0:
		return Value{}, typeErrorf(n.Loc, "unknown binary operator %d", n.Op)
	case n.Op == Eq || n.Op == Ne:
		if x.t == Bool && y.t == Bool {
			return BoolVal((x.i == y.i) == (n.Op == Eq)), nil
		}
		if c, ok := Compare(x, y); ok {
			return BoolVal((c == 0) == (n.Op == Eq)), nil
		}
		if unordered(x, y) {
			return BoolVal(n.Op == Ne), nil
		}
	case n.Op == Lxor || n.Op == Iff:
		if x.t == Bool && y.t == Bool {
			return BoolVal((x.i != y.i) == (n.Op == Lxor)), nil
		}
	case n.Op.IsComparison():
		if c, ok := Compare(x, y); ok {
			return BoolVal(compareHolds(n.Op, c)), nil
		}
		if unordered(x, y) {
			return BoolVal(false), nil
		}
	case x.t == Int && y.t == Int:
		r, cause := intArith(n.Op, x, y)
		if cause != 0 {
			return Value{}, undef(n, cause)
		}
		return r, nil
	case x.t.IsNumeric() && y.t.IsNumeric() && opPrec(n.Op) >= precAdd:
		a, okA := x.Float()
		b, okB := y.Float()
		if !okA || !okB {
			return Value{}, undef(n, IntTooLargeForFloat)
		}
		r, cause := floatArith(n.Op, a, b)
		if cause != 0 {
			return Value{}, undef(n, cause)
		}
		return RealVal(r), nil
	}
	return Value{}, typeErrorf(n.Loc, "operator %q is not defined on %s and %s", n.Op.String(), x.t, y.t)
}

// unordered reports whether x and y are numbers and one is a NaN (only
// an initial value makes one). The comparisons then follow Python and
// IEEE 754: == and every ordering are false, != is true.
func unordered(x, y Value) bool {
	return x.t.IsNumeric() && y.t.IsNumeric() && (x.t == Real && math.IsNaN(x.f) || y.t == Real && math.IsNaN(y.f))
}

func compareHolds(op Op, c int) bool {
	switch op {
	case Lt:
		return c < 0
	case Le:
		return c <= 0
	case Gt:
		return c > 0
	case Ge:
		return c >= 0
	}
	return false
}

func (ev *evaluator) conditional(n *Conditional) (Value, error) {
	c, err := ev.eval(n.Cond)
	if err != nil {
		return Value{}, err
	}
	if c.t != Bool {
		return Value{}, typeErrorf(n.Cond.Span(), "condition of \"?:\" is %s, not bool", c.t)
	}
	taken, other := n.Then, n.Else
	if !c.Bool() {
		taken, other = other, taken
	}
	v, err := ev.eval(taken)
	if err != nil || v.t != Int {
		return v, err
	}
	// Promote to the conditional's static type when the other branch is
	// Real. Its type is found without evaluating it.
	if t, err := Check(other, valuationEnv{ev.v}); err == nil && t == Real {
		f, ok := v.Float()
		if !ok {
			return Value{}, undef(taken, IntTooLargeForFloat)
		}
		return RealVal(f), nil
	}
	return v, nil
}

// AtomTyper is an optional interface of a Valuation: the static type of an
// atom, used to type the branch of a conditional that is not evaluated.
type AtomTyper interface {
	AtomType(call *AtomCall) (Type, error)
}

// valuationEnv types expressions by the current values of their variables.
type valuationEnv struct{ v Valuation }

func (e valuationEnv) VarType(name string) (Type, bool) {
	val, ok := e.v.Value(name)
	return val.t, ok && val.t != Invalid
}

func (e valuationEnv) AtomType(c *AtomCall) (Type, error) {
	if at, ok := e.v.(AtomTyper); ok {
		return at.AtomType(c)
	}
	return Invalid, typeErrorf(c.Loc, "type of %s unknown", c.Name)
}

// intArith computes an Int operation; a non-zero Cause means undefined.
// Operands inside int64 take the fast path; a result that leaves int64
// (or an operand outside it) is computed with big integers.
func intArith(op Op, x, y Value) (Value, Cause) {
	if x.IsInt64() && y.IsInt64() {
		if r, cause, ok := int64Arith(op, x.i, y.i); ok {
			return r, cause
		}
	}
	return bigArith(op, x.bigInt(), y.bigInt())
}

// int64Arith is intArith on int64 operands; ok is false when the result
// leaves int64.
func int64Arith(op Op, a, b int64) (r Value, cause Cause, ok bool) {
	switch op {
	case Add:
		s := a + b
		if (a^s)&(b^s) < 0 {
			return Value{}, 0, false
		}
		return IntVal(s), 0, true
	case Sub:
		d := a - b
		if (a^b)&(a^d) < 0 {
			return Value{}, 0, false
		}
		return IntVal(d), 0, true
	case Mul:
		r, ok := mulInt(a, b)
		return IntVal(r), 0, ok
	case Div:
		if b == 0 {
			return Value{}, DivisionByZero, true
		}
		return RealVal(trueDiv(a, b)), 0, true
	case Mod:
		if b == 0 {
			return Value{}, ModuloByZero, true
		}
		return IntVal(floorMod(a, b)), 0, true
	case Pow:
		return powInt(a, b)
	case Shl, Shr:
		return shift(op, a, b)
	case BitAnd:
		return IntVal(a & b), 0, true
	case BitOr:
		return IntVal(a | b), 0, true
	case BitXor:
		return IntVal(a ^ b), 0, true
	}
	return Value{}, DomainError, true
}

func mulInt(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	r := a * b
	if r/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return 0, false
	}
	return r, true
}

// floorMod is Python's a % b for b != 0: the result has b's sign.
func floorMod(a, b int64) int64 {
	if b == -1 {
		return 0 // also avoids MinInt64 % -1
	}
	r := a % b
	if r != 0 && (r < 0) != (b < 0) {
		r += b
	}
	return r
}

// trueDiv is a / b correctly rounded to float64, as Python's int / int.
func trueDiv(a, b int64) float64 {
	const exact = 1 << 53
	if -exact <= a && a <= exact && -exact <= b && b <= exact {
		return float64(a) / float64(b) // both exact: one rounding
	}
	f, _ := new(big.Rat).SetFrac(big.NewInt(a), big.NewInt(b)).Float64()
	return f
}

// powInt is int64 ** int64; ok is false when the result leaves int64.
func powInt(a, b int64) (Value, Cause, bool) {
	if b < 0 {
		if a == 0 {
			return Value{}, ZeroNegativePower, true
		}
		// Python: a negative exponent makes the power a float; |result| <= 1.
		return RealVal(math.Pow(float64(a), float64(b))), 0, true
	}
	switch a {
	case 0, 1:
		if b == 0 {
			return IntVal(1), 0, true
		}
		return IntVal(a), 0, true
	case -1:
		if b%2 == 0 {
			return IntVal(1), 0, true
		}
		return IntVal(-1), 0, true
	}
	r, base := int64(1), a
	for ok := true; ; {
		if b&1 == 1 {
			if r, ok = mulInt(r, base); !ok {
				return Value{}, 0, false
			}
		}
		if b >>= 1; b == 0 {
			return IntVal(r), 0, true
		}
		if base, ok = mulInt(base, base); !ok {
			return Value{}, 0, false
		}
	}
}

// shift is a << n or a >> n on int64; ok is false when a << n leaves int64.
func shift(op Op, a, n int64) (Value, Cause, bool) {
	if n < 0 {
		return Value{}, NegativeShift, true
	}
	if op == Shr {
		if n >= 63 {
			if a < 0 {
				return IntVal(-1), 0, true
			}
			return IntVal(0), 0, true
		}
		return IntVal(a >> n), 0, true // arithmetic shift: floors
	}
	if a == 0 {
		return IntVal(0), 0, true
	}
	if n >= 63 || (a<<n)>>n != a {
		return Value{}, 0, false
	}
	return IntVal(a << n), 0, true
}

// bigArith computes an Int operation with big integers (the operands are
// fresh and may be overwritten).
func bigArith(op Op, a, b *big.Int) (Value, Cause) {
	r := new(big.Int)
	switch op {
	case Add:
		r.Add(a, b)
	case Sub:
		r.Sub(a, b)
	case Mul:
		if a.BitLen()+b.BitLen() > MaxIntBits+1 {
			return Value{}, IntOverflow
		}
		r.Mul(a, b)
	case Div:
		if b.Sign() == 0 {
			return Value{}, DivisionByZero
		}
		f, _ := new(big.Rat).SetFrac(a, b).Float64()
		if math.IsInf(f, 0) {
			return Value{}, IntTooLargeForFloat
		}
		return RealVal(f), 0
	case Mod:
		if b.Sign() == 0 {
			return Value{}, ModuloByZero
		}
		r.Rem(a, b) // truncated: the sign of a
		if r.Sign() != 0 && (r.Sign() < 0) != (b.Sign() < 0) {
			r.Add(r, b)
		}
	case Pow:
		return bigPow(a, b)
	case Shl:
		if b.Sign() < 0 {
			return Value{}, NegativeShift
		}
		if a.Sign() == 0 {
			return IntVal(0), 0
		}
		// b is compared with what is left of the bound, not added to the
		// length: a count near MaxInt64 would overflow the sum.
		if !b.IsInt64() || b.Int64() > MaxIntBits-int64(a.BitLen()) {
			return Value{}, IntOverflow
		}
		r.Lsh(a, uint(b.Int64()))
	case Shr:
		if b.Sign() < 0 {
			return Value{}, NegativeShift
		}
		if !b.IsInt64() || b.Int64() > int64(a.BitLen()) {
			return IntVal(int64(min(a.Sign(), 0))), 0 // floors to 0 or -1
		}
		r.Rsh(a, uint(b.Int64())) // arithmetic shift: floors
	case BitAnd:
		r.And(a, b) // two's complement, as Python's ints
	case BitOr:
		r.Or(a, b)
	case BitXor:
		r.Xor(a, b)
	default:
		return Value{}, DomainError
	}
	if r.BitLen() > MaxIntBits {
		return Value{}, IntOverflow
	}
	return BigIntVal(r), 0
}

// bigPow is a ** b with big integers.
func bigPow(a, b *big.Int) (Value, Cause) {
	if b.Sign() < 0 {
		if a.Sign() == 0 {
			return Value{}, ZeroNegativePower
		}
		// Python: a negative exponent makes the power a float.
		fa, ok := BigIntVal(a).Float()
		if !ok {
			return Value{}, IntTooLargeForFloat
		}
		fb, _ := BigIntVal(b).Float()
		return RealVal(math.Pow(fa, fb)), 0
	}
	if a.CmpAbs(big.NewInt(1)) <= 0 { // 0, 1, -1: the result stays small
		if b.Sign() == 0 {
			return IntVal(1), 0
		}
		if a.Sign() < 0 && b.Bit(0) == 0 {
			return IntVal(1), 0
		}
		return BigIntVal(a), 0
	}
	// |a| >= 2^(BitLen-1), so the result has more than (BitLen-1)·b bits.
	if !b.IsInt64() || b.Int64() > MaxIntBits || (int64(a.BitLen())-1)*b.Int64() > MaxIntBits {
		return Value{}, IntOverflow
	}
	r := new(big.Int).Exp(a, b, nil)
	if r.BitLen() > MaxIntBits {
		return Value{}, IntOverflow
	}
	return BigIntVal(r), 0
}

// floatArith computes a Real operation (opPrec(op) >= precAdd).
func floatArith(op Op, a, b float64) (float64, Cause) {
	var r float64
	switch op {
	case Add:
		r = a + b
	case Sub:
		r = a - b
	case Mul:
		r = a * b
	case Div:
		if b == 0 {
			return 0, DivisionByZero
		}
		r = a / b
	case Mod:
		if b == 0 {
			return 0, ModuloByZero
		}
		r = floatMod(a, b)
	case Pow:
		switch {
		case a == 0 && b < 0:
			return 0, ZeroNegativePower
		case a < 0 && b != math.Trunc(b):
			return 0, DomainError
		}
		r = math.Pow(a, b)
	default:
		return 0, DomainError // bitwise operators take Ints only
	}
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return 0, FloatOverflow
	}
	return r, 0
}

// floatMod is Python's float a % b for b != 0.
func floatMod(a, b float64) float64 {
	m := math.Mod(a, b)
	if m == 0 {
		return math.Copysign(0, b)
	}
	if (b < 0) != (m < 0) {
		m += b
	}
	return m
}

// funcDomain holds the domain of the math functions that have one.
var funcDomain = map[Func]func(float64) bool{
	Sqrt: func(x float64) bool { return x >= 0 },
	// cbrt is pyfcstm's x ** (1/3): a negative base is a domain error.
	Cbrt:  func(x float64) bool { return x >= 0 },
	Log:   func(x float64) bool { return x > 0 },
	Log10: func(x float64) bool { return x > 0 },
	Log2:  func(x float64) bool { return x > 0 },
	Log1p: func(x float64) bool { return x > -1 },
	Asin:  func(x float64) bool { return -1 <= x && x <= 1 },
	Acos:  func(x float64) bool { return -1 <= x && x <= 1 },
	Acosh: func(x float64) bool { return x >= 1 },
	Atanh: func(x float64) bool { return -1 < x && x < 1 },
}

// intFuncs round a Real to an integral float; round is half to even.
var intFuncs = map[Func]func(float64) float64{
	Ceil: math.Ceil, Floor: math.Floor, Round: math.RoundToEven, Trunc: math.Trunc,
}

// realFuncs are the functions of one float computed by crFunc (sqrt by
// math.Sqrt): correctly rounded, as C's libm is (crmath.go).
var realFuncs = map[Func]bool{
	Sin: true, Cos: true, Tan: true, Asin: true, Acos: true, Atan: true, Sinh: true, Cosh: true,
	Tanh: true, Asinh: true, Acosh: true, Atanh: true, Sqrt: true, Cbrt: true, Exp: true, Log: true,
	Log10: true, Log2: true, Log1p: true,
}

// limitFuncs are the realFuncs at ±inf: Go's math package gives the
// limits IEEE 754 and C99 specify, which are Python's too (inf where
// Python returns inf, NaN where it raises a domain error).
var limitFuncs = map[Func]func(float64) float64{
	Sin: math.Sin, Cos: math.Cos, Tan: math.Tan, Asin: math.Asin, Acos: math.Acos, Atan: math.Atan,
	Sinh: math.Sinh, Cosh: math.Cosh, Tanh: math.Tanh, Asinh: math.Asinh, Acosh: math.Acosh,
	Atanh: math.Atanh, Sqrt: math.Sqrt, Cbrt: math.Cbrt, Exp: math.Exp, Log: math.Log,
	Log10: math.Log10, Log2: math.Log2, Log1p: math.Log1p,
}

// evalFunc applies a math function to an evaluated argument.
func evalFunc(n *FuncCall, a Value) (Value, error) {
	bad := func(c Cause) (Value, error) {
		return Value{}, &Undefined{Span: n.Loc, Cause: c, Detail: fmt.Sprintf("%s(%s)", n.Fn, a)}
	}
	if !a.t.IsNumeric() {
		return Value{}, typeErrorf(n.Loc, "%s is not defined on %s", n.Fn, a.t)
	}
	switch n.Fn {
	case Abs:
		if a.t == Real {
			return RealVal(math.Abs(a.f)), nil
		}
		if a.IsInt64() && a.i != math.MinInt64 {
			return IntVal(max(a.i, -a.i)), nil
		}
		b := a.bigInt()
		return BigIntVal(b.Abs(b)), nil
	case Sign:
		c, _ := Compare(a, IntVal(0))
		return IntVal(int64(c)), nil
	case Ceil, Floor, Round, Trunc:
		if a.t == Int {
			return a, nil
		}
		if math.IsInf(a.f, 0) || math.IsNaN(a.f) {
			// Only an initial value makes a Real non-finite: arithmetic
			// refuses to produce one (FloatOverflow).
			return Value{}, &Undefined{Span: n.Loc, Cause: NonFiniteToInt, Detail: formatFloat(a.f)}
		}
		return floatInt(intFuncs[n.Fn](a.f)), nil
	}
	x, ok := a.Float()
	if !ok {
		return bad(IntTooLargeForFloat)
	}
	if dom := funcDomain[n.Fn]; dom != nil && !dom(x) {
		return bad(DomainError)
	}
	if !realFuncs[n.Fn] {
		return Value{}, typeErrorf(n.Loc, "unknown function %s", n.Fn)
	}
	r := math.Sqrt(x) // correctly rounded by IEEE 754
	switch {
	case math.IsNaN(x):
		return bad(FloatOverflow) // a NaN result, as arithmetic on NaN gives
	case math.IsInf(x, 0):
		// crFunc takes finite arguments. The limits at ±inf are exact
		// (±pi/2, ±1, 0) or infinite, except sin, cos and tan, which
		// have none: Python raises a domain error there.
		r = limitFuncs[n.Fn](x)
		if math.IsNaN(r) {
			return bad(DomainError)
		}
	case n.Fn != Sqrt:
		r = crFunc(n.Fn, x)
	}
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return bad(FloatOverflow)
	}
	return RealVal(r), nil
}
