package verify

import (
	"fmt"
	"math"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/jsonvalue"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/scc"
)

// a12Budget decides every budget invariant: no reachable path accumulates
// transition cost above the budget. A reachable cycle of positive cost is
// unbounded; otherwise the breadth-first search over (runtime, cost)
// gives the over-budget path with the fewest steps. Transitions that
// declare a cost while no budget invariant exists get an advisory.
func (e *env) a12Budget() report.Check {
	c := e.pathInvariantCheck("A12", "Budget", jsonmodel.Budget, "A12_BUDGET_OVER", "A12_UNDECIDED", "budget")
	if len(e.invariantsOf(jsonmodel.Budget)) > 0 {
		return c
	}
	n := 0
	for _, t := range e.m.Transitions {
		if t.HasCost {
			n++
		}
	}
	if n > 0 {
		f := finding("A12_COST_WITHOUT_BUDGET", report.Warning, fmt.Sprintf("%s declare a cost but no budget invariant bounds it", plural(n, "transition", "transitions")))
		f.Evidence = report.O("transitions", n)
		c.Findings = append(c.Findings, f)
	}
	return c
}

// components are the strongly connected components of the runtime graph
// (the plain exploration's edges).
type components struct {
	comp []int32
}

func (e *env) runtimeComponents() *components {
	if e.comps == nil {
		adj := e.adjacency()
		e.comps = &components{comp: scc.Numbers(adj.Off, adj.To, nil)}
	}
	return e.comps
}

// costExceeds compares an accumulated cost with a budget. Costs are sums of
// decimal labels held as binary floats, so the comparison allows a relative
// rounding error of 1e-9: 0.1 + 0.2 does not exceed a budget of 0.3.
func costExceeds(cost, budget float64) bool {
	return cost-budget > 1e-9*math.Max(1, math.Abs(budget))
}

// decideBudget decides one budget invariant.
func (e *env) decideBudget(inv *jsonmodel.Invariant) invariantOutcome {
	g := e.explored()
	if out, ok := e.tooLarge(); ok {
		return out
	}
	if out, ok := e.positiveCycle(inv); ok {
		return out
	}
	out := e.overBudget(inv)
	if !out.violated && !out.undecided && g.Truncated {
		out = invariantOutcome{undecided: true, capKind: capKindOf(g), cap: g.Cap, explored: g.Len()}
	}
	return out
}

// positiveCycle finds the first edge (in discovery order of its source)
// that has positive cost and lies on a cycle, and returns the path to it
// followed by a shortest cycle through it.
func (e *env) positiveCycle(inv *jsonmodel.Invariant) (invariantOutcome, bool) {
	g, adj := e.explored(), e.adjacency()
	comp := e.runtimeComponents().comp
	mc := e.mc
	for u := 0; u < g.Len(); u++ {
		to, via := adj.Edges(u)
		for k, v := range to {
			if v < 0 || comp[v] != comp[u] || mc.Transition(int(via[k])).Cost <= 0 {
				continue
			}
			back := shortestPath(adj, int(v), u, comp)
			path := append(g.Path(u), g.StepOf(int(via[k])))
			total := mc.Transition(int(via[k])).Cost
			for _, t := range back {
				path = append(path, g.StepOf(t))
				total += mc.Transition(t).Cost
			}
			return invariantOutcome{violated: true, path: path, explored: g.Len(),
				what: fmt.Sprintf("a cycle of cost %s through state %q can repeat forever, so the cost is unbounded (budget %s)",
					jsonvalue.FormatNumber(total), mc.States[g.StateOf(u)], jsonvalue.FormatNumber(inv.Budget)),
				evidence: report.O("invariant", inv.ID, "unbounded", true, "cycleCost", total)}, true
		}
	}
	return invariantOutcome{}, false
}

// shortestPath returns the transitions of a shortest path from a to b that
// stays in a's component.
func shortestPath(adj *explore.Adjacency, a, b int, comp []int32) []int {
	if a == b {
		return nil
	}
	prev := map[int32][2]int32{int32(a): {-1, -1}}
	queue := []int32{int32(a)}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		to, via := adj.Edges(int(u))
		for k, v := range to {
			if v < 0 || comp[v] != comp[a] {
				continue
			}
			if _, seen := prev[v]; seen {
				continue
			}
			prev[v] = [2]int32{u, via[k]}
			if int(v) == b {
				var rev []int
				for x := v; x != int32(a); x = prev[x][0] {
					rev = append(rev, int(prev[x][1]))
				}
				for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
					rev[i], rev[j] = rev[j], rev[i]
				}
				return rev
			}
			queue = append(queue, v)
		}
	}
	return nil
}

// overBudget is the breadth-first search over (runtime, accumulated cost).
// A pair is dominated, and dropped, when the same runtime
// was already queued with at least that cost: queued earlier means no more
// steps, so the dominating pair reaches every over-budget extension at
// least as soon. The first over-budget pair generated has the fewest steps.
func (e *env) overBudget(inv *jsonmodel.Invariant) invariantOutcome {
	g, adj := e.explored(), e.adjacency()
	mc := e.mc
	best := make([]float64, g.Len())
	for i := range best {
		best[i] = -1
	}
	type entry struct {
		node, parent, via int32
		cost              float64
	}
	queue := []entry{{node: 0, parent: -1, via: -1}}
	best[0] = 0
	path := func(q int, last int) []explore.Step {
		var rev []int
		for ; q > 0; q = int(queue[q].parent) {
			rev = append(rev, int(queue[q].via))
		}
		p := make([]explore.Step, 0, len(rev)+1)
		for k := len(rev) - 1; k >= 0; k-- {
			p = append(p, g.StepOf(rev[k]))
		}
		return append(p, g.StepOf(last))
	}
	for q := 0; q < len(queue); q++ {
		cur := queue[q]
		to, via := adj.Edges(int(cur.node))
		for k, v := range to {
			if v < 0 {
				continue
			}
			c := cur.cost + mc.Transition(int(via[k])).Cost
			if costExceeds(c, inv.Budget) {
				return invariantOutcome{violated: true, path: path(q, int(via[k])), explored: len(queue),
					what:     fmt.Sprintf("cost %s exceeds the budget %s", jsonvalue.FormatNumber(c), jsonvalue.FormatNumber(inv.Budget)),
					evidence: report.O("invariant", inv.ID, "totalCost", c, "unbounded", false)}
			}
			if c <= best[v] {
				continue
			}
			best[v] = c
			if len(queue) >= e.opts.MaxStates {
				return invariantOutcome{undecided: true, capKind: "maxStates", cap: e.opts.MaxStates, explored: len(queue)}
			}
			queue = append(queue, entry{node: v, parent: int32(q), via: via[k], cost: c})
		}
	}
	return invariantOutcome{explored: len(queue)}
}
