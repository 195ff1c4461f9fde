package prove

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/z3"
)

// Component and node statuses (docs/rsc.md).
const (
	Verified         = "verified"
	VerifiedRelative = "verified_relative" // holds assuming unproven upstream RSCs
	Failed           = "failed"
	Unknown          = "unknown"
)

// Assignment is a variable valuation of a CTI, in node variable order.
type Assignment struct {
	Name  string
	Value string
}

// CTI is a counterexample to induction: a pre-state satisfying the origin's
// RSC that one transition maps outside the destination's RSC (or, for a
// start, a start state outside it). It may be spurious.
type CTI struct {
	Node       string
	Transition string // the edge label, or the start's label
	Start      bool
	Pre, Post  []Assignment
	// Class is "spurious", "real" or "unclassified"; Reason says why.
	Class  string
	Reason string
}

// ComponentResult is the triple-rule outcome of one SCC.
type ComponentResult struct {
	Nodes   []string
	Status  string
	CTIs    []CTI
	Reasons []string
}

// obligation names one triple: a start (Start) or an edge.
type obligation struct {
	Start bool
	Index int
}

// answer is the outcome of one obligation query.
type answer struct {
	Result    z3.Result
	Reason    string
	Model     *z3.Model
	Pre, Post []*z3.Term
}

// checker runs triple queries on one incremental solver, one push/pop
// scope per query.
type checker struct {
	g         *Graph
	enc       *encoder
	solver    *z3.Solver
	timeoutMS int
	deadline  time.Time
	queries   int
	stop      *stopper      // nil: never stopped from outside
	given     time.Duration // the time to the deadline when the checker was made
	// hard is the deadline the checker was made with, the attempt's: a
	// layer may move deadline earlier for a slice of its own, which
	// interrupts a check but never abandons it (the context is shared).
	hard time.Time
}

func newChecker(ctx *z3.Context, g *Graph, timeoutMS int, deadline time.Time) (*checker, error) {
	s, err := ctx.NewSolver()
	if err != nil {
		return nil, fmt.Errorf("prove: creating solver: %w", err)
	}
	c := &checker{g: g, enc: newEncoder(ctx, g), solver: s, timeoutMS: timeoutMS, deadline: deadline, hard: deadline}
	if !deadline.IsZero() {
		c.given = time.Until(deadline)
	}
	return c, nil
}

// expired reports that the overall deadline has passed (less than a
// millisecond left).
func (c *checker) expired() bool {
	return !c.deadline.IsZero() && time.Until(c.deadline) < time.Millisecond
}

// deadlineContext is the context of one check: done at the hard
// deadline (never without one).
func (c *checker) deadlineContext() (context.Context, context.CancelFunc) {
	if c.hard.IsZero() {
		return context.WithCancel(context.Background())
	}
	return context.WithDeadline(context.Background(), c.hard)
}

// grace is how long a check interrupted at the deadline may take to stop
// before it is abandoned: a twentieth of the time the checker was given,
// as bmc's (at least 50 ms).
func (c *checker) grace() time.Duration {
	return max(c.given/20, 50*time.Millisecond)
}

// errAbandoned is the error of a check that did not stop when interrupted
// at the deadline: its context is retired, so the attempt ends undecided
// (Prove turns it into the reason "abandoned while solving").
var errAbandoned = fmt.Errorf("prove: %w while solving", z3.ErrAbandoned)

// budget is the per-query time limit, bounded by the overall deadline
// (0: none). It is enforced by interrupting the check from a timer rather
// than by Z3's timeout parameter: with Z3 4.8.12, solver timeouts in one
// context stall the checks of another context running at the same time
// (Spacer on its own goroutine uses timers internally).
func (c *checker) budget() time.Duration {
	ms := int64(c.timeoutMS)
	if !c.deadline.IsZero() {
		left := time.Until(c.deadline).Milliseconds()
		if ms <= 0 || left < ms {
			ms = left
		}
		if ms < 1 {
			ms = 1
		}
	}
	return time.Duration(max(ms, 0)) * time.Millisecond
}

// check decides SAT(RSC_p(pre) ∧ g ∧ r(pre, post) ∧ ¬RSC_n(post)) for an
// edge, or SAT(ρ(post) ∧ ¬RSC_n(post)) for a start. from and to are the
// RSCs to assume and to establish (nil is true).
func (c *checker) check(ob obligation, from, to expr.Expr) (*answer, error) {
	e := c.enc
	pre, post, err := e.prePost()
	if err != nil {
		return nil, err
	}
	if c.expired() {
		// Encoding an edge of a model with many cases costs more than
		// its query: past the deadline, answer before encoding.
		return &answer{Result: z3.Unknown, Reason: "timeout", Pre: pre, Post: post}, nil
	}
	var parts []*z3.Term
	var dst int
	if ob.Start {
		dst = c.g.Starts[ob.Index].Node
		rel, err := e.start(ob.Index, post)
		if err != nil {
			return nil, err
		}
		parts = append(parts, rel)
	} else {
		ed := &c.g.Edges[ob.Index]
		dst = ed.To
		src, err := e.formula(ed.From, from, pre)
		if err != nil {
			return nil, err
		}
		rel, err := e.edge(ob.Index, pre, post)
		if err != nil {
			return nil, err
		}
		parts = append(parts, src, rel)
	}
	goal, err := e.formula(dst, to, post)
	if err != nil {
		return nil, err
	}
	parts = append(parts, e.b.Not(goal))
	return c.solve(e.b.And(parts...), pre, post)
}

// solve checks one formula in its own scope of the checker's solver.
func (c *checker) solve(f *z3.Term, pre, post []*z3.Term) (*answer, error) {
	return c.solveOn(c.solver, f, pre, post)
}

// solveOn checks one formula in its own scope of solver s, under the
// checker's budget.
func (c *checker) solveOn(s *z3.Solver, f *z3.Term, pre, post []*z3.Term) (*answer, error) {
	if f == nil {
		return nil, fmt.Errorf("prove: building query: %w", c.enc.b.Err())
	}
	if c.expired() {
		// The budget is spent: answer unknown without asking Z3, so the
		// layers still to run end at once instead of each spending a
		// minimal timeout on every query.
		return &answer{Result: z3.Unknown, Reason: "timeout", Pre: pre, Post: post}, nil
	}
	if err := s.Push(); err != nil {
		return nil, err
	}
	defer s.Pop(1)
	if err := s.Assert(f); err != nil {
		return nil, fmt.Errorf("prove: asserting query: %w", err)
	}
	c.queries++
	if !c.stop.enter(s, f) {
		return &answer{Result: z3.Unknown, Reason: "stopped", Pre: pre, Post: post}, nil
	}
	// The per-query limit interrupts the check; the overall deadline
	// bounds it as in bmc (z3.CheckContext): a check still running a
	// grace after its interrupt is abandoned, with its context.
	var timer *time.Timer
	if d := c.budget(); d > 0 {
		timer = time.AfterFunc(d, s.Interrupt)
	}
	dctx, cancel := c.deadlineContext()
	r, err := s.CheckContext(dctx, c.grace())
	cancel()
	if timer != nil {
		timer.Stop()
	}
	c.stop.leave()
	if errors.Is(err, z3.ErrAbandoned) {
		return &answer{Result: z3.Unknown, Reason: "timeout", Pre: pre, Post: post}, errAbandoned
	}
	if err != nil {
		return nil, fmt.Errorf("prove: solver: %w", err)
	}
	if r == z3.Unknown && dctx.Err() != nil {
		return &answer{Result: z3.Unknown, Reason: "timeout", Pre: pre, Post: post}, nil
	}
	a := &answer{Result: r, Pre: pre, Post: post}
	switch r {
	case z3.Sat:
		if a.Model, err = s.Model(); err != nil {
			return nil, err
		}
	case z3.Unknown:
		a.Reason = s.ReasonUnknown()
		if a.Reason == "canceled" || a.Reason == "interrupted from keyboard" {
			a.Reason = "timeout"
			if c.stop.isStopped() {
				a.Reason = "stopped"
			}
		}
	}
	return a, nil
}

// verifyAll applies the triple rule to a family of RSCs (one per node, nil
// meaning true) per SCC in condensation order. A component is verified
// only when all its obligations hold and every upstream component is
// verified; a component whose obligations hold over unverified upstream
// RSCs is verified_relative. It returns the components and per-node
// statuses.
func (c *checker) verifyAll(rsc []expr.Expr) ([]ComponentResult, []string, error) {
	comps := components(len(c.g.Nodes), c.g.Edges)
	compOf := make([]int, len(c.g.Nodes))
	for i, comp := range comps {
		for _, n := range comp {
			compOf[n] = i
		}
	}
	in := c.g.incoming()
	nodeStatus := make([]string, len(c.g.Nodes))
	var out []ComponentResult
	for ci, comp := range comps {
		cr := ComponentResult{Status: Verified}
		upstreamOK := true
		for _, n := range comp {
			cr.Nodes = append(cr.Nodes, c.g.Nodes[n].Name)
			for _, ei := range in[n] {
				if p := c.g.Edges[ei].From; compOf[p] != ci && nodeStatus[p] != Verified {
					upstreamOK = false
				}
			}
		}
		if err := c.checkComponent(comp, in, rsc, &cr); err != nil {
			return nil, nil, err
		}
		if cr.Status == Verified && !upstreamOK {
			cr.Status = VerifiedRelative
		}
		for _, n := range comp {
			nodeStatus[n] = cr.Status
		}
		out = append(out, cr)
	}
	return out, nodeStatus, nil
}

// checkComponent checks every start and step obligation into the nodes of
// one component, recording CTIs and unknown answers.
func (c *checker) checkComponent(comp []int, in [][]int, rsc []expr.Expr, cr *ComponentResult) error {
	for _, n := range comp {
		var obs []obligation
		for si, s := range c.g.Starts {
			if s.Node == n {
				obs = append(obs, obligation{Start: true, Index: si})
			}
		}
		for _, ei := range in[n] {
			obs = append(obs, obligation{Index: ei})
		}
		for _, ob := range obs {
			var from expr.Expr
			if !ob.Start {
				from = rsc[c.g.Edges[ob.Index].From]
			}
			a, err := c.check(ob, from, rsc[n])
			if err != nil {
				return err
			}
			switch a.Result {
			case z3.Sat:
				cr.Status = Failed
				cr.CTIs = append(cr.CTIs, c.cti(ob, a))
			case z3.Unknown:
				if cr.Status != Failed {
					cr.Status = Unknown
				}
				cr.Reasons = append(cr.Reasons, fmt.Sprintf("%s: solver unknown (%s)", c.obName(ob), a.Reason))
			}
		}
	}
	return nil
}

func (c *checker) obName(ob obligation) string {
	if ob.Start {
		s := c.g.Starts[ob.Index]
		return fmt.Sprintf("start %s → %s", s.Label, c.g.Nodes[s.Node].Name)
	}
	e := c.g.Edges[ob.Index]
	return fmt.Sprintf("%s → %s (%s)", c.g.Nodes[e.From].Name, c.g.Nodes[e.To].Name, e.Label)
}

// cti reads a counterexample to induction out of a SAT answer.
func (c *checker) cti(ob obligation, a *answer) CTI {
	x := CTI{Class: "unclassified"}
	var dst int
	if ob.Start {
		s := c.g.Starts[ob.Index]
		dst, x.Transition, x.Start = s.Node, s.Label, true
	} else {
		e := c.g.Edges[ob.Index]
		dst, x.Transition = e.To, e.Label
		x.Pre = c.values(a.Model, e.From, a.Pre)
	}
	x.Node = c.g.Nodes[dst].Name
	x.Post = c.values(a.Model, dst, a.Post)
	return x
}

// values evaluates a node's variables of state st in model m.
func (c *checker) values(m *z3.Model, node int, st []*z3.Term) []Assignment {
	n := &c.g.Nodes[node]
	out := make([]Assignment, len(n.Vars))
	for i, k := range n.Vars {
		out[i] = Assignment{Name: n.Names[i], Value: valueString(m, st[k])}
	}
	return out
}

// valueString renders a model value: an integer, a fraction, true/false.
func valueString(m *z3.Model, t *z3.Term) string {
	v, err := m.Eval(t, true)
	if err != nil {
		return "?"
	}
	if b, err := v.Bool(); err == nil {
		return fmt.Sprint(b)
	}
	if s, err := v.NumeralString(); err == nil {
		return s
	}
	return v.String()
}

// holds evaluates formula f of node on state st in model m.
func (c *checker) holds(m *z3.Model, node int, f expr.Expr, st []*z3.Term) (bool, error) {
	t, err := c.enc.formula(node, f, st)
	if err != nil {
		return false, err
	}
	v, err := m.Eval(t, true)
	if err != nil {
		return false, err
	}
	return v.Bool()
}
