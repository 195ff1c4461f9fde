package prove

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/sts"
)

// Interval propagation with widening (docs/rsc.md): an abstract
// interpretation of a JSON graph in the domain of integer intervals, one
// box per node. Guards refine a box, effects are evaluated in interval
// arithmetic, and a node whose box keeps growing is widened — to the next
// constant of the model (widening with thresholds), then to infinity — so
// that loops converge without losing the bounds their guards impose. The
// bounds become candidate RSCs; Houdini drops any that are not inductive
// and the triple rule re-checks the rest independently, so the abstract
// interpreter is never trusted on its own.

// interval is [lo, hi] over the integers; math.MinInt64 and MaxInt64 stand
// for the infinities.
type interval struct{ lo, hi int64 }

const (
	negInf = math.MinInt64
	posInf = math.MaxInt64
)

// top is the interval of every integer.
func top() interval { return interval{negInf, posInf} }

func (i interval) empty() bool { return i.lo > i.hi }

func (i interval) join(j interval) interval {
	return interval{min(i.lo, j.lo), max(i.hi, j.hi)}
}

// box is one interval per graph variable (booleans stay top); nil is the
// unreachable box.
type box []interval

// intervalsWidenAfter is how many growing updates a node takes before its
// bounds are widened.
const intervalsWidenAfter = 3

// analysis resolves variable names to box positions for one graph.
type analysis struct {
	index map[string]int
}

func (an *analysis) varIndex(x *expr.Ident) int {
	if i, ok := an.index[x.Name]; ok {
		return i
	}
	return -1
}

// intervalCandidates computes the boxes of a JSON graph and returns, per
// node, the finite bounds as candidate conjuncts. ok is false for a graph
// the domain does not cover (CHC clauses).
func intervalCandidates(g *Graph) (cands [][]expr.Expr, ok bool) {
	if g.Sys == nil {
		return nil, false
	}
	an := &analysis{index: map[string]int{}}
	for k, v := range g.Vars {
		an.index[v.Name] = k
	}
	thresholds := modelConstants(g)
	boxes := make([]box, len(g.Nodes))
	visits := make([]int, len(g.Nodes))
	var work []int
	for _, s := range g.Starts {
		b := make(box, len(g.Vars))
		for k := range g.Vars {
			b[k] = an.eval(s.Init[k], nil)
		}
		boxes[s.Node] = joinBox(boxes[s.Node], b)
		work = append(work, s.Node)
	}
	out := g.outgoing()
	for steps := 0; len(work) > 0 && steps < 100000; steps++ {
		n := work[0]
		work = work[1:]
		for _, ei := range out[n] {
			e := &g.Edges[ei]
			next, feasible := an.applyCase(boxes[n], e.Case)
			if !feasible {
				continue
			}
			merged := joinBox(boxes[e.To], next)
			if slices.Equal(merged, boxes[e.To]) {
				continue
			}
			visits[e.To]++
			if visits[e.To] > intervalsWidenAfter {
				merged = widen(boxes[e.To], merged, thresholds)
			}
			boxes[e.To] = merged
			if !slices.Contains(work, e.To) {
				work = append(work, e.To)
			}
		}
	}
	cands = make([][]expr.Expr, len(g.Nodes))
	for n, b := range boxes {
		if b == nil {
			cands[n] = []expr.Expr{&expr.BoolLit{Value: false}} // unreachable
			continue
		}
		for k, v := range g.Vars {
			if v.Sort != sts.Int {
				continue
			}
			if b[k].lo != negInf {
				cands[n] = append(cands[n], bin(expr.Ge, ident(v.Name), lit(b[k].lo)))
			}
			if b[k].hi != posInf {
				cands[n] = append(cands[n], bin(expr.Le, ident(v.Name), lit(b[k].hi)))
			}
		}
	}
	return cands, true
}

func (g *Graph) outgoing() [][]int {
	out := make([][]int, len(g.Nodes))
	for i, e := range g.Edges {
		out[e.From] = append(out[e.From], i)
	}
	return out
}

func joinBox(a, b box) box {
	if a == nil {
		return slices.Clone(b)
	}
	out := make(box, len(a))
	for k := range a {
		out[k] = a[k].join(b[k])
	}
	return out
}

// widen moves every bound that grew to the next threshold beyond it, or to
// infinity when there is none.
func widen(old, grown box, thresholds []int64) box {
	out := slices.Clone(grown)
	for k := range out {
		if old == nil {
			continue
		}
		if grown[k].hi > old[k].hi {
			out[k].hi = posInf
			if i, found := slices.BinarySearch(thresholds, grown[k].hi); i < len(thresholds) {
				if found || thresholds[i] > grown[k].hi {
					out[k].hi = thresholds[i]
				}
			}
		}
		if grown[k].lo < old[k].lo {
			out[k].lo = negInf
			i, found := slices.BinarySearch(thresholds, grown[k].lo)
			switch {
			case found:
				out[k].lo = thresholds[i]
			case i > 0:
				out[k].lo = thresholds[i-1]
			}
		}
	}
	return out
}

// modelConstants are the widening thresholds: every integer constant of the
// guards and effects, with its neighbours, and the initial values.
func modelConstants(g *Graph) []int64 {
	var out []int64
	add := func(c int64) { out = append(out, c-1, c, c+1) }
	for _, s := range g.Starts {
		for _, e := range s.Init {
			exprConsts(e, add)
		}
	}
	for _, e := range g.Edges {
		if e.Case.Guard != nil {
			exprConsts(e.Case.Guard, add)
		}
		for _, f := range e.Case.Effects {
			exprConsts(f.Value, add)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// applyCase refines b by the case's guard and applies its effects in
// order; feasible is false when the guard cannot hold in b. Conditions
// read between effects (FCSTM) are not used: leaving them out only
// widens the boxes.
func (an *analysis) applyCase(b box, c *sts.Case) (box, bool) {
	cur := slices.Clone(b)
	if c.Guard != nil && !an.refine(cur, c.Guard, true) {
		return nil, false
	}
	temps := map[string]bool{}
	for _, f := range c.Effects {
		if f.Temp != "" {
			// A case-local temporary is not in the box: a value read
			// from it is unknown (an over-approximation).
			temps[f.Temp] = true
			continue
		}
		if readsAny(f.Value, temps) {
			cur[f.Var] = top()
			continue
		}
		cur[f.Var] = an.eval(f.Value, cur)
	}
	return cur, true
}

// refine narrows b to the values where e has truth value want; it returns
// false when no value is left. Forms it does not understand leave b as is
// (an over-approximation, which is all the analysis needs).
func (an *analysis) refine(b box, e expr.Expr, want bool) bool {
	switch n := e.(type) {
	case *expr.BoolLit:
		return n.Value == want
	case *expr.Unary:
		if n.Op == expr.Not {
			return an.refine(b, n.X, !want)
		}
	case *expr.Binary:
		switch {
		case (n.Op == expr.Land && want) || (n.Op == expr.Lor && !want):
			return an.refine(b, n.X, want) && an.refine(b, n.Y, want)
		case n.Op == expr.Land || n.Op == expr.Lor:
			l, r := slices.Clone(b), slices.Clone(b)
			okL, okR := an.refine(l, n.X, want), an.refine(r, n.Y, want)
			switch {
			case okL && okR:
				copy(b, joinBox(l, r))
			case okL:
				copy(b, l)
			case okR:
				copy(b, r)
			default:
				return false
			}
			return true
		case n.Op.IsComparison():
			return an.refineCmp(b, n, want)
		}
	}
	return true
}

// refineCmp handles `x op c` and `c op x` for an integer variable x.
func (an *analysis) refineCmp(b box, n *expr.Binary, want bool) bool {
	op := n.Op
	x, xok := n.X.(*expr.Ident)
	c, cok := n.Y.(*expr.IntLit)
	if !xok || !cok {
		x, xok = n.Y.(*expr.Ident)
		c, cok = n.X.(*expr.IntLit)
		op = map[expr.Op]expr.Op{expr.Lt: expr.Gt, expr.Le: expr.Ge, expr.Gt: expr.Lt, expr.Ge: expr.Le, expr.Eq: expr.Eq, expr.Ne: expr.Ne}[op]
	}
	if !xok || !cok || c.Big != nil { // a constant past int64: no refinement
		return true
	}
	k := an.varIndex(x)
	if k < 0 {
		return true
	}
	if !want {
		op = map[expr.Op]expr.Op{expr.Lt: expr.Ge, expr.Le: expr.Gt, expr.Gt: expr.Le, expr.Ge: expr.Lt, expr.Eq: expr.Ne, expr.Ne: expr.Eq}[op]
	}
	iv, v := b[k], c.Value
	switch op {
	case expr.Lt:
		iv.hi = min(iv.hi, v-1)
	case expr.Le:
		iv.hi = min(iv.hi, v)
	case expr.Gt:
		iv.lo = max(iv.lo, v+1)
	case expr.Ge:
		iv.lo = max(iv.lo, v)
	case expr.Eq:
		iv = interval{max(iv.lo, v), min(iv.hi, v)}
	case expr.Ne:
		if iv.lo == v && iv.hi == v {
			return false
		}
	}
	b[k] = iv
	return !iv.empty()
}

// eval evaluates an integer expression over the box (nil box: no
// variables). Forms outside + - * and negation give top.
func (an *analysis) eval(e expr.Expr, b box) interval {
	switch n := e.(type) {
	case *expr.IntLit:
		if n.Big != nil {
			return interval{negInf, posInf}
		}
		return interval{n.Value, n.Value}
	case *expr.Ident:
		if b != nil {
			if k := an.varIndex(n); k >= 0 {
				return b[k]
			}
		}
	case *expr.Unary:
		if n.Op == expr.Neg {
			x := an.eval(n.X, b)
			return interval{negate(x.hi), negate(x.lo)}
		}
	case *expr.Binary:
		x, y := an.eval(n.X, b), an.eval(n.Y, b)
		switch n.Op {
		case expr.Add:
			return interval{addSat(x.lo, y.lo), addSat(x.hi, y.hi)}
		case expr.Sub:
			return interval{addSat(x.lo, negate(y.hi)), addSat(x.hi, negate(y.lo))}
		case expr.Mul:
			if x == top() || y == top() {
				return top()
			}
			ps := []int64{mulSat(x.lo, y.lo), mulSat(x.lo, y.hi), mulSat(x.hi, y.lo), mulSat(x.hi, y.hi)}
			return interval{slices.Min(ps), slices.Max(ps)}
		}
	}
	return top()
}

func negate(v int64) int64 {
	switch v {
	case negInf:
		return posInf
	case posInf:
		return negInf
	}
	return -v
}

// addSat adds with the infinities absorbing, and saturates on overflow.
func addSat(a, b int64) int64 {
	switch {
	case a == negInf || b == negInf:
		return negInf
	case a == posInf || b == posInf:
		return posInf
	}
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		if b > 0 {
			return posInf
		}
		return negInf
	}
	return s
}

func mulSat(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	p := a * b
	if a == negInf || a == posInf || b == negInf || b == posInf || p/b != a {
		if (a > 0) == (b > 0) {
			return posInf
		}
		return negInf
	}
	return p
}

func (a *attempt) intervalsLayer(open []int, phi []expr.Expr) (bool, error) {
	t0 := time.Now()
	bounds, ok := intervalCandidates(a.g)
	if !ok {
		a.log("intervals", "skipped", t0, "interval propagation covers JSON models; CHC clauses go to Spacer")
		return false, nil
	}
	c, err := a.checker()
	if err != nil {
		return false, err
	}
	cands := make([][]expr.Expr, len(bounds))
	for n := range bounds {
		cands[n] = append(slices.Clone(bounds[n]), splitAnd(phi[n])...)
	}
	return a.closeWithHoudini("intervals", t0, c, cands, open, phi, fmt.Sprintf("%d bounds from interval propagation with widening", countAll(bounds)))
}

func countAll(xs [][]expr.Expr) int {
	n := 0
	for _, x := range xs {
		n += len(x)
	}
	return n
}

// readsAny reports whether e reads one of the names.
func readsAny(e expr.Expr, names map[string]bool) bool {
	if len(names) == 0 {
		return false
	}
	found := false
	expr.Inspect(e, func(n expr.Expr) bool {
		if id, ok := n.(*expr.Ident); ok && names[id.Name] {
			found = true
		}
		return !found
	})
	return found
}
