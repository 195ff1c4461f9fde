package verify

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
)

// Limits of the probability solvers.
const (
	maxSweeps      = 20000 // interval-iteration sweeps per component
	sweepEpsilon   = 1e-9  // a bracket this narrow (relative) has converged
	ratComponent   = 40    // largest component solved in rationals
	ratNodes       = 20000 // most transient runtimes solved in rationals
	ratBits        = 4096  // largest numerator or denominator kept exact
	methodGraph    = "graph"
	methodExact    = "exact-rational"
	methodInterval = "interval-iteration"
)

// probResult is P(eventually in the target) from the initial runtime:
// exact (from the graph or in rationals), or bracketed in [lo, hi].
type probResult struct {
	exact  *big.Rat // the value, when it is known exactly
	lo, hi float64  // the bracket, when it is not
	// positive and belowOne are the graph's answers to P > 0 and P < 1;
	// they make a bracket's ends at 0 and 1 open.
	positive, belowOne bool
	method             string
	converged          bool
	sweeps             int
	reach              []bool // per runtime: the target is reachable with positive probability
}

// value is the point the report shows: the exact value, or the middle of
// the bracket.
func (pr *probResult) value() float64 {
	if pr.exact != nil {
		f, _ := pr.exact.Float64()
		return f
	}
	return pr.lo + (pr.hi-pr.lo)/2
}

// text renders the value with six decimals, as the reference does, but
// never shows a positive value as 0.000000 or a value below 1 as
// 1.000000: those are written in scientific notation or as a bracket.
func (pr *probResult) text() string {
	if pr.exact != nil {
		s := pr.exact.FloatString(6)
		if (s == "0.000000" && pr.exact.Sign() > 0) || (s == "1.000000" && pr.belowOne) {
			return "≈ " + new(big.Float).SetRat(pr.exact).Text('e', 6)
		}
		return "= " + s
	}
	open := map[bool]string{true: "(", false: "["}[pr.positive && pr.lo == 0]
	shut := map[bool]string{true: ")", false: "]"}[pr.belowOne && pr.hi == 1]
	return fmt.Sprintf("in %s%.6g, %.6g%s", open, pr.lo, pr.hi, shut)
}

// decide compares P with the bound exactly: holds when every value the
// result allows satisfies `op p`, violated when none does, and neither
// when the bracket contains p.
func (pr *probResult) decide(op string, p *big.Rat) (holds, violated bool) {
	lo, hi := pr.exact, pr.exact
	loOpen, hiOpen := false, false
	if pr.exact == nil {
		lo, hi = new(big.Rat).SetFloat64(pr.lo), new(big.Rat).SetFloat64(pr.hi)
		loOpen, hiOpen = pr.positive && lo.Sign() == 0, pr.belowOne && hi.Cmp(big.NewRat(1, 1)) == 0
	}
	above := lo.Cmp(p) > 0 || (lo.Cmp(p) == 0 && loOpen) // P > p for certain
	atLeast := lo.Cmp(p) >= 0                            // P ≥ p for certain
	below := hi.Cmp(p) < 0 || (hi.Cmp(p) == 0 && hiOpen) // P < p for certain
	atMost := hi.Cmp(p) <= 0                             // P ≤ p for certain
	switch op {
	case ">=":
		return atLeast, below
	case ">":
		return above, atMost
	case "<=":
		return atMost, above
	case "<":
		return below, atLeast
	}
	return false, false
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
		parts = append(parts, fmt.Sprintf("P(reach %q) %s (%s)", inv.Target, pr.text(), pr.method))
		if !pr.converged {
			f := finding("A13_NO_CONVERGENCE", report.Warning, described(fmt.Sprintf("P(reach %q) did not converge within %d sweeps: %s", inv.Target, maxSweeps, pr.text()), inv.Description))
			f.Target = inv.Target
			f.Evidence = out.evidence
			c.Findings = append(c.Findings, f)
		}
		switch {
		case out.violated:
			f := finding("A13_PROBABILITY_VIOLATION", report.Error, described(out.what, inv.Description))
			f.Target = inv.Target
			f.Evidence = out.evidence
			c.Findings = append(c.Findings, withPath(f, out.path))
		case out.undecided:
			f := invariantUndecided("A13_UNDECIDED", inv, out)
			f.Evidence = append(f.Evidence, out.evidence[1:]...)
			c.Findings = append(c.Findings, f)
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
// bound exactly (docs/models.md, A13): a bracket that contains the bound
// leaves the invariant undecided.
func (e *env) decideProbability(inv *jsonmodel.Invariant) invariantOutcome {
	g := e.explored()
	if g.Truncated {
		return invariantOutcome{undecided: true, capKind: capKindOf(g), cap: g.Cap, explored: g.Len()}
	}
	if out, ok := e.tooLarge(); ok {
		return out
	}
	pr := e.solveProbability(inv.Target)
	holds, violated := pr.decide(inv.Op, ratWeight(inv.P))
	ev := report.O("invariant", inv.ID, "computed", pr.value(), "converged", pr.converged, "method", pr.method)
	if pr.exact != nil {
		ev = append(ev, report.KV{Key: "exact", Value: pr.exact.RatString()})
	} else {
		ev = append(ev, report.KV{Key: "lower", Value: pr.lo}, report.KV{Key: "upper", Value: pr.hi})
	}
	if !pr.converged {
		ev = append(ev, report.KV{Key: "sweeps", Value: pr.sweeps})
	}
	out := invariantOutcome{prob: pr, evidence: ev, explored: g.Len()}
	switch {
	case violated:
		upper := inv.Op == "<=" || inv.Op == "<"
		out.violated = true
		// the bound as the model gives it: six decimals would print 1e-10
		// as 0.000000 and 0.4999999999 as 0.500000
		out.what = fmt.Sprintf("P(reach %q) %s violates %s %s", inv.Target, pr.text(), inv.Op, strconv.FormatFloat(inv.P, 'g', -1, 64))
		out.path = probabilityWitness(g, pr, e.mc.StateIndex(inv.Target), upper)
	case !holds && !pr.converged:
		out.undecided, out.capKind, out.cap, out.explored = true, "valueIteration", maxSweeps, pr.sweeps
	case !holds:
		out.undecided, out.capKind, out.cap, out.explored = true, "probabilityBracket", maxSweeps, pr.sweeps
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
