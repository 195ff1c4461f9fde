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
}

// done is the index of a node whose component has been emitted.
const done = math.MaxInt32

// frame is a node on the depth-first path and its next edge slot.
type frame struct {
	v         int32
	edge, end int32
}

// Graph is a directed graph read on demand, for graphs whose edges are
// computed rather than stored (a product with an automaton): node v has
// Degree(v) edge slots, and slot i leads to Target(v, i), or to nothing
// when that is negative. Nodes are 0 … Len()-1.
type Graph interface {
	Len() int
	Degree(v int32) int
	Target(v int32, i int) int32
}

// csr is a graph in compressed rows as a Graph; a value type, so that the
// generic search is compiled for it with direct slice reads.
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

func (g csr) Target(v int32, i int) int32 { return g.to[g.off[v]+i] }

// Find visits the components of the whole graph whose edges from v are
// to[off[v]:off[v+1]] (negative targets are ignored, and so are all edges
// of a node with sink[v] set; sink may be nil), trying the nodes as roots
// in order 0..n-1.
//
// emit is called once per component in completion order, which is a
// reverse topological order: every edge leaving a component enters one
// emitted earlier. Its argument is valid only during the call.
func (s *Scratch) Find(off []int, to []int32, sink []bool, emit func(members []int32)) {
	find(s, csr{off, to, sink}, nil, nil, emit)
}

// FindIn is Find on the subgraph induced by set: only the nodes of set are
// roots, in the given order, and only edges to nodes with in[w] set are
// followed. in must mark exactly the nodes of set. The work is
// proportional to the subset and its edges, not to the whole graph.
func (s *Scratch) FindIn(off []int, to []int32, set []int32, in, sink []bool, emit func(members []int32)) {
	if in == nil {
		panic("scc: FindIn without a membership mask")
	}
	find(s, csr{off, to, sink}, set, in, emit)
}

// FindInGraph is FindIn on a graph read on demand: no edge list is built,
// each edge is asked of g when the search reaches it. With set and in
// both nil it is Find on the whole of g, with no mask to read per edge.
func (s *Scratch) FindInGraph(g Graph, set []int32, in []bool, emit func(members []int32)) {
	if in == nil && set != nil {
		panic("scc: FindInGraph without a membership mask")
	}
	find(s, g, set, in, emit)
}

// find searches the whole graph when in is nil, else the subgraph of roots.
func find[G Graph](s *Scratch, g G, roots []int32, in []bool, emit func(members []int32)) {
	n := g.Len()
	if len(s.index) < n {
		s.index, s.low = make([]int32, n), make([]int32, n)
	}
	index, low := s.index, s.low
	if in == nil {
		for v := 0; v < n; v++ {
			index[v] = -1
		}
	} else {
		for _, v := range roots {
			index[v] = -1
		}
	}
	stack, call := s.stack[:0], s.call[:0]
	var next int32
	root := func(v int32) {
		if index[v] >= 0 {
			return
		}
		index[v], low[v] = next, next
		next++
		stack = push(stack, v)
		call = push(call[:0], frame{v, 0, int32(g.Degree(v))})
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if f.edge < f.end {
				w := g.Target(v, int(f.edge))
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
				emit(stack[top:])
				stack = stack[:top]
			}
		}
	}
	if in == nil {
		for v := 0; v < n; v++ {
			root(int32(v))
		}
	} else {
		for _, v := range roots {
			root(v)
		}
	}
	s.stack, s.call = stack, call
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
