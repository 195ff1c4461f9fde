package expr

import (
	"math"
	"math/big"
)

// Correctly rounded elementary functions. Go's math package is accurate
// to about one ulp, C's libm (which pyfcstm's Python uses) is correctly
// rounded for these functions in practice, and a guard that compares a
// float at a boundary can go either way on one ulp. Each function here
// computes in binary floating point with at least crGuard bits beyond
// the argument's own exponent range, then rounds once to the nearest
// float64 (docs/fcstm.md, "Float functions"). Nothing is cached, so the
// constants (pi, ln 2) are recomputed per call at the precision it needs.

// crGuard is the working precision beyond what the argument's exponent
// needs: far more than the 53 bits of a float64 plus the worst known
// cancellation of an argument reduction on doubles (about 62 bits).
const crGuard = 192

// crPrec is the working precision for argument x.
func crPrec(x float64) uint {
	_, e := math.Frexp(x)
	if e < 0 {
		e = -e
	}
	return crGuard + uint(e)
}

func bf(prec uint) *big.Float { return new(big.Float).SetPrec(prec) }

func bfInt(prec uint, n int64) *big.Float { return bf(prec).SetInt64(n) }

// round64 rounds z once to the nearest float64 (ties to even).
func round64(z *big.Float) float64 {
	f, _ := z.Float64()
	return f
}

// tiny reports that term t no longer changes a sum of magnitude about
// 2^ref at precision prec.
func tiny(t *big.Float, ref int, prec uint) bool {
	return t.Sign() == 0 || t.MantExp(nil) < ref-int(prec)-8
}

// atanInv is atan(1/n) (hyperbolic: atanh(1/n)) by its Taylor series.
func atanInv(n int64, prec uint, hyperbolic bool) *big.Float {
	sum := bf(prec)
	nn := bfInt(prec, n*n)
	pow := bf(prec).Quo(bfInt(prec, 1), bfInt(prec, n)) // 1/n^(2k+1)
	for k := int64(0); ; k++ {
		t := bf(prec).Quo(pow, bfInt(prec, 2*k+1))
		if k%2 == 1 && !hyperbolic {
			sum.Sub(sum, t)
		} else {
			sum.Add(sum, t)
		}
		if tiny(t, 0, prec) {
			return sum
		}
		pow.Quo(pow, nn)
	}
}

// bigPi is pi by Machin's formula.
func bigPi(prec uint) *big.Float {
	p := prec + 16
	a := bf(p).Mul(bfInt(p, 16), atanInv(5, p, false))
	b := bf(p).Mul(bfInt(p, 4), atanInv(239, p, false))
	return a.Sub(a, b)
}

// bigLn2 is 2 atanh(1/3).
func bigLn2(prec uint) *big.Float {
	p := prec + 16
	return bf(p).Mul(bfInt(p, 2), atanInv(3, p, true))
}

// bigLog is ln x for x > 0: x = m 2^e with m in [1/sqrt 2, sqrt 2),
// ln m = 2 atanh((m-1)/(m+1)).
func bigLog(x *big.Float, prec uint) *big.Float {
	p := prec + 16
	m := bf(p)
	e := x.MantExp(m) // m in [0.5, 1)
	if m.Cmp(big.NewFloat(math.Sqrt2/2)) < 0 {
		m.SetMantExp(m, 1)
		e--
	}
	one := bfInt(p, 1)
	z := bf(p).Quo(bf(p).Sub(m, one), bf(p).Add(m, one))
	z2 := bf(p).Mul(z, z)
	sum := bf(p)
	pow := bf(p).Set(z)
	ref := z.MantExp(nil)
	for k := int64(0); ; k++ {
		t := bf(p).Quo(pow, bfInt(p, 2*k+1))
		sum.Add(sum, t)
		if tiny(t, ref, p) {
			break
		}
		pow.Mul(pow, z2)
	}
	sum.SetMantExp(sum, 1)
	return sum.Add(sum, bf(p).Mul(bfInt(p, int64(e)), bigLn2(p)))
}

// bigExpm1Series is e^r - 1 by its Taylor series (small r).
func bigExpm1Series(r *big.Float, prec uint) *big.Float {
	sum := bf(prec)
	t := bf(prec).SetInt64(1)
	ref := r.MantExp(nil)
	for n := int64(1); ; n++ {
		t.Mul(t, r)
		t.Quo(t, bfInt(prec, n))
		sum.Add(sum, t)
		if tiny(t, ref, prec) {
			return sum
		}
	}
}

// bigExp is e^y: y = k ln 2 + r, e^r by squaring e^(r/2^16).
func bigExp(y *big.Float, prec uint) *big.Float {
	const halvings = 16
	p := prec + 2*halvings + 16
	ln2 := bigLn2(p + 16)
	k, _ := bf(p).Quo(y, ln2).Int(nil)
	kf := bf(p).SetInt(k)
	r := bf(p).Sub(y, bf(p).Mul(kf, ln2))
	r.SetMantExp(r, -halvings)
	e := bigExpm1Series(r, p)
	e.Add(e, bfInt(p, 1))
	for range halvings {
		e.Mul(e, e)
	}
	return e.SetMantExp(e, int(k.Int64()))
}

// bigExpm1 is e^y - 1 without cancellation near 0.
func bigExpm1(y *big.Float, prec uint) *big.Float {
	if y.MantExp(nil) < 0 { // |y| < 1/2
		return bigExpm1Series(y, prec)
	}
	e := bigExp(y, prec)
	return e.Sub(e, bfInt(prec, 1))
}

// bigSinCos is sin x and cos x: x = n pi/2 + r, |r| <= pi/4.
func bigSinCos(x *big.Float, prec uint) (sin, cos *big.Float) {
	p := prec + 16
	halfPi := bigPi(p + uint(max(0, x.MantExp(nil))))
	halfPi.SetMantExp(halfPi, -1)
	q := bf(halfPi.Prec()).Quo(x, halfPi)
	n, _ := q.Add(q, big.NewFloat(0.5*float64(q.Sign()))).Int(nil) // nearest
	r := bf(halfPi.Prec()).Sub(x, bf(halfPi.Prec()).Mul(bf(halfPi.Prec()).SetInt(n), halfPi))
	r = bf(p).Set(r)
	s, c := bf(p), bf(p)
	r2 := bf(p).Mul(r, r)
	t := bf(p).Set(r) // r^(2k+1)/(2k+1)!
	u := bf(p).SetInt64(1)
	for k := int64(0); ; k++ {
		if k%2 == 0 {
			s.Add(s, t)
			c.Add(c, u)
		} else {
			s.Sub(s, t)
			c.Sub(c, u)
		}
		if tiny(t, r.MantExp(nil), p) && tiny(u, 0, p) {
			break
		}
		u.Mul(u, r2).Quo(u, bfInt(p, (2*k+1)*(2*k+2)))
		t.Mul(t, r2).Quo(t, bfInt(p, (2*k+2)*(2*k+3)))
	}
	switch new(big.Int).And(n, big.NewInt(3)).Int64() {
	case 1:
		s, c = c, s.Neg(s)
	case 2:
		s, c = s.Neg(s), c.Neg(c)
	case 3:
		s, c = c.Neg(c), s
	}
	return s, c
}

// bigAtan is atan x: 1/x above 1, then halving the angle before the
// series.
func bigAtan(x *big.Float, prec uint) *big.Float {
	p := prec + 16
	one := bfInt(p, 1)
	a := bf(p).Abs(x)
	invert := a.Cmp(one) > 0
	if invert {
		a.Quo(one, a)
	}
	const halvings = 4
	for range halvings { // atan a = 2 atan(a / (1 + sqrt(1 + a^2)))
		d := bf(p).Mul(a, a)
		d.Add(d, one).Sqrt(d).Add(d, one)
		a.Quo(a, d)
	}
	sum := bf(p)
	a2 := bf(p).Mul(a, a)
	pow := bf(p).Set(a)
	for k := int64(0); ; k++ {
		t := bf(p).Quo(pow, bfInt(p, 2*k+1))
		if k%2 == 0 {
			sum.Add(sum, t)
		} else {
			sum.Sub(sum, t)
		}
		if tiny(t, a.MantExp(nil), p) {
			break
		}
		pow.Mul(pow, a2)
	}
	sum.SetMantExp(sum, halvings)
	if invert {
		hp := bigPi(p)
		hp.SetMantExp(hp, -1)
		sum.Sub(hp, sum)
	}
	if x.Sign() < 0 {
		sum.Neg(sum)
	}
	return sum
}
