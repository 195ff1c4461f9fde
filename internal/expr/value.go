package expr

import (
	"math"
	"strconv"
)

// Value is a concrete value: an Int (int64), a Real (float64) or a Bool.
// Values are comparable with == and usable as map keys; IntVal(1) and
// RealVal(1) are different Values (compare numerically with Compare). The
// evaluator only produces finite Reals.
type Value struct {
	t Type
	i int64 // Int, or Bool as 0/1
	f float64
}

// IntVal returns an Int value.
func IntVal(i int64) Value { return Value{t: Int, i: i} }

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

// Int returns an Int value's integer (0 for other types).
func (v Value) Int() int64 {
	if v.t == Int {
		return v.i
	}
	return 0
}

// Real returns a numeric value as a float64 (an Int is converted, rounding
// to nearest-even beyond 2^53, as Python's float(int) does).
func (v Value) Real() float64 {
	if v.t == Int {
		return float64(v.i)
	}
	return v.f
}

// Bool returns a Bool value's truth (false for other types).
func (v Value) Bool() bool { return v.t == Bool && v.i != 0 }

// String renders the value as expression text: 42, 3.5, true.
func (v Value) String() string {
	switch v.t {
	case Int:
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
	case a.t == Int && b.t == Int:
		return cmpInt(a.i, b.i), true
	case a.t == Int && b.t == Real && !math.IsNaN(b.f):
		return cmpIntFloat(a.i, b.f), true
	case a.t == Real && b.t == Int && !math.IsNaN(a.f):
		return -cmpIntFloat(b.i, a.f), true
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
// fcstm.md §5): to Real any numeric value; to Int an Int, or a Real with an
// integral value inside the int64 range; to Bool only a Bool. It returns
// false when the value cannot be stored (the runtime's "non-integer float
// from operation block writeback").
func Convert(v Value, t Type) (Value, bool) {
	switch {
	case v.t == t:
		return v, true
	case t == Real && v.t == Int:
		return RealVal(float64(v.i)), true
	case t == Int && v.t == Real:
		i, ok := floatToInt(v.f)
		if ok && float64(i) == v.f {
			return IntVal(i), true
		}
	}
	return Value{}, false
}

// floatToInt converts an integral float64 to int64 if it is in range.
func floatToInt(f float64) (int64, bool) {
	const two63 = 9223372036854775808.0
	if f >= -two63 && f < two63 {
		return int64(f), true
	}
	return 0, false
}
