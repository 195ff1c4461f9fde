package verify

import (
	"slices"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/runtime"
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
	// Machine is the machine Hits' runtimes are over: the one Probes
	// was called with. Nil: verify compiles its own (no hits).
	Machine *runtime.Machine
	// Hits holds, per probe of Probes(model, Machine), the least runtime
	// (in breadth-first order: the nearest to the root) where it holds:
	// each owner runs the probes over its own runtimes.
	Hits []Hit
}

// Hit is the least runtime where a probe holds: Index is its node (-1:
// the probe holds nowhere), Path the steps to it along canonical parents.
type Hit struct {
	Index   int
	Runtime []int64
	Path    []explore.Step
}

// Probes returns the tests of one runtime that the checks of a model
// ReachedEnough accepts read, in this order: per invariant its violation
// (S7, A7; a test that never holds for the kinds that are not
// IsStateLocal), per concurrent pair that its orders differ (A2), and per
// idempotent event a redelivery dropped, then one that changes the runtime
// (A8). root says the runtime is the initial one. Each probe keeps its
// own scratch space: call it from one goroutine.
func Probes(m *jsonmodel.Model, mc *runtime.Machine) []func(r []int64, root bool) bool {
	e := &env{m: m, mc: mc, opts: DefaultOptions()}
	var ps []func([]int64, bool) bool
	for i := range m.Invariants {
		inv := &m.Invariants[i]
		if !IsStateLocal(inv) {
			ps = append(ps, func([]int64, bool) bool { return false })
			continue
		}
		bad := e.runtimePredicate(inv)
		ps = append(ps, func(r []int64, root bool) bool { _, ok := bad(r, root); return ok })
	}
	for _, pair := range m.ConcurrentPairs {
		var buf runtime.StepBuffer
		ps = append(ps, func(r []int64, _ bool) bool { _, _, ok := races(mc, r, pair, &buf); return ok })
	}
	for _, ev := range m.IdempotentEvents {
		for _, kind := range []int{replayDropped, replayChanged} {
			var once, twice runtime.StepBuffer
			ps = append(ps, func(r []int64, _ bool) bool {
				_, ok := replayAt(mc, r, ev, kind, &once, &twice)
				return ok
			})
		}
	}
	return ps
}

// pairProbe and replayProbe are the indexes in Probes of a concurrent
// pair's probe and of an idempotent event's (kind replayDropped or
// replayChanged).
func (e *env) pairProbe(k int) int { return len(e.m.Invariants) + k }
func (e *env) replayProbe(j, kind int) int {
	return len(e.m.Invariants) + len(e.m.ConcurrentPairs) + 2*j + kind
}

// first returns the least runtime of the plain exploration (breadth-first
// order) where probe k of Probes holds, and the path to it: from
// Options.Reached when it is given, else by scanning the graph with test,
// the same probe.
func (e *env) first(k int, test func(r []int64, root bool) bool) (r []int64, path []explore.Step, ok bool) {
	if re := e.opts.Reached; re != nil && e.graph == nil {
		if k >= len(re.Hits) || re.Hits[k].Index < 0 {
			return nil, nil, false
		}
		h := re.Hits[k]
		return h.Runtime, h.Path, true
	}
	g := e.explored()
	r = make([]int64, g.Width())
	for i := 0; i < g.Len(); i++ {
		if test(g.Runtime(i, r), i == 0) {
			return r, g.Path(i), true
		}
	}
	return nil, nil, false
}

// IsStateLocal reports whether an invariant is decided by a test of one
// runtime (StateViolation): never-states and var-in-range.
func IsStateLocal(inv *jsonmodel.Invariant) bool {
	return inv.Kind == jsonmodel.NeverStates || inv.Kind == jsonmodel.VarInRange
}

// ReachedEnough reports whether every check of m reads no more of the
// plain exploration than a Reached holds: which declared states it
// reached, how many runtimes, whether the cap stopped it (S1), and the
// least runtime where each of Probes holds (S7, A7, A2, A8). The others
// read more of the graph: its edges or its paths (event-before-state
// and the path kinds of A9–A13, A15) and deadlines (A14); given a
// Reached, they are undecided (partitioned).
func ReachedEnough(m *jsonmodel.Model) bool {
	for i := range m.Invariants {
		if !IsStateLocal(&m.Invariants[i]) {
			return false
		}
	}
	return !slices.ContainsFunc(m.States, func(s jsonmodel.State) bool { return s.MaxTicks != nil })
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
	for k := range e.m.Invariants {
		if &e.m.Invariants[k] != inv {
			continue
		}
		if k < len(r.Hits) && r.Hits[k].Index >= 0 {
			h := r.Hits[k]
			what, ok := e.runtimePredicate(inv)(h.Runtime, h.Index == 0)
			if ok {
				return invariantOutcome{violated: true, path: h.Path, what: what}, true
			}
			// a hit the test does not confirm is not reported: the
			// graph decides instead
			return invariantOutcome{}, false
		}
		return invariantOutcome{undecided: r.Truncated, explored: r.Len, capKind: "maxStates", cap: r.Cap}, true
	}
	return invariantOutcome{}, false
}

// partitioned reports whether the run reads a partitioned search's
// Reached and holds no graph: the checks that need the whole graph's
// edges or paths (event-before-state and the path kinds of A9–A13, A15,
// A14 deadlines) are then undecided, "graph partitioned", rather than
// built on worker 0 (docs/scale.md, "partitions").
func (e *env) partitioned() bool { return e.opts.Reached != nil && e.graph == nil }

// partitionedOutcome is the outcome of a check that needs the whole
// graph in a partitioned run: undecided, never a pass.
func (e *env) partitionedOutcome() invariantOutcome {
	return invariantOutcome{undecided: true, capKind: "partitioned", cap: e.opts.Reached.Cap, explored: e.opts.Reached.Len}
}
