package scc

import (
	"fmt"
	"math/rand"
	"runtime"
	"slices"
	"testing"
)

// graph is a random graph in compressed rows with some negative targets.
func graph(r *rand.Rand, n int) (off []int, to []int32) {
	off = make([]int, n+1)
	for v := 0; v < n; v++ {
		for k := r.Intn(4); k > 0; k-- {
			w := int32(r.Intn(n+1)) - 1 // -1 now and then: an ignored edge
			to = append(to, w)
		}
		off[v+1] = len(to)
	}
	return off, to
}

// reach is the brute-force reachability relation of the graph restricted
// to the nodes with in[v] set, honouring sinks.
func reach(off []int, to []int32, in, sink []bool) [][]bool {
	n := len(off) - 1
	r := make([][]bool, n)
	for s := 0; s < n; s++ {
		r[s] = make([]bool, n)
		if !in[s] {
			continue
		}
		r[s][s] = true
		work := []int{s}
		for len(work) > 0 {
			v := work[len(work)-1]
			work = work[:len(work)-1]
			if sink != nil && sink[v] {
				continue
			}
			for _, w := range to[off[v]:off[v+1]] {
				if w >= 0 && in[w] && !r[s][w] {
					r[s][w] = true
					work = append(work, int(w))
				}
			}
		}
	}
	return r
}

// check asserts that the emitted components partition exactly the nodes of
// in, that two nodes share one iff each reaches the other, and that every
// edge between components enters one emitted earlier.
func check(t *testing.T, off []int, to []int32, in, sink []bool, comps [][]int32) {
	t.Helper()
	n := len(off) - 1
	r := reach(off, to, in, sink)
	comp := make([]int, n)
	for i := range comp {
		comp[i] = -1
	}
	for c, members := range comps {
		for _, v := range members {
			if !in[v] || comp[v] >= 0 {
				t.Fatalf("node %d emitted wrongly (in %v, already in %d)", v, in[v], comp[v])
			}
			comp[v] = c
		}
	}
	for v := 0; v < n; v++ {
		if in[v] != (comp[v] >= 0) {
			t.Fatalf("node %d: in %v but component %d", v, in[v], comp[v])
		}
		for w := 0; w < n; w++ {
			if !in[v] || !in[w] {
				continue
			}
			if same := r[v][w] && r[w][v]; same != (comp[v] == comp[w]) {
				t.Fatalf("nodes %d, %d: mutually reachable %v, components %d, %d", v, w, same, comp[v], comp[w])
			}
			if r[v][w] && comp[w] > comp[v] {
				t.Fatalf("%d reaches %d but its component %d is emitted before %d", v, w, comp[v], comp[w])
			}
		}
	}
}

func collect() (*[][]int32, func([]int32)) {
	var out [][]int32
	return &out, func(c []int32) { out = append(out, append([]int32(nil), c...)) }
}

func TestFindAgreesWithReachability(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 500; i++ {
		n := 1 + r.Intn(12)
		off, to := graph(r, n)
		var sink []bool
		if i%2 == 1 {
			sink = make([]bool, n)
			for v := range sink {
				sink[v] = r.Intn(4) == 0
			}
		}
		all := make([]bool, n)
		for v := range all {
			all[v] = true
		}
		out, emit := collect()
		var s Scratch
		s.Find(off, to, sink, emit)
		check(t, off, to, all, sink, *out)

		comp := Numbers(off, to, sink)
		for c, members := range *out {
			for _, v := range members {
				if comp[v] != int32(c) {
					t.Fatalf("graph %d: Numbers gives node %d component %d, Find %d", i, v, comp[v], c)
				}
			}
		}
	}
}

// TestFindInAgreesWithReachability runs several subsets through one Scratch,
// as fair's refinement does, so stale scratch from an earlier, larger call
// would show.
func TestFindInAgreesWithReachability(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 200; i++ {
		n := 1 + r.Intn(12)
		off, to := graph(r, n)
		var s Scratch
		for round := 0; round < 5; round++ {
			in := make([]bool, n)
			var set []int32
			for _, v := range r.Perm(n) {
				if round < 4 && r.Intn(3) > 0 { // round 4: the empty set, not the whole graph
					in[v] = true
					set = append(set, int32(v))
				}
			}
			var sink []bool
			if round%2 == 1 {
				sink = make([]bool, n)
				for v := range sink {
					sink[v] = r.Intn(4) == 0
				}
			}
			out, emit := collect()
			s.FindIn(off, to, set, in, sink, emit)
			check(t, off, to, in, sink, *out)
		}
	}
}

// rows is a graph in compressed rows read through the Graph interface, as
// a product with an automaton is.
type rows struct {
	off []int
	to  []int32
}

func (g *rows) Len() int           { return len(g.off) - 1 }
func (g *rows) Degree(v int32) int { return g.off[v+1] - g.off[v] }
func (g *rows) Targets(v int32, i int, buf []int32) int {
	return copy(buf, g.to[g.off[v]+i:g.off[v+1]])
}

// subset draws about two thirds of nodes 0 … n-1 in random order (none
// unless some), as a mask and a list.
func subset(r *rand.Rand, n int, some bool) (in []bool, set []int32) {
	in = make([]bool, n)
	for _, v := range r.Perm(n) {
		if some && r.Intn(3) > 0 {
			in[v] = true
			set = append(set, int32(v))
		}
	}
	return in, set
}

func TestFindInGraphAgreesWithReachability(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 200; i++ {
		n := 1 + r.Intn(12)
		off, to := graph(r, n)
		var s, direct Scratch
		for round := 0; round < 4; round++ {
			in, set := subset(r, n, round < 3)
			out, emit := collect()
			s.FindInGraph(&rows{off, to}, set, in, emit)
			check(t, off, to, in, nil, *out)
			want, emitWant := collect()
			direct.FindIn(off, to, set, in, nil, emitWant)
			if fmt.Sprint(*out) != fmt.Sprint(*want) {
				t.Fatalf("graph %d: FindInGraph %v, FindIn %v", i, *out, *want)
			}
		}
	}
}

// TestFindAmongAgreesWithFindIn checks the search that marks the nodes
// outside its set instead of reading a mask: the same components in the
// same order as FindIn, on a scratch whose arrays an earlier search of
// another set left behind (an index it did not reset would let the walk
// into a node outside the set, or skip one inside), with an emit that
// overwrites each component it is given.
func TestFindAmongAgreesWithFindIn(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for i := 0; i < 200; i++ {
		n := 1 + r.Intn(12)
		off, to := graph(r, n)
		var s, direct Scratch
		for round := 0; round < 4; round++ {
			in, set := subset(r, n, round < 3)
			out, emit := collect()
			s.FindAmong(&rows{off, to}, set, func(c []int32) {
				emit(c)
				for i := range c { // emit may overwrite its argument
					c[i] = int32(n)
				}
			})
			check(t, off, to, in, nil, *out)
			want, emitWant := collect()
			direct.FindIn(off, to, set, in, nil, emitWant)
			if fmt.Sprint(*out) != fmt.Sprint(*want) {
				t.Fatalf("graph %d: FindAmong %v, FindIn %v", i, *out, *want)
			}
			// leave stale indices for the next round's FindAmong
			s.FindInGraph(&rows{off, to}, nil, nil, func([]int32) {})
		}
	}
}

// TestDeepStacksGrowByDoubling checks what the search allocates on a path
// as deep as the graph (every node on both stacks at once): its three
// arrays (9 bytes a node) and stacks grown by doubling (16 bytes a node
// at the end, at most twice that allocated over the search), under 48
// bytes a node. append's growth by a quarter allocates about five times
// the final stacks, over 80 bytes a node (issue 42 item 3).
func TestDeepStacksGrowByDoubling(t *testing.T) {
	const n = 1 << 18
	off, to := make([]int, n+1), make([]int32, n)
	for v := range n {
		to[v] = int32((v + 1) % n) // one cycle: one component, n deep
		off[v+1] = v + 1
	}
	var s Scratch
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	comps := 0
	s.Find(off, to, nil, func([]int32) { comps++ })
	runtime.ReadMemStats(&after)
	if comps != 1 {
		t.Fatalf("%d components, want 1", comps)
	}
	if perNode := float64(after.TotalAlloc-before.TotalAlloc) / n; perNode > 48 {
		t.Errorf("%.1f bytes allocated per node of a path %d deep", perNode, n)
	}
}

// TestFourBytesTwicePerNode checks that the search keeps two int32 per
// node and no more: whether a node is on Tarjan's stack is read from its
// index (done once its component is emitted), not from a flag array, so
// each edge to a visited node costs one random access, not two. On a
// graph without edges (stacks one deep) it allocates 8 bytes a node; the
// flag array made it 9.
func TestFourBytesTwicePerNode(t *testing.T) {
	const n = 1 << 20
	off, to := make([]int, n+1), []int32{}
	var s Scratch
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	comps := 0
	s.Find(off, to, nil, func([]int32) { comps++ })
	runtime.ReadMemStats(&after)
	if comps != n {
		t.Fatalf("%d components, want %d", comps, n)
	}
	if perNode := float64(after.TotalAlloc-before.TotalAlloc) / n; perNode > 8.01 {
		t.Errorf("%.3f bytes allocated per node", perNode)
	}
}

// tarjan is the textbook recursive Tarjan's algorithm on the subgraph of
// in, roots in the order given: the components, each with its members in
// the order they leave the stack's top part, in completion order.
func tarjan(off []int, to []int32, roots []int32, in []bool) [][]int32 {
	n := len(off) - 1
	index, low := make([]int, n), make([]int, n)
	on := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int32
	var out [][]int32
	next := 0
	var visit func(v int32)
	visit = func(v int32) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		on[v] = true
		for _, w := range to[off[v]:off[v+1]] {
			switch {
			case w < 0 || !in[w]:
			case index[w] < 0:
				visit(w)
				low[v] = min(low[v], low[w])
			case on[w]:
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			top := len(stack) - 1
			for stack[top] != v {
				top--
			}
			for _, w := range stack[top:] {
				on[w] = false
			}
			out = append(out, slices.Clone(stack[top:]))
			stack = stack[:top]
		}
	}
	for _, v := range roots {
		if index[v] < 0 {
			visit(v)
		}
	}
	return out
}

// TestBatchesKeepTarjansOrder checks that reading a node's targets in
// batches (some nodes with more slots than a batch, searches descending
// in the middle of one) emits exactly what Tarjan's algorithm emits: the
// same components in the same order with their members in the same
// order, which the fair search's refinement and its reports depend on.
func TestBatchesKeepTarjansOrder(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	var s Scratch
	for i := 0; i < 300; i++ {
		n := 1 + r.Intn(60)
		off := make([]int, n+1)
		var to []int32
		for v := 0; v < n; v++ {
			for k := r.Intn(3 * batchLen); k > 0; k-- {
				to = append(to, int32(r.Intn(n+1))-1)
			}
			off[v+1] = len(to)
		}
		in := make([]bool, n)
		var set []int32
		for _, v := range r.Perm(n) {
			if i%2 == 0 || r.Intn(4) > 0 {
				in[v] = true
				set = append(set, int32(v))
			}
		}
		want := tarjan(off, to, set, in)
		out, emit := collect()
		s.FindInGraph(&rows{off, to}, set, in, emit)
		if fmt.Sprint(*out) != fmt.Sprint(want) {
			t.Fatalf("graph %d: batched %v, Tarjan %v", i, *out, want)
		}
	}
}

// counted is rows counting the slots and calls Targets answers.
type counted struct {
	rows
	slots, calls int
}

func (g *counted) Targets(v int32, i int, buf []int32) int {
	n := g.rows.Targets(v, i, buf)
	g.slots += n
	g.calls++
	return n
}

// TestBatchesWasteFewLookUps checks that the batches the search asks for
// start small at a node and grow: a batch is dropped when the search
// descends, so the slots read past a tree edge are look-ups wasted (on a
// product, a random access each). On a hypercube of 12 bits whose nodes
// list their neighbours twice (24 slots), the search reads under 1.1
// slots per slot it follows (1.05), in under a call per three slots; a
// fixed batch of 16 read 1.58 (issue 42 item 3).
func TestBatchesWasteFewLookUps(t *testing.T) {
	const k = 12
	g := &counted{rows: rows{off: make([]int, 1<<k+1)}}
	for v := range 1 << k {
		for range 2 {
			for i := range k {
				g.to = append(g.to, int32(v^1<<i))
			}
		}
		g.off[v+1] = len(g.to)
	}
	var s Scratch
	comps := 0
	s.FindInGraph(g, nil, nil, func([]int32) { comps++ })
	if comps != 1 {
		t.Fatalf("%d components, want 1", comps)
	}
	slots := len(g.to)
	if r := float64(g.slots) / float64(slots); r > 1.1 || g.calls > slots/3 {
		t.Errorf("%d slots read for %d (%.2fx) in %d calls", g.slots, slots, r, g.calls)
	}
}
