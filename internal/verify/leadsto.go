package verify

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
	"github.com/stateproof/stateproof/internal/runtime"
)

// a9LeadsTo decides every leads-to invariant: from every reachable runtime
// in `from`, every path reaches a runtime in `to`. One branch that stops
// (a dead end) or loops (a cycle avoiding every target) refutes it. With
// no fairness block every cycle counts; with one, only fair cycles do
// (leadsto_fair.go).
func (e *env) a9LeadsTo() report.Check {
	return e.pathInvariantCheck("A9", "Leads-To", jsonmodel.LeadsTo, "A9_LEADS_TO_VIOLATION", "A9_LEADS_TO_UNDECIDED", "leads-to")
}

// Walk colours.
const (
	white uint8 = iota
	gray
	black
)

// walkGraph gives the leads-to walk its nodes: the complete exploration
// with its edge list, or, when the exploration was truncated, a store that
// steps runtimes on demand and can grow past the exploration.
type walkGraph interface {
	size() int
	state(v int) int
	// successors appends the successors of v and their transitions.
	successors(v int, to, via []int32) ([]int32, []int32)
}

type adjWalk struct {
	g   *explore.Graph
	adj *explore.Adjacency
}

func (w adjWalk) size() int       { return w.g.Len() }
func (w adjWalk) state(v int) int { return w.g.StateOf(v) }
func (w adjWalk) successors(v int, to, via []int32) ([]int32, []int32) {
	t, tr := w.adj.Edges(v)
	return append(to, t...), append(via, tr...)
}

type storeWalk struct {
	mc    *runtime.Machine
	store *explore.Graph
	src   []int64
	buf   runtime.StepBuffer
}

func (w *storeWalk) size() int       { return w.store.Len() }
func (w *storeWalk) state(v int) int { return w.store.StateOf(v) }
func (w *storeWalk) successors(v int, to, via []int32) ([]int32, []int32) {
	w.store.Node(v, w.src)
	for ev := range w.mc.Events {
		for _, o := range w.mc.Step(w.src, ev, &w.buf) {
			j, _ := w.store.Intern(o.Next, v, o.Label)
			to, via = append(to, int32(j)), append(via, int32(o.Label))
		}
	}
	return to, via
}

// leadsWalk is the state of one evaluation of one leads-to invariant: the
// three-colour depth-first search, with BLACK marks shared by all
// start runtimes and the DFS stack kept as parent links.
type leadsWalk struct {
	wg       walkGraph
	isTarget []bool // per model state
	color    []uint8
	parent   []int32 // DFS-tree parent of each GRAY or BLACK node
	via      []int32
	grays    int // runtimes turned GRAY, against the walk cap
	cap      int
	edgeTo   []int32 // successors of the nodes on the stack
	edgeVia  []int32
}

type walkFrame struct{ v, lo, next, end int }

// walkResult is where a walk from one start runtime failed.
type walkResult struct {
	violated, capped bool
	at               int // the dead end, or the node whose edge closes the cycle
	closing          int // the transition closing the cycle; -1 for a dead end
	cycleTo          int // the GRAY node the cycle returns to
}

func (w *leadsWalk) grow() {
	for n := w.wg.size(); len(w.color) < n; {
		w.color = append(w.color, white)
		w.parent = append(w.parent, -1)
		w.via = append(w.via, -1)
	}
}

// turnGray pushes v on the stack; false when the walk cap is reached.
func (w *leadsWalk) turnGray(v int, stack []walkFrame) ([]walkFrame, bool) {
	if w.grays >= w.cap {
		return stack, false
	}
	w.grays++
	w.color[v] = gray
	lo := len(w.edgeTo)
	w.edgeTo, w.edgeVia = w.wg.successors(v, w.edgeTo, w.edgeVia)
	w.grow()
	return append(stack, walkFrame{v, lo, lo, len(w.edgeTo)}), true
}

// run walks from start (a non-target runtime) until every path from it is
// shown to reach a target, or a violation or the cap stops it.
func (w *leadsWalk) run(start int) walkResult {
	w.grow()
	if w.color[start] == black {
		return walkResult{}
	}
	stack, ok := w.turnGray(start, nil)
	if !ok {
		return walkResult{capped: true}
	}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.lo == f.end { // no enabled event: a dead end before any target
			return walkResult{violated: true, at: f.v, closing: -1}
		}
		if f.next == f.end {
			w.color[f.v] = black
			w.edgeTo, w.edgeVia = w.edgeTo[:f.lo], w.edgeVia[:f.lo]
			stack = stack[:len(stack)-1]
			continue
		}
		to, t := int(w.edgeTo[f.next]), int(w.edgeVia[f.next])
		f.next++
		switch {
		case w.isTarget[w.wg.state(to)] || w.color[to] == black:
		case w.color[to] == gray:
			return walkResult{violated: true, at: f.v, closing: t, cycleTo: to}
		default:
			w.parent[to], w.via[to] = int32(f.v), int32(t)
			if stack, ok = w.turnGray(to, stack); !ok {
				return walkResult{capped: true}
			}
		}
	}
	return walkResult{}
}

// decideLeadsTo walks from every reachable runtime in `from` (exploration
// order). The walk runs over the exploration's edges when the exploration
// is complete, and over runtimes stepped on demand when it was truncated;
// it turns at most 20 × maxStates runtimes GRAY, shared by all starts.
func (e *env) decideLeadsTo(inv *jsonmodel.Invariant) invariantOutcome {
	mc := e.mc
	g := e.explored()
	w := &leadsWalk{isTarget: make([]bool, len(mc.States)), cap: 20 * e.opts.MaxStates}
	for _, s := range inv.To {
		// D2 decides a BEFORE leads-to whose targets AFTER may lack: a
		// missing target is never reached.
		if i := mc.StateIndex(s); i >= 0 {
			w.isTarget[i] = true
		}
	}
	if e.m.Fairness != nil {
		return e.decideFairLeadsTo(inv, w.isTarget)
	}
	from := mc.StateIndex(inv.From)
	if g.Truncated {
		w.wg = &storeWalk{mc: mc, store: explore.NewStore(mc, 0, e.opts.MaxStates), src: make([]int64, mc.Width())}
	} else {
		if out, ok := e.tooLarge(); ok {
			return out
		}
		w.wg = adjWalk{g: g, adj: e.adjacency()}
	}
	if !w.isTarget[from] {
		buf := make([]int64, g.Width())
		for i := 0; i < g.Len(); i++ {
			if g.StateOf(i) != from {
				continue
			}
			start := i
			if g.Truncated {
				start, _ = w.wg.(*storeWalk).store.Intern(g.Runtime(i, buf), -1, -1)
			}
			res := w.run(start)
			switch {
			case res.capped:
				return invariantOutcome{undecided: true, capKind: "leadsToWalk", cap: w.cap, explored: w.grays}
			case res.violated:
				return invariantOutcome{violated: true, path: w.witness(g, i, start, res), what: leadsToWhat(inv, mc, w.wg, res), explored: w.grays}
			}
		}
	}
	return invariantOutcome{undecided: g.Truncated, capKind: capKindOf(g), cap: g.Cap, explored: g.Len()}
}

// witness is the path from the initial runtime to the start runtime (node
// i of the exploration), then down the DFS stack to the violation, then the
// edge that closes the cycle.
func (w *leadsWalk) witness(g *explore.Graph, i, start int, res walkResult) []explore.Step {
	path := g.Path(i)
	var rev []int
	for v := res.at; v != start; v = int(w.parent[v]) {
		rev = append(rev, int(w.via[v]))
	}
	for k := len(rev) - 1; k >= 0; k-- {
		path = append(path, g.StepOf(rev[k]))
	}
	if res.closing >= 0 {
		path = append(path, g.StepOf(res.closing))
	}
	return path
}

func leadsToWhat(inv *jsonmodel.Invariant, mc *runtime.Machine, wg walkGraph, res walkResult) string {
	if res.closing < 0 {
		return fmt.Sprintf("Dead end before target %s in state %q", targetText(inv), mc.States[wg.state(res.at)])
	}
	return fmt.Sprintf("Cycle avoids target %s, returning to state %q", targetText(inv), mc.States[wg.state(res.cycleTo)])
}

// targetText renders a leads-to `to` as written: "A" or ["A", "B"].
func targetText(inv *jsonmodel.Invariant) string {
	if !inv.ToIsList {
		return fmt.Sprintf("%q", inv.To[0])
	}
	return "[" + quoteIDs(inv.To) + "]"
}
