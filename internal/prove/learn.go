package prove

import (
	"fmt"
	"sort"
	"time"

	"github.com/stateproof/stateproof/internal/expr"
)

// learnLayer is data-driven invariant inference: random walks from the
// starts sample reachable states per node; the samples propose candidates
// (their affine hull, their parity hull, residues modulo the problem's
// constants, bounds in a set of directions, and the same equalities on
// the part of the samples where a variable takes one value); Houdini keeps
// the inductive subset of those, the mined candidates and those from the
// clauses' own atoms (guards.go), and the result must pass the
// independent re-check.
func (a *attempt) learnLayer(open []int, phi []expr.Expr) (bool, error) {
	t0 := time.Now()
	c, err := a.checker()
	if err != nil {
		return false, err
	}
	fx, err := mineFacts(c)
	if err != nil {
		return false, err
	}
	if c.expired() {
		// Sampling and candidates would only be cut short too.
		a.log("learn", "unknown", t0, errCandidatesTimeout.Error())
		return false, nil
	}
	left := time.Until(a.deadline)
	// keep time for Spacer's second slice (layers in turn) and for the
	// deeper bounded search at the end
	c.deadline = time.Now().Add(left * 3 / 5)
	sampleEnd := time.Now().Add(min(left/5, 1500*time.Millisecond))
	s, err := collectSamples(c, sampleEnd, 1)
	if err != nil {
		return false, err
	}
	cands := make([][]expr.Expr, len(c.g.Nodes))
	mined := mineGuards(c.g, c.expired)
	total, dropped := 0, 0
	for n := range c.g.Nodes {
		cands[n] = append(cands[n], &expr.BoolLit{Value: false})
		cands[n] = append(cands[n], splitAnd(phi[n])...)
		cands[n] = append(cands[n], mined.cands[n]...) // few: kept whatever the cap, like the property
		first := len(cands[n])
		cands[n] = append(cands[n], nodeCandidates(c.g, n, fx, c.expired)...)
		cands[n] = append(cands[n], learnedCandidates(c.g, n, s, fx)...)
		cands[n] = append(cands[n], mined.splits(c.g, n, s)...)
		cands[n] = s.filter(c.g, n, dedupe(cands[n]))
		var d int
		cands[n], d = capCandidates(cands[n], min(first, len(cands[n])), maxCandidatesPerNode)
		dropped += d
		total += len(s.pts[n])
	}
	if c.expired() {
		// Cut short, the candidates are not the layer's: Houdini over
		// them would only be answered unknown.
		a.log("learn", "unknown", t0, errCandidatesTimeout.Error())
		return false, nil
	}
	what := fmt.Sprintf("%d samples, %d candidates", total, countAll(cands))
	if dropped > 0 {
		what += fmt.Sprintf(" (%d more over the cap of %d per node left out)", dropped, maxCandidatesPerNode)
	}
	return a.closeWithHoudini("learn", t0, c, cands, open, phi, what)
}

// maxCandidatesPerNode caps learning's candidates per node: each Houdini
// query conjoins all of a node's candidates, and past several hundred
// they grow slow (the cap is above what the small CHC benchmarks need:
// dillig32 has 395 at one node and needs one of the larger ones). A cap
// only makes the layer fail to prove, never prove wrongly (whatever
// Houdini keeps is re-checked).
const maxCandidatesPerNode = 500

// capCandidates keeps at most limit candidates: the first keep ones (false
// and the property's conjuncts, which are tried whatever the cap), then
// the smallest of the rest, in their order otherwise; it returns how many
// it left out.
func capCandidates(fs []expr.Expr, keep, limit int) ([]expr.Expr, int) {
	if len(fs) <= limit {
		return fs, 0
	}
	rest := append([]expr.Expr(nil), fs[keep:]...)
	sort.SliceStable(rest, func(i, j int) bool { return exprSize(rest[i]) < exprSize(rest[j]) })
	out := append(append([]expr.Expr(nil), fs[:keep]...), rest[:max(limit-keep, 0)]...)
	return out, len(fs) - len(out)
}

// exprSize counts a formula's operators and leaves.
func exprSize(f expr.Expr) int {
	switch f := f.(type) {
	case *expr.Binary:
		return 1 + exprSize(f.X) + exprSize(f.Y)
	case *expr.Unary:
		return 1 + exprSize(f.X)
	case *expr.Conditional:
		return 1 + exprSize(f.Cond) + exprSize(f.Then) + exprSize(f.Else)
	}
	return 1
}

// filter drops the candidates of node n that a sample falsifies (they
// cannot be invariants: every sample is reachable), saving Houdini the
// queries; a candidate the samples cannot evaluate is kept.
func (s *samples) filter(g *Graph, n int, fs []expr.Expr) []expr.Expr {
	vals := make([]expr.Vars, len(s.pts[n]))
	for i, p := range s.pts[n] {
		vals[i] = expr.Vars{}
		for k, j := range s.ints[n] {
			vals[i][g.Nodes[n].Names[j]] = expr.IntVal(p[k])
		}
	}
	var out []expr.Expr
	for _, f := range fs {
		keep := true
		for _, v := range vals {
			if r, err := expr.Eval(f, v); err == nil && r.Type() == expr.Bool && !r.Bool() {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, f)
		}
	}
	return out
}

// dedupe drops candidates printed alike.
func dedupe(fs []expr.Expr) []expr.Expr {
	seen := map[string]bool{}
	var out []expr.Expr
	for _, f := range fs {
		k := expr.Format(f)
		if !seen[k] {
			seen[k] = true
			out = append(out, f)
		}
	}
	return out
}

// learnedCandidates are the sample-derived candidates of node n.
func learnedCandidates(g *Graph, n int, s *samples, fx *facts) []expr.Expr {
	pts := s.pts[n]
	if len(pts) == 0 {
		return nil
	}
	node := &g.Nodes[n]
	d := len(s.ints[n])
	names := make([]string, d)
	for i, j := range s.ints[n] {
		names[i] = node.Names[j]
	}
	var out []expr.Expr
	for _, eq := range affineHull(pts, d) {
		out = append(out, linear(eq[:d], names, expr.Eq, eq[d]))
	}
	for _, eq := range parityHull(pts, d) {
		out = append(out, parity(eq[:d], names, eq[d]))
	}
	out = append(out, residues(pts, names, fx.consts)...)
	out = append(out, bounds(pts, names, directions(d, selfLoopDeltas(fx, n, s.ints[n])), fx.consts)...)
	out = append(out, splitCandidates(pts, names, fx.consts)...)
	return out
}

// selfLoopDeltas translates the fixed increments of node n's self-loops to
// the sample coordinates (nil entries where a variable's increment is not
// fixed).
func selfLoopDeltas(fx *facts, n int, ints []int) [][]*int64 {
	var out [][]*int64
	for _, d := range fx.deltas[n] {
		v := make([]*int64, len(ints))
		for i, j := range ints {
			if x, ok := d[j]; ok {
				v[i] = &x
			}
		}
		out = append(out, v)
	}
	return out
}

// directions proposes the linear forms to bound: every variable, every
// pair with coefficients in {±1, ±2}, each pair's combination that a
// self-loop leaves unchanged, triples with coefficients ±1 (up to six
// variables), and triples with coefficients in {±1, ±2} that some
// self-loop leaves unchanged (the relations between several counters that
// move together).
func directions(d int, deltas [][]*int64) [][]int64 {
	var out [][]int64
	seen := map[string]bool{}
	add := func(v []int64) {
		v = normalise(v)
		if v == nil {
			return
		}
		k := fmt.Sprint(v)
		if !seen[k] {
			seen[k] = true
			out = append(out, v)
		}
	}
	coef := []int64{1, -1, 2, -2}
	for i := range d {
		v := make([]int64, d)
		v[i] = 1
		add(v)
		for j := i + 1; j < d; j++ {
			for _, a := range coef[:3:3] {
				for _, b := range coef {
					if a == 2 && (b == 2 || b == -2) {
						continue
					}
					v := make([]int64, d)
					v[i], v[j] = a, b
					add(v)
				}
			}
			for _, dl := range deltas {
				if dl[i] != nil && dl[j] != nil && (*dl[i] != 0 || *dl[j] != 0) {
					v := make([]int64, d)
					v[i], v[j] = *dl[j], -*dl[i]
					add(v)
				}
			}
		}
	}
	if d < 3 || d > 8 {
		return out
	}
	for i := range d {
		for j := i + 1; j < d; j++ {
			for k := j + 1; k < d; k++ {
				for _, a := range coef[:3:3] {
					if a == -1 {
						continue
					}
					for _, b := range coef {
						for _, c := range coef {
							unit := a == 1 && abs(b) == 1 && abs(c) == 1
							if unit && d <= 6 || preserved(deltas, i, j, k, a, b, c) {
								v := make([]int64, d)
								v[i], v[j], v[k] = a, b, c
								add(v)
							}
						}
					}
				}
			}
		}
	}
	return out
}

func preserved(deltas [][]*int64, i, j, k int, a, b, c int64) bool {
	for _, dl := range deltas {
		if dl[i] == nil || dl[j] == nil || dl[k] == nil {
			continue
		}
		if a**dl[i]+b**dl[j]+c**dl[k] == 0 && (*dl[i] != 0 || *dl[j] != 0 || *dl[k] != 0) {
			return true
		}
	}
	return false
}

// normalise divides by the gcd and makes the first non-zero entry
// positive; nil for the zero vector.
func normalise(v []int64) []int64 {
	var g int64
	for _, x := range v {
		g = gcd(g, abs(x))
	}
	if g == 0 {
		return nil
	}
	out := make([]int64, len(v))
	sign := int64(0)
	for i, x := range v {
		out[i] = x / g
		if sign == 0 && x != 0 {
			sign = 1
			if x < 0 {
				sign = -1
			}
		}
	}
	for i := range out {
		out[i] *= sign
	}
	return out
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// bounds bounds each direction from above and below by its extreme value
// on the samples, and by the nearest constant of the problem beyond it
// (the threshold a guard may impose where the walks did not reach).
func bounds(pts [][]int64, names []string, dirs [][]int64, consts []int64) []expr.Expr {
	sorted := append([]int64(nil), consts...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	var out []expr.Expr
	for _, v := range dirs {
		lo, hi := dot(v, pts[0]), dot(v, pts[0])
		for _, p := range pts[1:] {
			x := dot(v, p)
			lo, hi = min(lo, x), max(hi, x)
		}
		if lo == hi {
			continue // an equality: the affine hull has it
		}
		out = append(out, linear(v, names, expr.Le, hi), linear(v, names, expr.Ge, lo))
		if i := sort.Search(len(sorted), func(i int) bool { return sorted[i] > hi }); i < len(sorted) {
			out = append(out, linear(v, names, expr.Le, sorted[i]))
		}
		if i := sort.Search(len(sorted), func(i int) bool { return sorted[i] >= lo }); i > 0 {
			out = append(out, linear(v, names, expr.Ge, sorted[i-1]))
		}
	}
	return out
}

func dot(v, p []int64) int64 {
	var s int64
	for i := range v {
		s += v[i] * p[i]
	}
	return s
}

// residues proposes x mod m = r for the problem's constants m ≥ 3 when
// every sample agrees (parity is the parity hull's).
func residues(pts [][]int64, names []string, consts []int64) []expr.Expr {
	var out []expr.Expr
	for _, m := range consts {
		if m < 3 || m > 64 {
			continue
		}
		for i, nm := range names {
			r := mod(pts[0][i], m)
			same := true
			for _, p := range pts[1:] {
				same = same && mod(p[i], m) == r
			}
			if same {
				out = append(out, bin(expr.Eq, bin(expr.Mod, ident(nm), lit(m)), lit(r)))
			}
		}
	}
	return out
}

func mod(x, m int64) int64 { return ((x % m) + m) % m }

// splitCandidates are phase-split equalities: for a variable x and a value
// v it takes on some samples (a constant of the problem, or one of at most
// three values), the affine hull of the samples with x = v and of those
// with x ≠ v, each guarded: x == v ⇒ eq, x != v ⇒ eq.
func splitCandidates(pts [][]int64, names []string, consts []int64) []expr.Expr {
	d := len(names)
	if len(pts) < 4 {
		return nil
	}
	whole := hullSet(pts, d)
	isConst := map[int64]bool{}
	for _, c := range consts {
		isConst[c] = true
	}
	var out []expr.Expr
	for i, nm := range names {
		vals := map[int64]int{}
		for _, p := range pts {
			vals[p[i]]++
		}
		if len(vals) < 2 {
			continue
		}
		var keys []int64
		for v := range vals {
			if len(vals) <= 3 || isConst[v] {
				keys = append(keys, v)
			}
		}
		sort.Slice(keys, func(a, b int) bool { return keys[a] < keys[b] })
		for _, v := range keys {
			out = append(out, guardedHulls(pts, names,
				func(p []int64) bool { return p[i] == v },
				bin(expr.Eq, ident(nm), lit(v)), bin(expr.Ne, ident(nm), lit(v)),
				func(eq []int64) bool { return !whole[fmt.Sprint(eq)] && (eq[i] == 0 || nonzeros(eq[:d]) != 1) })...)
		}
	}
	return out
}

func nonzeros(v []int64) int {
	n := 0
	for _, x := range v {
		if x != 0 {
			n++
		}
	}
	return n
}

// linear builds Σ v_i·names_i op b.
func linear(v []int64, names []string, op expr.Op, b int64) expr.Expr {
	return bin(op, sumExpr(v, names), intLit(b))
}

// sumExpr builds Σ v_i·names_i (v not all zero).
func sumExpr(v []int64, names []string) expr.Expr {
	var sum expr.Expr
	for i, c := range v {
		if c == 0 {
			continue
		}
		var term expr.Expr = ident(names[i])
		if abs(c) != 1 {
			term = bin(expr.Mul, lit(abs(c)), term)
		}
		switch {
		case sum == nil && c < 0:
			sum = &expr.Unary{Op: expr.Neg, X: term}
		case sum == nil:
			sum = term
		case c < 0:
			sum = bin(expr.Sub, sum, term)
		default:
			sum = bin(expr.Add, sum, term)
		}
	}
	return sum
}

func intLit(v int64) expr.Expr {
	if v < 0 {
		return &expr.Unary{Op: expr.Neg, X: lit(-v)}
	}
	return lit(v)
}

// parity builds (Σ_{i∈S} names_i) mod 2 == c.
func parity(v []int64, names []string, c int64) expr.Expr {
	return bin(expr.Eq, bin(expr.Mod, sumExpr(v, names), lit(2)), lit(c))
}
