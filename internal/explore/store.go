package explore

import "github.com/stateproof/stateproof/internal/frontend/concrete"

// NewStore returns an empty node store for searches that are not
// breadth-first (the leads-to walk): nodes are interned with Intern and
// unpacked with Node, exactly as in a Graph built by Search. A store's
// memory follows the nodes it holds: its first chunk grows with them
// (a partitioned search makes a store per level, most holding a few
// nodes), so a store must not be read while it grows.
func NewStore(m concrete.Machine, extra, capHint int) *Graph {
	g := newGraph(m, extra, capHint)
	g.Cap = capHint
	g.stretch = true
	return g
}

// Intern stores a node given by its unpacked words (runtime, then extra)
// unless it is present, and returns its index and whether it is new.
// parent and via are recorded for new nodes only.
func (g *Graph) Intern(node []int64, parent, via int) (int, bool) {
	if g.packBuf == nil {
		g.packBuf = make([]int64, g.stride)
	}
	p := g.packBuf
	g.lay.pack(p, node)
	return g.intern(p, HashWords(p), parent, via)
}

// Reset empties a store, keeping its layout and the room it made for
// the nodes it held (the arena is written before it is read, so it is
// not cleared): a partitioned search's worker collects every level in
// one store instead of making one a level.
func (g *Graph) Reset() {
	g.n, g.Expanded, g.Truncated = 0, 0, false
	for i := range g.shards {
		clear(g.shards[i].table)
		g.shards[i].count = 0
	}
}

// Adjacency is the successor relation of a graph's expanded nodes in
// compressed rows: the edges of node i are Off[i] up to Off[i+1]; edge k
// leads to node To[k] by model transition Via[k]. To[k] is -1 when the
// successor was never stored (the search that built the graph was
// truncated). Nodes that were not expanded have no edges.
type Adjacency struct {
	Off []int
	To  []int32
	Via []int32
}

// Adjacency rebuilds the edges of a graph with no extra words by stepping
// every expanded node again. Edges come in search order (sorted alphabet,
// then step order) and are not deduplicated: two transitions reaching one
// runtime give two edges.
//
// For a spilled graph, Adjacency returns nil when the edges would not fit
// in the search's memory budget: the caller reports the checks that need
// them as not decided ("graph larger than --memory").
func (g *Graph) Adjacency() *Adjacency {
	if g.spill != nil {
		return g.spilledAdjacency()
	}
	if g.kept != nil {
		return g.kept.adjacency(g.Len(), g.Expanded)
	}
	m := g.M
	n := g.Len()
	a := &Adjacency{Off: make([]int, n+1)}
	src := make([]int64, g.lay.width)
	packed := make([]int64, g.stride)
	var buf concrete.Buffer
	for i := 0; i < n; i++ {
		a.Off[i] = len(a.To)
		if i >= g.Expanded {
			continue
		}
		if i == adjacencySample {
			a.reserve(len(a.To) * min(n, g.Expanded) / i)
		}
		g.lay.unpack(src, g.packedNode(i))
		for _, o := range m.Fired(src[:m.Width()], &buf) {
			g.lay.pack(packed, o.Next)
			j, _ := g.find(packed, HashWords(packed))
			a.To = append(a.To, int32(j))
			a.Via = append(a.Via, int32(o.Label))
		}
	}
	a.Off[n] = len(a.To)
	return a
}

// adjacencySample is how many nodes Adjacency steps before it sizes its
// arrays by their mean out-degree: grown by appending, the edge arrays of
// a million-node graph allocated five times what they kept.
const adjacencySample = 1024

// reserve makes room for about edges edges in all (an eighth more, for a
// degree that grows later in the search), keeping those stored.
func (a *Adjacency) reserve(edges int) {
	edges += edges / 8
	if edges <= cap(a.To) {
		return
	}
	a.To = append(make([]int32, 0, edges), a.To...)
	a.Via = append(make([]int32, 0, edges), a.Via...)
}

// Edges returns the successor nodes and transitions of node i.
func (a *Adjacency) Edges(i int) (to, via []int32) {
	return a.To[a.Off[i]:a.Off[i+1]], a.Via[a.Off[i]:a.Off[i+1]]
}

// spilledAdjacency is Adjacency for a spilled graph: successors the
// visited set cannot place at once are settled in sorted batches.
func (g *Graph) spilledAdjacency() *Adjacency {
	m, sp := g.M, g.spill
	n := g.Len()
	limit := sp.sp.Memory
	if int64(n+1)*8 > limit {
		return nil
	}
	a := &Adjacency{Off: make([]int, n+1)}
	src := make([]int64, g.lay.width)
	packed := make([]int64, g.stride)
	var buf concrete.Buffer
	var qw []int64
	var qh []uint64
	var qat []int
	settle := func() bool {
		if len(qh) == 0 {
			return true
		}
		idx := make([]int, len(qh))
		if err := sp.vis.Settle(qw, qh, idx); err != nil {
			g.fail(err)
			return false
		}
		for k, at := range qat {
			a.To[at] = int32(idx[k])
		}
		qw, qh, qat = qw[:0], qh[:0], qat[:0]
		return true
	}
	for i := 0; i < n; i++ {
		a.Off[i] = len(a.To)
		if i >= g.Expanded {
			continue
		}
		g.lay.unpack(src, g.packedNode(i))
		for _, o := range m.Fired(src[:m.Width()], &buf) {
			g.lay.pack(packed, o.Next)
			h := HashWords(packed)
			j := sp.vis.Probe(packed, h)
			if j == Unknown {
				qw = append(qw, packed...)
				qh = append(qh, h)
				qat = append(qat, len(a.To))
			}
			a.To = append(a.To, int32(j))
			a.Via = append(a.Via, int32(o.Label))
		}
		if int64(n+1)*8+int64(cap(a.To))*8+int64(cap(qw))*8+int64(cap(qh))*16 > limit {
			return nil
		}
		if len(qh) >= settleBatch && !settle() {
			return nil
		}
	}
	if !settle() {
		return nil
	}
	a.Off[n] = len(a.To)
	return a
}

// settleBatch is how many unplaced successors Adjacency settles at once.
const settleBatch = 1 << 16
