package scc

import "math"

// Scratch holds Tarjan's arrays between calls, so that repeated calls on
// subsets of one graph cost in proportion to the subset, not the graph.
// The zero value is ready to use; a Scratch is not safe for concurrent use.
type Scratch struct {
	// index is each node's visit number, -1 before its visit and done
	// once its component is emitted: a visited node is on Tarjan's stack
	// exactly until then, so no separate flag (and no second random
	// access per edge) says so.
	index, low []int32
	stack      []int32
	call       []frame
	// batch holds targets of the node on top of the call stack, read
	// from the graph a batch at a time (see Graph).
	batch []int32
}

// done is the index of a node whose component has been emitted.
const done = math.MaxInt32

// firstBatch and batchLen bound the edge slots read from a Graph in one
// call. A batch is dropped when the search descends from its node, and
// read again from the next slot on its return: the slots read past a tree
// edge are wasted look-ups. So the first batch at a node, or on a return
// to it, is two slots, and each further one twice the last, up to
// batchLen: on a product of a hypercube with an automaton this reads 5%
// more slots than the search uses, where a fixed 16 read 50% more, in
// under a third of a call per slot.
const (
	firstBatch = 2
	batchLen   = 32
)

// frame is a node on the depth-first path and its next edge slot.
type frame struct {
	v         int32
	edge, end int32
}

// Graph is a directed graph read on demand, for graphs whose edges are
// computed rather than stored (a product with an automaton): node v has
// Degree(v) edge slots, and slot i leads to a node, or to nothing when
// its target is negative. Nodes are 0 … Len()-1.
//
// Targets writes the targets of v's slots i, i+1, … into buf, as many as
// fit and v has, and returns how many it wrote. The search asks for a
// batch of slots at once rather than one slot per call: a call through
// an interface (or a generic type's dictionary: Go compiles a type
// parameter's methods as indirect calls) per product edge, each decoding
// the node again, was most of a product's SCC search, and a batch's
// look-ups are independent memory accesses the processor overlaps.
type Graph interface {
	Len() int
	Degree(v int32) int
	Targets(v int32, i int, buf []int32) int
}

// csr is a graph in compressed rows as a Graph.
type csr struct {
	off  []int
	to   []int32
	sink []bool
}

func (g csr) Len() int { return len(g.off) - 1 }

func (g csr) Degree(v int32) int {
	if g.sink != nil && g.sink[v] {
		return 0
	}
	return g.off[v+1] - g.off[v]
}

func (g csr) Targets(v int32, i int, buf []int32) int {
	return copy(buf, g.to[g.off[v]+i:g.off[v+1]])
}

// Find visits the components of the whole graph whose edges from v are
// to[off[v]:off[v+1]] (negative targets are ignored, and so are all edges
// of a node with sink[v] set; sink may be nil), trying the nodes as roots
// in order 0..n-1.
//
// emit is called once per component in completion order, which is a
// reverse topological order: every edge leaving a component enters one
// emitted earlier. Its argument is valid only during the call, and emit
// may overwrite it: the search reads none of it after the call.
func (s *Scratch) Find(off []int, to []int32, sink []bool, emit func(members []int32)) {
	s.find(csr{off, to, sink}, nil, nil, emit)
}

// FindIn is Find on the subgraph induced by set: only the nodes of set are
// roots, in the given order, and only edges to nodes with in[w] set are
// followed. in must mark exactly the nodes of set. The work is
// proportional to the subset and its edges, not to the whole graph.
func (s *Scratch) FindIn(off []int, to []int32, set []int32, in, sink []bool, emit func(members []int32)) {
	if in == nil {
		panic("scc: FindIn without a membership mask")
	}
	s.find(csr{off, to, sink}, set, in, emit)
}

// FindInGraph is FindIn on a graph read on demand: no edge list is built,
// each node's edges are asked of g when the search reaches them. With set
// and in both nil it is Find on the whole of g, with no mask to read per
// edge.
func (s *Scratch) FindInGraph(g Graph, set []int32, in []bool, emit func(members []int32)) {
	if in == nil && set != nil {
		panic("scc: FindInGraph without a membership mask")
	}
	s.find(g, set, in, emit)
}

// FindAmong is FindInGraph on the subgraph induced by set with no
// membership mask: every node of g outside set is marked as in a
// component already emitted, so the search skips edges to it as it skips
// edges into finished components, with no second array read per edge.
// Marking costs g.Len(), whatever the size of set: it is for a set that
// is most of g, or a graph numbered so that its edges need no look-up
// but whose numbers include nodes that are not there. emit may overwrite
// its argument, as with Find.
func (s *Scratch) FindAmong(g Graph, set []int32, emit func(members []int32)) {
	if set == nil {
		set = []int32{}
	}
	s.find(g, set, nil, emit)
}

// find searches the whole graph when roots and in are nil, else the
// subgraph of roots: masked by in, or with in nil by marking the other
// nodes done.
func (s *Scratch) find(g Graph, roots []int32, in []bool, emit func(members []int32)) {
	whole := roots == nil && in == nil
	n := g.Len()
	if len(s.index) < n {
		s.index, s.low = make([]int32, n), make([]int32, n)
	}
	if s.batch == nil {
		s.batch = make([]int32, batchLen)
	}
	switch {
	case whole:
		for v := 0; v < n; v++ {
			s.index[v] = -1
		}
	case in == nil:
		for v := 0; v < n; v++ {
			s.index[v] = done
		}
		fallthrough
	default:
		for _, v := range roots {
			s.index[v] = -1
		}
	}
	w := walk{Scratch: s, g: g, in: in, emit: emit}
	if whole {
		for v := 0; v < n; v++ {
			if s.index[v] < 0 {
				w.from(int32(v))
			}
		}
	} else {
		for _, v := range roots {
			if s.index[v] < 0 {
				w.from(v)
			}
		}
	}
}

// walk is one search: the scratch arrays, the graph and the next index.
type walk struct {
	*Scratch
	g    Graph
	in   []bool
	emit func(members []int32)
	next int32
}

// from visits every node not yet visited reachable from root, emitting
// each component as it completes. The arrays are held in locals for the
// loop, which runs once per edge slot.
func (t *walk) from(root int32) {
	g, in, index, low, batch := t.g, t.in, t.index, t.low, t.batch
	next := t.next
	stack, call := push(t.stack[:0], root), push(t.call[:0], frame{root, 0, int32(g.Degree(root))})
	index[root], low[root] = next, next
	next++
	// batch holds the targets of slots lo … lo+len(ready)-1 of node at,
	// size of them asked for
	at, lo, ready := int32(-1), int32(0), batch[:0]
	size := int32(firstBatch)
	for len(call) > 0 {
		f := &call[len(call)-1]
		v := f.v
		if f.edge < f.end {
			if at != v || f.edge >= lo+int32(len(ready)) {
				if at == v {
					size = min(2*size, batchLen)
				} else {
					size = firstBatch
				}
				at, lo = v, f.edge
				ready = batch[:g.Targets(v, int(f.edge), batch[:min(size, f.end-f.edge)])]
			}
			w := ready[f.edge-lo]
			f.edge++
			switch {
			case w < 0 || in != nil && !in[w]:
			case index[w] < 0:
				index[w], low[w] = next, next
				next++
				stack = push(stack, w)
				call = push(call, frame{w, 0, int32(g.Degree(w))})
			case index[w] != done: // on the stack
				low[v] = min(low[v], index[w])
			}
			continue
		}
		call = call[:len(call)-1]
		if len(call) > 0 {
			p := call[len(call)-1].v
			low[p] = min(low[p], low[v])
		}
		if low[v] == index[v] {
			top := len(stack) - 1
			for stack[top] != v {
				top--
			}
			for _, w := range stack[top:] {
				index[w] = done
			}
			t.emit(stack[top:])
			stack = stack[:top]
		}
	}
	t.next, t.stack, t.call = next, stack, call
}

// push appends x to s, doubling its capacity when it is full. The search's
// stacks can grow as deep as the graph is large, and append grows a large
// slice by a quarter at a time: about five times the final stack
// allocated over the search, where doubling allocates twice.
func push[T any](s []T, x T) []T {
	if len(s) == cap(s) {
		t := make([]T, len(s), max(2*len(s), 64))
		copy(t, s)
		s = t
	}
	return append(s, x)
}

// Numbers returns the component number of every node of the whole graph,
// components numbered in completion order (see Find).
func Numbers(off []int, to []int32, sink []bool) []int32 {
	comp := make([]int32, len(off)-1)
	var s Scratch
	var c int32
	s.Find(off, to, sink, func(members []int32) {
		for _, v := range members {
			comp[v] = c
		}
		c++
	})
	return comp
}
