package prove

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/stateproof/stateproof/internal/sts"
	"github.com/stateproof/stateproof/internal/z3"
)

// samples are reachable states found by random walks from the starts, per
// node: the values of the node's Int variables (in the order of ints[n],
// indexes into the node's Vars). They seed candidate invariants; every
// candidate is still checked by Houdini and the triple rule, so a sample
// that is wrong can only cost a candidate, never soundness.
type samples struct {
	ints   [][]int
	pts    [][][]int64
	seen   []map[string]bool
	visits []int // distinct states seen per node (pts is a uniform subset)
	rng    *rand.Rand
}

// sampling limits.
const (
	samplesPerNode = 160
	maxSeen        = 20000 // distinct states remembered per node
	startsPerStart = 6
	maxWalks       = 48
)

// walkLengths cycle: short walks leave loops at many different points
// (diverse entries into later nodes), long ones get past loops that run
// for a thousand steps.
var walkLengths = [...]int{40, 300, 2500}

// walker runs the walks: each step asks the solver for a post-state of one
// edge from a concrete pre-state (a second, different one too while the
// edge has shown itself non-deterministic), so every state it records is
// reachable.
type walker struct {
	c        *checker
	s        *samples
	rng      *rand.Rand
	out      [][]int // per node: outgoing edges (not into the error node)
	det      []int   // per edge: times a second post-state was looked for in vain
	deadline time.Time
}

func newSamples(g *Graph, rng *rand.Rand) *samples {
	s := &samples{ints: make([][]int, len(g.Nodes)), pts: make([][][]int64, len(g.Nodes)), seen: make([]map[string]bool, len(g.Nodes)), visits: make([]int, len(g.Nodes)), rng: rng}
	for n, node := range g.Nodes {
		for j, k := range node.Vars {
			if g.Vars[k].Sort == sts.Int {
				s.ints[n] = append(s.ints[n], j)
			}
		}
		s.seen[n] = map[string]bool{}
	}
	return s
}

// add records a state (all of the node's variables, Bools as 0/1),
// keeping a uniform random subset of the distinct states seen
// (reservoir sampling).
func (s *samples) add(n int, st []int64) {
	p := make([]int64, len(s.ints[n]))
	for i, j := range s.ints[n] {
		p[i] = st[j]
	}
	key := fmt.Sprint(p)
	if s.seen[n][key] || len(s.seen[n]) >= maxSeen {
		return
	}
	s.seen[n][key] = true
	s.visits[n]++
	if len(s.pts[n]) < samplesPerNode {
		s.pts[n] = append(s.pts[n], p)
	} else if j := s.rng.IntN(s.visits[n]); j < samplesPerNode {
		s.pts[n][j] = p
	}
}

// collectSamples walks the graph from its starts until the deadline.
func collectSamples(c *checker, deadline time.Time, seed uint64) (*samples, error) {
	g := c.g
	rng := rand.New(rand.NewPCG(seed, 7))
	w := &walker{c: c, s: newSamples(g, rng), rng: rng, out: make([][]int, len(g.Nodes)), det: make([]int, len(g.Edges)), deadline: deadline}
	for ei, e := range g.Edges {
		if e.To != g.ErrorNode {
			w.out[e.From] = append(w.out[e.From], ei)
		}
	}
	type state struct {
		node int
		vals []int64
	}
	var pool []state
	for si, st := range g.Starts {
		if st.Node == g.ErrorNode {
			continue
		}
		var prev [][]int64
		for range startsPerStart {
			v, ok, err := w.startState(si, prev)
			if err != nil || !ok {
				if err != nil {
					return nil, err
				}
				break
			}
			prev = append(prev, v)
			pool = append(pool, state{st.Node, v})
			w.s.add(st.Node, v)
		}
	}
	if len(pool) == 0 {
		return w.s, nil
	}
	for si, st := range g.Starts {
		more, err := w.spreadStarts(si)
		if err != nil {
			return nil, err
		}
		for _, v := range more {
			pool = append(pool, state{st.Node, v})
			w.s.add(st.Node, v)
		}
	}
	idle := 0
	for i := 0; time.Now().Before(deadline) && i < maxWalks && idle < 3 && !c.stop.isStopped(); i++ {
		st := pool[i%len(pool)]
		before := w.s.count()
		if err := w.walk(st.node, st.vals, walkLengths[i%len(walkLengths)]); err != nil {
			return nil, err
		}
		if w.s.count() == before {
			idle++
		} else {
			idle = 0
		}
	}
	return w.s, nil
}

// walk follows random enabled edges from a state, recording what it
// reaches, preferring edges into nodes with fewer samples.
func (w *walker) walk(n int, vals []int64, length int) error {
	for step := 0; step < length && time.Now().Before(w.deadline) && !w.c.stop.isStopped(); step++ {
		edges := append([]int(nil), w.out[n]...)
		w.rng.Shuffle(len(edges), func(i, j int) { edges[i], edges[j] = edges[j], edges[i] })
		moved := false
		for _, ei := range edges {
			to := w.c.g.Edges[ei].To
			if post, enabled, known := w.fastPost(ei, vals); known {
				if !enabled {
					continue
				}
				w.s.add(to, post)
				n, vals, moved = to, post, true
				break
			}
			post, ok, err := w.post(ei, vals, nil)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			w.s.add(to, post)
			if w.det[ei] < 8 || w.rng.IntN(8) == 0 {
				other, ok2, err := w.post(ei, vals, post)
				if err != nil {
					return err
				}
				if ok2 {
					w.s.add(to, other)
					if w.rng.IntN(2) == 0 {
						post = other
					}
				} else {
					w.det[ei]++
				}
			}
			n, vals, moved = to, post, true
			break
		}
		if !moved {
			return nil
		}
	}
	return nil
}

// startState finds a state of start si different from prev, near a random
// point when it can (so the starts are spread out).
func (w *walker) startState(si int, prev [][]int64) ([]int64, bool, error) {
	e := w.c.enc
	post, err := e.state("1")
	if err != nil {
		return nil, false, err
	}
	rel, err := e.start(si, post)
	if err != nil {
		return nil, false, err
	}
	n := w.c.g.Starts[si].Node
	parts := []*z3.Term{rel}
	for _, p := range prev {
		parts = append(parts, w.differs(n, post, p))
	}
	var box []*z3.Term
	for _, j := range w.s.ints[n] {
		t := post[w.c.g.Nodes[n].Vars[j]]
		mid := int64(w.rng.IntN(21) - 10)
		lo, err := e.ctx.Le(e.b.Int(mid-4), t)
		if err != nil {
			return nil, false, err
		}
		hi, err := e.ctx.Le(t, e.b.Int(mid+4))
		if err != nil {
			return nil, false, err
		}
		box = append(box, lo, hi)
	}
	for _, try := range [][]*z3.Term{append(append([]*z3.Term(nil), parts...), box...), parts} {
		v, ok, err := w.model(n, e.b.And(try...), post)
		if err != nil || ok {
			return v, ok, err
		}
	}
	return nil, false, nil
}

// post finds a post-state of edge ei from the concrete pre-state vals,
// different from not when not is given.
func (w *walker) post(ei int, vals, not []int64) ([]int64, bool, error) {
	e := w.c.enc
	pre, post, err := e.prePost()
	if err != nil {
		return nil, false, err
	}
	rel, err := e.edge(ei, pre, post)
	if err != nil {
		return nil, false, err
	}
	ed := &w.c.g.Edges[ei]
	parts := []*z3.Term{rel}
	for j, k := range w.c.g.Nodes[ed.From].Vars {
		switch w.c.g.Vars[k].Sort {
		case sts.Int:
			parts = append(parts, e.b.Eq(pre[k], e.b.Int(vals[j])))
		case sts.Bool:
			parts = append(parts, e.b.Eq(pre[k], e.b.Bool(vals[j] != 0)))
		}
	}
	if not != nil {
		parts = append(parts, w.differs(ed.To, post, not))
	}
	return w.model(ed.To, e.b.And(parts...), post)
}

// differs says that state st of node n is not p.
func (w *walker) differs(n int, st []*z3.Term, p []int64) *z3.Term {
	e := w.c.enc
	var ors []*z3.Term
	for j, k := range w.c.g.Nodes[n].Vars {
		if w.c.g.Vars[k].Sort == sts.Int {
			ors = append(ors, e.b.Not(e.b.Eq(st[k], e.b.Int(p[j]))))
		}
	}
	if len(ors) == 0 {
		f, _ := e.ctx.False()
		return f
	}
	return e.b.Or(ors...)
}

// model solves f and reads node n's variables of state st (Bools as 0/1);
// ok is false when f is unsatisfiable, undecided, or a value is too large.
func (w *walker) model(n int, f *z3.Term, st []*z3.Term) ([]int64, bool, error) {
	a, err := w.c.solve(f, nil, nil)
	if err != nil || a.Result != z3.Sat {
		return nil, false, err
	}
	node := &w.c.g.Nodes[n]
	out := make([]int64, len(node.Vars))
	for j, k := range node.Vars {
		v, err := a.Model.Eval(st[k], true)
		if err != nil {
			return nil, false, err
		}
		switch w.c.g.Vars[k].Sort {
		case sts.Int:
			x, err := v.Int64()
			if err != nil || x > 1<<40 || x < -(1<<40) {
				return nil, false, nil
			}
			out[j] = x
		case sts.Bool:
			if b, err := v.Bool(); err == nil && b {
				out[j] = 1
			}
		}
	}
	return out, true, nil
}

func (s *samples) count() int {
	n := 0
	for _, v := range s.visits {
		n += v
	}
	return n
}

func (s *samples) String() string {
	var b strings.Builder
	for n := range s.pts {
		fmt.Fprintf(&b, "node %d: %d samples\n", n, len(s.pts[n]))
	}
	return b.String()
}

// fastPost computes the post-state of a CHC edge from a concrete
// pre-state without a solver call when the clause determines it: the
// body's arguments are distinct bound variables, which become the
// pre-state's numerals; then the constraint simplifies either to false
// (the edge is disabled), or, once the equalities `local = numeral` it
// contains are substituted as well, to true with numeral head arguments.
// known is false when the clause is not of that shape (the solver
// decides then).
func (w *walker) fastPost(ei int, vals []int64) (post []int64, enabled, known bool) {
	ed := &w.c.g.Edges[ei]
	cl := ed.Clause
	if cl == nil {
		return nil, false, false
	}
	ctx := w.c.enc.ctx
	n := len(cl.Sorts)
	sub := make([]*z3.Term, n)
	for j, a := range cl.Pre {
		if a.Kind() != z3.KindVar {
			return nil, false, false
		}
		i, err := a.VarIndex()
		if err != nil || i >= n || sub[i] != nil || w.c.g.Vars[w.c.g.Nodes[ed.From].Vars[j]].Sort != sts.Int {
			return nil, false, false
		}
		if sub[i], err = ctx.IntVal(vals[j]); err != nil {
			return nil, false, false
		}
	}
	locals := map[string]int{}
	for i := range sub {
		if sub[i] != nil {
			continue
		}
		name := fmt.Sprintf("walk!%d", i)
		var err error
		if sub[i], err = ctx.IntConst(name); err != nil || cl.Sorts[n-1-i] != sts.Int {
			return nil, false, false
		}
		locals[name] = i
	}
	cons, err := cl.Constraint.SubstituteVars(sub...)
	if err != nil {
		return nil, false, false
	}
	if cons, err = cons.Simplify(); err != nil {
		return nil, false, false
	}
	if cons.IsFalse() {
		return nil, false, true
	}
	lits, err := conjuncts(cons)
	if err != nil {
		return nil, false, false
	}
	for _, l := range lits {
		if l.DeclKind() != z3.DeclEq || l.NumArgs() != 2 {
			continue
		}
		x, _ := l.Arg(0)
		y, _ := l.Arg(1)
		if x.Kind() == z3.KindNumeral {
			x, y = y, x
		}
		name, err := x.DeclName()
		i, isLocal := locals[name]
		if err != nil || !isLocal || y.Kind() != z3.KindNumeral || x.NumArgs() != 0 {
			continue
		}
		sub[i] = y
	}
	check, err := cl.Constraint.SubstituteVars(sub...)
	if err != nil {
		return nil, false, false
	}
	if check, err = check.Simplify(); err != nil || !check.IsTrue() {
		return nil, false, false
	}
	post = make([]int64, len(cl.Post))
	for j, a := range cl.Post {
		t, err := a.SubstituteVars(sub...)
		if err != nil {
			return nil, false, false
		}
		if t, err = t.Simplify(); err != nil || t.Kind() != z3.KindNumeral {
			return nil, false, false
		}
		if post[j], err = t.Int64(); err != nil {
			return nil, false, false
		}
	}
	return post, true, true
}

// spreadStarts looks for start states of start si that break an equality
// (affine or parity) of the start states sampled so far: the walks then
// begin from starts as different as the start relation allows, and an
// equality that only the first starts share is not proposed.
func (w *walker) spreadStarts(si int) ([][]int64, error) {
	n := w.c.g.Starts[si].Node
	if n == w.c.g.ErrorNode {
		return nil, nil
	}
	d := len(w.s.ints[n])
	e := w.c.enc
	post, err := e.state("1")
	if err != nil {
		return nil, err
	}
	rel, err := e.start(si, post)
	if err != nil {
		return nil, err
	}
	vars := make([]*z3.Term, d)
	for i, j := range w.s.ints[n] {
		vars[i] = post[w.c.g.Nodes[n].Vars[j]]
	}
	var out [][]int64
	try := func(eqs [][]int64, parity bool) error {
		for _, eq := range eqs {
			sum, err := linTerm(e, vars, eq[:d])
			if err != nil {
				return err
			}
			if parity {
				if sum, err = e.ctx.Mod(sum, e.b.Int(2)); err != nil {
					return err
				}
			}
			v, ok, err := w.model(n, e.b.And(rel, e.b.Not(e.b.Eq(sum, e.b.Int(eq[d])))), post)
			if err != nil {
				return err
			}
			if ok {
				out = append(out, v)
			}
		}
		return nil
	}
	if err := try(affineHull(w.s.pts[n], d), false); err != nil {
		return nil, err
	}
	if err := try(parityHull(w.s.pts[n], d), true); err != nil {
		return nil, err
	}
	return out, nil
}

// linTerm is Σ coef_i·vars_i.
func linTerm(e *encoder, vars []*z3.Term, coef []int64) (*z3.Term, error) {
	var parts []*z3.Term
	for i, c := range coef {
		if c == 0 {
			continue
		}
		t, err := e.ctx.Mul(e.b.Int(c), vars[i])
		if err != nil {
			return nil, err
		}
		parts = append(parts, t)
	}
	if len(parts) == 0 {
		return e.b.Int(0), nil
	}
	if len(parts) == 1 {
		return parts[0], nil
	}
	return e.ctx.Add(parts...)
}
