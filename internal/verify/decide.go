package verify

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
)

// invariantOutcome is how one search decided one invariant.
type invariantOutcome struct {
	violated  bool
	undecided bool           // the search stopped at its cap before deciding
	path      []explore.Step // the witness, from the initial runtime
	what      string         // the violation, for the message
	// shortest is true when path is a shortest witness (the breadth-first
	// kinds); leads-to and probability witnesses claim no minimality.
	shortest bool
	capKind  string // "maxStates", "leadsToWalk" or "valueIteration"
	cap      int    // the limit that stopped the search
	explored int    // nodes the search stored (or turned GRAY, or sweeps)
	// evidence holds kind-specific facts for the finding (budget: cost and
	// unboundedness; probability: the computed value and its method).
	evidence report.Obj
	prob     *probResult // probability only: the computed value
}

// decideInvariant decides an invariant of any of the eight kinds with the
// search its own check uses: S7's breadth-first search for the
// state-predicate kinds, the A9 walk for leads-to and the A10-A13
// searches for the other path kinds. Every evaluation runs with its own
// budget; a search that stops at its cap sets the run's truncated flag.
// A7 calls it for every invariant and D2 for every mapped invariant.
func (e *env) decideInvariant(inv *jsonmodel.Invariant) invariantOutcome {
	if out, ok := e.decided[inv]; ok {
		return out
	}
	var out invariantOutcome
	switch {
	case e.partitioned() && !IsStateLocal(inv):
		out = e.partitionedOutcome()
	case inv.Kind == jsonmodel.NeverStates, inv.Kind == jsonmodel.VarInRange, inv.Kind == jsonmodel.EventBeforeState:
		out = e.decideStatePredicate(inv)
		out.shortest = true
	case inv.Kind == jsonmodel.LeadsTo:
		out = e.decideLeadsTo(inv)
	case inv.Kind == jsonmodel.Sequence:
		out = e.decideSequence(inv)
		out.shortest = true
	case inv.Kind == jsonmodel.Atomicity:
		out = e.decideAtomicity(inv)
		out.shortest = true
	case inv.Kind == jsonmodel.Budget:
		out = e.decideBudget(inv)
		out.shortest = true
	case inv.Kind == jsonmodel.Probability:
		out = e.decideProbability(inv)
	case inv.Kind == jsonmodel.LTL:
		out = e.decideLTL(inv)
	}
	if out.undecided {
		// A probability bracket that holds the bound hit no cap; every
		// other undecided search did.
		if out.capKind == "" {
			out.capKind, out.cap = "maxStates", e.opts.MaxStates
		}
		if out.capKind != "probabilityBracket" {
			e.stopped(out.capKind)
		}
	}
	if e.decided != nil {
		e.decided[inv] = out
	}
	return out
}

// searchOutcome is the outcome of a breadth-first search that found no
// violation: undecided exactly when its cap stopped it.
func searchOutcome(g *explore.Graph) invariantOutcome {
	return invariantOutcome{undecided: g.Truncated, explored: g.Len(), capKind: capKindOf(g), cap: g.Cap}
}

// invariantViolation renders the violation of an invariant found by its own
// check: `Invariant "<id>" violated after <n> steps: <what> — <description>`.
func invariantViolation(code string, inv *jsonmodel.Invariant, out invariantOutcome) report.Finding {
	f := finding(code, report.Error, described(fmt.Sprintf("Invariant %q violated after %s: %s", inv.ID, plural(len(out.path), "step", "steps"), out.what), inv.Description))
	if t := invariantTarget(inv); t != nil {
		f.Target = t
	}
	f.Evidence = report.O("invariant", inv.Raw)
	return withPath(f, out.path)
}

// invariantUndecided renders the *_UNDECIDED finding of an invariant.
func invariantUndecided(code string, inv *jsonmodel.Invariant, out invariantOutcome) report.Finding {
	f := undecided(code, fmt.Sprintf("invariant %q", inv.ID), out.cap, out.explored, out.capKind, inv.ID)
	f.Message = described(f.Message, inv.Description)
	if t := invariantTarget(inv); t != nil {
		f.Target = t
	}
	return f
}

// a7Counterexamples re-decides every invariant, whatever its kind, and
// reports the witness of each violated one: the shortest for the
// breadth-first kinds, a witness for leads-to and probability.
func (e *env) a7Counterexamples() report.Check {
	c := report.Check{ID: "A7", Name: "Minimal Counter-Example"}
	violated, open := 0, 0
	for i := range e.m.Invariants {
		inv := &e.m.Invariants[i]
		out := e.decideInvariant(inv)
		switch {
		case out.violated:
			violated++
			qual := ""
			if !out.shortest {
				qual = " (not necessarily shortest)"
			}
			f := finding("A7_SHORTEST_COUNTEREXAMPLE", report.Warning, described(fmt.Sprintf("Counterexample for %q%s: %s", inv.ID, qual, plural(len(out.path), "step", "steps")), inv.Description))
			if t := invariantTarget(inv); t != nil {
				f.Target = t
			}
			f.Evidence = withCycle(report.O("invariant", inv.ID), out)
			c.Findings = append(c.Findings, withPath(f, out.path))
		case out.undecided:
			open++
			c.Findings = append(c.Findings, invariantUndecided("A7_UNDECIDED", inv, out))
		}
	}
	n := len(e.m.Invariants)
	switch {
	case n == 0:
		c.Detail = "No invariants declared"
	case violated+open == 0:
		c.Detail = fmt.Sprintf("No counterexample: %s", map[bool]string{true: "the invariant holds", false: fmt.Sprintf("all %d invariants hold", n)}[n == 1])
	default:
		c.Detail = fmt.Sprintf("%d of %d invariants have a counterexample, %d not decided", violated, n, open)
	}
	return c
}

// withCycle adds a lasso witness's cycleStart to evidence that another
// check (A7, D2) gives the same path, so that it is drawn as a lasso too.
func withCycle(ev report.Obj, out invariantOutcome) report.Obj {
	if cs := out.evidence.Get("cycleStart"); cs != nil {
		ev = append(ev, report.KV{Key: "cycleStart", Value: cs})
	}
	return ev
}

// invariantsOf returns the invariants of one kind, in model order.
func (e *env) invariantsOf(kind string) []*jsonmodel.Invariant {
	var out []*jsonmodel.Invariant
	for i := range e.m.Invariants {
		if e.m.Invariants[i].Kind == kind {
			out = append(out, &e.m.Invariants[i])
		}
	}
	return out
}

// pathInvariantCheck runs one path-kind check (A9-A12): one violation or
// undecided finding per invariant of the kind.
func (e *env) pathInvariantCheck(id, name, kind, violation, undecidedCode, noun string) report.Check {
	c := report.Check{ID: id, Name: name}
	invs := e.invariantsOf(kind)
	violated, open := 0, 0
	for _, inv := range invs {
		out := e.decideInvariant(inv)
		switch {
		case out.violated:
			violated++
			f := invariantViolation(violation, inv, out)
			if out.evidence != nil {
				f.Evidence = out.evidence
			}
			c.Findings = append(c.Findings, f)
		case out.undecided:
			open++
			c.Findings = append(c.Findings, invariantUndecided(undecidedCode, inv, out))
		}
	}
	switch {
	case len(invs) == 0:
		c.Detail = fmt.Sprintf("No %s invariants declared", noun)
	case violated+open == 0 && len(invs) == 1:
		c.Detail = fmt.Sprintf("The %s invariant holds", noun)
	case violated+open == 0:
		c.Detail = fmt.Sprintf("All %d %s invariants hold", len(invs), noun)
	default:
		c.Detail = fmt.Sprintf("%d of %d %s invariants violated, %d not decided", violated, len(invs), noun, open)
	}
	return c
}
