package expr

import (
	"math"
	"math/big"
	"strconv"
)

// Value is a concrete value: an Int (a mathematical integer of any size),
// a Real (float64) or a Bool. Values are comparable with == and usable as
// map keys; IntVal(1) and RealVal(1) are different Values (compare
// numerically with Compare). The evaluator only produces finite Reals.
//
// An Int inside the int64 range is held in i (the fast path); one outside
// it is held as its decimal text in big, which keeps Value comparable: two
// equal integers are always equal Values.
type Value struct {
	t   Type
	i   int64 // Int inside int64, or Bool as 0/1
	f   float64
	big string // Int outside int64: its decimal digits; "" otherwise
}

// IntVal returns an Int value.
func IntVal(i int64) Value { return Value{t: Int, i: i} }

// BigIntVal returns the Int value of x, of any size (x is not kept).
func BigIntVal(x *big.Int) Value {
	if x.IsInt64() {
		return IntVal(x.Int64())
	}
	return Value{t: Int, big: x.String()}
}

// RealVal returns a Real value.
func RealVal(f float64) Value { return Value{t: Real, f: f} }

// BoolVal returns a Bool value.
func BoolVal(b bool) Value {
	if b {
		return Value{t: Bool, i: 1}
	}
	return Value{t: Bool}
}

// Type returns the value's type; Invalid for the zero Value.
func (v Value) Type() Type { return v.t }

// IsInt64 reports whether v is an Int inside the int64 range.
func (v Value) IsInt64() bool { return v.t == Int && v.big == "" }

// Int returns an Int value's integer when it is inside the int64 range
// (IsInt64), and 0 otherwise; BigInt gives an Int of any size.
func (v Value) Int() int64 {
	if v.IsInt64() {
		return v.i
	}
	return 0
}

// BigInt returns an Int value's integer as a new big.Int, or nil for other
// types.
func (v Value) BigInt() *big.Int {
	if v.t != Int {
		return nil
	}
	return v.bigInt()
}

func (v Value) bigInt() *big.Int {
	if v.big == "" {
		return big.NewInt(v.i)
	}
	x, _ := new(big.Int).SetString(v.big, 10)
	return x
}

// Real returns a numeric value as a float64. An Int is converted as
// Python's float(int) does, rounding to nearest-even beyond 2^53; one too
// large for any float64 gives ±Inf here, where Python raises OverflowError
// (Float reports it).
func (v Value) Real() float64 {
	f, _ := v.Float()
	return f
}

// Float is Real that also reports whether the conversion is exact enough
// to be a float64 at all: false for an Int too large for a float64.
func (v Value) Float() (float64, bool) {
	switch {
	case v.t == Real:
		return v.f, true
	case v.IsInt64():
		return float64(v.i), true
	case v.t == Int:
		f, _ := new(big.Float).SetInt(v.bigInt()).Float64()
		return f, !math.IsInf(f, 0)
	}
	return 0, true
}

// Bool returns a Bool value's truth (false for other types).
func (v Value) Bool() bool { return v.t == Bool && v.i != 0 }

// String renders the value as expression text: 42, 3.5, true.
func (v Value) String() string {
	switch v.t {
	case Int:
		if v.big != "" {
			return v.big
		}
		return strconv.FormatInt(v.i, 10)
	case Real:
		return formatFloat(v.f)
	case Bool:
		return strconv.FormatBool(v.i != 0)
	}
	return "<invalid>"
}

// Compare compares two numeric values exactly (an Int with a Real without
// rounding the Int, as Python does): -1, 0 or +1, and false if either is
// not numeric or is NaN.
func Compare(a, b Value) (int, bool) {
	switch {
	case a.IsInt64() && b.IsInt64():
		return cmpInt(a.i, b.i), true
	case a.t == Int && b.t == Int:
		return a.bigInt().Cmp(b.bigInt()), true
	case a.t == Int && b.t == Real && !math.IsNaN(b.f):
		return cmpIntValueFloat(a, b.f), true
	case a.t == Real && b.t == Int && !math.IsNaN(a.f):
		return -cmpIntValueFloat(b, a.f), true
	case a.t == Real && b.t == Real && !math.IsNaN(a.f) && !math.IsNaN(b.f):
		switch {
		case a.f < b.f:
			return -1, true
		case a.f > b.f:
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// cmpIntValueFloat compares an Int with a non-NaN f exactly.
func cmpIntValueFloat(a Value, f float64) int {
	if a.IsInt64() {
		return cmpIntFloat(a.i, f)
	}
	return new(big.Float).SetInt(a.bigInt()).Cmp(big.NewFloat(f))
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// cmpIntFloat compares i with a non-NaN f exactly.
func cmpIntFloat(i int64, f float64) int {
	const two63 = 9223372036854775808.0
	switch {
	case f >= two63:
		return -1
	case f < -two63:
		return 1
	}
	t := math.Trunc(f) // in [-2^63, 2^63): exact as an int64
	if c := cmpInt(i, int64(t)); c != 0 {
		return c
	}
	switch {
	case f > t:
		return -1
	case f < t:
		return 1
	}
	return 0
}

// Convert converts v for storage in a variable of type t (FCSTM writeback,
// docs/fcstm.md): to Real any numeric value that a float64 can hold (an Int
// too large for one cannot be stored, as Python's float(int) overflows);
// to Int an Int, or a Real with an integral value (exactly, at any size);
// to Bool only a Bool. It returns false when the value cannot be stored
// (the runtime's "non-integer float from operation block writeback").
func Convert(v Value, t Type) (Value, bool) {
	switch {
	case v.t == t:
		return v, true
	case t == Real && v.t == Int:
		if f, ok := v.Float(); ok {
			return RealVal(f), true
		}
	case t == Int && v.t == Real:
		if v.f == math.Trunc(v.f) && !math.IsInf(v.f, 0) {
			return floatInt(v.f), true
		}
	}
	return Value{}, false
}

// floatInt returns the Int equal to an integral, finite f, exactly.
func floatInt(f float64) Value {
	const two63 = 9223372036854775808.0
	if f >= -two63 && f < two63 {
		return IntVal(int64(f))
	}
	x, _ := big.NewFloat(f).Int(nil)
	return BigIntVal(x)
}
