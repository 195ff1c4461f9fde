package explore

import (
	"github.com/stateproof/stateproof/internal/frontend/concrete"
)

// A worker of a partitioned search keeps the states it owns in a store
// of its own, and with a memory budget in a spilling store: the visited
// set (spillSet: an exact table of the nodes added since the last spill,
// sorted runs on disk and their filter) and the node and link chunks
// (evicted to block files below the frontier) of a spilling Search, the
// same types, driven from outside: the worker, not a level loop, decides
// when a level is settled and when to spill (Fit).

// NewSpillingStore returns an empty store that keeps what passes
// sp.Memory on disk, in sp.Dir. Nodes are placed in batches (Place), a
// node known to be new is stored with AddNew, and Fit spills between
// levels; Node, Runtime, StateOf and Parent read stored nodes back from
// disk where they were evicted. Err reports a store error.
func NewSpillingStore(m concrete.Machine, sp Spill) (*Graph, error) {
	g := newGraph(m, 0, 1)
	g.Cap = MaxSpillStates
	g.spill = &spilled{sp: sp}
	var err error
	if g.arena.disk, err = newChunkDisk[int64](sp.Dir, "nodes", g.stride<<g.bits); err != nil {
		return nil, err
	}
	if g.links.disk, err = newChunkDisk[link](sp.Dir, "links", 1<<g.bits); err != nil {
		return nil, err
	}
	set := newSpillSet(sp.Dir, g.stride)
	g.spill.set, g.spill.vis = set, set
	return g, nil
}

// Probe returns the index of a stored node given by its unpacked words,
// -1 when it is surely not stored, or Unknown when only Place can tell
// (a spilling store whose filter matches one of its runs). An in-memory
// store always knows.
func (g *Graph) Probe(node []int64) int {
	if g.packBuf == nil {
		g.packBuf = make([]int64, g.stride)
	}
	p := g.packBuf
	g.lay.pack(p, node)
	h := HashWords(p)
	if g.spill == nil {
		i, _ := g.find(p, h)
		return i
	}
	return g.spill.set.Probe(p, h)
}

// Place sets idx[k] to the index of the stored node given by words
// k*Width() up to (k+1)*Width() of nodes, or -1: what a spilling store
// cannot answer from memory is settled in one sorted pass over its runs,
// so a level's unplaced nodes are best placed at once.
func (g *Graph) Place(nodes []int64, idx []int) error {
	w := g.lay.width
	packed := make([]int64, len(idx)*g.stride)
	var qw []int64
	var qh []uint64
	var at []int
	for k := range idx {
		p := packed[k*g.stride : (k+1)*g.stride]
		g.lay.pack(p, nodes[k*w:(k+1)*w])
		h := HashWords(p)
		if g.spill == nil {
			idx[k], _ = g.find(p, h)
			continue
		}
		if idx[k] = g.spill.set.Probe(p, h); idx[k] == Unknown {
			qw, qh, at = append(qw, p...), append(qh, h), append(at, k)
		}
	}
	if len(at) == 0 {
		return nil
	}
	found := make([]int, len(at))
	if err := g.spill.vis.Settle(qw, qh, found); err != nil {
		g.fail(err)
		return err
	}
	for j, k := range at {
		idx[k] = found[j]
	}
	return nil
}

// AddNew stores a node, given by its unpacked words, that the caller
// knows is not stored (Place said so), with its parent link, and returns
// its index: a spilling store does not look for it again.
func (g *Graph) AddNew(node []int64, parent, via int) int {
	if g.spill == nil {
		i, _ := g.Intern(node, parent, via)
		return i
	}
	if g.packBuf == nil {
		g.packBuf = make([]int64, g.stride)
	}
	p := g.packBuf
	g.lay.pack(p, node)
	h := [1]uint64{HashWords(p)}
	idx := g.n
	g.grow(idx + 1)
	g.n++
	g.store(idx, p, link{int32(parent), int32(via)})
	if err := g.spill.set.Add(p, h[:], idx); err != nil {
		g.fail(err)
	}
	return idx
}

// Fit keeps a spilling store within its budget between levels, given
// the bytes its owner holds beside it (other) and the first node still to
// be read in order (frontier): past the budget, the chunks wholly before
// the frontier's go to disk, and the visited table goes to a sorted run
// once it is a good share of the budget (as a spilling Search does after
// each level: a small table written out per level would only fill the
// disk with tiny runs). It does nothing to an in-memory store.
func (g *Graph) Fit(frontier int, other int64) error {
	sp := g.spill
	if sp == nil {
		return nil
	}
	if sp.err != nil {
		return sp.err
	}
	set := sp.set
	chunkBytes := int64(g.stride*8+8) << g.bits
	table := set.peakBytes()
	held := table + set.runs.MemoryBytes() + int64(g.arena.resident())*chunkBytes + other
	over := held > sp.sp.Memory && table >= sp.sp.Memory/4
	if sp.sp.MemoryNodes > 0 {
		over = set.entries() > sp.sp.MemoryNodes
	}
	if held > sp.sp.Memory || over {
		for k := range frontier >> g.bits {
			if err := g.arena.evict(k); err != nil {
				g.fail(err)
				return err
			}
			if err := g.links.evict(k); err != nil {
				g.fail(err)
				return err
			}
		}
	}
	if !over {
		return nil
	}
	sp.stats.SpilledNodes += set.entries()
	sp.stats.Spills++
	if err := set.spill(); err != nil {
		g.fail(err)
		return err
	}
	return nil
}

// Stride is how many words a node takes packed (Pack): a worker writes a
// level too wide for its budget to sorted chunks in that form, a word or
// two a node where the unpacked runtime takes one a variable.
func (g *Graph) Stride() int { return g.stride }

// Pack writes the packed form of node, given by its Width() unpacked
// words, to dst (Stride() words); Unpack undoes it.
func (g *Graph) Pack(dst, node []int64) { g.lay.pack(dst, node) }

// Unpack writes the unpacked words of a packed node to dst.
func (g *Graph) Unpack(dst, packed []int64) { g.lay.unpack(dst, packed) }
