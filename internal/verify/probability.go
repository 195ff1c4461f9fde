package verify

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
)

// Limits of the probability solvers.
const (
	maxSweeps     = 20000 // value-iteration sweeps
	sweepEpsilon  = 1e-9  // value iteration stops below this change
	probEpsilon   = 1e-9  // bound comparison tolerance
	ratComponent  = 40    // largest component solved in rationals
	ratNodes      = 20000 // most transient runtimes solved in rationals
	ratBits       = 4096  // largest numerator or denominator kept exact
	linComponent  = 400   // largest component solved by a float64 direct solve
	methodExact   = "exact-rational"
	methodLinear  = "linear-solve"
	methodIterate = "value-iteration"
)

// probResult is P(eventually in the target) from the initial runtime.
type probResult struct {
	value     float64
	exact     *big.Rat // set by the exact-rational method
	method    string
	converged bool
	sweeps    int
	reach     []bool // per runtime: the target is reachable with positive probability
}

// a13Probability decides every probability invariant on the DTMC the
// transition weights induce over the reachable runtimes, and reports the
// computed probability and how it was computed.
func (e *env) a13Probability() report.Check {
	c := report.Check{ID: "A13", Name: "Probability"}
	invs := e.invariantsOf(jsonmodel.Probability)
	var parts []string
	for _, inv := range invs {
		out := e.decideInvariant(inv)
		pr := out.prob
		if pr == nil {
			c.Findings = append(c.Findings, invariantUndecided("A13_UNDECIDED", inv, out))
			parts = append(parts, fmt.Sprintf("P(reach %q) not decided", inv.Target))
			continue
		}
		parts = append(parts, fmt.Sprintf("P(reach %q) = %.6f (%s)", inv.Target, pr.value, pr.method))
		if !pr.converged {
			f := finding("A13_NO_CONVERGENCE", report.Warning, described(fmt.Sprintf("P(reach %q) did not converge within %d sweeps: at least %.6f", inv.Target, maxSweeps, pr.value), inv.Description))
			f.Target = inv.Target
			f.Evidence = out.evidence
			c.Findings = append(c.Findings, f)
		}
		if out.violated {
			f := finding("A13_PROBABILITY_VIOLATION", report.Error, described(out.what, inv.Description))
			f.Target = inv.Target
			f.Evidence = out.evidence
			c.Findings = append(c.Findings, withPath(f, out.path))
		}
	}
	if len(invs) == 0 {
		c.Detail = "No probability invariants declared"
	} else {
		c.Detail = strings.Join(parts, "; ")
	}
	return c
}

// decideProbability computes the probability and compares it with the
// bound: `>=` holds iff v ≥ p − ε, `<=` iff v ≤ p + ε, `>` iff v > p + ε,
// `<` iff v < p − ε. Without convergence the value is a lower bound, so
// only an upper bound can still be refuted.
func (e *env) decideProbability(inv *jsonmodel.Invariant) invariantOutcome {
	g := e.explored()
	if g.Truncated {
		return invariantOutcome{undecided: true, capKind: "maxStates", cap: g.Cap, explored: g.Len()}
	}
	pr := e.solveProbability(inv.Target)
	v, p := pr.value, inv.P
	upper := inv.Op == "<=" || inv.Op == "<"
	holds := map[string]bool{">=": v >= p-probEpsilon, "<=": v <= p+probEpsilon, ">": v > p+probEpsilon, "<": v < p-probEpsilon}[inv.Op]
	ev := report.O("invariant", inv.ID, "computed", v, "converged", pr.converged, "method", pr.method)
	if pr.exact != nil {
		ev = append(ev, report.KV{Key: "exact", Value: pr.exact.RatString()})
	}
	if !pr.converged {
		ev = append(ev, report.KV{Key: "sweeps", Value: pr.sweeps})
	}
	out := invariantOutcome{prob: pr, evidence: ev, explored: g.Len()}
	switch {
	case !holds && (pr.converged || upper):
		out.violated = true
		out.what = fmt.Sprintf("P(reach %q) = %.6f violates %s %.6f", inv.Target, v, inv.Op, p)
		out.path = probabilityWitness(g, pr, e.mc.StateIndex(inv.Target), upper)
	case !pr.converged:
		out.undecided, out.capKind, out.cap, out.explored = true, "valueIteration", maxSweeps, pr.sweeps
	}
	return out
}

// probabilityWitness is the shortest path to a runtime from which the
// target is unreachable (a lower bound failed) or to a target runtime (an
// upper bound failed); empty when there is none.
func probabilityWitness(g *explore.Graph, pr *probResult, target int, upper bool) []explore.Step {
	for i := 0; i < g.Len(); i++ {
		if (upper && g.StateOf(i) == target) || (!upper && !pr.reach[i]) {
			return g.Path(i)
		}
	}
	return []explore.Step{}
}

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
	c.comp = tarjanCSR(n, c.off, c.to, c.sink)
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

// solveProbability picks the method: exact rationals for a small chain,
// a float64 direct solve per component when every component is small,
// and the reference's value iteration otherwise.
func (e *env) solveProbability(target string) *probResult {
	c := e.buildChain(target)
	reach := c.reachability()
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
			f, _ := x.Float64()
			return &probResult{value: f, exact: x, method: methodExact, converged: true, reach: reach}
		}
	}
	if largest <= linComponent {
		return &probResult{value: c.solveLinear(reach), method: methodLinear, converged: true, reach: reach}
	}
	v, sweeps, ok := c.iterate(reach)
	return &probResult{value: v, method: methodIterate, converged: ok, sweeps: sweeps, reach: reach}
}

// iterate is the Gauss-Seidel value iteration: from 0, sweeping
// the runtimes in exploration order, until the largest change is below
// 1e-9 or 20000 sweeps have run. It converges to the least fixed point;
// runtimes that cannot reach the target keep 0, as they would anyway.
func (c *dtmc) iterate(reach []bool) (float64, int, bool) {
	x := make([]float64, len(reach))
	for v := range x {
		if c.target[v] {
			x[v] = 1
		}
	}
	for sweep := 1; sweep <= maxSweeps; sweep++ {
		delta := 0.0
		for v := range x {
			if !reach[v] || c.sink[v] {
				continue
			}
			s := 0.0
			for i := c.off[v]; i < c.off[v+1]; i++ {
				s += c.w[i] * x[c.to[i]]
			}
			s /= c.total[v]
			delta = math.Max(delta, math.Abs(s-x[v]))
			x[v] = s
		}
		if delta < sweepEpsilon {
			return x[0], sweep, true
		}
	}
	return x[0], maxSweeps, false
}

// solveLinear solves each component's linear system directly, in reverse
// topological order, so every edge leaving a component meets a value
// already known. Runtimes that cannot reach the target are 0, which makes
// each system nonsingular and its solution the least fixed point.
func (c *dtmc) solveLinear(reach []bool) float64 {
	x := make([]float64, len(reach))
	for k := 0; k+1 < len(c.start); k++ {
		mem := c.members(k)
		if !reach[mem[0]] {
			continue
		}
		if c.target[mem[0]] {
			x[mem[0]] = 1
			continue
		}
		local := map[int32]int{}
		for i, v := range mem {
			local[v] = i
		}
		n := len(mem)
		a := make([][]float64, n)
		for i, v := range mem {
			a[i] = make([]float64, n+1)
			a[i][i] = 1
			for j := c.off[v]; j < c.off[v+1]; j++ {
				p := c.w[j] / c.total[v]
				if l, in := local[c.to[j]]; in {
					a[i][l] -= p
				} else {
					a[i][n] += p * x[c.to[j]]
				}
			}
		}
		for i, s := range gauss(a) {
			x[mem[i]] = s
		}
	}
	return x[0]
}

// gauss solves the augmented system a (n rows of n+1) by elimination with
// partial pivoting.
func gauss(a [][]float64) []float64 {
	n := len(a)
	for col := 0; col < n; col++ {
		p := col
		for r := col + 1; r < n; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[p][col]) {
				p = r
			}
		}
		a[col], a[p] = a[p], a[col]
		if a[col][col] == 0 {
			continue
		}
		for r := 0; r < n; r++ {
			if r == col || a[r][col] == 0 {
				continue
			}
			f := a[r][col] / a[col][col]
			for k := col; k <= n; k++ {
				a[r][k] -= f * a[col][k]
			}
		}
	}
	x := make([]float64, n)
	for i := range x {
		if a[i][i] != 0 {
			x[i] = a[i][n] / a[i][i]
		}
	}
	return x
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
