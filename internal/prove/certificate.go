package prove

import (
	"fmt"
	"strings"
	"time"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/z3"
)

// Certificate renders a proof's RSCs as an SMT-LIB2 script that any SMT
// solver for linear integer arithmetic can re-check on its own: it
// asserts that some start, some transition or some property obligation of
// the triple rule fails under the RSCs, so the expected answer to its
// (check-sat) is unsat. The RSC of each node is listed in a comment. For
// a k-inductive proof (k > 1) the RSCs are the properties themselves and
// are not 1-inductive, so there is no such script: it is an error.
func (p *Problem) Certificate(r *Result) (string, error) {
	if r.Verdict != "proved" || r.rsc == nil {
		return "", fmt.Errorf("no certificate: the verdict is %s", r.Verdict)
	}
	if r.K > 1 {
		return "", fmt.Errorf("no certificate: the proof is %d-inductive, not a family of 1-inductive RSCs", r.K)
	}
	ctx, err := z3.NewContext()
	if err != nil {
		return "", err
	}
	defer releaseContext(ctx, r.abandon)
	defer ctx.Hold()() // the same script on every run: see attempt.hold
	g, err := p.graphIn(ctx)
	if err != nil {
		return "", err
	}
	c, err := newChecker(ctx, g, 0, time.Time{})
	if err != nil {
		return "", err
	}
	f, err := failureFormula(c, r.rsc, r.phi)
	if err != nil {
		return "", err
	}
	if err := c.solver.Assert(f); err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "; stateproof prove certificate for %s\n", g.Name)
	b.WriteString("; The reachable state constraints (RSCs) per node:\n")
	for n, rsc := range r.rsc {
		fmt.Fprintf(&b, ";   %s: %s\n", g.Nodes[n].Name, strings.ReplaceAll(format(rsc), "\n", " "))
	}
	b.WriteString("; The assertion says that one obligation of the triple rule (a start, a\n")
	b.WriteString("; transition, or RSC => property) fails: unsat re-checks the proof.\n")
	b.WriteString("(set-logic ALL)\n")
	b.WriteString(c.solver.String())
	b.WriteString("(check-sat)\n")
	return b.String(), nil
}

// failureFormula is the disjunction of the negated obligations: every
// start and edge under rsc, and RSC_n ∧ ¬φ_n for every property.
func failureFormula(c *checker, rsc, phi []expr.Expr) (*z3.Term, error) {
	e := c.enc
	pre, post, err := e.prePost()
	if err != nil {
		return nil, err
	}
	var fails []*z3.Term
	for si, s := range c.g.Starts {
		rel, err := e.start(si, post)
		if err != nil {
			return nil, err
		}
		goal, err := e.formula(s.Node, rsc[s.Node], post)
		if err != nil {
			return nil, err
		}
		fails = append(fails, e.b.And(rel, e.b.Not(goal)))
	}
	for ei, ed := range c.g.Edges {
		src, err := e.formula(ed.From, rsc[ed.From], pre)
		if err != nil {
			return nil, err
		}
		rel, err := e.edge(ei, pre, post)
		if err != nil {
			return nil, err
		}
		goal, err := e.formula(ed.To, rsc[ed.To], post)
		if err != nil {
			return nil, err
		}
		fails = append(fails, e.b.And(src, rel, e.b.Not(goal)))
	}
	for n, f := range phi {
		if f == nil {
			continue
		}
		have, err := e.formula(n, rsc[n], pre)
		if err != nil {
			return nil, err
		}
		want, err := e.formula(n, f, pre)
		if err != nil {
			return nil, err
		}
		fails = append(fails, e.b.And(have, e.b.Not(want)))
	}
	out := e.b.Or(fails...)
	return out, e.b.Err()
}
