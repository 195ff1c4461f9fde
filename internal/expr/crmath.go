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

// The constants pi and ln 2 to 1440 bits (truncated), written once in
// hexadecimal (checked against Machin's formula and the atanh series in
// crmath_test.go): computing them per call at the working precision cost
// more than the function itself. Above constPrec bits they are computed.
const (
	constPrec = 1400
	piHex     = "0xc90fdaa22168c234c4c6628b80dc1cd129024e088a67cc74020bbea63b139b22514a08798e3404ddef9519b3cd3a431b302b0a6df25f14374fe1356d6d51c245e485b576625e7ec6f44c42e9a637ed6b0bff5cb6f406b7edee386bfb5a899fa5ae9f24117c4b1fe649286651ece45b3dc2007cb8a163bf0598da48361c55d39a69163fa8fd24cf5f83655d23dca3ad961c62f356208552bb9ed529077096966d670c354e4abc9804f1746c08ca18217c32905e46p-1438"
	ln2Hex    = "0xb17217f7d1cf79abc9e3b39803f2f6af40f343267298b62d8a0d175b8baafa2be7b876206debac98559552fb4afa1b10ed2eae35c138214427573b291169b8253e96ca16224ae8c51acbda11317c387eb9ea9bc3b136603b256fa0ec7657f74b72ce87b19d6548caf5dfa6bd38303248655fa1872f20e3a2da2d97c50f3fd5c607f4ca11fb5bfb90610d30f88fe551a2ee569d6dfc1efa157d2e23de1400b39617460775db8990e5c943e732b479cd33cccc4e65p-1440"
)

// constant parses a hexadecimal constant at precision prec.
func constant(hex string, prec uint) *big.Float {
	f, _, err := big.ParseFloat(hex, 0, prec, big.ToNearestEven)
	if err != nil {
		panic("expr: bad constant: " + err.Error()) // a literal above
	}
	return f
}

// bigPi is pi: the constant, or Machin's formula above constPrec bits.
func bigPi(prec uint) *big.Float {
	if prec <= constPrec {
		return constant(piHex, prec)
	}
	return machinPi(prec)
}

func machinPi(prec uint) *big.Float {
	p := prec + 16
	a := bf(p).Mul(bfInt(p, 16), atanInv(5, p, false))
	b := bf(p).Mul(bfInt(p, 4), atanInv(239, p, false))
	return a.Sub(a, b)
}

// bigLn2 is ln 2: the constant, or 2 atanh(1/3) above constPrec bits.
func bigLn2(prec uint) *big.Float {
	if prec <= constPrec {
		return constant(ln2Hex, prec)
	}
	return seriesLn2(prec)
}

func seriesLn2(prec uint) *big.Float {
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
