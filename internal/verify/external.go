package verify

import (
	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/runtime"
)

// StateViolation returns the test S7 applies to one runtime of mc (compiled
// from m) for a never-states or var-in-range invariant: what is wrong and
// whether it is violated. initial says the runtime is the model's initial
// one (a scoped range is checked there whatever its scope). It returns nil
// for the other kinds, which no per-runtime test decides. Searches that
// are not breadth-first (swarm members, the merge's replay) use it so that
// they call violated exactly what verify calls violated.
func StateViolation(m *jsonmodel.Model, mc *runtime.Machine, inv *jsonmodel.Invariant) func(r []int64, initial bool) (string, bool) {
	if inv.Kind != jsonmodel.NeverStates && inv.Kind != jsonmodel.VarInRange {
		return nil
	}
	e := &env{m: m, mc: mc, opts: DefaultOptions()}
	return e.runtimePredicate(inv)
}

// explorationFrom makes a plain exploration given in Options.Explored the
// env's: its machine runs every other search, and the path invariants run
// their own searches (the graph carries no riding monitors), which the
// report does not depend on (workers_test.go checks that).
func (e *env) explorationFrom(g *explore.Graph, mc *runtime.Machine) {
	e.mc = mc
	e.graph = g
	if g.Truncated {
		e.stopped(capKindOf(g))
	}
	e.opts.alone = true
}

// exploredMachine returns the JSON machine an exploration given in
// Options.Explored was built over, if there is one.
func exploredMachine(g *explore.Graph) (*runtime.Machine, bool) {
	if g == nil {
		return nil, false
	}
	mc, ok := g.M.(*runtime.Machine)
	return mc, ok
}
