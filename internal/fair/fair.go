package fair

import (
	"slices"

	"github.com/stateproof/stateproof/internal/scc"
)

// Graph is a directed graph in compressed rows: the edges of node v are
// Off[v] up to Off[v+1], edge k leads to To[k] (ignored when negative)
// and is labelled with event Event[k].
type Graph struct {
	Off   []int
	To    []int32
	Event []int32
}

// Len is the number of nodes.
func (g *Graph) Len() int { return len(g.Off) - 1 }

// Degree is the number of edges of v.
func (g *Graph) Degree(v int32) int { return g.Off[v+1] - g.Off[v] }

// Target is where v's edge i leads.
func (g *Graph) Target(v int32, i int) int32 { return g.To[g.Off[v]+i] }

// Targets writes where v's edges from i on lead into buf (scc.Graph).
func (g *Graph) Targets(v int32, i int, buf []int32) int {
	return copy(buf, g.To[g.Off[v]+i:g.Off[v+1]])
}

// Label is the event of v's edge i.
func (g *Graph) Label(v int32, i int) int32 { return g.Event[g.Off[v]+i] }

// EdgeID is v's edge i as an index into To and Event.
func (g *Graph) EdgeID(v int32, i int) int { return g.Off[v] + i }

// Digraph is a graph read on demand (scc.Graph), with an event and an
// identity per edge slot: a product with an automaton computes its edges
// from the system's rather than storing them. The SCC search reads the
// targets a batch at a time (Targets); the judgement and the lasso, which
// mostly stop at the first edge they look for, one at a time.
type Digraph interface {
	scc.Graph
	// Target is where v's slot i leads (negative: nowhere), the same as
	// Targets writes for it.
	Target(v int32, i int) int32
	// Label is the event of v's slot i (a slot with a target).
	Label(v int32, i int) int32
	// EdgeID names v's slot i in a Lasso.
	EdgeID(v int32, i int) int
}

// Problem is one fair-cycle question.
type Problem struct {
	// G is the region searched: a path may only follow its edges.
	G Digraph
	// Enabled gives the events enabled at node v in the full model,
	// edges outside the region included. It is called only when Weak or
	// Strong is set, and its answer is read before the next call (it may
	// reuse one buffer).
	Enabled func(v int) []int32
	// Weak and Strong flag the fair events by index; nil means none.
	Weak, Strong []bool
	// Takes, when set, gives the events an edge label takes: a format
	// whose step takes several events at once labels it with an index of
	// that set. nil: each label is the one event it takes.
	Takes func(label int32) []int32
	// Acc gives node v's acceptance sets as bits; NAcc of them (at most
	// 64) must each be visited infinitely often. NAcc 0: every cycle is
	// accepting. A function, so that a product reads them from its
	// automaton's states instead of storing a word per node.
	Acc  func(v int32) uint64
	NAcc int
	// Starts are the nodes a path may begin at.
	Starts []int
	// Parent, when set, says the caller already searched G breadth-first
	// from Starts (in order, each node's slots in order) and reached every
	// node: Parent[v] is the node that first reached v, -1 at a start.
	// Find then skips its own search, one pass over every edge.
	Parent []int32
	// Cycles, when set, is false at the nodes known to lie on no
	// accepting cycle (a product's nodes whose automaton state can visit
	// no acceptance set infinitely often): the cycle search leaves them
	// out, though paths to a cycle may pass them.
	Cycles func(v int32) bool
	// Renumbered, when set, is G under other node numbers, which the SCC
	// search of every node reads instead of G (see Renumbering).
	Renumbered *Renumbering
}

// Renumbering is a graph under other node numbers: node v of Problem.G
// is Key(v) in G, and Node is the inverse. G's slots are Problem.G's in
// the same order, each leading to the key of the same target; a slot
// with no target leads to a negative number or to a key of no node. A
// product with an automaton numbered by its (state, node) pairs computes
// its targets' keys with no look-up per edge, where Problem.G's numbers
// need one (docs/liveness.md#performance).
type Renumbering struct {
	G    scc.Graph
	Key  func(v int32) int32
	Node func(k int32) int32
}

// Lasso is an infinite path: from Start along the Prefix edges to the
// first node of the cycle, then round the Cycle edges forever. Edges are
// named by the graph's EdgeID (for a Graph, indices into To and Event).
type Lasso struct {
	Start  int
	Prefix []int
	Cycle  []int
}

// Find returns a fair accepting lasso of p, or false when none exists.
//
// Each component is judged as the SCC search completes it, so that no
// copy of it is kept: only the part a refinement round keeps, and the
// accepted component, are copied out.
func Find(p *Problem) (Lasso, bool) {
	s := newSearch(p)
	var all []int32
	if p.Parent != nil {
		all = make([]int32, p.G.Len())
		for v := range all {
			all[v] = int32(v)
		}
	} else {
		s.reach()
		for v, ok := range s.seen {
			if ok {
				all = append(all, int32(v))
			}
		}
	}
	if p.Cycles != nil {
		all = slices.DeleteFunc(all, func(v int32) bool { return !p.Cycles(v) })
	}
	work := [][]int32{all}
	var found []int32
	for round := 0; len(work) > 0 && found == nil; round++ {
		set := work[len(work)-1]
		work = work[:len(work)-1]
		s.components(set, round == 0, func(c []int32) {
			if found != nil {
				return
			}
			keep, ok := s.judge(c)
			switch {
			case ok:
				found = slices.Clone(c)
			case keep != nil:
				work = append(work, keep)
			}
		})
	}
	if found == nil {
		return Lasso{}, false
	}
	return s.lasso(found), true
}

type search struct {
	p      *Problem
	g      Digraph
	seen   []bool
	parent []int32 // the node that first reached each node, -1 at a start
	in     []bool  // the SCC search's membership of the set in hand
	member []bool  // membership of the component being judged
	// nFair is how many events Weak or Strong flag: once a component's
	// edges take them all, the rest of its edges cannot change its fate.
	nFair int

	tarjan scc.Scratch // reused across the refinement rounds
}

func newSearch(p *Problem) *search {
	n := p.G.Len()
	s := &search{p: p, g: p.G, in: make([]bool, n), member: make([]bool, n), parent: p.Parent}
	if s.parent == nil {
		s.seen, s.parent = make([]bool, n), make([]int32, n)
		for i := range s.parent {
			s.parent[i] = -1
		}
	}
	for e := range max(len(p.Weak), len(p.Strong)) {
		if flag(p.Weak, int32(e)) || flag(p.Strong, int32(e)) {
			s.nFair++
		}
	}
	return s
}

// reach marks the nodes reachable from the starts, breadth-first, so that
// prefixes are shortest from the first start that reaches them.
func (s *search) reach() {
	var queue []int32
	for _, v := range s.p.Starts {
		if !s.seen[v] {
			s.seen[v] = true
			queue = append(queue, int32(v))
		}
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for i, d := 0, s.g.Degree(v); i < d; i++ {
			if w := s.g.Target(v, i); w >= 0 && !s.seen[w] {
				s.seen[w], s.parent[w] = true, v
				queue = append(queue, w)
			}
		}
	}
}

// judge decides one component: ok when it holds a fair accepting cycle;
// otherwise keep is the part still worth decomposing (nil: none).
func (s *search) judge(c []int32) (keep []int32, ok bool) {
	for _, v := range c {
		s.member[v] = true
	}
	defer func() {
		for _, v := range c {
			s.member[v] = false
		}
	}()
	if !s.internalEdge(c) {
		return nil, false
	}
	var acc uint64
	for _, v := range c {
		if s.p.Acc != nil {
			acc |= s.p.Acc(v)
		}
	}
	if acc&allSets(s.p.NAcc) != allSets(s.p.NAcc) {
		return nil, false
	}
	if s.p.Weak == nil && s.p.Strong == nil {
		return nil, true
	}
	taken := s.taken(c)
	enabledAt := make([]int, len(taken))
	for _, v := range c {
		for _, e := range s.p.Enabled(int(v)) {
			if int(e) < len(enabledAt) {
				enabledAt[e]++
			}
		}
	}
	for e, n := range enabledAt {
		if flag(s.p.Weak, int32(e)) && !taken[e] && n == len(c) {
			return nil, false
		}
	}
	for _, v := range c {
		if !s.starved(v, taken) {
			keep = append(keep, v)
		}
	}
	if len(keep) < len(c) {
		return keep, false
	}
	return nil, true
}

// starved reports whether a strongly fair event is enabled at v but taken
// on no edge of the component: no fair cycle of the component passes v.
func (s *search) starved(v int32, taken []bool) bool {
	for _, e := range s.p.Enabled(int(v)) {
		if flag(s.p.Strong, e) && !taken[e] {
			return true
		}
	}
	return false
}

// takes lists the events of an edge label (Problem.Takes).
func (s *search) takes(label int32) []int32 {
	if s.p.Takes == nil {
		return []int32{label}
	}
	return s.p.Takes(label)
}

func flag(f []bool, e int32) bool { return int(e) < len(f) && f[e] }

func (s *search) internalEdge(c []int32) bool {
	for _, v := range c {
		for i, d := 0, s.g.Degree(v); i < d; i++ {
			if w := s.g.Target(v, i); w >= 0 && s.member[w] {
				return true
			}
		}
	}
	return false
}

// taken flags the fair events (by index, as far as Weak and Strong go)
// on the component's internal edges. Only the flagged events are read,
// so an edge's label is read first and its target looked up only when
// the label takes a fair event not yet seen, and the scan stops once they
// are all taken: most edges of a large component then cost no look-up.
func (s *search) taken(c []int32) []bool {
	t := make([]bool, max(len(s.p.Weak), len(s.p.Strong)))
	left := s.nFair
	for _, v := range c {
		for i, d := 0, s.g.Degree(v); i < d && left > 0; i++ {
			evs := s.takes(s.g.Label(v, i))
			if !s.someNew(evs, t) {
				continue
			}
			if w := s.g.Target(v, i); w >= 0 && s.member[w] {
				for _, e := range evs {
					if flag(s.p.Weak, e) || flag(s.p.Strong, e) {
						if !t[e] {
							t[e] = true
							left--
						}
					}
				}
			}
		}
	}
	return t
}

// someNew reports whether evs holds a fair event not flagged in t.
func (s *search) someNew(evs []int32, t []bool) bool {
	for _, e := range evs {
		if (flag(s.p.Weak, e) || flag(s.p.Strong, e)) && !t[e] {
			return true
		}
	}
	return false
}

// allSets is the mask of n acceptance sets (a shift by 64 is 0 in Go, so
// n = 64 gives every bit).
func allSets(n int) uint64 { return uint64(1)<<uint(n) - 1 }
