package verify

import (
	"slices"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/jsonmodel"
)

// Reached is what a partitioned search (internal/cluster) tells of the
// plain exploration when worker 0 does not hold its graph: so that worker
// 0's memory does not grow with the state space for a model whose checks
// need no more (see ReachedEnough).
type Reached struct {
	// Len is the number of runtime states explored; Truncated says the
	// cap Cap (Options.MaxStates) stopped the exploration.
	Len, Cap  int
	Truncated bool
	// States says, per state of the compiled machine (runtime.Machine
	// States, in model order), whether some explored runtime is in it.
	States []bool
	// Violations holds, per invariant of the model (in model order), the
	// least runtime (in breadth-first order) that violates it, for the
	// never-states and var-in-range invariants: each owner runs
	// StateViolation's test over its own runtimes. Nil where none does.
	Violations []*Violation
}

// Violation is the least runtime that violates a state invariant: what
// StateViolation says of it, and the path to it along canonical parents.
type Violation struct {
	What string
	Path []explore.Step
}

// IsStateLocal reports whether an invariant is decided by a test of one
// runtime (StateViolation): never-states and var-in-range.
func IsStateLocal(inv *jsonmodel.Invariant) bool {
	return inv.Kind == jsonmodel.NeverStates || inv.Kind == jsonmodel.VarInRange
}

// ReachedEnough reports whether every check of m reads no more of the
// plain exploration than a Reached holds: which declared states it
// reached, how many runtimes, whether the cap stopped it (S1), and the
// least violation of each never-states and var-in-range invariant (S7,
// A7). The others read the runtimes themselves, their paths or their
// edges: the other invariant kinds (event-before-state, A9–A13, A15),
// concurrent pairs (A2), idempotent events (A8) and deadlines (A14).
func ReachedEnough(m *jsonmodel.Model) bool {
	for i := range m.Invariants {
		if !IsStateLocal(&m.Invariants[i]) {
			return false
		}
	}
	return len(m.ConcurrentPairs) == 0 && len(m.IdempotentEvents) == 0 &&
		!slices.ContainsFunc(m.States, func(s jsonmodel.State) bool { return s.MaxTicks != nil })
}

// exploration is the part of the plain exploration S1 reads.
type exploration struct {
	seen      []bool // per state of the machine: reached
	n, cap    int    // runtimes explored, the cap
	truncated bool
	capKind   string // what stopped it (capKindOf), when truncated
}

// reached reads the plain exploration's reached states: from
// Options.Reached when it is given (a partitioned search reports no
// disk budget: it does not spill), else from the graph.
func (e *env) reached() exploration {
	x := exploration{seen: make([]bool, len(e.mc.States))}
	if r := e.opts.Reached; r != nil && e.graph == nil {
		copy(x.seen, r.States)
		x.n, x.cap, x.truncated, x.capKind = r.Len, r.Cap, r.Truncated, "maxStates"
		return x
	}
	g := e.explored()
	for i := 0; i < g.Len(); i++ {
		x.seen[g.StateOf(i)] = true
	}
	x.n, x.cap, x.truncated, x.capKind = g.Len(), g.Cap, g.Truncated, capKindOf(g)
	return x
}

// reachedViolation decides a state invariant from Options.Reached, when
// it is given and the env holds no graph.
func (e *env) reachedViolation(inv *jsonmodel.Invariant) (invariantOutcome, bool) {
	r := e.opts.Reached
	if r == nil || e.graph != nil || !IsStateLocal(inv) {
		return invariantOutcome{}, false
	}
	for i := range e.m.Invariants {
		if &e.m.Invariants[i] != inv {
			continue
		}
		if i < len(r.Violations) && r.Violations[i] != nil {
			v := r.Violations[i]
			return invariantOutcome{violated: true, path: v.Path, what: v.What}, true
		}
		return invariantOutcome{undecided: r.Truncated, explored: r.Len, capKind: "maxStates", cap: r.Cap}, true
	}
	return invariantOutcome{}, false
}
