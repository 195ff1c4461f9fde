package expr

import (
	"math"
	"math/big"
)

// crOneThird is the float64 nearest 1/3: pyfcstm computes cbrt(x) as
// x ** (1/3) with this exponent, so cbrt(64.0) is 3.9999999999999996.
const crOneThird = 1.0 / 3

// crFunc is fn(x) correctly rounded, for the functions of realFuncs
// other than sqrt (which IEEE arithmetic already rounds correctly). x is
// in fn's domain (funcDomain), finite.
func crFunc(fn Func, x float64) float64 {
	if x == 0 {
		switch fn {
		case Cos, Cosh, Exp:
			return 1
		case Acos:
			return round64(halfPi(crGuard))
		case Cbrt:
			return 0 // pow(±0, 1/3) is +0
		}
		return x // an odd function: ±0 stays ±0
	}
	prec := crPrec(x)
	z := bf(prec).SetFloat64(x)
	one := bfInt(prec, 1)
	switch fn {
	case Sin:
		s, _ := bigSinCos(z, prec)
		return round64(s)
	case Cos:
		_, c := bigSinCos(z, prec)
		return round64(c)
	case Tan:
		s, c := bigSinCos(z, prec)
		return round64(s.Quo(s, c))
	case Atan:
		return round64(bigAtan(z, prec))
	case Asin: // atan(x / sqrt(1 - x^2)); ±pi/2 at ±1
		if math.Abs(x) == 1 {
			return math.Copysign(round64(halfPi(prec)), x)
		}
		d := bf(prec).Mul(z, z)
		d.Sub(one, d).Sqrt(d)
		return round64(bigAtan(d.Quo(z, d), prec))
	case Acos: // 2 atan(sqrt((1 - x) / (1 + x))); pi at -1
		if x == -1 {
			return round64(bigPi(prec))
		}
		q := bf(prec).Quo(bf(prec).Sub(one, z), bf(prec).Add(one, z))
		a := bigAtan(q.Sqrt(q), prec)
		return round64(a.SetMantExp(a, 1))
	case Exp:
		return round64(bigExp(z, prec))
	case Sinh: // (expm1(x) - expm1(-x)) / 2
		a := bigExpm1(z, prec)
		a.Sub(a, bigExpm1(bf(prec).Neg(z), prec))
		return round64(a.SetMantExp(a, -1))
	case Cosh:
		a := bigExp(z, prec)
		a.Add(a, bigExp(bf(prec).Neg(z), prec))
		return round64(a.SetMantExp(a, -1))
	case Tanh: // expm1(2x) / (expm1(2x) + 2)
		if math.Abs(x) > 40 {
			return math.Copysign(1, x) // 1 - tanh|x| < 2^-115
		}
		e := bigExpm1(bf(prec).SetMantExp(z, 1), prec)
		d := bf(prec).Add(e, bfInt(prec, 2))
		return round64(e.Quo(e, d))
	case Asinh: // sign(x) ln(|x| + sqrt(x^2 + 1))
		a := bf(prec).Abs(z)
		d := bf(prec).Mul(a, a)
		d.Add(d, one).Sqrt(d).Add(d, a)
		return math.Copysign(round64(bigLog(d, prec)), x)
	case Acosh: // ln(x + sqrt(x^2 - 1))
		d := bf(prec).Mul(z, z)
		d.Sub(d, one).Sqrt(d).Add(d, z)
		return round64(bigLog(d, prec))
	case Atanh: // ln((1 + x) / (1 - x)) / 2
		q := bf(prec).Quo(bf(prec).Add(one, z), bf(prec).Sub(one, z))
		l := bigLog(q, prec)
		return round64(l.SetMantExp(l, -1))
	case Log:
		return round64(bigLog(z, prec))
	case Log10:
		l := bigLog(z, prec)
		return round64(l.Quo(l, bigLog(bfInt(prec, 10), prec)))
	case Log2:
		if f, e := math.Frexp(x); f == 0.5 {
			return float64(e - 1) // exact
		}
		l := bigLog(z, prec)
		return round64(l.Quo(l, bigLn2(prec)))
	case Log1p:
		return round64(bigLog(bf(prec).Add(one, z), prec))
	case Cbrt:
		return crPow(z, crOneThird, prec)
	}
	return math.NaN() // not a function of realFuncs
}

// crPow is x ** y for x > 0, correctly rounded: e^(y ln x).
func crPow(x *big.Float, y float64, prec uint) float64 {
	if x.Cmp(big.NewFloat(1)) == 0 {
		return 1
	}
	l := bigLog(x, prec)
	return round64(bigExp(l.Mul(l, bf(prec).SetFloat64(y)), prec))
}

func halfPi(prec uint) *big.Float {
	p := bigPi(prec)
	return p.SetMantExp(p, -1)
}
