package verify

import (
	"fmt"
	"sync"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
)

// isStatePredicate reports whether S7 decides the kind.
func isStatePredicate(kind string) bool {
	return kind == jsonmodel.NeverStates || kind == jsonmodel.VarInRange || kind == jsonmodel.EventBeforeState
}

// s7Invariants decides the state-predicate invariants by breadth-first
// search, reporting the shortest violation of each.
func (e *env) s7Invariants() report.Check {
	c := report.Check{ID: "S7", Name: "Invariant Validity"}
	n, violated, open := 0, 0, 0
	for i := range e.m.Invariants {
		inv := &e.m.Invariants[i]
		if !isStatePredicate(inv.Kind) {
			continue
		}
		n++
		out := e.decideInvariant(inv)
		switch {
		case out.violated:
			violated++
			c.Findings = append(c.Findings, invariantViolation("S7_INVARIANT_VIOLATION", inv, out))
		case out.undecided:
			open++
			c.Findings = append(c.Findings, invariantUndecided("S7_UNDECIDED", inv, out))
		}
	}
	switch {
	case n == 0:
		c.Detail = "No state-predicate invariants declared"
	case violated+open == 0:
		c.Detail = fmt.Sprintf("All %s hold on every reachable runtime state", plural(n, "state-predicate invariant", "state-predicate invariants"))
	default:
		c.Detail = fmt.Sprintf("%d of %d state-predicate invariants violated, %d not decided", violated, n, open)
	}
	return c
}

// invariantTarget is the finding target for an invariant.
func invariantTarget(inv *jsonmodel.Invariant) any {
	switch inv.Kind {
	case jsonmodel.NeverStates:
		return inv.States
	case jsonmodel.VarInRange:
		return inv.Variable
	case jsonmodel.EventBeforeState:
		return inv.State
	case jsonmodel.LeadsTo:
		if inv.ToIsList {
			return inv.To
		}
		return inv.To[0]
	case jsonmodel.Probability:
		return inv.Target
	}
	return nil
}

// decideStatePredicate runs the search of one state-predicate invariant.
func (e *env) decideStatePredicate(inv *jsonmodel.Invariant) invariantOutcome {
	if inv.Kind == jsonmodel.EventBeforeState {
		return e.eventBeforeState(inv)
	}
	if out, ok := e.reachedViolation(inv); ok {
		return out
	}
	g := e.explored()
	bad := e.runtimePredicate(inv)
	p, passes := e.passes(inv)
	i := firstNode(g, e.workers(), func(lo, hi int, s *scratch) int {
		col := s.col[:hi-lo]
		g.Words(p, lo, col)
		for k, x := range col {
			if passes(x) {
				continue
			}
			if _, ok := bad(g.Runtime(lo+k, s.node), lo+k == 0); ok {
				return lo + k
			}
		}
		return -1
	})
	if i >= 0 {
		what, _ := bad(g.Runtime(i, nil), i == 0)
		return invariantOutcome{violated: true, path: g.Path(i), what: what}
	}
	return invariantOutcome{undecided: g.Truncated, explored: g.Len(), capKind: capKindOf(g), cap: g.Cap}
}

// scratch is what a firstNode goroutine gives its test: room for one
// node's words (g.Width()) and for one word of a block of nodes.
type scratch struct{ node, col []int64 }

// firstNodeBlock is how many nodes firstNode hands its test at once.
const firstNodeBlock = 1024

// firstNode returns the first node of g (in discovery order, so the
// nearest to the root) that satisfies a test, or -1: first(lo, hi, s)
// returns the first node from lo up to hi-1 that does (at most
// firstNodeBlock of them), or -1. workers goroutines test contiguous
// ranges of nodes at once.
func firstNode(g *explore.Graph, workers int, first func(lo, hi int, s *scratch) int) int {
	n := g.Len()
	workers = max(1, min(workers, n/firstNodeMin))
	per := (n + workers - 1) / workers
	found := make([]int, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			found[w] = -1
			s := &scratch{node: make([]int64, g.Width()), col: make([]int64, firstNodeBlock)}
			end := min(n, (w+1)*per)
			for lo := w * per; lo < end; lo += firstNodeBlock {
				if i := first(lo, min(end, lo+firstNodeBlock), s); i >= 0 {
					found[w] = i
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, i := range found {
		if i >= 0 {
			return i
		}
	}
	return -1
}

// firstNodeMin is the fewest nodes per worker of firstNode: fewer are
// tested on one goroutine faster than a second one starts.
const firstNodeMin = 1 << 16

// runtimePredicate returns a test that says whether a runtime violates a
// never-states or var-in-range invariant, and how.
func (e *env) runtimePredicate(inv *jsonmodel.Invariant) func(r []int64, initial bool) (string, bool) {
	mc := e.mc
	if inv.Kind == jsonmodel.NeverStates {
		forbidden := e.forbidden(inv)
		return func(r []int64, _ bool) (string, bool) {
			if forbidden[r[0]] {
				return fmt.Sprintf("state %q reached", mc.States[r[0]]), true
			}
			return "", false
		}
	}
	v := mc.VarIndex(inv.Variable)
	inScope := e.scope(inv.When)
	return func(r []int64, initial bool) (string, bool) {
		x := r[1+v] // a word compares with the literal bounds exactly (runtime.Word)
		if inRange(x, inv.Min, inv.Max) {
			return "", false
		}
		if !initial && !inScope(r) {
			return "", false
		}
		return fmt.Sprintf("%q = %s outside %s", inv.Variable, mc.FormatValue(v, x), jsonmodel.RangeText(inv.Min, inv.Max)), true
	}
}

// passes returns the word of a stored node (explore.Graph.Words) that
// settles, for most nodes, that the node satisfies inv, and the test of
// that word: only the nodes it does not clear are unpacked for
// runtimePredicate.
func (e *env) passes(inv *jsonmodel.Invariant) (word int, test func(x int64) bool) {
	if inv.Kind == jsonmodel.NeverStates {
		forbidden := e.forbidden(inv)
		return 0, func(x int64) bool { return !forbidden[x] }
	}
	return 1 + e.mc.VarIndex(inv.Variable), func(x int64) bool { return inRange(x, inv.Min, inv.Max) }
}

// forbidden marks the states of a never-states invariant, by index.
func (e *env) forbidden(inv *jsonmodel.Invariant) []bool {
	forbidden := make([]bool, len(e.mc.States))
	for _, s := range inv.States {
		forbidden[e.mc.StateIndex(s)] = true
	}
	return forbidden
}

// scope evaluates a var-in-range `when` on a runtime (the post-state of the
// transition that produced it).
func (e *env) scope(w *jsonmodel.When) func(r []int64) bool {
	mc := e.mc
	switch {
	case w == nil:
		return func([]int64) bool { return true }
	case w.Guard == nil:
		s := int64(mc.StateIndex(w.State))
		return func(r []int64) bool { return r[0] == s }
	}
	return func(r []int64) bool {
		return w.Guard.Eval(func(name string) int64 { return r[1+mc.VarIndex(name)] })
	}
}

// eventBeforeState decides an event-before-state invariant over
// (runtime, seen): an entry into the state before the event has fired.
func (e *env) eventBeforeState(inv *jsonmodel.Invariant) invariantOutcome {
	what := fmt.Sprintf("%q entered before %q", inv.State, inv.Event)
	if e.initialIn(inv.State) {
		return invariantOutcome{violated: true, path: []explore.Step{}, what: what}
	}
	whatOf := func(explore.Flag) string { return what }
	k, ok := e.riders().byInv[inv]
	if out, ok := e.monitorOutcome(e.ridden(k, ok), whatOf); ok {
		return out
	}
	return e.pairSearch(0, 2, e.beforeStep(inv), whatOf)
}
