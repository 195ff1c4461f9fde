package explore

import (
	"slices"

	"github.com/stateproof/stateproof/internal/frontend/concrete"
)

// Graph is the result of a breadth-first search: the interned nodes in
// discovery order with parent links.
type Graph struct {
	M      concrete.Machine
	Extra  int // bookkeeping words after the runtime words
	lay    layout
	stride int           // packed words per node
	arena  chunks[int64] // the nodes' packed words, 2^bits nodes per chunk
	links  chunks[link]  // parent links, chunked like the arena
	bits   int           // log2 of the nodes per chunk (see chunkBitsFor)
	n      int           // stored nodes
	// shards partition the visited set by hash, so that parallel workers
	// intern disjoint parts of one batch without locks.
	shards [shardCount]shard
	// Expanded is how many nodes (a prefix in discovery order) had all
	// their successors generated.
	Expanded int
	// Truncated is true when the cap stopped the search.
	Truncated bool
	// Cap is the node limit the search ran with.
	Cap int
	// Monitors holds what each monitor of the search found (see Monitor).
	Monitors []*MonitorResult
	mon      []column // per monitor, the value of every stored node
	spill    *spilled // nil unless a spilling search built the graph
	// stretch (a store: see NewStore) grows the first chunk with the
	// nodes stored rather than allocating it whole
	stretch bool
	packBuf []int64    // Intern's packed node (stores only: one writer)
	kept    *keptEdges // the edges as interned (Search.KeepEdges), or nil
}

// link is a node's parent and the transition that produced it (-1, -1
// for the root).
type link struct{ parent, via int32 }

// shard is one part of the visited set: an open-addressed table whose
// slots hold the node's key in the high 32 bits (layout.key: the node
// itself when it fits, else half its hash) and a reference in the low 32
// (0 = empty; see the ref constants), so most probes are settled, and in
// a compact layout all of them, without touching the arena.
type shard struct {
	table []uint64
	count int
	_     [128 - 32]byte // keep two shards' headers off one cache line
}

const (
	shardBits  = 6
	shardCount = 1 << shardBits
	// A slot's low 32 bits: node index+1 below candRef; candRef+k for
	// candidate k of the batch being interned; deadRef for a candidate
	// that was not stored because the cap was reached.
	candRef = 1 << 31
	deadRef = 1<<32 - 1
)

func shardOf(h uint64) int { return int(h >> (64 - shardBits)) }

func newGraph(m concrete.Machine, extra, capHint int) *Graph {
	g := &Graph{M: m, Extra: extra, lay: newLayout(m, extra)}
	g.stride = g.lay.packed
	g.bits = chunkBitsFor(g.stride)
	g.arena = newChunks[int64](g.stride << g.bits)
	g.links = newChunks[link](1 << g.bits)
	// Small tables: one sized for a large cap would map pages the search
	// may never use (see newTable).
	size := 64
	for size*shardCount < 2*min(capHint, 1<<14) {
		size <<= 1
	}
	for i := range g.shards {
		g.shards[i].table = newTable(size)
	}
	return g
}

// Len is the number of stored nodes.
func (g *Graph) Len() int { return g.n }

// maxChunkBits and maxChunkWords set the arena's chunk size: 2^16 nodes
// per chunk, fewer when the nodes are so wide that a chunk would pass 2^20
// words (8 MiB). A chunk is allocated whole when the first of its nodes is
// stored, so a fixed 2^16 nodes of a model with 100,000 variables asked
// for tens of gigabytes to store one state.
const (
	maxChunkBits  = 16
	maxChunkWords = 1 << 20
)

// chunkBitsFor is the log2 of the nodes per chunk for nodes of stride
// packed words.
func chunkBitsFor(stride int) int {
	b := maxChunkBits
	for b > 0 && stride<<b > maxChunkWords {
		b--
	}
	return b
}

// packedNode returns the stored words of node i; the arena never moves.
func (g *Graph) packedNode(i int) []int64 {
	off := (i & (1<<g.bits - 1)) * g.stride
	return g.arena.chunk(i >> g.bits)[off : off+g.stride : off+g.stride]
}

func (g *Graph) link(i int) *link { return &g.links.chunk(i >> g.bits)[i&(1<<g.bits-1)] }

// store writes node i, which the search has just added (its chunk is
// fresh: see chunks.fresh), with its parent link.
func (g *Graph) store(i int, packed []int64, l link) {
	off := (i & (1<<g.bits - 1)) * g.stride
	copy(g.arena.fresh(i >> g.bits)[off:off+g.stride], packed)
	g.links.fresh(i >> g.bits)[i&(1<<g.bits-1)] = l
}

// grow makes room for nodes up to index n-1.
func (g *Graph) grow(n int) {
	if g.stretch && g.arena.n <= 1 {
		// the first chunk is stretched, and whole before a second comes
		k := min(n, 1<<g.bits)
		g.arena.stretch(k * g.stride)
		g.links.stretch(k)
	}
	for g.arena.n<<g.bits < n {
		g.arena.add()
		g.links.add()
		for k := range g.mon {
			g.mon[k].add()
		}
	}
}

// reserve makes room in the chunk directories for nodes up to index n-1,
// so that growing up to there moves no directory.
func (g *Graph) reserve(n int) {
	k := (n + 1<<g.bits - 1) >> g.bits
	g.arena.reserve(k)
	g.links.reserve(k)
	for i := range g.mon {
		g.mon[i].reserve(k)
	}
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

// Words fills dst with word p, as Node would unpack it (0: the state
// index, then the runtime's variables, then the extra words), of nodes
// lo, lo+1, ...: one word of many nodes, read a chunk at a time.
func (g *Graph) Words(p, lo int, dst []int64) {
	l, stride := &g.lay, g.stride
	for k := 0; k < len(dst); {
		i := lo + k
		at := i & (1<<g.bits - 1)
		c := g.arena.chunk(i >> g.bits)[at*stride:]
		part := dst[k:min(len(dst), k+1<<g.bits-at)]
		switch {
		case p == 0:
			for j := range part {
				part[j] = int64(uint32(c[j*stride]))
			}
		case l.wideOf[p] >= 0:
			w := l.boolBase + l.wideOf[p]
			for j := range part {
				part[j] = c[j*stride+w]
			}
		default:
			w, b := bitPos(l.boolOf[p])
			for j := range part {
				part[j] = c[j*stride+w] >> b & 1
			}
		}
		k += len(part)
	}
}

// StateOf returns the state index of node i.
func (g *Graph) StateOf(i int) int { return int(uint32(g.packedNode(i)[0])) }

// Parent returns the parent of node i and the transition that led from it,
// or (-1, -1) for the root.
func (g *Graph) Parent(i int) (parent, transition int) {
	l := g.link(i)
	return int(l.parent), int(l.via)
}

// Depth is the number of steps from the root to node i.
func (g *Graph) Depth(i int) int {
	d := 0
	for ; g.link(i).parent >= 0; i = int(g.link(i).parent) {
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
	for l := g.link(i); l.parent >= 0; l = g.link(int(l.parent)) {
		rev = append(rev, int(l.via))
	}
	path := make([]Step, 0, len(rev))
	for k := len(rev) - 1; k >= 0; k-- {
		path = append(path, g.StepOf(rev[k]))
	}
	return path
}

// StepOf renders step label t (for a JSON model, the model transition) as
// a path step.
func (g *Graph) StepOf(t int) Step {
	from, event, to := g.M.Describe(t)
	return Step{From: from, Event: event, To: to}
}

// Lookup returns the index of the node with the given (unpacked) words,
// or -1.
func (g *Graph) Lookup(node []int64) int {
	p := make([]int64, g.stride)
	g.lay.pack(p, node)
	if g.spill != nil {
		return g.spill.lookup(p, HashWords(p))
	}
	i, _ := g.find(p, HashWords(p))
	return i
}

// find returns the node's index, or -1 and the empty slot where it belongs.
// It must not run while a batch holds candidate references.
func (g *Graph) find(node []int64, h uint64) (idx, slot int) {
	t := g.shards[shardOf(h)].table
	mask := len(t) - 1
	key := g.lay.key(node, h)
	for s := home(h, mask); ; s = (s + 1) & mask {
		e := t[s]
		if e == 0 {
			return -1, s
		}
		if e>>32 == key && uint32(e) < candRef && (g.lay.compact || slices.Equal(g.packedNode(int(uint32(e))-1), node)) {
			return int(uint32(e)) - 1, s
		}
	}
}

// intern adds a packed node unless present, given its hash; it returns
// the index and whether the node is new.
func (g *Graph) intern(node []int64, h uint64, parent, via int) (int, bool) {
	i, slot := g.find(node, h)
	if i >= 0 {
		return i, false
	}
	return g.add(node, h, slot, parent, via), true
}

// add stores a packed node of hash h as the next node, with its parent
// link, in the empty slot find gave for it, and returns its index.
func (g *Graph) add(node []int64, h uint64, slot, parent, via int) int {
	idx := g.n
	g.grow(idx + 1)
	g.n++
	g.store(idx, node, link{int32(parent), int32(via)})
	g.put(node, h, slot, idx)
	return idx
}

// put records node idx, of hash h, in the empty slot find gave for it.
func (g *Graph) put(node []int64, h uint64, slot, idx int) {
	sh := &g.shards[shardOf(h)]
	sh.table[slot] = g.lay.key(node, h)<<32 | uint64(idx+1)
	if sh.count++; 4*sh.count > 3*len(sh.table) {
		g.rehash(sh, nil)
	}
}

// kill marks dead the table entry of node idx, of hash h: find no longer
// sees it, and rehash drops it.
func (g *Graph) kill(h uint64, idx int) {
	t := g.shards[shardOf(h)].table
	mask := len(t) - 1
	for s := home(h, mask); t[s] != 0; s = (s + 1) & mask {
		if uint32(t[s]) == uint32(idx+1) {
			t[s] = t[s]>>32<<32 | deadRef
			return
		}
	}
}

// pending is what rehash needs of the batch candidates whose references a
// table holds while it interns them: where to record a candidate's new
// slot.
type pending interface {
	moved(c, slot int)
}

// home is the first slot a node of hash h probes in a table of mask+1
// slots. It is taken from the high half of the hash, which a slot keeps
// as its key (unless the layout is compact), so that rehash finds every
// node's new home without loading the node.
func home(h uint64, mask int) int { return int(h>>32) & mask }

// rehash doubles a shard's table; cands is nil when the table holds no
// candidate references.
func (g *Graph) rehash(sh *shard, cands pending) {
	old := sh.table
	sh.table = newTable(2 * len(old))
	mask := len(sh.table) - 1
	var one [1]int64
	for _, e := range old {
		ref := uint32(e)
		if e == 0 || ref == deadRef {
			continue
		}
		h := e // the key is the high half of the hash
		if g.lay.compact {
			one[0] = g.lay.unkey(e >> 32)
			h = HashWords(one[:])
		}
		s := home(h, mask)
		for sh.table[s] != 0 {
			s = (s + 1) & mask
		}
		sh.table[s] = e
		if ref >= candRef {
			cands.moved(int(ref-candRef), s)
		}
	}
}

// newTable returns an empty table of n slots, written before it is read: a
// fresh page that is read first is mapped to the shared zero page, and the
// write that follows must replace that mapping and flush it from every
// core running the search — on a virtual machine an interrupt per page,
// which cost a two-worker chain search more than its interning.
func newTable(n int) []uint64 {
	t := make([]uint64, n)
	clear(t)
	return t
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
// (arena words, parent link, monitor values, and its share of the hash
// table at the table's lowest load factor, 3/8).
func (g *Graph) MemoryPerNode() int {
	b := 8*g.stride + 8 + 8*8/3
	for _, c := range g.mon {
		b += c.bytes()
	}
	return b
}
