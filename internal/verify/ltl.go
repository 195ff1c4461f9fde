package verify

import (
	"fmt"
	"math/big"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/ltl"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/runtime"
)

// a15LTL decides every ltl invariant over the model's (fair) runs. It runs
// only for a model that declares one, so reports of every other model are
// as they were.
func (e *env) a15LTL() report.Check {
	return e.pathInvariantCheck("A15", "LTL", jsonmodel.LTL, "A15_LTL_VIOLATION", "A15_LTL_UNDECIDED", "LTL")
}

// decideLTL decides one ltl invariant on the exploration: the product of
// the formula's automaton with the runtime graph, at most 20 × maxStates
// product nodes, searched for a fair accepting lasso. The lasso is
// replayed on the runtime before it is reported. On a truncated
// exploration runs stop at the runtimes never expanded: a lasso among the
// expanded ones is still a counterexample, and finding none decides
// nothing but a safety violation: a finite run every continuation of
// which violates the formula (a bad prefix: G (x < 30) once x is 30) is a
// counterexample whatever lies past the cap. The product needs the whole graph's edges: when a spilled
// graph's do not fit in memory the invariant is undecided.
func (e *env) decideLTL(inv *jsonmodel.Invariant) invariantOutcome {
	g := e.explored()
	prop, err := ltl.Compile(inv.LTL)
	if err != nil {
		return invariantOutcome{undecided: true, capKind: "ltlAutomaton", cap: ltl.MaxAutomaton}
	}
	if out, ok := e.tooLarge(); ok {
		return out
	}
	sys := e.ltlSystem(g)
	limit := 20 * e.opts.MaxStates
	res, err := prop.Check(sys, limit)
	switch {
	case err != nil:
		return invariantOutcome{undecided: true, capKind: "ltlUnconfirmed", explored: res.ProductNodes}
	case res.Capped:
		return invariantOutcome{undecided: true, capKind: "ltlProduct", cap: limit, explored: res.ProductNodes}
	case res.Holds && g.Truncated:
		return invariantOutcome{undecided: true, capKind: capKindOf(g), cap: g.Cap, explored: g.Len()}
	case res.Holds:
		return invariantOutcome{explored: res.ProductNodes}
	}
	path, cycleStart, dead := e.lassoPath(g, res)
	if err := e.replayLasso(g, res); err != nil {
		return invariantOutcome{undecided: true, capKind: "ltlUnconfirmed", explored: res.ProductNodes}
	}
	if res.BadPrefix {
		what := fmt.Sprintf("the run reaches state %q and violates %s whatever it does next", e.mc.States[g.StateOf(e.lassoEnd(g, res))], inv.Formula)
		return invariantOutcome{violated: true, path: path, what: what, explored: res.ProductNodes, evidence: report.O("invariant", inv.Raw)}
	}
	what := fmt.Sprintf("the run repeats its last %s forever and violates %s", plural(len(path)-cycleStart, "step", "steps"), inv.Formula)
	if dead {
		what = fmt.Sprintf("the run stops in state %q (a dead end) and violates %s", e.mc.States[g.StateOf(e.lassoEnd(g, res))], inv.Formula)
	}
	return invariantOutcome{violated: true, path: path, what: what, explored: res.ProductNodes,
		evidence: report.O("invariant", inv.Raw, "cycleStart", cycleStart)}
}

// ltlSystem is the exploration as an ltl.System, with the model's fairness.
func (e *env) ltlSystem(g *explore.Graph) *ltl.System {
	mc, adj := e.mc, e.adjacency()
	// the graph's own edge arrays, not a copy: an event array as long as
	// the edges would be the largest allocation of the check
	sys := &ltl.System{Off: adj.Off, To: adj.To, Via: adj.Via, ViaEvent: transitionEvents(mc), NumEvents: len(mc.Events), Init: 0, EventIndex: mc.EventIndex}
	buf := make([]int64, g.Width())
	sys.Holds = func(a *ltl.Atom, v int) bool {
		if a.Kind == ltl.InState {
			return g.StateOf(v) == mc.StateIndex(a.Name)
		}
		r := g.Runtime(v, buf)
		return compareWord(mc, r[1+mc.VarIndex(a.Name)], a.Cmp, a.Value)
	}
	if g.Truncated {
		sys.Unexpanded = func(v int) bool { return v >= g.Expanded }
	}
	if fr := newFairness(mc, e.m.Fairness, adj); fr != nil {
		sys.Weak, sys.Strong = fr.weak, fr.strong
		sys.Enabled = fr.enabled
	}
	return sys
}

// compareWord compares a runtime word with a constant as mathematical
// integers (a word may hold a value past int64). A word whose top two
// bits agree is the integer itself (runtime's integer words) and is
// compared as it is: the check asks once per runtime, and two big.Int a
// call would be most of what it allocates.
func compareWord(mc *runtime.Machine, w int64, op string, c int64) bool {
	if w^(w<<1) >= 0 {
		return jsonmodel.Compare(w, op, c)
	}
	return jsonmodel.Compare(int64(mc.Int(w).Cmp(big.NewInt(c))), op, 0)
}

// lassoPath is the counterexample as steps from the initial runtime, the
// index of the step where the cycle starts, and whether the run ends in a
// dead end (its cycle is stuttering: cycleStart is then len(path)).
func (e *env) lassoPath(g *explore.Graph, res ltl.Result) (path []explore.Step, cycleStart int, dead bool) {
	via := e.adjacency().Via
	for _, k := range res.Prefix {
		if k >= 0 {
			path = append(path, g.StepOf(int(via[k])))
		}
	}
	cycleStart = len(path)
	dead = true
	for _, k := range res.Cycle {
		if k >= 0 {
			path = append(path, g.StepOf(int(via[k])))
			dead = false
		}
	}
	return path, cycleStart, dead
}

// lassoEnd is the runtime node the counterexample's word ends in.
func (e *env) lassoEnd(g *explore.Graph, res ltl.Result) int {
	return res.Word.Nodes[len(res.Word.Nodes)-1]
}

// replayLasso re-executes the counterexample's edges on the runtime from
// the initial runtime: every step must be its transition firing, reach the
// runtime the graph holds for its node, the cycle (a bad prefix has none)
// must return to the runtime it started from, and a dead end must enable
// no event.
func (e *env) replayLasso(g *explore.Graph, res ltl.Result) error {
	mc, adj := e.mc, e.adjacency()
	r := mc.Initial(make([]int64, mc.Width()))
	if !equalRuntime(r, g.Runtime(0, nil)) {
		return fmt.Errorf("the initial runtime is not the exploration's root")
	}
	var loop []int64
	var buf runtime.StepBuffer
	edges := append(append([]int{}, res.Prefix...), res.Cycle...)
	for i, k := range edges {
		if i == len(res.Prefix) {
			loop = append([]int64(nil), r...)
		}
		if k < 0 { // stutter: r must be a dead end
			for ev := range mc.Events {
				if mc.Enabled(r, ev) {
					return fmt.Errorf("step %d stutters where %q is enabled", i, mc.Events[ev])
				}
			}
			continue
		}
		t := int(adj.Via[k])
		next, ok := mc.Fires(r, mc.EventIndex(mc.Transition(t).Event), t, &buf)
		if !ok || !equalRuntime(next, g.Runtime(int(adj.To[k]), nil)) {
			return fmt.Errorf("step %d: transition %d does not lead where the graph says", i, t)
		}
		r = append(r[:0:0], next...)
	}
	if !res.BadPrefix && !equalRuntime(loop, r) {
		return fmt.Errorf("the cycle does not return to the runtime it starts from")
	}
	return nil
}

func equalRuntime(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
