package prove

import (
	"fmt"
	"strings"
	"time"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/z3"
)

// recheck is the independent re-check of a proof (docs/rsc.md): the
// triple rule on the final RSCs with a fresh checker (a fresh context for
// JSON models), then RSC_n → φ_n for every node. It shares no state with
// the layer that produced the RSCs.
func (a *attempt) recheck(rsc, phi []expr.Expr) (bool, string, error) {
	if a.expired() {
		return false, "the time budget ran out before the independent re-check", nil
	}
	ctx := a.ctx
	if a.g.Ctx == nil {
		fresh, err := z3.NewContext()
		if err != nil {
			return false, "", err
		}
		defer a.release(fresh)
		defer fresh.Hold()()
		ctx = fresh
	}
	return recheckRSC(ctx, a.g, rsc, phi, a.opts.QueryTimeoutMS, a.deadline, a.stop)
}

// recheckRSC applies the triple rule to rsc on graph g (whose terms, for a
// CHC problem, live in ctx) and checks that each RSC implies its node's
// property.
func recheckRSC(ctx *z3.Context, g *Graph, rsc, phi []expr.Expr, timeoutMS int, deadline time.Time, stop *stopper) (bool, string, error) {
	c, err := newChecker(ctx, g, timeoutMS, deadline)
	if err != nil {
		return false, "", err
	}
	c.stop = stop
	// Obligation by obligation, each query in its own scope: on the
	// problems Spacer proves, faster than one query for the disjunction
	// of all the failures (which Certificate writes), whose case splits
	// over residues and conditionals cost Z3 more than the separate
	// checks.
	_, status, err := c.verifyAll(rsc)
	if err != nil {
		return false, "", err
	}
	for n, s := range status {
		if s != Verified {
			return false, fmt.Sprintf("the RSC of %s is %s under the triple rule", g.Nodes[n].Name, s), nil
		}
	}
	for n := range phi {
		if phi[n] == nil {
			continue
		}
		st, err := c.enc.state("0")
		if err != nil {
			return false, "", err
		}
		have, err := c.enc.formula(n, rsc[n], st)
		if err != nil {
			return false, "", err
		}
		want, err := c.enc.formula(n, phi[n], st)
		if err != nil {
			return false, "", err
		}
		ans, err := c.solve(c.enc.b.And(have, c.enc.b.Not(want)), nil, nil)
		if err != nil {
			return false, "", err
		}
		if ans.Result != z3.Unsat {
			return false, fmt.Sprintf("the RSC of %s does not imply the property (%s)", g.Nodes[n].Name, ans.Result), nil
		}
	}
	return true, "", nil
}

// proved marks the open properties verified by method with certificate rsc.
func (a *attempt) proved(open []int, method string, rsc []expr.Expr, k int) {
	for _, i := range open {
		pr := &a.r.Props[i]
		pr.Status, pr.Method = Verified, method
	}
	a.r.K = k
	a.r.rsc, a.r.phi = rsc, a.target(open)
	a.r.Certificate = nil
	for n, f := range rsc {
		a.r.Certificate = append(a.r.Certificate, NodeRSC{Node: a.p.Graph.Nodes[n].Name, RSC: format(f)})
	}
	for ci := range a.r.Components {
		for j := range a.r.Components[ci].CTIs {
			x := &a.r.Components[ci].CTIs[j]
			x.Class, x.Reason = "spurious", "its pre-state is unreachable: the proof excludes it"
		}
	}
}

// violation finds, per open property, a shortest trace from the start
// (the combined search found one at depth ≤ out.Depth) and confirms it.
func (a *attempt) violation(open []int, out *bmcOutcome) ([]int, error) {
	var violated []int
	for _, i := range open {
		pr := &a.p.Props[i]
		c, err := a.checker()
		if err != nil {
			return nil, err
		}
		one := make([]expr.Expr, len(a.p.Graph.Nodes))
		one[pr.Node] = pr.Formula
		o, err := searchViolation(c, one, out.Depth)
		if err != nil {
			return nil, err
		}
		if !o.Found {
			if o.Reason != "" {
				// Some open property fails at this depth; whether this
				// one does is not known, and it must say why (a loaded
				// machine ran this search out of its budget, and the
				// property was left unknown with no reason at all).
				res := &a.r.Props[i]
				res.Status, res.Reason = Unknown, fmt.Sprintf("the open properties together fail within depth %d, but the search for this one alone stopped early: %s", out.Depth, o.Reason)
			}
			continue
		}
		res := &a.r.Props[i]
		res.Trace = o.Trace
		res.Method = "bmc"
		if a.p.Confirm == nil {
			ok, why, err := checkDerivation(a.ctx, a.g, o.deriv, a.opts.QueryTimeoutMS, a.deadline, a.stop)
			if err != nil {
				return nil, err
			}
			if !ok {
				res.Status, res.Reason = Unknown, "a bounded search found a derivation that did not pass the re-check: "+why
				continue
			}
			res.Status, res.Replay = Violated, "a derivation of predicate instances from a fact, re-checked clause by clause on a fresh solver with its values (CHC input: no runtime to replay on)"
			violated = append(violated, i)
			continue
		}
		ok, detail, err := a.p.Confirm(pr, o.Depth, a.left())
		if err != nil {
			return nil, err
		}
		res.Replay = detail
		if ok {
			res.Status = Violated
			violated = append(violated, i)
		} else {
			res.Status, res.Reason = Unknown, "a bounded search found a trace the runtime did not confirm: "+detail
		}
	}
	return violated, nil
}

// unknown marks the open properties undecided, with the CTIs of their
// nodes and the reasons.
func (a *attempt) unknown(open []int, out *bmcOutcome) {
	var tried []string
	for _, l := range a.r.Layers {
		if l.Outcome != "proved" {
			tried = append(tried, l.Layer+": "+l.Detail)
		}
	}
	for ci := range a.r.Components {
		for j := range a.r.Components[ci].CTIs {
			x := &a.r.Components[ci].CTIs[j]
			x.Class = "unclassified"
			x.Reason = fmt.Sprintf("may be spurious: no trace from the start reaches it within depth %d", out.Depth)
		}
	}
	for _, i := range open {
		pr := &a.r.Props[i]
		pr.Status = Unknown
		pr.Reason = strings.Join(tried, "; ")
		for _, comp := range a.r.Components {
			for j := range comp.CTIs {
				if comp.CTIs[j].Node == pr.Node && pr.CTI == nil {
					x := comp.CTIs[j]
					pr.CTI = &x
				}
			}
		}
	}
}

// format prints a formula; nil is true.
func format(f expr.Expr) string {
	if f == nil {
		return "true"
	}
	return expr.Format(f)
}
