package verify

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/fair"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/runtime"
)

// fairness is a model's fairness block as flags per runtime event index,
// with the events enabled at each node of the exploration: the events of
// its edges (a step is taken only by an enabled transition), read from
// the graph's edges when asked rather than stored per node.
type fairness struct {
	weak, strong []bool
	adj          *explore.Adjacency
	evOf         []int32 // event of each transition
	// buf is enabled's answer; mark[e] == stamp when e is in it.
	buf   []int32
	mark  []uint32
	stamp uint32
}

// enabled returns the events enabled at node v, in the order of its
// edges. The slice is valid until the next call.
func (fr *fairness) enabled(v int) []int32 {
	fr.stamp++
	if fr.stamp == 0 { // wrapped: old marks could match again
		clear(fr.mark)
		fr.stamp = 1
	}
	fr.buf = fr.buf[:0]
	_, via := fr.adj.Edges(v)
	for _, t := range via {
		if ev := fr.evOf[t]; fr.mark[ev] != fr.stamp {
			fr.mark[ev] = fr.stamp
			fr.buf = append(fr.buf, ev)
		}
	}
	return fr.buf
}

// newFairness flags the block's events; nil when the model has no block.
func newFairness(mc *runtime.Machine, f *jsonmodel.Fairness, adj *explore.Adjacency) *fairness {
	if f == nil {
		return nil
	}
	fr := &fairness{weak: make([]bool, len(mc.Events)), strong: make([]bool, len(mc.Events)),
		adj: adj, evOf: transitionEvents(mc), mark: make([]uint32, len(mc.Events))}
	for _, e := range f.Weak {
		fr.weak[mc.EventIndex(e)] = true
	}
	for _, e := range f.Strong {
		fr.strong[mc.EventIndex(e)] = true
	}
	return fr
}

// problem is the fair-cycle question on region g with the model's
// fairness; nodes of g are the exploration's, or map to them by node.
func (fr *fairness) problem(g fair.Digraph, node func(v int) int) *fair.Problem {
	return &fair.Problem{G: g, Weak: fr.weak, Strong: fr.strong, Enabled: func(v int) []int32 { return fr.enabled(node(v)) }}
}

// transitionEvents is the event index of each model transition.
func transitionEvents(mc *runtime.Machine) []int32 {
	out := make([]int32, len(mc.Model.Transitions))
	for t := range out {
		out[t] = int32(mc.EventIndex(mc.Transition(t).Event))
	}
	return out
}

// decideFairLeadsTo decides a leads-to invariant over the fair paths of a
// model with a fairness block: a path from a `from` runtime that avoids
// every target is a counterexample when it ends in a dead end, or when it
// is infinite and fair (docs/liveness.md). On a truncated exploration
// paths stop at the runtimes never expanded (their edges are unknown): a
// counterexample among the expanded ones is still one, and finding none
// leaves the invariant undecided. Fair paths need the whole graph's edges:
// when a spilled graph's do not fit in memory the invariant is undecided.
func (e *env) decideFairLeadsTo(inv *jsonmodel.Invariant, isTarget []bool) invariantOutcome {
	mc, g := e.mc, e.explored()
	if out, ok := e.tooLarge(); ok {
		return out
	}
	open := invariantOutcome{explored: g.Len()}
	if g.Truncated {
		open = invariantOutcome{undecided: true, capKind: capKindOf(g), cap: g.Cap, explored: g.Len()}
	}
	adj := e.adjacency()
	from := mc.StateIndex(inv.From)
	if isTarget[from] {
		return open
	}
	region := newRegion(mc, g, adj, isTarget)
	var starts []int
	for i := 0; i < g.Len(); i++ {
		if g.StateOf(i) == from {
			starts = append(starts, i)
		}
	}
	if path, at, ok := deadEndPath(g, adj, region, starts); ok {
		return invariantOutcome{violated: true, path: path, explored: g.Len(),
			what: fmt.Sprintf("Dead end before target %s in state %q", targetText(inv), mc.States[g.StateOf(at)])}
	}
	p := newFairness(mc, e.m.Fairness, adj).problem(region, func(v int) int { return v })
	p.Starts = starts
	l, ok := fair.Find(p)
	if !ok {
		return open
	}
	path := g.Path(l.Start)
	cycleStart := len(path) + len(l.Prefix)
	for _, k := range append(l.Prefix, l.Cycle...) {
		path = append(path, g.StepOf(int(adj.Via[k])))
	}
	head := path[cycleStart].From
	return invariantOutcome{violated: true, path: path, explored: g.Len(),
		what:     fmt.Sprintf("Fair cycle avoids target %s, returning to state %q", targetText(inv), head),
		evidence: report.O("invariant", inv.Raw, "cycleStart", cycleStart)}
}

// region is the exploration's graph without the edges into target
// runtimes, read from its adjacency (fair.Digraph): a flag per node, not
// a copy of the edges per invariant.
type region struct {
	adj    *explore.Adjacency
	evOf   []int32 // event of each transition
	target []bool  // the runtime's state is a target
}

func newRegion(mc *runtime.Machine, g *explore.Graph, adj *explore.Adjacency, isTarget []bool) *region {
	r := &region{adj: adj, evOf: transitionEvents(mc), target: make([]bool, g.Len())}
	for v := range r.target {
		r.target[v] = isTarget[g.StateOf(v)]
	}
	return r
}

func (r *region) Len() int { return len(r.adj.Off) - 1 }

func (r *region) Degree(v int32) int { return r.adj.Off[v+1] - r.adj.Off[v] }

// Target is where v's edge i leads, -1 for an edge into a target.
func (r *region) Target(v int32, i int) int32 {
	if w := r.adj.To[r.adj.Off[v]+i]; w >= 0 && !r.target[w] {
		return w
	}
	return -1
}

// Targets writes where v's edges from i on lead into buf, as Target does.
func (r *region) Targets(v int32, i int, buf []int32) int {
	n := copy(buf, r.adj.To[r.adj.Off[v]+i:r.adj.Off[v+1]])
	for j, w := range buf[:n] {
		if w >= 0 && r.target[w] {
			buf[j] = -1
		}
	}
	return n
}

func (r *region) Label(v int32, i int) int32 { return r.evOf[r.adj.Via[r.adj.Off[v]+i]] }

// EdgeID is the edge's index in the adjacency.
func (r *region) EdgeID(v int32, i int) int { return r.adj.Off[v] + i }

// deadEndPath searches breadth-first from the starts, inside the region,
// for a runtime with no enabled transition: the path from the initial
// runtime to it and its node.
func deadEndPath(g *explore.Graph, adj *explore.Adjacency, region *region, starts []int) ([]explore.Step, int, bool) {
	via := map[int32]int32{} // the edge that reached each node, -1 at a start
	par := map[int32]int32{}
	var queue []int32
	for _, s := range starts {
		if _, ok := via[int32(s)]; !ok {
			via[int32(s)] = -1
			queue = append(queue, int32(s))
		}
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		if adj.Off[v] == adj.Off[v+1] && int(v) < g.Expanded {
			var rev []int32
			at := v
			for via[at] >= 0 {
				rev = append(rev, via[at])
				at = par[at]
			}
			path := g.Path(int(at))
			for k := len(rev) - 1; k >= 0; k-- {
				path = append(path, g.StepOf(int(adj.Via[rev[k]])))
			}
			return path, int(v), true
		}
		for i, d := 0, region.Degree(v); i < d; i++ {
			if w := region.Target(v, i); w >= 0 {
				if _, ok := via[w]; !ok {
					via[w], par[w] = int32(region.EdgeID(v, i)), v
					queue = append(queue, w)
				}
			}
		}
	}
	return nil, 0, false
}
