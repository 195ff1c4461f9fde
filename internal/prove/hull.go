package prove

import (
	"fmt"
	"math/big"

	"github.com/stateproof/stateproof/internal/expr"
)

// affineHull returns the affine equalities a·x = b that every point
// satisfies, as integer vectors (a₁..a_d, b) with gcd 1: a basis of the
// null space of the rows [p, −1] (Gauss–Jordan over the rationals).
func affineHull(pts [][]int64, d int) [][]int64 {
	if len(pts) == 0 {
		return nil
	}
	rows := make([][]*big.Rat, len(pts))
	for i, p := range pts {
		rows[i] = make([]*big.Rat, d+1)
		for j := range d {
			rows[i][j] = new(big.Rat).SetInt64(p[j])
		}
		rows[i][d] = big.NewRat(-1, 1)
	}
	var out [][]int64
	for _, v := range nullSpace(rows, d+1) {
		if iv, ok := integral(v); ok && !allZero(iv[:d]) {
			out = append(out, iv)
		}
	}
	return out
}

// nullSpace returns a basis of {v : M v = 0} for the rows of M.
func nullSpace(m [][]*big.Rat, cols int) [][]*big.Rat {
	var pivots []int
	r := 0
	for col := 0; col < cols && r < len(m); col++ {
		p := -1
		for i := r; i < len(m); i++ {
			if m[i][col].Sign() != 0 {
				p = i
				break
			}
		}
		if p < 0 {
			continue
		}
		m[r], m[p] = m[p], m[r]
		inv := new(big.Rat).Inv(m[r][col])
		for j := col; j < cols; j++ {
			m[r][j].Mul(m[r][j], inv)
		}
		for i := range m {
			if i == r || m[i][col].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Set(m[i][col])
			for j := col; j < cols; j++ {
				m[i][j].Sub(m[i][j], new(big.Rat).Mul(f, m[r][j]))
			}
		}
		pivots = append(pivots, col)
		r++
	}
	isPivot := map[int]int{}
	for i, c := range pivots {
		isPivot[c] = i
	}
	var basis [][]*big.Rat
	for free := range cols {
		if _, ok := isPivot[free]; ok {
			continue
		}
		v := make([]*big.Rat, cols)
		for j := range v {
			v[j] = new(big.Rat)
		}
		v[free].SetInt64(1)
		for i, c := range pivots {
			v[c].Neg(m[i][free])
		}
		basis = append(basis, v)
	}
	return basis
}

// integral scales a rational vector to coprime integers (first non-zero
// entry positive); false when an entry does not fit an int64.
func integral(v []*big.Rat) ([]int64, bool) {
	l := big.NewInt(1)
	for _, x := range v {
		d := x.Denom()
		g := new(big.Int).GCD(nil, nil, l, d)
		l.Mul(l, new(big.Int).Quo(d, g))
	}
	ints := make([]*big.Int, len(v))
	g := new(big.Int)
	for i, x := range v {
		ints[i] = new(big.Int).Mul(x.Num(), new(big.Int).Quo(l, x.Denom()))
		g.GCD(nil, nil, g, new(big.Int).Abs(ints[i]))
	}
	if g.Sign() == 0 {
		return nil, false
	}
	out := make([]int64, len(v))
	sign := 0
	for i, x := range ints {
		x.Quo(x, g)
		if sign == 0 && x.Sign() != 0 {
			sign = x.Sign()
		}
		if sign < 0 {
			x.Neg(x)
		}
		if !x.IsInt64() || x.Int64() > 1<<20 || x.Int64() < -(1<<20) {
			return nil, false
		}
		out[i] = x.Int64()
	}
	return out, true
}

func allZero(v []int64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// parityHull returns the parity equalities Σ_{i∈S} x_i ≡ c (mod 2) that
// every point satisfies, as 0/1 vectors (S's indicator, c): a basis of the
// null space of the rows [p mod 2, 1] over GF(2).
func parityHull(pts [][]int64, d int) [][]int64 {
	if len(pts) == 0 || d > 62 {
		return nil
	}
	var rows []uint64
	for _, p := range pts {
		var r uint64
		for j := range d {
			if p[j]&1 != 0 {
				r |= 1 << j
			}
		}
		rows = append(rows, r|1<<d)
	}
	cols := d + 1
	var pivots []int
	r := 0
	for col := 0; col < cols && r < len(rows); col++ {
		p := -1
		for i := r; i < len(rows); i++ {
			if rows[i]>>col&1 != 0 {
				p = i
				break
			}
		}
		if p < 0 {
			continue
		}
		rows[r], rows[p] = rows[p], rows[r]
		for i := range rows {
			if i != r && rows[i]>>col&1 != 0 {
				rows[i] ^= rows[r]
			}
		}
		pivots = append(pivots, col)
		r++
	}
	isPivot := map[int]bool{}
	for _, c := range pivots {
		isPivot[c] = true
	}
	var out [][]int64
	for free := range cols {
		if isPivot[free] {
			continue
		}
		v := make([]int64, cols)
		v[free] = 1
		for i, c := range pivots {
			v[c] = int64(rows[i] >> free & 1)
		}
		if !allZero(v[:d]) {
			out = append(out, v)
		}
	}
	return out
}

// hullSet is the affine hull of the points as a set of its rows' texts,
// to leave out of a split what holds on every sample anyway.
func hullSet(pts [][]int64, d int) map[string]bool {
	set := map[string]bool{}
	for _, eq := range affineHull(pts, d) {
		set[fmt.Sprint(eq)] = true
	}
	return set
}

// guardedHulls is a phase split of the samples: the equalities of the
// affine hull of those where inside holds, each guarded by is (is ⇒ eq),
// then those of the rest, guarded by not. A part of fewer than two samples
// gives none, and only the rows (a₁..a_d, b) keep accepts are kept.
func guardedHulls(pts [][]int64, names []string, inside func(p []int64) bool, is, not expr.Expr, keep func(eq []int64) bool) []expr.Expr {
	d := len(names)
	var in, outside [][]int64
	for _, p := range pts {
		if inside(p) {
			in = append(in, p)
		} else {
			outside = append(outside, p)
		}
	}
	var out []expr.Expr
	for _, part := range []struct {
		pts  [][]int64
		cond expr.Expr
	}{{in, is}, {outside, not}} {
		if len(part.pts) < 2 {
			continue
		}
		for _, eq := range affineHull(part.pts, d) {
			if keep(eq) {
				out = append(out, bin(expr.Implies, part.cond, linear(eq[:d], names, expr.Eq, eq[d])))
			}
		}
	}
	return out
}
