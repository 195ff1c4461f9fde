package verify

import (
	"fmt"
	"slices"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
)

// a10Sequence decides every sequence invariant: the listed events never
// occur out of the listed order. The breadth-first search gives the
// shortest path to the first out-of-order event.
func (e *env) a10Sequence() report.Check {
	return e.pathInvariantCheck("A10", "Sequence Order", jsonmodel.Sequence, "A10_SEQUENCE_VIOLATION", "A10_UNDECIDED", "sequence")
}

// a11Atomicity decides every atomicity invariant: once a listed event
// occurs, commit or rollback comes before any unlisted event and before a
// terminal state. Shortest violation by breadth-first search.
func (e *env) a11Atomicity() report.Check {
	return e.pathInvariantCheck("A11", "Atomicity", jsonmodel.Atomicity, "A11_ATOMICITY_VIOLATION", "A11_UNDECIDED", "atomicity")
}

// decideSequence searches (runtime, progress). Once every listed event has
// occurred in order the invariant imposes nothing more, so such branches
// are not explored further.
func (e *env) decideSequence(inv *jsonmodel.Invariant) invariantOutcome {
	mc := e.mc
	w := mc.Width()
	evs := inv.Events
	var out invariantOutcome
	s := explore.Search{Machine: mc, Extra: 1, Cap: e.opts.MaxStates, Done: e.opts.Done,
		OnEdge: func(g *explore.Graph, from, t int, next []int64) explore.Edge {
			ev := mc.Transition(t).Event
			p := int(next[w])
			switch {
			case ev == evs[p]:
				next[w]++
				if int(next[w]) == len(evs) {
					return explore.Prune
				}
			case slices.Contains(evs[p+1:], ev):
				out = invariantOutcome{violated: true, path: append(g.Path(from), g.StepOf(t)),
					what: fmt.Sprintf("Event %q occurred before %q", ev, evs[p])}
				return explore.Stop
			}
			return explore.Keep
		}}
	g := s.Run()
	if out.violated {
		out.explored = g.Len()
		return out
	}
	return searchOutcome(g)
}

// Atomicity phases, one-shot: not started, started and open, closed.
const (
	atomIdle int64 = iota
	atomOpen
	atomClosed
)

// decideAtomicity searches (runtime, phase). A closed group imposes
// nothing more, so closed branches are not explored further.
func (e *env) decideAtomicity(inv *jsonmodel.Invariant) invariantOutcome {
	mc := e.mc
	w := mc.Width()
	terminal := make([]bool, len(mc.States))
	for i, st := range e.m.States {
		terminal[i] = st.Terminal
	}
	var out invariantOutcome
	violate := func(g *explore.Graph, from, t int, what string) explore.Edge {
		out = invariantOutcome{violated: true, path: append(g.Path(from), g.StepOf(t)), what: what}
		return explore.Stop
	}
	s := explore.Search{Machine: mc, Extra: 1, Cap: e.opts.MaxStates, Done: e.opts.Done,
		OnEdge: func(g *explore.Graph, from, t int, next []int64) explore.Edge {
			ev := mc.Transition(t).Event
			switch next[w] {
			case atomIdle:
				if slices.Contains(inv.Events, ev) {
					next[w] = atomOpen
				}
			case atomOpen:
				switch {
				case ev == inv.Commit || (inv.Rollback != "" && ev == inv.Rollback):
					next[w] = atomClosed
					return explore.Prune
				case !slices.Contains(inv.Events, ev):
					return violate(g, from, t, fmt.Sprintf("Left atomic scope via %q before %q", ev, inv.Commit))
				}
			}
			if next[w] == atomOpen && terminal[next[0]] {
				return violate(g, from, t, "Terminal state reached with incomplete atomic group")
			}
			return explore.Keep
		}}
	g := s.Run()
	if out.violated {
		out.explored = g.Len()
		return out
	}
	return searchOutcome(g)
}
