package explore

import "runtime/debug"

// A search that keeps its edges (Search.KeepEdges) records, for every
// successor it interns, the node it was found or stored as, so that
// Adjacency hands those edges over instead of stepping every node again:
// the interning already paid for each edge's step and its look-up in the
// visited set, which is what rebuilding them costs.
//
// The edges are Successors', while Adjacency lists Fired's; the two agree
// unless the machine merges outcomes, so a machine that may (or cannot
// say) has its edges rebuilt as before. Edges are recorded in the order
// the interning meets them — source by source, then step order — which
// is the order Adjacency lists them in. With more than two workers a
// wide batch is interned by shard, out of that order: its edges are
// recorded once it is stored, a stored candidate by the index it was
// given and a duplicate by a look-up of the table, which the batch has
// just brought into cache.

// merging is a machine that can say whether Successors merges outcomes
// that Fired lists apart (see MergesOutcomes of the JSON runtime).
type merging interface{ MergesOutcomes() bool }

// keptEdges holds the edges of a search as it interns them, in chunks so
// that growing them moves nothing; Adjacency copies them out at their
// exact size.
type keptEdges struct {
	off     []int     // per source seen so far, its first edge
	to, via [][]int32 // edgeChunk edges per chunk
	n       int       // edges kept
	adj     *Adjacency
}

const (
	edgeChunkBits = 16
	edgeChunk     = 1 << edgeChunkBits
)

// keepsEdges reports whether search s can keep its edges on graph g.
func (s *Search) keepsEdges() bool {
	if !s.KeepEdges || s.OnEdge != nil || s.Extra != 0 {
		return false
	}
	m, ok := s.Machine.(merging)
	return ok && !m.MergesOutcomes()
}

// add records the edge from node from to node to by step label via; from
// never decreases from one call to the next.
func (k *keptEdges) add(from, to int, via int32) {
	for len(k.off) <= from {
		k.off = append(k.off, k.n)
	}
	c, at := k.n>>edgeChunkBits, k.n&(edgeChunk-1)
	if c == len(k.to) {
		k.to = append(k.to, make([]int32, edgeChunk))
		k.via = append(k.via, make([]int32, edgeChunk))
	}
	k.to[c][at], k.via[c][at] = int32(to), via
	k.n++
}

// adjacency returns the kept edges of the first expanded nodes of an
// n-node graph: those of a node whose expansion the cap cut short are
// dropped, as nodes not expanded have none. The chunks are released as
// they are copied.
func (k *keptEdges) adjacency(n, expanded int) *Adjacency {
	if k.adj != nil {
		return k.adj
	}
	for len(k.off) <= expanded {
		k.off = append(k.off, k.n)
	}
	m := k.off[expanded]
	off := k.off[:expanded+1]
	for len(off) <= n {
		off = append(off, m)
	}
	a := &Adjacency{Off: off}
	k.off = nil
	a.To = gather(k.to, m)
	k.to = nil
	release(m)
	a.Via = gather(k.via, m)
	k.via = nil
	release(m)
	k.adj = a
	return a
}

// release returns the chunks just copied out to the operating system, once
// there are enough of them to matter. The exact-size copy takes fresh
// pages, and the chunks' pages stay resident until they are reused: freed
// between the two arrays, they bound the peak to the chunks and one array
// (1.5 times the edges) instead of the chunks and both (twice), and what
// the checks allocate next (the product, the SCC search) takes the pages
// back as it needs them instead of the heap growing past them.
func release(edges int) {
	if edges >= collectEdges {
		debug.FreeOSMemory()
	}
}

// collectEdges is the fewest edges whose chunks are collected at once.
const collectEdges = 1 << 20

// gather copies the first m values of chunks into one slice, dropping
// each chunk once it is copied.
func gather(chunks [][]int32, m int) []int32 {
	out := make([]int32, m)
	for c := range chunks {
		lo := c << edgeChunkBits
		if lo < m {
			copy(out[lo:], chunks[c][:min(edgeChunk, m-lo)])
		}
		chunks[c] = nil
	}
	return out
}

// keepEdges records the edges of a settled epoch's valid levels: each
// walked node's one successor is the next level, and the last one's, when
// it was found stored, is dupNode.
func (ew *epochWalk) keepEdges(k *keptEdges, valid, dupNode int) {
	for l := range valid {
		k.add(ew.first-1+l, ew.first+l, ew.trans[l])
	}
	if dupNode >= 0 {
		k.add(ew.first-1+valid, dupNode, ew.trans[valid])
	}
}

// keepBatch records the edges of a batch interned by shard, once its new
// nodes are stored: those of a candidate stored (or, past the cap, not)
// from the store phase, the others by finding the node in the table.
func (g *Graph) keepBatch(segs []*segment) {
	for _, sg := range segs {
		for k := range sg.trans {
			idx := int(sg.nodeOf[k])
			if *sg.answer(k) == notNew {
				idx, _ = g.find(sg.cand(k, g.stride), sg.hashes[k])
			}
			g.kept.add(int(sg.from[k]), idx, sg.trans[k])
		}
	}
}
