package explore

import (
	"github.com/stateproof/stateproof/internal/runtime"
	"slices"
)

// Graph is the result of a breadth-first search: the interned nodes in
// discovery order with parent links.
type Graph struct {
	M      *runtime.Machine
	Extra  int // bookkeeping words after the runtime words
	lay    layout
	stride int       // packed words per node
	chunks [][]int64 // the arena, chunkNodes nodes per chunk, never moved
	parent []int32
	via    []int32 // transition index that produced the node; -1 for the root
	// table is open-addressed: each slot holds the node's hash in the high
	// 32 bits and its index+1 in the low 32 (0 = empty), so most probes
	// are settled without touching the arena.
	table []uint64
	// Expanded is how many nodes (a prefix in discovery order) had all
	// their successors generated.
	Expanded int
	// Truncated is true when the cap stopped the search.
	Truncated bool
	// Cap is the node limit the search ran with.
	Cap int
}

func newGraph(m *runtime.Machine, extra, capHint int) *Graph {
	g := &Graph{M: m, Extra: extra, lay: newLayout(m, extra)}
	g.stride = g.lay.packed
	size := 1024
	for size < 2*min(capHint, 1<<20) {
		size <<= 1
	}
	g.table = make([]uint64, size)
	return g
}

// Len is the number of stored nodes.
func (g *Graph) Len() int { return len(g.parent) }

// chunkBits sets the arena chunk size: 2^16 nodes per chunk.
const chunkBits = 16

// packedNode returns the stored words of node i; the arena never moves.
func (g *Graph) packedNode(i int) []int64 {
	off := (i & (1<<chunkBits - 1)) * g.stride
	return g.chunks[i>>chunkBits][off : off+g.stride : off+g.stride]
}

// Width is the number of unpacked words per node: runtime then extra.
func (g *Graph) Width() int { return g.lay.width }

// Node unpacks node i into dst (length Width, or nil to allocate) and
// returns it: the runtime words, then the extra words.
func (g *Graph) Node(i int, dst []int64) []int64 {
	if dst == nil {
		dst = make([]int64, g.lay.width)
	}
	g.lay.unpack(dst, g.packedNode(i))
	return dst
}

// Runtime unpacks the runtime words of node i into dst (or a new slice).
func (g *Graph) Runtime(i int, dst []int64) []int64 {
	if dst == nil {
		dst = make([]int64, g.lay.width)
	}
	return g.Node(i, dst[:g.lay.width])[:g.M.Width()]
}

// StateOf returns the state index of node i.
func (g *Graph) StateOf(i int) int { return int(uint32(g.packedNode(i)[0])) }

// Parent returns the parent of node i and the transition that led from it,
// or (-1, -1) for the root.
func (g *Graph) Parent(i int) (parent, transition int) { return int(g.parent[i]), int(g.via[i]) }

// Depth is the number of steps from the root to node i.
func (g *Graph) Depth(i int) int {
	d := 0
	for ; g.parent[i] >= 0; i = int(g.parent[i]) {
		d++
	}
	return d
}

// Step is one transition of a path, by state id.
type Step struct {
	From, Event, To string
}

// Path returns the transitions from the root to node i.
func (g *Graph) Path(i int) []Step {
	var rev []int
	for ; g.parent[i] >= 0; i = int(g.parent[i]) {
		rev = append(rev, int(g.via[i]))
	}
	path := make([]Step, 0, len(rev))
	for k := len(rev) - 1; k >= 0; k-- {
		path = append(path, g.StepOf(rev[k]))
	}
	return path
}

// StepOf renders model transition t as a path step.
func (g *Graph) StepOf(t int) Step {
	tr := g.M.Transition(t)
	return Step{From: tr.From, Event: tr.Event, To: tr.To}
}

// Lookup returns the index of the node with the given (unpacked) words,
// or -1.
func (g *Graph) Lookup(node []int64) int {
	p := make([]int64, g.stride)
	g.lay.pack(p, node)
	i, _ := g.find(p, HashWords(p))
	return i
}

// find returns the node's index, or -1 and the empty slot where it belongs.
func (g *Graph) find(node []int64, h uint64) (idx, slot int) {
	mask := len(g.table) - 1
	tag := h >> 32
	for s := int(h) & mask; ; s = (s + 1) & mask {
		e := g.table[s]
		if e == 0 {
			return -1, s
		}
		if e>>32 == tag && slices.Equal(g.packedNode(int(uint32(e))-1), node) {
			return int(uint32(e)) - 1, s
		}
	}
}

// intern adds a packed node unless present, given its hash; it returns
// the index and whether the node is new.
func (g *Graph) intern(node []int64, h uint64, parent, via int) (int, bool) {
	if i, _ := g.find(node, h); i >= 0 {
		return i, false
	}
	return g.add(node, h, parent, via), true
}

// add stores a node known to be absent.
func (g *Graph) add(node []int64, h uint64, parent, via int) int {
	idx := len(g.parent)
	if idx>>chunkBits == len(g.chunks) {
		g.chunks = append(g.chunks, make([]int64, g.stride<<chunkBits))
	}
	copy(g.packedNode(idx), node)
	g.parent = append(g.parent, int32(parent))
	g.via = append(g.via, int32(via))
	_, slot := g.find(node, h)
	g.table[slot] = h>>32<<32 | uint64(idx+1)
	if 4*(idx+1) > 3*len(g.table) {
		g.rehash()
	}
	return idx
}

func (g *Graph) rehash() {
	old := g.table
	g.table = make([]uint64, 2*len(old))
	mask := len(g.table) - 1
	for _, e := range old {
		if e == 0 {
			continue
		}
		h := HashWords(g.packedNode(int(uint32(e)) - 1))
		s := int(h) & mask
		for g.table[s] != 0 {
			s = (s + 1) & mask
		}
		g.table[s] = e
	}
}

// HashWords mixes the words with a multiply-xorshift finaliser per word;
// every interning table of the engines uses it.
func HashWords[W int64 | uint32](ws []W) uint64 {
	h := uint64(0x9E3779B97F4A7C15)
	for _, w := range ws {
		h ^= uint64(w)
		h *= 0xBF58476D1CE4E5B9
		h ^= h >> 31
	}
	h *= 0x94D049BB133111EB
	return h ^ (h >> 29)
}

// MemoryPerNode is the approximate number of bytes one stored node costs
// (arena words, parent and via links, and its share of the hash table at
// the table's lowest load factor, 3/8).
func (g *Graph) MemoryPerNode() int { return 8*g.stride + 4 + 4 + 8*8/3 }
