package explore

import (
	"errors"
	"math"
	"slices"
	"unsafe"

	"github.com/stateproof/stateproof/internal/frontend/concrete"
	"github.com/stateproof/stateproof/internal/prefetch"
	"github.com/stateproof/stateproof/internal/spill"
)

// A spilling search is level-synchronous: the successors of one
// breadth-first level are generated in edge order (sources in order, the
// sorted alphabet, outcomes in step order), deduplicated against the
// level's earlier successors and probed in the visited set; those the set
// cannot place at once (a filter hit on a disk run) are settled in one
// sorted batch when the level is generated; then the new ones are
// numbered in edge order. That is the order Run numbers them in, so the
// graph — nodes, indices, parents, where a cap stops it — is the one the
// in-memory search builds.
//
// After each level the search totals what it holds in memory (the visited
// set's table and filters, the node chunks read or written, the level's
// successors) and, past the budget, spills: the visited set's table goes
// to a sorted run, and the chunks of node words and parent links before
// the frontier go to their files, to be read back on demand (paths,
// scans after the search).

// Spill lets a search keep what passes Memory bytes on disk, in Dir (a
// search with OnEdge only with Now set). Monitors ride on a spilled search
// as on one in memory, with the same results (see levelmon.go).
type Spill struct {
	Memory int64
	Dir    *spill.Dir
	// MemoryNodes, when positive, spills once more than that many nodes
	// are in memory, whatever Memory allows: tests use it to make small
	// searches spill.
	MemoryNodes int
	// Now runs the level-synchronous search from the start, without
	// first trying the in-memory one: for a search the caller knows will
	// not fit, and for one whose OnEdge keeps state (a second run would
	// see it changed).
	Now bool
}

// SpillStats is what a spilling search wrote: nodes spilled, disk used.
type SpillStats struct {
	Nodes        int   // nodes the search stored
	SpilledNodes int   // nodes whose visited entry went to a disk run
	Spills       int   // how many times the memory part was written out
	PeakDisk     int64 // most bytes the spill files held at once
	BlockReads   int64 // run blocks read to settle filter hits
}

// spilled is a graph's spilling state.
type spilled struct {
	sp  Spill
	set *spillSet
	// vis is the visited set the level-synchronous search asks: set,
	// through the interface a partitioned one would implement too
	vis   Visited
	stats SpillStats
	err   error // a store error: the graph is not complete
}

// fail stops the search at a store error: the graph is incomplete.
func (g *Graph) fail(err error) {
	if g.spill.err == nil {
		g.spill.err = err
	}
	g.Truncated = true
}

// IsSpilled reports whether the graph was built by a spilling search.
func (g *Graph) IsSpilled() bool { return g.spill != nil }

// SpillStats returns what the spilling search wrote (zero for others).
func (g *Graph) SpillStats() SpillStats {
	if g.spill == nil {
		return SpillStats{}
	}
	st := g.spill.stats
	st.Nodes = g.Len()
	st.PeakDisk = g.spill.sp.Dir.Peak()
	st.BlockReads = g.spill.set.runs.BlockReads
	return st
}

// Err is the store error that stopped a spilling search or a read after
// it (the graph is then incomplete and Truncated), or nil.
func (g *Graph) Err() error {
	if g.spill == nil {
		return nil
	}
	if g.spill.err != nil {
		return g.spill.err
	}
	if err := g.arena.disk.readErr(); err != nil {
		return err
	}
	for k := range g.mon {
		if err := g.mon[k].readErr(); err != nil {
			return err
		}
	}
	return g.links.disk.readErr()
}

// DiskBudgetReached reports whether the search stopped at the disk budget.
func (g *Graph) DiskBudgetReached() bool {
	return g.spill != nil && errors.Is(g.spill.err, spill.ErrDiskBudget)
}

// spillable reports whether the search may run level-synchronously.
func (s *Search) spillable() bool {
	return s.Spill != nil && (s.OnEdge == nil || s.Spill.Now)
}

// levelCand is a successor waiting for its level to be settled.
type levelCand struct {
	h        uint64
	from     int32
	via      int32
	unknown  bool // the visited set could not place it without settling
	old      bool // settling found it stored
	settleAt int32
	edge     int32 // its rank among its source's successors
}

// runLevels is the spilling search.
func (s *Search) runLevels() *Graph {
	m := s.Machine
	g := newGraph(m, s.Extra, 1)
	g.Cap = s.Cap
	g.spill = &spilled{sp: *s.Spill}
	var err error
	g.startMonitors(s.Monitors)
	if g.arena.disk, err = newChunkDisk[int64](s.Spill.Dir, "nodes", g.stride<<g.bits); err == nil {
		g.links.disk, err = newChunkDisk[link](s.Spill.Dir, "links", 1<<g.bits)
	}
	if err == nil {
		err = g.monitorsOnDisk(s.Spill.Dir)
	}
	set := newSpillSet(s.Spill.Dir, g.stride)
	g.spill.set, g.spill.vis = set, set
	if err != nil {
		g.fail(err)
		return g
	}
	node := make([]int64, g.lay.width)
	m.Initial(node[:m.Width()])
	copy(node[m.Width():], s.InitExtra)
	packed := make([]int64, g.stride)
	g.lay.pack(packed, node)
	h := HashWords(packed)
	g.grow(1)
	g.n = 1
	copy(g.packedNode(0), packed)
	*g.link(0) = link{-1, -1}
	g.rootMonitors(s.Monitors)
	if err := g.spill.vis.Add(packed, []uint64{h}, 0); err != nil {
		g.fail(err)
		return g
	}
	lv := &level{g: g, s: s}
	for lo, hi := 0, 1; lo < hi; lo, hi = hi, g.n {
		ok := lv.expand(lo, hi)
		if g.Truncated {
			return g // cancelled
		}
		if !lv.store() {
			return g
		}
		if !ok {
			g.Expanded = lv.stopped
			return g
		}
		g.Expanded = hi
		if !lv.budgetDue() {
			continue
		}
		if err := lv.budget(hi); err != nil {
			g.fail(err)
			return g
		}
		if g.spill.err != nil {
			return g
		}
	}
	return g
}

// level holds one level's successors.
type level struct {
	g     *Graph
	s     *Search
	words []int64 // stride per candidate
	cands []levelCand
	// the monitors' values: per candidate (len(Monitors) each), of the
	// source being expanded, and of the edge being generated
	monv, cur, vals []int64
	// dedup is an open-addressed table of candidate+1 for the current
	// level (low 32 bits), stamped with gen (high 16) so that it need
	// not be cleared per level, and 16 bits of the candidate's hash
	// between them: a probe reads a candidate only when they match,
	// where on a wide level reading every candidate it passed, a cache
	// miss each, was a seventh of the search.
	dedup []uint64
	gen   uint16
	// what settling asks
	qwords   []int64
	qhashes  []uint64
	qidx     []int
	qrecs    []uint64 // storeSorted's: the order, transition and monitor values of each query
	evicted  int      // the chunks before it are on disk
	budgetAt int      // the nodes stored when the budget was last looked at
	unknown  int      // candidates of the level not settled yet
	// scratch, kept across levels: a chain has one node per level
	src, srcPacked, newWords, node []int64
	// a source's packed successors and their hashes (see prepare)
	pre     []int64
	preHash []uint64
	stopped int // the source OnEdge stopped at
	// the guesses of the levels after a narrow one, and its sources'
	// words (see lookAhead)
	look      lookahead
	narrow    []int64
	newHashes []uint64
	buf       concrete.Buffer
	// A level too wide for its share of the budget goes, as it is
	// generated, to byKey (key, order, transition), which merges out its
	// duplicates, and its new nodes to bySeq (order, transition, key),
	// which gives them back in the order they were found, to be numbered.
	byKey, bySeq *spill.Sorter
	chunked      bool // byKey holds some of the level's candidates
	cut          int  // sources from cut on lost their successors (Stop)
	rec          []uint64
}

// expand generates the successors of sources lo..hi-1 (one level). It
// returns false when the search was cancelled (Truncated set) or OnEdge
// said Stop at source lv.stopped: the candidates of the sources before it
// are kept, as the in-memory search, which interns one source's
// successors before it expands the next under OnEdge, would have stored
// them.
func (lv *level) expand(lo, hi int) bool {
	g, s := lv.g, lv.s
	lv.words, lv.cands, lv.monv = lv.words[:0], lv.cands[:0], lv.monv[:0]
	lv.unknown = 0
	lv.nextGen()
	lv.chunked, lv.cut = false, math.MaxInt
	if lv.src == nil {
		lv.src, lv.srcPacked = make([]int64, g.lay.width), make([]int64, g.stride)
		lv.node = make([]int64, g.lay.width)
		lv.cur = make([]int64, len(s.Monitors))
	}
	nmon := len(s.Monitors)
	bare := s.Extra == 0
	src, srcPacked, st := lv.src, lv.srcPacked, g.stride
	narrow := hi-lo <= lookSources && s.OnEdge == nil
	if narrow {
		lv.lookAhead(lo, hi)
	}
	for i := lo; i < hi; i++ {
		if s.Done != nil && (i-lo)%cancelPoll == 0 && s.cancelled() {
			g.Truncated = true
			g.Expanded = i
			g.monitorsStopAt(edgeKey(i, 0, false))
			return false
		}
		copy(srcPacked, g.packedNode(i))
		g.lay.unpack(src, srcPacked)
		if nmon > 0 {
			lv.sourceValues(i)
		}
		outs, pre, preHash := lv.expansion(narrow, bare)
		for e, o := range outs {
			node := o.Next
			if !bare {
				node = successor(lv.node, o.Next, src)
			}
			if s.OnEdge != nil {
				switch s.OnEdge(g, i, o.Label, node) {
				case Prune:
					continue
				case Stop:
					lv.stopAt(i)
					return false
				}
			}
			cand, h := pre[e*st:(e+1)*st], uint64(0)
			if s.OnEdge != nil { // built here: OnEdge may set node's extra words
				copy(cand, srcPacked)
				g.lay.patch(cand, node, o.Changed)
				h = HashWords(cand)
			} else {
				h = preHash[e]
			}
			var vals []int64
			if nmon > 0 {
				vals = lv.edgeValues(i, e, o.Label, node)
			}
			if !lv.probe(i, e, o.Label, cand, h, vals) {
				return false
			}
		}
	}
	return true
}

// expansion steps the source in lv.src (lv.srcPacked packed): its
// outcomes, packed successors and their hashes, recalled from the
// guesses when the level is narrow and they stepped it.
func (lv *level) expansion(narrow, bare bool) ([]concrete.Outcome, []int64, []uint64) {
	if narrow {
		if outs, pre, preHash, ok := lv.look.recall(lv.srcPacked); ok {
			return outs, pre, preHash
		}
	}
	outs := lv.s.Machine.Successors(lv.src[:lv.s.Machine.Width()], &lv.buf)
	lv.prepare(outs, bare)
	return outs, lv.pre, lv.preHash
}

// lookAhead prefetches the visited set's slots and filter blocks of the
// nodes guessed for the levels after the narrow one lo..hi-1 (see
// lookahead.go), and keeps the guesses' expansions for expand to recall:
// a chain's probes then find their slots in cache, where each waited out
// a miss in the table, over a quarter of its spilling search.
func (lv *level) lookAhead(lo, hi int) {
	g := lv.g
	if lv.look.node == nil {
		lv.look = newLookahead(g)
		lv.look.memo = true
	}
	lv.narrow = lv.narrow[:0]
	for i := lo; i < hi; i++ {
		lv.narrow = append(lv.narrow, g.packedNode(i)...)
	}
	set := g.spill.set
	for _, h := range lv.look.ahead(g, lv.s.Machine, lv.narrow) {
		set.prefetch(h)
	}
}

// stopAt drops the candidates of source i, at which OnEdge said Stop.
func (lv *level) stopAt(i int) {
	lv.stopped, lv.cut = i, i
	k := len(lv.cands)
	for k > 0 && int(lv.cands[k-1].from) == i {
		k--
	}
	nmon := len(lv.s.Monitors)
	lv.cands, lv.words, lv.monv = lv.cands[:k], lv.words[:k*lv.g.stride], lv.monv[:k*nmon]
}

// probe places the edge-th successor cand (hash h, monitor values vals)
// of source i by transition t: an earlier successor of the level or a
// stored node (whose monitor values it is compared with), else a new
// candidate of the level, which goes to sorted chunks when the level
// passes its share. It returns false when writing them failed.
func (lv *level) probe(i, e, t int, cand []int64, h uint64, vals []int64) bool {
	nmon := len(vals)
	if k := lv.seen(cand, h); k >= 0 {
		if nmon > 0 {
			lv.clash(vals, i, e, lv.monv[k*nmon:(k+1)*nmon], -1)
		}
		return true
	}
	at := lv.g.spill.vis.Probe(cand, h)
	if at >= 0 {
		if nmon > 0 {
			lv.clash(vals, i, e, nil, at)
		}
		return true
	}
	lv.monv = append(lv.monv, vals...)
	lv.add(cand, levelCand{h: h, from: int32(i), via: int32(t), edge: int32(e), unknown: at == Unknown})
	if at == Unknown {
		lv.unknown++
	}
	return !(lv.full() || lv.unknown > lv.flushAt()) || lv.toChunk()
}

// prepare builds the packed successors of the source in lv.src by outs,
// with their hashes, in lv.pre and lv.preHash (only makes room for them
// under OnEdge), and prefetches what probing them will read: the level's
// dedup slot, the visited set's slot and its filter's block. The loads of a source's successors are independent, so
// the processor overlaps their cache misses, where probing one successor
// after the other waited them out one at a time (on gen toggles 24, a
// dedup slot, a table slot and a filter block per edge were half of the
// spilling search).
func (lv *level) prepare(outs []concrete.Outcome, bare bool) {
	g := lv.g
	st := g.stride
	lv.pre, lv.preHash = slices.Grow(lv.pre[:0], len(outs)*st)[:len(outs)*st], lv.preHash[:0]
	if lv.s.OnEdge != nil {
		return // expand builds them after OnEdge, which may change them
	}
	for e := range outs {
		o := &outs[e]
		node := o.Next
		if !bare {
			node = successor(lv.node, o.Next, lv.src)
		}
		cand := lv.pre[e*st : (e+1)*st]
		copy(cand, lv.srcPacked)
		g.lay.patch(cand, node, o.Changed)
		lv.preHash = append(lv.preHash, HashWords(cand))
	}
	if len(outs) < 4 {
		return // a chain's one or two successors: no misses to overlap
	}
	set, mask := g.spill.set, len(lv.dedup)-1
	for _, h := range lv.preHash {
		if mask >= 0 {
			prefetch.Line(unsafe.Pointer(&lv.dedup[int(h>>32)&mask]))
		}
		set.prefetch(h)
	}
}

// seen returns the index of the level's earlier successor cand, or -1.
func (lv *level) seen(cand []int64, h uint64) int {
	mask := len(lv.dedup) - 1
	if mask < 0 {
		return -1
	}
	st := lv.g.stride
	for p := int(h>>32) & mask; ; p = (p + 1) & mask {
		e := lv.dedup[p]
		if uint16(e>>48) != lv.gen || uint32(e) == 0 {
			return -1
		}
		if uint16(e>>32) != uint16(h) {
			continue
		}
		k := int(uint32(e)) - 1
		if lv.cands[k].h == h && slices.Equal(lv.words[k*st:(k+1)*st], cand) {
			return k
		}
	}
}

// nextGen empties the dedup table by stamping it anew, clearing it when
// the stamps wrap round.
func (lv *level) nextGen() {
	if lv.gen++; lv.gen == 0 {
		clear(lv.dedup)
	}
}

func (lv *level) add(cand []int64, c levelCand) {
	lv.words = append(lv.words, cand...)
	lv.cands = append(lv.cands, c)
	if 2*len(lv.cands) > len(lv.dedup) {
		size := 64
		for size < 4*len(lv.cands) {
			size <<= 1
		}
		lv.dedup = make([]uint64, size)
		for k := range lv.cands {
			lv.put(k)
		}
		return
	}
	lv.put(len(lv.cands) - 1)
}

func (lv *level) put(k int) {
	mask := len(lv.dedup) - 1
	h := lv.cands[k].h
	p := int(h>>32) & mask
	for uint16(lv.dedup[p]>>48) == lv.gen && uint32(lv.dedup[p]) != 0 {
		p = (p + 1) & mask
	}
	lv.dedup[p] = uint64(lv.gen)<<48 | uint64(uint16(h))<<32 | uint64(k+1)
}

// flushAt is how many unsettled candidates a level holds before they go
// to sorted chunks (see levelsort.go), to be settled once each, in one
// pass over the runs, when the level is generated: a level whose sources
// lead back to spilled levels (most of a wide level's edges) meets each
// stored node many times, and settling them in batches as they came read
// every run once per batch.
func (lv *level) flushAt() int {
	sp := &lv.g.spill.sp
	if sp.MemoryNodes > 0 {
		return sp.MemoryNodes
	}
	return int(max(1<<12, sp.Memory/4/64))
}

// settle asks the visited set about the level's unknown candidates and
// marks those it holds old.
func (lv *level) settle() bool {
	g := lv.g
	st := g.stride
	lv.qwords, lv.qhashes = lv.qwords[:0], lv.qhashes[:0]
	for k := range lv.cands {
		if c := &lv.cands[k]; c.unknown {
			c.settleAt = int32(len(lv.qhashes))
			lv.qwords = append(lv.qwords, lv.words[k*st:(k+1)*st]...)
			lv.qhashes = append(lv.qhashes, c.h)
		}
	}
	if n := len(lv.qhashes); n > 0 {
		lv.qidx = slices.Grow(lv.qidx[:0], n)[:n]
		if err := g.spill.vis.Settle(lv.qwords, lv.qhashes, lv.qidx); err != nil {
			g.fail(err)
			return false
		}
		nmon := len(lv.s.Monitors)
		for k := range lv.cands {
			if c := &lv.cands[k]; c.unknown {
				c.unknown = false
				idx := lv.qidx[c.settleAt]
				c.old = idx >= 0
				if c.old && nmon > 0 {
					lv.clash(lv.monv[k*nmon:(k+1)*nmon], int(c.from), int(c.edge), nil, idx)
				}
			}
		}
	}
	return true
}

// store settles the level's unknown successors and stores the new ones
// in edge order, up to the cap.
func (lv *level) store() bool {
	g := lv.g
	st := g.stride
	if !lv.settle() {
		return false
	}
	if lv.chunked {
		return lv.storeSorted()
	}
	nmon := len(lv.s.Monitors)
	for k, c := range lv.cands {
		if !c.old && !lv.keep(lv.words[k*st:(k+1)*st], c.h, link{c.from, c.via}, int(c.edge), lv.monv[k*nmon:(k+1)*nmon]) {
			break
		}
	}
	return lv.kept()
}

// keepBatch is how many new nodes keep hands the visited set at once,
// checking the budget after each batch: a wide level's new nodes would
// otherwise all be held in the set's table before it could spill.
const keepBatch = 1 << 12

// keep stores a new node of the level, reached by the edge-th edge of its
// parent, with its monitor values, and returns false when the cap stopped
// the search (Truncated set) or the store failed.
func (lv *level) keep(packed []int64, h uint64, l link, edge int, vals []int64) bool {
	g := lv.g
	idx := g.n
	g.grow(idx + 1)
	g.n++
	g.store(idx, packed, l)
	if len(vals) > 0 {
		lv.keepValues(idx, vals, int(l.parent), edge)
	}
	lv.newWords = append(lv.newWords, packed...)
	lv.newHashes = append(lv.newHashes, h)
	if g.n > g.Cap {
		g.Truncated = true
		g.Expanded = int(l.parent)
		g.monitorsStopAt(edgeKey(int(l.parent), edge, true))
		return false
	}
	if len(lv.newHashes) >= keepBatch {
		if !lv.kept() {
			return false
		}
		if err := lv.budget(g.n); err != nil {
			g.fail(err)
			return false
		}
	}
	return true
}

// kept hands the nodes keep stored since the last batch to the visited
// set; false when the search must end.
func (lv *level) kept() bool {
	g := lv.g
	n := len(lv.newHashes)
	err := g.spill.vis.Add(lv.newWords, lv.newHashes, g.n-n)
	lv.newWords, lv.newHashes = lv.newWords[:0], lv.newHashes[:0]
	if err != nil {
		g.fail(err)
		return false
	}
	return !g.Truncated && g.spill.err == nil
}

// budgetEvery is how many nodes a search stores between two looks at
// its budget after a level: a chain stores one node a level, and totalling
// what it held after each took a twentieth of its time; a few thousand
// nodes more than the budget are a few hundred KiB.
const budgetEvery = 1 << 12

// budgetDue reports whether the budget is to be looked at after this
// level: every level of a test's budget in nodes (MemoryNodes), else once
// budgetEvery nodes were stored since the last look.
func (lv *level) budgetDue() bool {
	if lv.g.spill.sp.MemoryNodes > 0 || lv.g.n-lv.budgetAt >= budgetEvery {
		lv.budgetAt = lv.g.n
		return true
	}
	return false
}

// budget spills when what the search holds in memory passes the budget;
// frontier is the first node still to be expanded. The chunks before the
// frontier's go to disk, and the visited set's table goes to a run when
// that frees a good share of the budget: the rest (the filters, the
// frontier's chunk, the level) cannot be spilled, and writing a small
// table out per level would only fill the disk with tiny runs.
func (lv *level) budget(frontier int) error {
	g, sp := lv.g, &lv.g.spill.sp
	set := g.spill.set
	chunkBytes := g.nodeBytes() << g.bits
	table := set.peakBytes()
	held := table + set.runs.MemoryBytes() + int64(g.arena.n-lv.evicted)*chunkBytes + lv.bytes()
	over := held > sp.Memory && table >= sp.Memory/4
	if sp.MemoryNodes > 0 {
		over = set.entries() > sp.MemoryNodes
	}
	if held > sp.Memory || over {
		for ; lv.evicted < frontier>>g.bits; lv.evicted++ {
			if err := g.evictChunk(lv.evicted); err != nil {
				return err
			}
		}
	}
	if !over {
		return nil
	}
	g.spill.stats.SpilledNodes += set.entries()
	g.spill.stats.Spills++
	return set.spill()
}

// runSpilling runs the search in memory while it fits the budget, and
// level-synchronously, spilling, when it does not: the in-memory search
// stops at the nodes the budget holds, and the spilling one starts over
// (at most the budget's worth of work is done twice, and nothing changes
// for a search that fits).
func (s Search) runSpilling() *Graph {
	fit := s.Spill.MemoryNodes
	if fit <= 0 {
		l := newLayout(s.Machine, s.Extra)
		// arena, link, and the tables at their lowest load with room for
		// a rehash, a half more for the heap's slack
		per := int64(8*l.packed+8+8*8/3) * 3 / 2
		fit = int(min(int64(s.Cap), s.Spill.Memory/per))
	}
	if s.Spill.Now {
		return s.runLevels()
	}
	if fit >= s.Cap {
		s.Spill = nil
		return s.Run()
	}
	mem := s
	mem.Spill, mem.Cap = nil, fit
	g := mem.Run()
	if !g.Truncated {
		g.Cap = s.Cap
		return g
	}
	if s.Done != nil && s.cancelled() {
		g.Cap = s.Cap
		return g
	}
	g = nil
	return s.runLevels()
}

// lookup finds a packed node in a spilled graph's visited set.
func (sp *spilled) lookup(p []int64, h uint64) int {
	i := sp.vis.Probe(p, h)
	if i != Unknown {
		return i
	}
	idx := []int{-1}
	if err := sp.vis.Settle(p, []uint64{h}, idx); err != nil && sp.err == nil {
		sp.err = err
	}
	return idx[0]
}

// MaxSpillStates is the largest cap a spilling search takes: node
// indices (parent links) are 32-bit.
const MaxSpillStates = 1<<31 - 2

// Shrink writes a spilled graph's in-memory visited table to disk and
// evicts its full node chunks, so that another search can run beside it
// within the budget, and returns the bytes the graph still holds (its
// filter and block indexes). A store error is the graph's Err.
func (g *Graph) Shrink() int64 {
	if g.spill == nil {
		return 0
	}
	set := g.spill.set
	if set.entries() > 0 && g.spill.err == nil {
		g.spill.stats.SpilledNodes += set.entries()
		g.spill.stats.Spills++
		if err := set.spill(); err != nil {
			g.fail(err)
		}
	}
	set.table = make([]uint32, 1024) // the graph takes no more nodes
	for k := 0; k < g.n>>g.bits && g.spill.err == nil; k++ {
		if err := g.evictChunk(k); err != nil {
			g.fail(err)
		}
	}
	return set.MemoryBytes()
}
