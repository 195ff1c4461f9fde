package expr

import (
	"errors"
	"math"
	"math/big"
	"testing"
)

var evalVars = Vars{
	"x": IntVal(7), "y": IntVal(0), "n": IntVal(-3), "f": RealVal(2.5), "z": RealVal(0),
	"big": IntVal(math.MaxInt64), "small": IntVal(math.MinInt64), "b": BoolVal(true), "c": BoolVal(false),
	// Non-finite floats come only from initial values (simulate --init-vars).
	"inf": RealVal(math.Inf(1)), "ninf": RealVal(math.Inf(-1)), "nan": RealVal(math.NaN()),
}

func bigVal(s string) Value {
	x, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic("bad test integer " + s)
	}
	return BigIntVal(x)
}

func bigFloat(f float64) *big.Int {
	x, _ := big.NewFloat(f).Int(nil)
	return x
}

func evalString(t *testing.T, src string) (Value, error) {
	t.Helper()
	return Eval(mustParse(t, src), evalVars)
}

func TestEvalValues(t *testing.T) {
	for _, c := range []struct {
		src  string
		want Value
	}{
		// literals and constants
		{"42", IntVal(42)}, {"0x1F", IntVal(31)}, {"1.5", RealVal(1.5)}, {".5", RealVal(0.5)},
		{"3e2", RealVal(300)}, {"true", BoolVal(true)}, {"FALSE", BoolVal(false)},
		{"pi", RealVal(math.Pi)}, {"E", RealVal(math.E)}, {"tau", RealVal(2 * math.Pi)},
		// + - * : int with int is int; any float gives float
		{"2 + 3", IntVal(5)}, {"2 - 3", IntVal(-1)}, {"2 * 3", IntVal(6)},
		{"2 + 0.5", RealVal(2.5)}, {"x - f", RealVal(4.5)}, {"f * 2", RealVal(5)},
		{"-x", IntVal(-7)}, {"+x", IntVal(7)}, {"-f", RealVal(-2.5)},
		// / is true division, always a float (docs/fcstm.md)
		{"7 / 2", RealVal(3.5)}, {"-6 / 2", RealVal(-3)}, {"6 / 3", RealVal(2)}, {"1 / 3", RealVal(1.0 / 3)},
		{"f / 2", RealVal(1.25)}, {"9007199254740993 / 1", RealVal(9007199254740992)},
		{"9223372036854775807 / 3", RealVal(3074457345618258602.3333)},
		// % is floored modulo: the result has the divisor's sign
		{"-7 % 2", IntVal(1)}, {"7 % -2", IntVal(-1)}, {"-7 % -2", IntVal(-1)}, {"7 % 2", IntVal(1)},
		{"6 % -3", IntVal(0)}, {"-7.5 % 2", RealVal(0.5)}, {"7.5 % -2", RealVal(-0.5)},
		{"small % -1", IntVal(0)}, {"-6.0 % 3", RealVal(0)},
		// floor division via floor(a / b) ("//" is a comment in FCSTM)
		{"floor(-7 / 2)", IntVal(-4)}, {"floor(7 / 2)", IntVal(3)}, {"floor(7 / -2)", IntVal(-4)},
		// ** : int ** non-negative int is int; with a float it is a float
		{"2 ** 3", IntVal(8)}, {"2 ** 0", IntVal(1)}, {"0 ** 0", IntVal(1)}, {"(-2) ** 3", IntVal(-8)},
		{"-2 ** 2", IntVal(4)}, {"2 ** 62", IntVal(1 << 62)}, {"(-2) ** 63", IntVal(math.MinInt64)},
		{"(-1) ** 99", IntVal(-1)}, {"1 ** 1000000", IntVal(1)},
		{"2.0 ** -1", RealVal(0.5)}, {"2 ** -1", RealVal(0.5)}, {"-2 ** -2", RealVal(0.25)}, {"2 ** -1.0", RealVal(0.5)}, {"4 ** 0.5", RealVal(2)},
		{"(-8.0) ** 3", RealVal(-512)}, {"0.0 ** 0", RealVal(1)},
		// shifts and bitwise operators on ints
		{"1 << 4", IntVal(16)}, {"-5 >> 1", IntVal(-3)}, {"5 >> 1", IntVal(2)}, {"-1 >> 100", IntVal(-1)},
		{"5 >> 100", IntVal(0)}, {"0 << 100", IntVal(0)}, {"-1 << 63", IntVal(math.MinInt64)},
		{"12 & 10", IntVal(8)}, {"12 | 10", IntVal(14)}, {"12 ^ 10", IntVal(6)}, {"-1 & 0xFF", IntVal(255)},
		// comparisons, exact between int and float
		{"1 < 2", BoolVal(true)}, {"2 <= 2", BoolVal(true)}, {"3 > 4", BoolVal(false)}, {"3 >= 4", BoolVal(false)},
		{"1 == 1.0", BoolVal(true)}, {"1 != 1.5", BoolVal(true)}, {"x > f", BoolVal(true)},
		{"9007199254740993 == 9007199254740992.0", BoolVal(false)}, {"9007199254740993 > 9007199254740992.0", BoolVal(true)},
		{"big < 9223372036854775807.0", BoolVal(true)}, {"small == -9223372036854775808.0", BoolVal(true)},
		{"-1 < -0.5", BoolVal(true)}, {"-1 > -1.5", BoolVal(true)},
		// a NaN is unordered, as in Python: == and orderings false, != true
		{"nan == nan", BoolVal(false)}, {"nan != nan", BoolVal(true)}, {"nan < 1", BoolVal(false)},
		{"1 <= nan", BoolVal(false)}, {"nan > f", BoolVal(false)}, {"inf >= nan", BoolVal(false)},
		{"x == nan", BoolVal(false)}, {"nan != 2 ** 1100", BoolVal(true)}, {"inf == inf", BoolVal(true)},
		// boolean operators
		{"b && c", BoolVal(false)}, {"b || c", BoolVal(true)}, {"b xor c", BoolVal(true)}, {"b xor b", BoolVal(false)},
		{"c => c", BoolVal(true)}, {"b => c", BoolVal(false)}, {"b iff c", BoolVal(false)}, {"c iff c", BoolVal(true)},
		{"b == c", BoolVal(false)}, {"b != c", BoolVal(true)}, {"!b", BoolVal(false)}, {"not c", BoolVal(true)},
		{"!x > 0", BoolVal(false)}, {"x > 0 and y == 0 or false", BoolVal(true)},
		// conditional
		{"(x > 0) ? 1 : 2", IntVal(1)}, {"(x < 0) ? 1 : 2", IntVal(2)},
		{"(x > 0) ? 1 : 2.5", RealVal(1)}, // promoted to the static type Real
		{"(x > 0) ? 1.5 : 2", RealVal(1.5)}, {"(b) ? b : c", BoolVal(true)},
		// math functions (Python math semantics)
		{"abs(-3)", IntVal(3)}, {"abs(-2.5)", RealVal(2.5)}, {"abs(n)", IntVal(3)},
		{"sign(-7)", IntVal(-1)}, {"sign(0)", IntVal(0)}, {"sign(2.5)", IntVal(1)}, {"sign(-0.0)", IntVal(0)},
		{"round(2.5)", IntVal(2)}, {"round(3.5)", IntVal(4)}, {"round(-2.5)", IntVal(-2)}, {"round(2.6)", IntVal(3)},
		{"round(7)", IntVal(7)}, {"ceil(1.2)", IntVal(2)}, {"ceil(-1.2)", IntVal(-1)}, {"floor(-1.2)", IntVal(-2)},
		{"trunc(-1.7)", IntVal(-1)}, {"trunc(1.7)", IntVal(1)}, {"floor(3)", IntVal(3)},
		{"sqrt(4)", RealVal(2)}, {"sqrt(2.25)", RealVal(1.5)}, {"cbrt(27)", RealVal(3)},
		{"exp(0)", RealVal(1)}, {"log(1)", RealVal(0)}, {"log10(1000)", RealVal(3)}, {"log2(8)", RealVal(3)},
		{"log1p(0)", RealVal(0)}, {"sin(0)", RealVal(0)}, {"cos(0)", RealVal(1)}, {"tan(0)", RealVal(0)},
		{"asin(1)", RealVal(math.Pi / 2)}, {"acos(1)", RealVal(0)}, {"atan(0)", RealVal(0)},
		{"sinh(0)", RealVal(0)}, {"cosh(0)", RealVal(1)}, {"tanh(0)", RealVal(0)},
		{"asinh(0)", RealVal(0)}, {"acosh(1)", RealVal(0)}, {"atanh(0)", RealVal(0)},
		// Ints past int64 stay exact (Python's results)
		{"big + 1", bigVal("9223372036854775808")}, {"small - 1", bigVal("-9223372036854775809")},
		{"big * 2", bigVal("18446744073709551614")}, {"small * -1", bigVal("9223372036854775808")},
		{"-1 * small", bigVal("9223372036854775808")}, {"-small", bigVal("9223372036854775808")},
		{"2 ** 63", bigVal("9223372036854775808")}, {"3 ** 40", bigVal("12157665459056928801")},
		{"1 << 63", bigVal("9223372036854775808")}, {"1 << 64", bigVal("18446744073709551616")},
		{"abs(small)", bigVal("9223372036854775808")}, {"floor(1e19)", bigVal("10000000000000000000")},
		{"round(-1e30)", bigVal("-1000000000000000019884624838656")}, {"ceil(2.0 ** 70)", bigVal("1180591620717411303424")},
		{"(big + 1) - 1", IntVal(math.MaxInt64)}, {"-(small - 1) - 1", bigVal("9223372036854775808")},
		{"(2 ** 64) % 7", IntVal(2)}, {"-(2 ** 64) % 7", IntVal(5)}, {"(2 ** 64) % -7", IntVal(-5)},
		{"-(2 ** 64) % (2 ** 65)", bigVal("18446744073709551616")},
		{"(2 ** 64) >> 60", IntVal(16)}, {"-(2 ** 64) >> 200", IntVal(-1)}, {"(2 ** 64 + 1) >> 200", IntVal(0)},
		{"-(2 ** 64 + 1) >> 1", bigVal("-9223372036854775809")},
		{"(2 ** 64) & -1", bigVal("18446744073709551616")}, {"-(2 ** 64) | 1", bigVal("-18446744073709551615")},
		{"(2 ** 64 + 5) ^ (2 ** 64)", IntVal(5)}, {"(-1) ** (2 ** 64)", IntVal(1)}, {"(-1) ** (2 ** 64 + 1)", IntVal(-1)},
		{"(2 ** 64) ** 0", IntVal(1)}, {"(2 ** 64) ** 2", bigVal("340282366920938463463374607431768211456")},
		{"(2 ** 64) / (2 ** 62)", RealVal(4)}, {"(10 ** 30) / 3", RealVal(3.333333333333333e29)},
		{"(2 ** 64) + 0.5", RealVal(18446744073709551616)}, {"2 ** 64 == 18446744073709551616.0", BoolVal(true)},
		{"2 ** 64 + 1 > 18446744073709551616.0", BoolVal(true)}, {"2 ** 64 + 1 == 18446744073709551616.0", BoolVal(false)},
		{"-(2 ** 1100) < -1e308", BoolVal(true)}, {"2 ** 1100 > 1e308", BoolVal(true)},
		{"2 ** 64 > 2 ** 63", BoolVal(true)}, {"2 ** 64 == 2 ** 32 * 2 ** 32", BoolVal(true)},
		{"sign(-(2 ** 70))", IntVal(-1)}, {"abs(-(2 ** 70))", bigVal("1180591620717411303424")},
		{"floor(2 ** 70)", bigVal("1180591620717411303424")}, {"log2(2 ** 70)", RealVal(70)},
		{"(b) ? 2 ** 64 : 1.5", RealVal(18446744073709551616)},
		{"18446744073709551616", bigVal("18446744073709551616")}, {"0x10000000000000000", bigVal("18446744073709551616")},
		{"-123456789012345678901234567890 + 1", bigVal("-123456789012345678901234567889")},
		{"9223372036854775808 == -small", BoolVal(true)}, {"-9223372036854775808", IntVal(math.MinInt64)},
		// the math functions' limits at ±inf, where they have finite ones
		{"atan(inf)", RealVal(math.Pi / 2)}, {"atan(ninf)", RealVal(-math.Pi / 2)},
		{"tanh(ninf)", RealVal(-1)}, {"exp(ninf)", RealVal(0)},
		{"1 >> 9223372036854775807", IntVal(0)}, {"-(2 ** 70) >> 9223372036854775807", IntVal(-1)},
	} {
		got, err := evalString(t, c.src)
		if err != nil {
			t.Errorf("%s: %v", c.src, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s = %v (%v), want %v (%v)", c.src, got, got.Type(), c.want, c.want.Type())
		}
	}
}

func TestEvalUndefined(t *testing.T) {
	for _, c := range []struct {
		src   string
		cause Cause
		msg   string
	}{
		{"x / y", DivisionByZero, "1:1: undefined: division by zero in x / y"},
		{"f / z", DivisionByZero, ""}, {"1 / 0.0", DivisionByZero, ""},
		{"x % 0", ModuloByZero, ""}, {"f % 0.0", ModuloByZero, ""},
		{"0 ** -1", ZeroNegativePower, ""}, {"0.0 ** -1", ZeroNegativePower, ""},
		{"1 << -1", NegativeShift, ""}, {"1 >> -1", NegativeShift, ""},
		// Ints are exact at any size, but bounded (MaxIntBits) and a float
		// conversion that overflows is Python's OverflowError.
		{"2 ** 65537", IntOverflow, "1:1: undefined: integer result too large (over 65536 bits) in 2 ** 65537"},
		{"1 << 65536", IntOverflow, ""}, {"big ** big", IntOverflow, ""}, {"(big * big) ** 10000", IntOverflow, ""},
		{"(2 ** 65535) * (2 ** 65535)", IntOverflow, ""}, {"(2 ** 40000) << 40000", IntOverflow, ""},
		{"2 ** 1024 + 0.5", IntTooLargeForFloat, "1:1: undefined: integer too large to convert to a float in 2 ** 1024 + 0.5"},
		{"2 ** 2000 / 3", IntTooLargeForFloat, ""}, {"sqrt(10 ** 400)", IntTooLargeForFloat, ""},
		{"(b) ? 2 ** 1024 : 1.5", IntTooLargeForFloat, ""}, {"(2 ** 1024) * 1.0", IntTooLargeForFloat, ""},
		{"(2 ** 100) / 0", DivisionByZero, ""}, {"(2 ** 100) % 0", ModuloByZero, ""},
		{"(2 ** 100) << -1", NegativeShift, ""},
		{"(2 ** 100) >> -(2 ** 100)", NegativeShift, ""}, {"0 ** -(2 ** 100)", ZeroNegativePower, ""},
		{"1e308 * 10", FloatOverflow, ""}, {"10.0 ** 400", FloatOverflow, ""},
		{"exp(1000)", FloatOverflow, "1:1: undefined: float overflow in exp(1000)"}, {"cosh(1000)", FloatOverflow, ""},
		{"sqrt(-1)", DomainError, "1:1: undefined: math domain error in sqrt(-1)"},
		{"log(0)", DomainError, ""}, {"log10(-1)", DomainError, ""}, {"log2(0.0)", DomainError, ""},
		{"log1p(-1)", DomainError, ""}, {"asin(2)", DomainError, ""}, {"acos(-1.5)", DomainError, ""},
		{"acosh(0.5)", DomainError, ""}, {"atanh(1)", DomainError, ""},
		{"(-8.0) ** (1 / 3)", DomainError, ""}, {"(-2) ** 0.5", DomainError, ""},
		// a shift count near MaxInt64 must not overflow the size bound
		{"1 << 9223372036854775807", IntOverflow, "1:1: undefined: integer result too large (over 65536 bits) in 1 << 9223372036854775807"},
		{"(2 ** 100) << 9223372036854775807", IntOverflow, ""}, {"x << big", IntOverflow, ""},
		// non-finite floats: no integer, and the math functions' limits
		// (Python's OverflowError, ValueError; inf results overflow)
		{"floor(inf)", NonFiniteToInt, "1:1: undefined: cannot convert float +Inf to an integer"},
		{"ceil(ninf)", NonFiniteToInt, "1:1: undefined: cannot convert float -Inf to an integer"},
		{"round(nan)", NonFiniteToInt, "1:1: undefined: cannot convert float NaN to an integer"},
		{"trunc(inf)", NonFiniteToInt, ""},
		{"sin(inf)", DomainError, "1:1: undefined: math domain error in sin(+Inf)"}, {"cos(ninf)", DomainError, ""},
		{"tan(inf)", DomainError, ""}, {"sqrt(ninf)", DomainError, ""}, {"log(nan)", DomainError, ""},
		{"exp(inf)", FloatOverflow, ""}, {"sinh(ninf)", FloatOverflow, ""}, {"cosh(ninf)", FloatOverflow, ""},
		{"asinh(inf)", FloatOverflow, ""}, {"acosh(inf)", FloatOverflow, ""}, {"cbrt(inf)", FloatOverflow, ""},
		{"log(inf)", FloatOverflow, ""}, {"log1p(inf)", FloatOverflow, ""},
		{"atan(nan)", FloatOverflow, "1:1: undefined: float overflow in atan(NaN)"}, {"sin(nan)", FloatOverflow, ""},
		{"exp(nan)", FloatOverflow, ""}, {"tanh(nan)", FloatOverflow, ""},
		// undefinedness propagates, with the innermost span
		{"1 + (2 +\n 1 / y)", DivisionByZero, "2:2: undefined: division by zero in 1 / y"},
		{"(b) ? 1 / y : 0", DivisionByZero, ""},
		{"b && x / y > 1", DivisionByZero, ""},
		{"x ^ 1 / y == 0 xor b", DivisionByZero, ""},
	} {
		v, err := evalString(t, c.src)
		var u *Undefined
		if !errors.As(err, &u) {
			t.Errorf("%s: got %v, %v; want undefined %v", c.src, v, err, c.cause)
			continue
		}
		if u.Cause != c.cause {
			t.Errorf("%s: cause %v, want %v", c.src, u.Cause, c.cause)
		}
		if c.msg != "" && err.Error() != c.msg {
			t.Errorf("%s:\n got  %s\n want %s", c.src, err, c.msg)
		}
	}
}

func TestEvalShortCircuit(t *testing.T) {
	// The right operand is not evaluated when the left decides (docs/fcstm.md,
	// docs/queries.md): neither its undefinedness nor an unknown name matters.
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"y != 0 && x / y > 1", false},
		{"y == 0 || x / y > 1", true},
		{"y != 0 => x / y > 1", true},
		{"c && nosuch > 0", false},
		{"(b) ? true : 1 / y > 0", true},
		{"(c) ? 1 / y > 0 : false", false},
	} {
		got, err := evalString(t, c.src)
		if err != nil || got != BoolVal(c.want) {
			t.Errorf("%s = %v, %v; want %v", c.src, got, err, c.want)
		}
	}
	// xor, iff and == are strict.
	if _, err := evalString(t, "c xor x / y > 1"); err == nil {
		t.Error("xor must evaluate both sides")
	}
}

func TestEvalTypeErrors(t *testing.T) {
	for _, c := range []struct{ src, msg string }{
		{"nosuch + 1", `1:1: unknown variable "nosuch"`},
		{"b + 1", `1:1: operator "+" is not defined on bool and int`},
		{"f & 1", `1:1: operator "&" is not defined on float and int`},
		{"x && b", `1:1: left operand of "&&" is int, not bool`},
		{"b && x", `1:6: right operand of "&&" is int, not bool`},
		{"!x", `1:1: operator "!" is not defined on int`},
		{"(x) ? 1 : 2", `1:1: condition of "?:" is int, not bool`},
		{"sqrt(b)", `1:1: sqrt is not defined on bool`},
		{`active("A")`, `1:1: unknown function "active"`},
		{`"s"`, `1:1: "s" cannot be evaluated`},
		{"b == 1", `1:1: operator "==" is not defined on bool and int`},
	} {
		_, err := evalString(t, c.src)
		var te *TypeError
		if !errors.As(err, &te) || err.Error() != c.msg {
			t.Errorf("%s:\n got  %v\n want %s", c.src, err, c.msg)
		}
	}
}

type atomVals struct{ Vars }

func (a atomVals) Atom(c *AtomCall) (Value, error) {
	switch c.Name {
	case "active":
		return BoolVal(c.Args[0].Value.(*StringLit).Value == "Root.A"), nil
	case "call_count":
		return IntVal(2), nil
	}
	return Value{}, errors.New("boom")
}

func (a atomVals) AtomType(c *AtomCall) (Type, error) {
	if c.Name == "call_count" {
		return Int, nil
	}
	return Bool, nil
}

func TestEvalAtoms(t *testing.T) {
	v := atomVals{Vars{"x": IntVal(1), "r": RealVal(0.5)}}
	for _, c := range []struct {
		src  string
		want Value
	}{
		{`active("Root.A") && !active("Root.B")`, BoolVal(true)},
		{`call_count("A") + x`, IntVal(3)},
		{`(x > 0) ? x : r`, RealVal(1)},
		{`(x < 0) ? r : call_count()`, RealVal(2)}, // the atom type makes the promotion
	} {
		got, err := Eval(mustParse(t, c.src), v)
		if err != nil || got != c.want {
			t.Errorf("%s = %v, %v; want %v", c.src, got, err, c.want)
		}
	}
	if _, err := Eval(mustParse(t, "other() || true"), v); err == nil || err.Error() != "boom" {
		t.Errorf("atom error not passed through: %v", err)
	}
}

func TestConvertAndCompare(t *testing.T) {
	for _, c := range []struct {
		v    Value
		to   Type
		want Value
		ok   bool
	}{
		{RealVal(-3), Int, IntVal(-3), true},
		{RealVal(2.5), Int, Value{}, false},
		{RealVal(1e19), Int, bigVal("10000000000000000000"), true},
		{RealVal(-1e300), Int, BigIntVal(bigFloat(-1e300)), true},
		{bigVal("18446744073709551616"), Real, RealVal(18446744073709551616), true},
		{BigIntVal(new(big.Int).Lsh(big.NewInt(1), 1024)), Real, Value{}, false},
		{RealVal(-9223372036854775808), Int, IntVal(math.MinInt64), true},
		{IntVal(3), Real, RealVal(3), true},
		{IntVal(3), Int, IntVal(3), true},
		{BoolVal(true), Int, Value{}, false},
		{IntVal(1), Bool, Value{}, false},
	} {
		got, ok := Convert(c.v, c.to)
		if got != c.want || ok != c.ok {
			t.Errorf("Convert(%v, %v) = %v, %v", c.v, c.to, got, ok)
		}
	}
	if c, ok := Compare(IntVal(2), RealVal(2.5)); !ok || c != -1 {
		t.Errorf("Compare(2, 2.5) = %d, %v", c, ok)
	}
	if _, ok := Compare(BoolVal(true), IntVal(1)); ok {
		t.Error("Compare(bool, int) must fail")
	}
	if got := IntVal(5).Real(); got != 5 {
		t.Errorf("IntVal(5).Real() = %v", got)
	}
	if s := RealVal(3).String() + " " + IntVal(-2).String() + " " + BoolVal(false).String(); s != "3.0 -2 false" {
		t.Errorf("String: %q", s)
	}
}
