package prove

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/z3"
)

// unrolling is the pc encoding of the graph (docs/rsc.md): a node
// counter pc_i and a state copy per frame, and per step a selector per
// edge, exactly one of which holds. With init it starts from the start
// transitions (bounded search); without, from any state (k-induction's
// step case).
type unrolling struct {
	c    *checker
	s    *z3.Solver
	tag  string
	prop []expr.Expr
	pc   []*z3.Term
	st   [][]*z3.Term
	sel  [][]*z3.Term // per step, per edge
	ssel []*z3.Term   // per start (init only)
}

func newUnrolling(c *checker, tag string, prop []expr.Expr, init bool) (*unrolling, error) {
	s, err := c.enc.ctx.NewSolver()
	if err != nil {
		return nil, fmt.Errorf("prove: creating solver: %w", err)
	}
	u := &unrolling{c: c, s: s, tag: tag, prop: prop}
	if err := u.frame(); err != nil {
		return nil, err
	}
	if init {
		if err := u.initial(); err != nil {
			return nil, err
		}
	}
	return u, nil
}

func (u *unrolling) frame() error {
	i := len(u.st)
	e := u.c.enc
	// The unrolling's own constants start with '!', which no name of a
	// model's begins with in the encoder (smtName): a variable named pc
	// is not the node counter.
	pc, err := e.ctx.IntConst(fmt.Sprintf("!pc@%s%d", u.tag, i))
	if err != nil {
		return err
	}
	st, err := e.state(fmt.Sprintf("%s%d", u.tag, i))
	if err != nil {
		return err
	}
	u.pc, u.st = append(u.pc, pc), append(u.st, st)
	return nil
}

// initial asserts ⋁_s (pc_0 = n_s ∧ ρ_s(x̄_0)) with a selector per start.
func (u *unrolling) initial() error {
	e := u.c.enc
	var opts []*z3.Term
	for si, s := range u.c.g.Starts {
		rel, err := e.start(si, u.st[0])
		if err != nil {
			return err
		}
		sel, err := e.ctx.BoolConst(fmt.Sprintf("!start@%s%d", u.tag, si))
		if err != nil {
			return err
		}
		u.ssel = append(u.ssel, sel)
		opts = append(opts, sel)
		if err := u.s.Assert(e.b.Implies(sel, e.b.And(e.b.Eq(u.pc[0], e.b.Int(int64(s.Node))), rel))); err != nil {
			return err
		}
	}
	return u.s.Assert(e.b.Or(opts...))
}

// step adds T(i) between the last frame and a new one.
func (u *unrolling) step() error {
	i := len(u.st) - 1
	if err := u.frame(); err != nil {
		return err
	}
	e := u.c.enc
	var sels []*z3.Term
	for ei, ed := range u.c.g.Edges {
		rel, err := e.edge(ei, u.st[i], u.st[i+1])
		if err != nil {
			return err
		}
		sel, err := e.ctx.BoolConst(fmt.Sprintf("!sel@%s%d_%d", u.tag, i, ei))
		if err != nil {
			return err
		}
		sels = append(sels, sel)
		body := e.b.And(e.b.Eq(u.pc[i], e.b.Int(int64(ed.From))), e.b.Eq(u.pc[i+1], e.b.Int(int64(ed.To))), rel)
		if err := u.s.Assert(e.b.Implies(sel, body)); err != nil {
			return fmt.Errorf("prove: asserting step %d: %w", i, err)
		}
	}
	u.sel = append(u.sel, sels)
	return u.s.Assert(e.b.Or(sels...))
}

// P is ⋀_n (pc_i = n → φ_n(x̄_i)).
func (u *unrolling) P(i int) (*z3.Term, error) {
	e := u.c.enc
	var parts []*z3.Term
	for n, f := range u.prop {
		if f == nil {
			continue
		}
		t, err := e.formula(n, f, u.st[i])
		if err != nil {
			return nil, err
		}
		parts = append(parts, e.b.Implies(e.b.Eq(u.pc[i], e.b.Int(int64(n))), t))
	}
	return e.b.And(parts...), e.b.Err()
}

// checkNot checks the unrolling with ¬P(i) added in a scope.
func (u *unrolling) checkNot(i int) (*answer, *z3.Model, error) {
	p, err := u.P(i)
	if err != nil {
		return nil, nil, err
	}
	a, err := u.c.solveOn(u.s, u.c.enc.b.Not(p), nil, nil)
	if err != nil {
		return nil, nil, err
	}
	return a, a.Model, nil
}

// TraceStep is one state of a trace: the node, the transition that led to
// it ("" for the first), and the node's variables.
type TraceStep struct {
	Node       string
	Transition string
	Vars       []Assignment
}

// trace decodes frames 0..n of a model of the unrolling.
func (u *unrolling) trace(m *z3.Model, n int) []TraceStep {
	var out []TraceStep
	for i := 0; i <= n; i++ {
		node := u.nodeAt(m, i)
		ts := TraceStep{Node: "?"}
		if node >= 0 {
			ts.Node = u.c.g.Nodes[node].Name
			ts.Vars = u.c.values(m, node, u.st[i])
		}
		if i == 0 {
			for si, sel := range u.ssel {
				if isTrue(m, sel) {
					ts.Transition = u.c.g.Starts[si].Label
				}
			}
		} else {
			for ei, sel := range u.sel[i-1] {
				if isTrue(m, sel) {
					ts.Transition = u.c.g.Edges[ei].Label
					break
				}
			}
		}
		out = append(out, ts)
	}
	return out
}

func (u *unrolling) nodeAt(m *z3.Model, i int) int {
	v, err := m.Eval(u.pc[i], true)
	if err != nil {
		return -1
	}
	n, err := v.Int64()
	if err != nil || n < 0 || int(n) >= len(u.c.g.Nodes) {
		return -1
	}
	return int(n)
}

func isTrue(m *z3.Model, t *z3.Term) bool {
	v, err := m.Eval(t, true)
	if err != nil {
		return false
	}
	b, err := v.Bool()
	return err == nil && b
}

// bmcOutcome is the result of a bounded search from the start.
type bmcOutcome struct {
	Found  bool
	Depth  int // the violation's depth, or the depth searched
	Trace  []TraceStep
	Reason string      // why the search stopped early ("" when it completed)
	deriv  *derivation // a CHC problem's violation as ground data
}

// searchViolation looks for a path from a start to a state violating the
// property, depth by depth up to maxDepth (the k-induction base case, and
// the test that tells a real CTI from a spurious one).
func searchViolation(c *checker, prop []expr.Expr, maxDepth int) (*bmcOutcome, error) {
	u, err := newUnrolling(c, "b", prop, true)
	if err != nil {
		return nil, err
	}
	for d := 0; d <= maxDepth; d++ {
		if d > 0 {
			if err := u.step(); err != nil {
				return nil, err
			}
		}
		a, m, err := u.checkNot(d)
		if err != nil {
			return nil, err
		}
		switch a.Result {
		case z3.Sat:
			out := &bmcOutcome{Found: true, Depth: d, Trace: u.trace(m, d)}
			if c.g.Ctx != nil { // a CHC problem: the derivation, for its re-check
				out.deriv = u.derivation(m, d)
			}
			return out, nil
		case z3.Unknown:
			return &bmcOutcome{Depth: d - 1, Reason: "solver " + a.Reason}, nil
		}
	}
	return &bmcOutcome{Depth: maxDepth}, nil
}

// kInduction tries the step case for k = 2..maxK (k = 1 is the triple
// rule, already run): from any k consecutive states satisfying the
// property along a path, the next one does. The base case is the bounded
// search the caller ran to at least depth maxK-1. It returns the smallest
// k that works, or 0 with the reason of the last failure.
func kInduction(c *checker, prop []expr.Expr, maxK int) (int, string, error) {
	u, err := newUnrolling(c, "k", prop, false)
	if err != nil {
		return 0, "", err
	}
	reason := fmt.Sprintf("not %d-inductive", maxK)
	for k := 1; k <= maxK; k++ {
		p, err := u.P(k - 1)
		if err != nil {
			return 0, "", err
		}
		if err := u.s.Assert(p); err != nil {
			return 0, "", err
		}
		if err := u.step(); err != nil {
			return 0, "", err
		}
		if k < 2 {
			continue
		}
		a, _, err := u.checkNot(k)
		if err != nil {
			return 0, "", err
		}
		switch a.Result {
		case z3.Unsat:
			return k, "", nil
		case z3.Unknown:
			return 0, fmt.Sprintf("solver unknown at k=%d (%s)", k, a.Reason), nil
		}
	}
	return 0, reason, nil
}
