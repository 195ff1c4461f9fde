package verify

import (
	"slices"

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
}

// ReachedEnough reports whether every check of m reads no more of the
// plain exploration than a Reached holds: which declared states it
// reached, how many runtimes, and whether the cap stopped it (S1). The
// others read the runtimes themselves, their paths or their edges:
// invariants of every kind (S7, A7, A9–A13, A15), concurrent pairs (A2),
// idempotent events (A8) and deadlines (A14).
func ReachedEnough(m *jsonmodel.Model) bool {
	return len(m.Invariants) == 0 && len(m.ConcurrentPairs) == 0 && len(m.IdempotentEvents) == 0 &&
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
