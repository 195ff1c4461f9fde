package verify

import (
	"math"
	"math/big"
	"strconv"

	"github.com/stateproof/stateproof/internal/scc"
)

// dtmc is the chain over the explored runtimes: per runtime its edges of
// positive weight and their total, and its class.
type dtmc struct {
	off    []int
	to     []int32
	w      []float64
	via    []int32
	total  []float64
	sink   []bool // target, terminal or no positive weight: not expanded
	target []bool
	comp   []int32
	order  []int32 // runtimes sorted by component
	start  []int   // start of each component in order
}

func (e *env) buildChain(target string) *dtmc {
	g, adj := e.explored(), e.adjacency()
	mc := e.mc
	n := g.Len()
	ti := mc.StateIndex(target)
	c := &dtmc{off: make([]int, n+1), total: make([]float64, n), sink: make([]bool, n), target: make([]bool, n)}
	for v := 0; v < n; v++ {
		c.off[v] = len(c.to)
		st := g.StateOf(v)
		c.target[v] = st == ti
		if c.target[v] || e.m.States[st].Terminal {
			c.sink[v] = true
			continue
		}
		to, via := adj.Edges(v)
		for k, w := range to {
			if wt := mc.Transition(int(via[k])).Weight; wt > 0 && w >= 0 {
				c.to, c.via, c.w = append(c.to, w), append(c.via, via[k]), append(c.w, wt)
				c.total[v] += wt
			}
		}
		c.sink[v] = c.off[v] == len(c.to)
	}
	c.off[n] = len(c.to)
	c.comp = scc.Numbers(c.off, c.to, c.sink)
	ncomp := int32(0)
	for _, x := range c.comp {
		ncomp = max(ncomp, x+1)
	}
	c.start = make([]int, ncomp+1)
	for _, x := range c.comp {
		c.start[x+1]++
	}
	for i := 1; i <= int(ncomp); i++ {
		c.start[i] += c.start[i-1]
	}
	c.order = make([]int32, n)
	fill := append([]int(nil), c.start[:ncomp]...)
	for v, x := range c.comp {
		c.order[fill[x]] = int32(v)
		fill[x]++
	}
	return c
}

// members returns the runtimes of component k.
func (c *dtmc) members(k int) []int32 { return c.order[c.start[k]:c.start[k+1]] }

// reachability marks the runtimes from which the target has positive
// probability, component by component in reverse topological order.
func (c *dtmc) reachability() []bool {
	reach := make([]bool, len(c.comp))
	for k := 0; k+1 < len(c.start); k++ {
		r := false
		for _, v := range c.members(k) {
			if c.target[v] {
				r = true
			}
			for i := c.off[v]; i < c.off[v+1] && !r; i++ {
				if w := c.to[i]; c.comp[w] != int32(k) && reach[w] {
					r = true
				}
			}
		}
		for _, v := range c.members(k) {
			reach[v] = r
		}
	}
	return reach
}

// almostSure marks the runtimes from which the target is entered with
// probability 1: those that reach it with positive probability and cannot
// reach, with positive probability, a runtime that cannot (the standard
// graph algorithm for almost-sure reachability; no arithmetic involved).
func (c *dtmc) almostSure(reach []bool) []bool {
	n := len(reach)
	// Reverse edges, so the runtimes that can reach a zero runtime are one
	// backward search from all of them.
	roff := make([]int, n+1)
	for _, w := range c.to {
		roff[w+1]++
	}
	for v := 0; v < n; v++ {
		roff[v+1] += roff[v]
	}
	rfrom := make([]int32, len(c.to))
	fill := append([]int(nil), roff[:n]...)
	for v := 0; v < n; v++ {
		for i := c.off[v]; i < c.off[v+1]; i++ {
			w := c.to[i]
			rfrom[fill[w]] = int32(v)
			fill[w]++
		}
	}
	bad := make([]bool, n)
	var queue []int32
	for v := range reach {
		if !reach[v] {
			bad[v] = true
			queue = append(queue, int32(v))
		}
	}
	for len(queue) > 0 {
		w := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, v := range rfrom[roff[w]:roff[w+1]] {
			if !bad[v] {
				bad[v] = true
				queue = append(queue, v)
			}
		}
	}
	sure := make([]bool, n)
	for v := range sure {
		sure[v] = !bad[v]
	}
	return sure
}

// solveProbability decides P = 0 and P = 1 on the graph, and otherwise
// computes the value in exact rationals for a small chain or brackets it
// by interval iteration. No float result is ever taken for the value.
func (e *env) solveProbability(target string) *probResult {
	c := e.buildChain(target)
	reach := c.reachability()
	sure := c.almostSure(reach)
	pr := &probResult{reach: reach, positive: reach[0], belowOne: !sure[0], converged: true}
	switch {
	case !reach[0]:
		pr.exact, pr.method = new(big.Rat), methodGraph
		return pr
	case sure[0]:
		pr.exact, pr.method = big.NewRat(1, 1), methodGraph
		return pr
	}
	largest, transient := 0, 0
	for k := 0; k+1 < len(c.start); k++ {
		largest = max(largest, c.start[k+1]-c.start[k])
	}
	for v := range reach {
		if reach[v] && !c.target[v] {
			transient++
		}
	}
	if largest <= ratComponent && transient <= ratNodes {
		if x, ok := c.solveRational(reach); ok {
			pr.exact, pr.method = x, methodExact
			return pr
		}
	}
	pr.lo, pr.hi, pr.sweeps, pr.converged = c.intervalIterate(reach, sure)
	pr.method = methodInterval
	return pr
}

// Directed rounding of the interval iteration. A sum of m non-negative
// products divided by a total has a relative rounding error below
// (m+2)·u (u = 2^-53), and each weight read as a double is off by at most
// u: widening by 2(m+3)·u relative and tinyAbs absolute (for results that
// underflow) keeps the bracket sound.
const (
	unitRound = 0x1p-53
	tinyAbs   = 1e-300
	widthAbs  = 1e-290 // brackets narrower than this are as good as closed
)

// intervalIterate brackets P per runtime from below (from 0) and from
// above (from 1) by Gauss-Seidel sweeps, component by component in
// reverse topological order, with outward rounding. Runtimes with P = 0
// and P = 1 are fixed, which makes the fixed point unique, so the upper
// iteration converges to P as the lower one does. A component stops when
// every bracket is narrower than sweepEpsilon relative to its upper end,
// or after maxSweeps sweeps (then the result is not converged, but the
// bracket is still sound).
func (c *dtmc) intervalIterate(reach, sure []bool) (lo0, hi0 float64, sweeps int, converged bool) {
	n := len(reach)
	lo, hi := make([]float64, n), make([]float64, n)
	for v := range lo {
		switch {
		case sure[v]:
			lo[v], hi[v] = 1, 1
		case reach[v]:
			hi[v] = 1
		}
	}
	converged = true
	for k := 0; k+1 < len(c.start); k++ {
		mem := c.members(k)
		if sure[mem[0]] || !reach[mem[0]] {
			continue
		}
		s, ok := c.sweepComponent(mem, lo, hi)
		sweeps = max(sweeps, s)
		converged = converged && ok
	}
	return lo[0], hi[0], sweeps, converged
}

// sweepComponent runs the bracketing sweeps of one component.
func (c *dtmc) sweepComponent(mem []int32, lo, hi []float64) (int, bool) {
	for sweep := 1; sweep <= maxSweeps; sweep++ {
		done := true
		for _, v := range mem {
			sl, sh := 0.0, 0.0
			for i := c.off[v]; i < c.off[v+1]; i++ {
				sl += c.w[i] * lo[c.to[i]]
				sh += c.w[i] * hi[c.to[i]]
			}
			g := float64(2*(c.off[v+1]-c.off[v])+6) * unitRound
			sl, sh = sl/c.total[v], sh/c.total[v]
			lo[v] = math.Max(lo[v], sl*(1-g)-tinyAbs)
			hi[v] = math.Min(hi[v], sh*(1+g)+tinyAbs)
			if hi[v]-lo[v] > sweepEpsilon*hi[v]+widthAbs {
				done = false
			}
		}
		if done {
			return sweep, true
		}
	}
	return maxSweeps, false
}

// ratWeight reads a weight as the decimal the modeller wrote: 0.4 is 2/5,
// not the nearest binary fraction.
func ratWeight(w float64) *big.Rat {
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(w, 'g', -1, 64))
	if !ok {
		r = new(big.Rat).SetFloat64(w)
	}
	return r
}

// solveRational is solveLinear in exact rational arithmetic; it gives up
// (false) when a number grows past ratBits bits.
func (c *dtmc) solveRational(reach []bool) (*big.Rat, bool) {
	x := make([]*big.Rat, len(reach))
	zero := new(big.Rat)
	val := func(v int32) *big.Rat {
		if x[v] == nil {
			return zero
		}
		return x[v]
	}
	for k := 0; k+1 < len(c.start); k++ {
		mem := c.members(k)
		if !reach[mem[0]] {
			continue
		}
		if c.target[mem[0]] {
			x[mem[0]] = big.NewRat(1, 1)
			continue
		}
		local := map[int32]int{}
		for i, v := range mem {
			local[v] = i
		}
		n := len(mem)
		a := make([][]*big.Rat, n)
		for i, v := range mem {
			a[i] = make([]*big.Rat, n+1)
			for j := range a[i] {
				a[i][j] = new(big.Rat)
			}
			a[i][i].SetInt64(1)
			total := new(big.Rat)
			for j := c.off[v]; j < c.off[v+1]; j++ {
				total.Add(total, ratWeight(c.w[j]))
			}
			for j := c.off[v]; j < c.off[v+1]; j++ {
				p := new(big.Rat).Quo(ratWeight(c.w[j]), total)
				if l, in := local[c.to[j]]; in {
					a[i][l].Sub(a[i][l], p)
				} else {
					a[i][n].Add(a[i][n], p.Mul(p, val(c.to[j])))
				}
			}
		}
		sol, ok := gaussRat(a)
		if !ok {
			return nil, false
		}
		for i, s := range sol {
			x[mem[i]] = s
		}
	}
	return new(big.Rat).Set(val(0)), true
}

// gaussRat solves an augmented rational system; false when a number grows
// past ratBits bits or the system is singular.
func gaussRat(a [][]*big.Rat) ([]*big.Rat, bool) {
	n := len(a)
	tmp := new(big.Rat)
	for col := 0; col < n; col++ {
		p := col
		for p < n && a[p][col].Sign() == 0 {
			p++
		}
		if p == n {
			return nil, false
		}
		a[col], a[p] = a[p], a[col]
		for r := 0; r < n; r++ {
			if r == col || a[r][col].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Quo(a[r][col], a[col][col])
			for k := col; k <= n; k++ {
				a[r][k].Sub(a[r][k], tmp.Mul(f, a[col][k]))
				if a[r][k].Num().BitLen() > ratBits || a[r][k].Denom().BitLen() > ratBits {
					return nil, false
				}
			}
		}
	}
	x := make([]*big.Rat, n)
	for i := range x {
		x[i] = new(big.Rat).Quo(a[i][n], a[i][i])
		if x[i].Num().BitLen() > ratBits || x[i].Denom().BitLen() > ratBits {
			return nil, false
		}
	}
	return x, true
}
