package prove

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// Guard mining: the bounds an invariant needs are often the clauses' own
// atoms. A loop's guard x0 < 2·L, seen after the step x1 = x0 + 1, is the
// loop head's bound x ≤ 2·L; the guard of the edge that enters a node is a
// fact there; a sample walk rarely reaches such a bound and the directions
// that learning tries miss coefficients such as 5 in x ≤ 5·L. This file
// reads the linear atoms of every CHC clause (its conjuncts and the
// conditions of its if-then-else terms), expresses them over the
// arguments of the predicates they constrain, and proposes each one with
// its ±1 neighbours in both directions; it also splits a node's samples
// at each atom for equalities that hold on one side only (an update that
// switches at a guard). Houdini keeps what is inductive; the result is
// re-checked like every other candidate. Every candidate is built as an
// expression over the nodes' argument names, never from clause text.

// linAtom is Σ coef_i·arg_i + c ≤ 0 (or = 0 when eq) over the integer
// arguments of one node (coef has one entry per argument), or over the
// de Bruijn variables of one clause while it is being read.
type linAtom struct {
	coef []int64
	c    int64
	eq   bool
}

// maxGuardCandidates caps the mined candidates per node: they go before
// the cap of learning's candidates, so they must stay few.
const maxGuardCandidates = 120

// maxGuardCoef bounds the coefficients and constants read: beyond it an
// atom is left out rather than risk overflow in the arithmetic below.
const maxGuardCoef = 1 << 40

// guardMining is what the clauses give learning, per node: candidates, and
// the atoms themselves (an inequality Σ a·x + c ≤ 0 as coefficients and
// constant) to split the samples at.
type guardMining struct {
	cands [][]expr.Expr
	atoms [][]linAtom
}

// mineGuards mines the clauses of a CHC graph (nothing for a model's
// graph): the atoms, their propagation along the edges between distinct
// nodes, the bounds around them, and the equalities between two integer
// arguments.
//
// stop is asked between clauses and rows of candidates; once it says so
// mining ends with what it has (the caller looks at its deadline).
func mineGuards(g *Graph, stop func() bool) *guardMining {
	m := &guardMining{cands: make([][]expr.Expr, len(g.Nodes)), atoms: make([][]linAtom, len(g.Nodes))}
	if g.Ctx == nil {
		return m
	}
	atoms := m.atoms
	seen := make([]map[string]bool, len(g.Nodes))
	add := func(n int, a linAtom) bool {
		if n < 0 || n == g.ErrorNode || len(atoms[n]) >= maxGuardCandidates/6 {
			return false
		}
		a, ok := normaliseAtom(a)
		if !ok {
			return false
		}
		if seen[n] == nil {
			seen[n] = map[string]bool{}
		}
		k := fmt.Sprint(a)
		if seen[n][k] {
			return false
		}
		seen[n][k] = true
		atoms[n] = append(atoms[n], a)
		return true
	}
	read := map[*Clause]clauseAtoms{} // each clause is read once
	reading := func(cl *Clause) clauseAtoms {
		ca, ok := read[cl]
		if !ok {
			ca = readClause(cl)
			read[cl] = ca
		}
		return ca
	}
	for _, s := range g.Starts {
		if s.Clause != nil && !stop() {
			mineClause(s.Clause, reading(s.Clause), -1, s.Node, add)
		}
	}
	for _, e := range g.Edges {
		if e.Clause != nil && !stop() {
			mineClause(e.Clause, reading(e.Clause), e.From, e.To, add)
		}
	}
	if stop() {
		return m
	}
	propagateAtoms(g, atoms, reading, add)
	for n := range g.Nodes {
		if stop() {
			break
		}
		m.cands[n] = atomCandidates(&g.Nodes[n], atoms[n], intArgs(g, n))
	}
	return m
}

// maxGuardSplits caps the atoms the samples of one node are split at.
const maxGuardSplits = 12

// splits are phase-split equalities at the clauses' own thresholds: for
// an inequality atom A of node n, the affine hulls of the samples where A
// holds and where it does not, each guarded (A ⇒ eq, ¬A ⇒ eq) when the
// equality does not hold on all samples. A loop whose update switches at
// a guard (y stays until x reaches 2·n, then follows x) needs them.
func (m *guardMining) splits(g *Graph, n int, s *samples) []expr.Expr {
	pts, ints := s.pts[n], s.ints[n]
	if len(pts) < 4 || len(m.atoms[n]) == 0 {
		return nil // (no atom: nothing to split at, so no hull to compute)
	}
	d := len(ints)
	names := make([]string, d)
	for i, j := range ints {
		names[i] = g.Nodes[n].Names[j]
	}
	whole := hullSet(pts, d)
	var out []expr.Expr
	tried := 0
	for _, a := range m.atoms[n] {
		v, ok := project(a.coef, ints)
		if a.eq || !ok || tried >= maxGuardSplits {
			continue
		}
		tried++
		cond := linear(v, names, expr.Le, -a.c)
		out = append(out, guardedHulls(pts, names,
			func(p []int64) bool { return dot(v, p)+a.c <= 0 },
			cond, &expr.Unary{Op: expr.Not, X: cond},
			func(eq []int64) bool { return !whole[fmt.Sprint(eq)] })...)
	}
	return out
}

// project restricts coefficients over a node's arguments to the sample
// coordinates ints (false when a left-out argument has one).
func project(coef []int64, ints []int) ([]int64, bool) {
	v := make([]int64, len(ints))
	left := nonzeros(coef)
	for i, j := range ints {
		v[i] = coef[j]
		if v[i] != 0 {
			left--
		}
	}
	return v, left == 0
}

// intArgs lists the positions of node n's integer arguments.
func intArgs(g *Graph, n int) []int {
	var out []int
	for j, k := range g.Nodes[n].Vars {
		if g.Vars[k].Sort == sts.Int {
			out = append(out, j)
		}
	}
	return out
}

// clauseRoles maps a clause's de Bruijn variables to the argument positions
// they fill in its body predicate (pre) and its head (post), and records
// the simple updates post = pre + c of the constraint's conjuncts as
// shift[pre] = (post, c).
type clauseRoles struct {
	pre, post map[int]int
	shift     map[int][2]int64
	vars      int
}

// rolesOf finds the roles of a clause's variables; facts are the atoms of
// its constraint's top-level conjuncts (those that always hold).
func rolesOf(cl *Clause, facts []linAtom) clauseRoles {
	r := clauseRoles{pre: argPositions(cl.Pre), post: argPositions(cl.Post), shift: map[int][2]int64{}, vars: len(cl.Names)}
	for _, a := range facts {
		if !a.eq {
			continue
		}
		var vs []int
		for i, x := range a.coef {
			if x != 0 {
				vs = append(vs, i)
			}
		}
		if len(vs) != 2 || a.coef[vs[0]] != -a.coef[vs[1]] || abs(a.coef[vs[0]]) != 1 {
			continue
		}
		for _, p := range [][2]int{{vs[0], vs[1]}, {vs[1], vs[0]}} {
			q, v := p[0], p[1] // post variable q, pre variable v
			_, qPost := r.post[q]
			_, qPre := r.pre[q]
			_, vPre := r.pre[v]
			if qPost && !qPre && vPre {
				// coef_q·q + coef_v·v + c = 0 with coef_v = −coef_q: q = v − c/coef_q
				r.shift[v] = [2]int64{int64(q), -a.c * a.coef[q]}
			}
		}
	}
	return r
}

// argPositions maps the de Bruijn index of every argument that is a bare
// variable to its position (the first one when a variable repeats).
func argPositions(args []*z3.Term) map[int]int {
	out := map[int]int{}
	for j, t := range args {
		if t.Kind() != z3.KindVar {
			continue
		}
		if i, err := t.VarIndex(); err == nil {
			if _, dup := out[i]; !dup {
				out[i] = j
			}
		}
	}
	return out
}

// mineClause gives each atom of a clause (ca, as read) to the node whose
// arguments it can be expressed over: the body predicate's (from) when
// all its variables are the predicate's arguments, the head's (to) when
// they are the head's arguments or variables the clause shifts onto them.
func mineClause(cl *Clause, ca clauseAtoms, from, to int, add func(int, linAtom) bool) {
	r := ca.roles
	for _, a := range ca.all {
		if from >= 0 {
			if b, ok := r.over(a, r.pre, nil, len(cl.Pre)); ok {
				add(from, b)
			}
		}
		if cl.Post != nil {
			if b, ok := r.over(a, r.post, r.shift, len(cl.Post)); ok {
				add(to, b)
			}
		}
	}
}

// over rewrites an atom over the clause's variables into one over the
// argument positions pos (n of them), substituting a variable outside pos
// by its shifted image; false when some variable has neither.
func (r clauseRoles) over(a linAtom, pos map[int]int, shift map[int][2]int64, n int) (linAtom, bool) {
	out := linAtom{coef: make([]int64, n), c: a.c, eq: a.eq}
	for i, x := range a.coef {
		if x == 0 {
			continue
		}
		if j, ok := pos[i]; ok {
			out.coef[j] += x
			continue
		}
		s, ok := shift[i]
		if !ok {
			return linAtom{}, false
		}
		j, ok := pos[int(s[0])]
		if !ok {
			return linAtom{}, false
		}
		// i = q − s[1]
		if s[1] != 0 && abs(x) > maxGuardCoef/abs(s[1]) {
			return linAtom{}, false
		}
		out.coef[j] += x
		out.c -= x * s[1]
	}
	return out, bounded(out)
}

// propagateAtoms carries each node's atoms along the edges between
// distinct nodes whose clause passes the arguments on (unchanged or
// shifted), for as many rounds as there are nodes: a bound established
// before a chain of loops often still holds after it. Self-loops are left
// out (a shift there would produce an endless ladder of bounds).
func propagateAtoms(g *Graph, atoms [][]linAtom, read func(*Clause) clauseAtoms, add func(int, linAtom) bool) {
	type link struct {
		from, to int
		r        clauseRoles
		byPos    map[int]int // argument position of from → de Bruijn index
		post     int
	}
	var links []link
	for _, e := range g.Edges {
		cl := e.Clause
		if cl == nil || e.From == e.To || e.To == g.ErrorNode || cl.Post == nil {
			continue
		}
		l := link{from: e.From, to: e.To, r: read(cl).roles, byPos: map[int]int{}, post: len(cl.Post)}
		for i, j := range l.r.pre {
			l.byPos[j] = i
		}
		links = append(links, l)
	}
	for range g.Nodes {
		changed := false
		for _, e := range links {
			r, byPos := e.r, e.byPos
			for _, a := range atoms[e.from] { // e.from != e.to: add leaves it alone
				v, ok := atOver(a, byPos, r.vars)
				if !ok {
					continue
				}
				if b, ok := r.over(v, r.post, r.shift, e.post); ok && add(e.to, b) {
					changed = true
				}
			}
		}
		if !changed {
			return
		}
	}
}

// atOver rewrites an atom over argument positions into one over the
// clause's variables (byPos: position → de Bruijn index).
func atOver(a linAtom, byPos map[int]int, vars int) (linAtom, bool) {
	out := linAtom{coef: make([]int64, vars), c: a.c, eq: a.eq}
	for j, x := range a.coef {
		if x == 0 {
			continue
		}
		i, ok := byPos[j]
		if !ok {
			return linAtom{}, false
		}
		out.coef[i] += x
	}
	return out, true
}

// atomCandidates turns node atoms into candidates over the node's names.
// Each atom is read as a bound on a linear form with a positive leading
// coefficient, L ≤ k or L ≥ k (or L = k); the form is then bounded both
// ways at k − 1, k and k + 1: the atom, its weakening, and its negation
// (an exit guard negated is a fact of the loop it leaves). An equality
// also gives itself. Then x_i = x_j for every two integer arguments.
func atomCandidates(node *Node, atoms []linAtom, ints []int) []expr.Expr {
	type form struct {
		coef []int64
		vals []int64
		eqs  []int64
	}
	var forms []*form
	byKey := map[string]*form{}
	for _, a := range atoms {
		coef, k := a.coef, -a.c
		if !a.eq && leading(coef) < 0 {
			neg, _ := scaled(linAtom{coef: coef}, -1)
			coef, k = neg.coef, a.c
		}
		key := fmt.Sprint(coef)
		f := byKey[key]
		if f == nil {
			f = &form{coef: coef}
			byKey[key] = f
			forms = append(forms, f)
		}
		if a.eq {
			f.eqs = appendNew(f.eqs, k)
		}
		for _, d := range []int64{0, -1, 1} {
			f.vals = appendNew(f.vals, k+d)
		}
	}
	var out []expr.Expr
	for _, f := range forms {
		for _, k := range f.eqs {
			out = append(out, linear(f.coef, node.Names, expr.Eq, k))
		}
		for _, k := range f.vals {
			out = append(out, linear(f.coef, node.Names, expr.Le, k), linear(f.coef, node.Names, expr.Ge, k))
		}
	}
	out = dedupe(out)
	// The pairs are made only up to the cap: a node of n arguments has
	// n(n−1)/2 of them, and a 2,000-ary predicate's two million
	// candidates, each a sum over every argument, took minutes and
	// gigabytes to be cut to the cap (issue 38 item 8.14).
	seen := map[string]bool{}
	for _, f := range out {
		seen[expr.Format(f)] = true
	}
	for x, i := range ints {
		for _, j := range ints[x+1:] {
			if len(out) >= maxGuardCandidates {
				return out[:maxGuardCandidates]
			}
			v := make([]int64, len(node.Names))
			v[i], v[j] = 1, -1
			f := linear(v, node.Names, expr.Eq, 0)
			if k := expr.Format(f); !seen[k] {
				seen[k] = true
				out = append(out, f)
			}
		}
	}
	return out[:min(len(out), maxGuardCandidates)]
}

// leading is the first non-zero coefficient (0 for none).
func leading(v []int64) int64 {
	for _, x := range v {
		if x != 0 {
			return x
		}
	}
	return 0
}

func appendNew(xs []int64, x int64) []int64 {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}

// clauseAtoms are the linear integer atoms of a clause's constraint over
// its de Bruijn variables, normalised: facts are its top-level conjuncts,
// all adds every comparison inside (under negations, disjunctions and the
// conditions of if-then-else terms).
type clauseAtoms struct {
	facts, all []linAtom
	roles      clauseRoles // what the facts say of the variables
}

func readClause(cl *Clause) clauseAtoms {
	var ca clauseAtoms
	collectAtoms(cl.Constraint, len(cl.Names), true, &ca, 0)
	ca.roles = rolesOf(cl, ca.facts)
	return ca
}

// collectAtoms walks t (top: a top-level conjunct) for comparisons of
// integer linear terms.
func collectAtoms(t *z3.Term, n int, top bool, into *clauseAtoms, depth int) {
	if t == nil || depth > 64 || t.Kind() != z3.KindApp {
		return
	}
	if a, ok := comparisonAtom(t, n); ok {
		if a, ok = normaliseAtom(a); ok {
			into.all = append(into.all, a)
			if top {
				into.facts = append(into.facts, a)
			}
		}
	}
	args, err := t.Args()
	if err != nil {
		return
	}
	for _, x := range args {
		collectAtoms(x, n, top && t.DeclKind() == z3.DeclAnd, into, depth+1)
	}
}

// comparisonAtom reads l op r over integers as d ≤ 0 or d = 0 with d
// linear: l − r for ≤, l − r + 1 for < (integers), and the mirror images.
func comparisonAtom(t *z3.Term, n int) (linAtom, bool) {
	k := t.DeclKind()
	switch k {
	case z3.DeclLe, z3.DeclLt, z3.DeclGe, z3.DeclGt, z3.DeclEq:
	default:
		return linAtom{}, false
	}
	if t.NumArgs() != 2 {
		return linAtom{}, false
	}
	l, err := t.Arg(0)
	if err != nil || l.SortKind() != z3.SortInt {
		return linAtom{}, false
	}
	r, err := t.Arg(1)
	if err != nil {
		return linAtom{}, false
	}
	a, ok := linearOf(l, n, 0)
	b, ok2 := linearOf(r, n, 0)
	if !ok || !ok2 {
		return linAtom{}, false
	}
	d := addLin(a, b, -1) // l − r
	switch k {
	case z3.DeclEq:
		d.eq = true
	case z3.DeclLt:
		d.c++
	case z3.DeclGe:
		d, _ = scaled(d, -1)
	case z3.DeclGt:
		d, _ = scaled(d, -1)
		d.c++
	}
	return d, bounded(d)
}

// addLin returns a + m·b (m = ±1).
func addLin(a, b linAtom, m int64) linAtom {
	out := linAtom{coef: make([]int64, len(a.coef)), c: a.c + m*b.c}
	for i := range out.coef {
		out.coef[i] = a.coef[i] + m*b.coef[i]
	}
	return out
}

func bounded(a linAtom) bool {
	if abs(a.c) > maxGuardCoef {
		return false
	}
	for _, x := range a.coef {
		if abs(x) > maxGuardCoef {
			return false
		}
	}
	return true
}

// linearOf reads an integer term over n de Bruijn variables as Σ coef·v +
// c: variables, numerals, +, −, unary minus, and products with at most one
// non-constant factor.
func linearOf(t *z3.Term, n, depth int) (linAtom, bool) {
	zero := linAtom{coef: make([]int64, n)}
	if depth > 32 || t.SortKind() != z3.SortInt {
		return zero, false
	}
	switch t.Kind() {
	case z3.KindVar:
		i, err := t.VarIndex()
		if err != nil || i >= n {
			return zero, false
		}
		zero.coef[i] = 1
		return zero, true
	case z3.KindNumeral:
		v, err := t.Int64()
		zero.c = v
		return zero, err == nil && abs(v) <= maxGuardCoef
	case z3.KindApp:
	default:
		return zero, false
	}
	args, err := t.Args()
	if err != nil || len(args) == 0 {
		return zero, false
	}
	xs := make([]linAtom, len(args))
	for i, a := range args {
		var ok bool
		if xs[i], ok = linearOf(a, n, depth+1); !ok {
			return zero, false
		}
	}
	switch t.DeclKind() {
	case z3.DeclAdd:
		for _, x := range xs {
			zero = addLin(zero, x, 1)
		}
		return zero, bounded(zero)
	case z3.DeclSub:
		out := xs[0]
		for _, x := range xs[1:] {
			out = addLin(out, x, -1)
		}
		return out, bounded(out)
	case z3.DeclNeg:
		return scaled(xs[0], -1)
	case z3.DeclMul:
		return productOf(xs)
	}
	return zero, false
}

// productOf multiplies linear terms of which at most one is not a constant.
func productOf(xs []linAtom) (linAtom, bool) {
	var scale int64 = 1
	var term *linAtom
	for i := range xs {
		if nonzeros(xs[i].coef) == 0 {
			if c := xs[i].c; c != 0 && abs(scale) > maxGuardCoef/abs(c) {
				return linAtom{}, false
			}
			scale *= xs[i].c
			continue
		}
		if term != nil {
			return linAtom{}, false // non-linear
		}
		term = &xs[i]
	}
	if term == nil {
		return linAtom{coef: make([]int64, len(xs[0].coef)), c: scale}, true
	}
	return scaled(*term, scale)
}

// scaled multiplies a linear term by m, or fails past maxGuardCoef.
func scaled(a linAtom, m int64) (linAtom, bool) {
	out := linAtom{coef: make([]int64, len(a.coef)), eq: a.eq}
	for i, x := range a.coef {
		if x != 0 && abs(m) > maxGuardCoef/abs(x) {
			return linAtom{}, false
		}
		out.coef[i] = x * m
	}
	if a.c != 0 && abs(m) > maxGuardCoef/abs(a.c) {
		return linAtom{}, false
	}
	out.c = a.c * m
	return out, true
}

// normaliseAtom divides an atom by the gcd of its coefficients, rounding
// the constant of an inequality up (Σ g·a·x + c ≤ 0 over integers is
// Σ a·x + ⌈c/g⌉ ≤ 0) and dropping an equality g does not divide (it has
// no integer solution); an equality's first coefficient is made positive.
// An atom without variables is dropped.
func normaliseAtom(a linAtom) (linAtom, bool) {
	var g int64
	for _, x := range a.coef {
		g = gcd(g, abs(x))
	}
	if g == 0 {
		return linAtom{}, false
	}
	out := linAtom{coef: make([]int64, len(a.coef)), eq: a.eq}
	for i, x := range a.coef {
		out.coef[i] = x / g
	}
	if a.eq {
		if a.c%g != 0 {
			return linAtom{}, false
		}
		out.c = a.c / g
		for _, x := range out.coef {
			if x != 0 {
				if x < 0 {
					out, _ = scaled(out, -1)
				}
				break
			}
		}
		return out, true
	}
	out.c = ceilDiv(a.c, g)
	return out, true
}

// ceilDiv is ⌈a/b⌉ for b > 0.
func ceilDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a > 0 {
		q++
	}
	return q
}
