package explore

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/stateproof/stateproof/internal/frontend/concrete"
	"github.com/stateproof/stateproof/internal/progress"
)

// With three or more workers, a batch of source nodes is searched in
// three phases, each split over the workers (two workers pipeline their
// batches instead, see pipeline.go): expand (the sources are cut into
// contiguous segments, and a worker steps a segment's sources and keeps
// the successors, the candidates, in edge order), intern (a worker takes
// a shard of the visited set and looks up, in global candidate order, the
// candidates that hash into it, counting the new ones per segment) and
// store (new nodes get indices in global candidate order; a worker copies
// a segment's into the arena and puts their indices in the slots the
// intern phase left them). Workers take segments and shards as they come
// free, so one that the machine slows down holds the others up less.
// Every decision follows the global candidate order, which is what a
// one-at-a-time search would do, so the graph does not depend on the
// number of workers or on their timing.

// runner holds the per-batch buffers of a search.
type runner struct {
	s    *Search
	g    *Graph
	segs []*segment
	nmon int
	// minParallel is the fewest sources a batch splits over the workers;
	// batchSize is the most sources per batch.
	minParallel, batchSize int
	// piped says wide batches are pipelined (see pipeline.go) rather
	// than split.
	piped bool
	// chain searches a chain in epochs (see chain.go); nil when an edge
	// callback watches.
	chain *chain
	// counts holds, per worker, what its intern phase added per segment:
	// new candidates, then those live for each monitor (1+nmon each).
	counts [][]int
	// the batch being searched: sources lo..hi-1, per to a segment, in
	// nseg segments, on nw workers; next hands out the segments or shards
	// of a phase
	lo, hi, per, nseg, nw int
	next                  atomic.Int64
	stopped               bool
	starts                []int  // per segment, the index of its first new node
	stored                int    // the node count after the batch
	sink                  uint64 // keeps the prefetching loads
	// conflict is the first conflict per monitor found by each worker.
	conflict [][]Key
	look     lookahead
	// sample and levels time and measure the progress snapshots.
	sample progress.Sampler
	levels progress.Levels
}

// segment is a contiguous share of a batch's sources and their
// candidates.
type segment struct {
	base   int // global index of its first candidate
	end    int // the source after its last
	words  []int64
	hashes []uint64
	from   []int32
	trans  []int32
	edge   []int32
	monv   []int64 // nmon values per candidate
	flags  []segFlag
	nodeOf []int32 // the store phase's node index of a fresh candidate
	// bucket lists the candidates per shard, and pos gives each
	// candidate's place in its bucket. answers holds, per bucket, the
	// intern phase's answer for each of its candidates: the table slot of
	// a new one, or notNew. Only a shard's owner writes its buckets'
	// answers, so two workers never write one cache line.
	bucket  [shardCount][]entry
	pos     []int32
	answers [shardCount][]int32
	fresh   int
	live    []int
	sink    uint64
	// the worker's scratch
	buf                  concrete.Buffer
	src, node, srcPacked []int64
	cur                  []int64
}

// entry is a candidate as its shard's bucket lists it: its index in the
// segment with its hash and key, so that the intern phase reads a bucket
// in order and loads the candidate's words only to compare wide nodes.
type entry struct {
	h   uint64
	k   int32
	key uint32
}

// notNew is the answer for a candidate that is a stored node or an
// earlier candidate of the batch.
const notNew int32 = -1

// answer returns where the intern phase's answer for candidate k is.
func (sg *segment) answer(k int) *int32 {
	return &sg.answers[shardOf(sg.hashes[k])][sg.pos[k]]
}

type segFlag struct {
	mon int
	f   Flag
}

func newRunner(s *Search, g *Graph) *runner {
	workers := max(1, s.Workers)
	if s.OnEdge != nil {
		workers = 1
	}
	r := &runner{s: s, g: g, nmon: len(s.Monitors), minParallel: s.MinParallel}
	r.sample.Every = s.progressEvery
	if r.minParallel <= 0 {
		r.minParallel = parallelMin
	}
	r.look = newLookahead(g)
	r.batchSize = batchOne
	nseg := 1
	if s.OnEdge == nil && !s.batchesOnly {
		first := chainEpoch
		if s.epochLevels > 0 {
			first = s.epochLevels
		}
		r.chain = newChain(g, r.nmon, first)
	}
	switch {
	case workers == 2:
		r.piped = true
		nseg = 2 * pipeParts
	case workers > 2:
		r.batchSize = min(maxBatch, batchWorker*workers)
		nseg = segsPerWorker * workers
	}
	for range nseg {
		r.segs = append(r.segs, &segment{
			src: make([]int64, g.lay.width), node: make([]int64, g.lay.width),
			srcPacked: make([]int64, g.stride),
			cur:       make([]int64, r.nmon), live: make([]int, r.nmon),
		})
	}
	size := nseg * (1 + r.nmon)
	r.nw = workers
	for range workers {
		// padded on both sides: the workers count into theirs at once
		r.counts = append(r.counts, make([]int, size+16)[8:8+size])
		none := make([]Key, r.nmon)
		for k := range none {
			none[k] = NoKey
		}
		r.conflict = append(r.conflict, none)
	}
	return r
}

// segsPerWorker is how many segments a parallel batch has per worker: a
// few, so that a worker the machine slows down leaves its share to the
// others.
const segsPerWorker = 4

// The phases of a batch, run by phase.
const (
	phaseExpand = iota
	phaseIntern
	phaseStore
)

// run runs one phase on every worker of the batch, worker 0 on the calling
// goroutine (a batch with one segment starts no goroutine and allocates
// nothing: a chain-shaped search has millions of batches).
func (r *runner) run(phase int) {
	r.next.Store(0)
	if r.nseg == 1 {
		r.phase(phase, 0)
		return
	}
	var wg sync.WaitGroup
	for w := 1; w < r.nw; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.phase(phase, w)
		}()
	}
	r.phase(phase, 0)
	wg.Wait()
}

// phase runs worker w's part of a phase: the segments (or, interning, the
// shards) it takes until none is left.
func (r *runner) phase(phase, w int) {
	segs := r.segs[:r.nseg]
	n := r.nseg
	if phase == phaseIntern {
		n = shardCount
		clear(r.counts[w])
	}
	for i := int(r.next.Add(1) - 1); i < n; i = int(r.next.Add(1) - 1) {
		switch phase {
		case phaseExpand:
			a, b := r.lo+i*r.per, min(r.hi, r.lo+(i+1)*r.per)
			if !r.expand(segs[i], a, b, r.nseg > 1) {
				r.stopped = true // only with OnEdge, which runs alone
			}
		case phaseIntern:
			r.internShard(segs, i, w)
		case phaseStore:
			r.storeSegment(segs[i], r.starts[i])
		}
	}
}

// batch expands sources lo..hi-1 and stores their new successors. It
// returns false when the search must end (cap reached, or OnEdge said
// Stop).
func (r *runner) batch(lo, hi int) bool {
	r.nseg = len(r.segs)
	if hi-lo < r.minParallel || r.piped {
		r.nseg = 1
	}
	segs := r.segs[:r.nseg]
	r.lo, r.hi, r.per = lo, hi, (hi-lo+r.nseg-1)/r.nseg
	r.stopped = false
	r.run(phaseExpand)
	if r.stopped {
		return false
	}
	base := 0
	for _, sg := range segs {
		sg.base = base
		base += len(sg.trans)
		r.flagAll(sg)
	}
	if r.nseg == 1 {
		if hi-lo <= lookSources && r.s.OnEdge == nil {
			hashes := r.look.ahead(r.g, r.s.Machine, segs[0].words)
			for i := 0; i < len(hashes); i += prefetchGroup {
				r.sink += r.g.prefetch(hashes[i:min(len(hashes), i+prefetchGroup)])
			}
		}
		return r.internInOrder(segs[0], hi)
	}
	r.run(phaseIntern)
	r.mergeConflicts()
	return r.store(segs, hi)
}

// successor fills dst with the unpacked successor of node whose runtime
// words a step gave as next: those, then node's extra words.
func successor(dst, next, node []int64) []int64 {
	copy(dst, next)
	copy(dst[len(next):], node[len(next):])
	return dst
}

// flagAll records the edges the monitors flagged in sg.
func (r *runner) flagAll(sg *segment) {
	for _, f := range sg.flags {
		r.g.Monitors[f.mon].flag(f.f)
	}
}

// expand steps sources a..b-1 into sg. bucketed says the candidates are
// also listed per shard, for interning by shard.
func (r *runner) expand(sg *segment, a, b int, bucketed bool) bool {
	g, s, m := r.g, r.s, r.s.Machine
	w := m.Width()
	// bare: a node is the runtime's words alone (no extra words), so a
	// successor can be read where the step wrote it instead of being
	// copied out per edge (edges outnumber nodes 40 to 1 on toggles).
	bare := s.Extra == 0
	sg.end = b
	sg.words, sg.hashes, sg.from, sg.trans, sg.edge = sg.words[:0], sg.hashes[:0], sg.from[:0], sg.trans[:0], sg.edge[:0]
	sg.monv, sg.flags, sg.pos = sg.monv[:0], sg.flags[:0], sg.pos[:0]
	if bucketed {
		for i := range sg.bucket {
			sg.bucket[i] = sg.bucket[i][:0]
		}
	}
	for i := a; i < b; i++ {
		copy(sg.srcPacked, g.packedNode(i))
		g.lay.unpack(sg.src, sg.srcPacked)
		for k := range sg.cur {
			sg.cur[k] = g.mon[k].get(i)
		}
		edge := 0
		outs := m.Successors(sg.src[:w], &sg.buf)
		for j := range outs {
			o := &outs[j] // not a copy: an outcome is seven words
			edge++
			node := o.Next
			if !bare {
				node = successor(sg.node, o.Next, sg.src)
			}
			if s.OnEdge != nil {
				switch s.OnEdge(g, i, o.Label, node) {
				case Prune:
					continue
				case Stop:
					return false
				}
			}
			// The candidate is the source's packed words patched where
			// the transition writes, built in place at the end of the
			// segment's words.
			at := len(sg.words)
			sg.words = append(sg.words, sg.srcPacked...)
			packed := sg.words[at:]
			g.lay.patch(packed, node, o.Changed)
			h := HashWords(packed)
			if bucketed {
				sh := shardOf(h)
				sg.pos = append(sg.pos, int32(len(sg.bucket[sh])))
				sg.bucket[sh] = append(sg.bucket[sh], entry{h, int32(len(sg.trans)), uint32(g.lay.key(packed, h))})
			}
			sg.hashes = append(sg.hashes, h)
			sg.from = append(sg.from, int32(i))
			sg.trans = append(sg.trans, int32(o.Label))
			sg.edge = append(sg.edge, int32(edge-1))
			for k := range s.Monitors {
				v, f, flagged := s.Monitors[k].over(g, i, edge-1, o.Label, node, sg.cur[k])
				if flagged {
					sg.flags = append(sg.flags, segFlag{k, f})
				}
				sg.monv = append(sg.monv, v)
			}
		}
	}
	return true
}

func (sg *segment) cand(k int, stride int) []int64 {
	return sg.words[k*stride : (k+1)*stride : (k+1)*stride]
}

// locate returns the segment and local index of global candidate c.
func locate(segs []*segment, c int) (*segment, int) {
	i := len(segs) - 1
	for segs[i].base > c {
		i--
	}
	return segs[i], c - segs[i].base
}

// prefetchGroup is how many candidates the intern loops prefetch at once,
// so that the cache misses of the visited set overlap instead of
// following one another.
const prefetchGroup = 16

// touch loads the table slot of hash h, and touchNode the node that slot
// names (by then in cache) when its tag matches, so that both are in cache
// by the time the candidate is interned. sink keeps the loads.
func (g *Graph) touch(h uint64) uint64 {
	t := g.shards[shardOf(h)].table
	return t[home(h, len(t)-1)]
}

func (g *Graph) touchNode(h uint64) uint64 {
	t := g.shards[shardOf(h)].table
	if e := t[home(h, len(t)-1)]; e>>32 == h>>32 && uint32(e) < candRef {
		return uint64(g.packedNode(int(uint32(e)) - 1)[0])
	}
	return 0
}

// prefetch touches, in two tight loops, the table slots and then the nodes
// that interning the candidates of the given hashes will read:
// independent loads in a short loop are what lets the processor overlap
// their cache misses.
func (g *Graph) prefetch(hashes []uint64) uint64 {
	var sink uint64
	for _, h := range hashes {
		sink += g.touch(h)
	}
	if g.lay.compact {
		return sink // the slots decide
	}
	for _, h := range hashes {
		sink += g.touchNode(h)
	}
	return sink
}

// internInOrder interns and stores a one-worker batch's candidates in
// order, numbering each new node as it is found: the three-phase split
// (intern, number, patch) is only needed when shards are interned at once.
func (r *runner) internInOrder(sg *segment, hi int) bool {
	g := r.g
	n := len(sg.trans)
	for k := range n {
		if k%prefetchGroup == 0 {
			r.sink += g.prefetch(sg.hashes[k:min(n, k+prefetchGroup)])
		}
		words := sg.cand(k, g.stride)
		idx, slot := g.find(words, sg.hashes[k])
		if idx >= 0 {
			if g.kept != nil {
				g.kept.add(int(sg.from[k]), idx, sg.trans[k])
			}
			if r.nmon > 0 {
				r.checkConflict(sg, k, 0, func(mk int) int64 { return g.mon[mk].get(idx) })
			}
			continue
		}
		idx = g.add(words, sg.hashes[k], slot, int(sg.from[k]), int(sg.trans[k]))
		if g.kept != nil {
			g.kept.add(int(sg.from[k]), idx, sg.trans[k])
		}
		for mk, mon := range r.s.Monitors {
			v := sg.monv[k*r.nmon+mk]
			g.mon[mk].set(idx, v)
			if res := g.Monitors[mk]; v != mon.Done && res.Overflow == NoKey {
				if res.Live++; res.Live > g.Cap {
					res.Overflow = edgeKey(int(sg.from[k]), int(sg.edge[k]), true)
				}
			}
		}
		if g.n > g.Cap {
			g.Truncated = true
			g.Expanded = int(sg.from[k])
			r.stopAt(edgeKey(int(sg.from[k]), int(sg.edge[k]), true))
			r.mergeConflicts()
			return false
		}
	}
	r.mergeConflicts()
	g.Expanded = hi
	return true
}

// mergeConflicts keeps, per monitor, the first conflict any worker found.
func (r *runner) mergeConflicts() {
	for w := range r.conflict {
		for k, c := range r.conflict[w] {
			if c < r.g.Monitors[k].Conflict {
				r.g.Monitors[k].Conflict = c
			}
			r.conflict[w][k] = NoKey
		}
	}
}

// internShard interns, in global order, the candidates of shard sh, and
// counts the new ones per segment into worker w's counts.
func (r *runner) internShard(segs []*segment, sh, w int) {
	counts := r.counts[w]
	var sink uint64 // summed here: the segments are read by every worker
	var hashes [prefetchGroup]uint64
	for si, sg := range segs {
		b := sg.bucket[sh]
		ans := slices.Grow(sg.answers[sh][:0], len(b))[:len(b)]
		sg.answers[sh] = ans
		c := counts[si*(1+r.nmon) : (si+1)*(1+r.nmon)]
		for i := range b {
			if i%prefetchGroup == 0 {
				group := b[i:min(len(b), i+prefetchGroup)]
				for j, e := range group {
					hashes[j] = e.h
				}
				sink += r.g.prefetch(hashes[:len(group)])
			}
			if !r.internOne(segs, sg, b[i], &ans[i], w) {
				continue
			}
			c[0]++
			for mk, mon := range r.s.Monitors {
				if sg.monv[int(b[i].k)*r.nmon+mk] != mon.Done {
					c[1+mk]++
				}
			}
		}
	}
	r.segs[w].sink += sink
}

// internOne looks candidate e of sg up in its shard and adds it when new,
// which it reports; ans is where its answer goes.
func (r *runner) internOne(segs []*segment, sg *segment, e entry, ans *int32, w int) bool {
	g := r.g
	stride := g.stride
	k, h, key := int(e.k), e.h, uint64(e.key)
	sh := &g.shards[shardOf(h)]
	mask := len(sh.table) - 1
	for s := home(h, mask); ; s = (s + 1) & mask {
		v := sh.table[s]
		if v == 0 {
			sh.table[s] = key<<32 | uint64(candRef+sg.base+k)
			*ans = int32(s)
			if sh.count++; 4*sh.count > 3*len(sh.table) {
				g.rehash(sh, batchRefs(segs))
			}
			return true
		}
		if v>>32 != key {
			continue
		}
		switch ref := uint32(v); {
		case ref == deadRef:
		case ref >= candRef:
			o, j := locate(segs, int(ref-candRef))
			if g.lay.compact || slices.Equal(o.cand(j, stride), sg.cand(k, stride)) {
				*ans = notNew
				if r.nmon > 0 {
					r.checkConflict(sg, k, w, func(mk int) int64 { return o.monv[j*r.nmon+mk] })
				}
				return false
			}
		default:
			if idx := int(ref) - 1; g.lay.compact || slices.Equal(g.packedNode(idx), sg.cand(k, stride)) {
				*ans = notNew
				if r.nmon > 0 {
					r.checkConflict(sg, k, w, func(mk int) int64 { return g.mon[mk].get(idx) })
				}
				return false
			}
		}
	}
}

// batchRefs gives rehash the candidates of a batch being interned.
type batchRefs []*segment

// moved records the candidate's new slot (only the worker that owns its
// shard writes it).
func (b batchRefs) moved(c, slot int) {
	sg, k := locate(b, c)
	*sg.answer(k) = int32(slot)
}

// checkConflict records a conflict when candidate k reaches a stored node
// with a monitor value other than the node's (Done reaches anything: the
// pair search would not store it).
func (r *runner) checkConflict(sg *segment, k, w int, stored func(mk int) int64) {
	for mk, mon := range r.s.Monitors {
		v := sg.monv[k*r.nmon+mk]
		if v == mon.Done || v == stored(mk) {
			continue
		}
		if key := edgeKey(int(sg.from[k]), int(sg.edge[k]), true); key < r.conflict[w][mk] {
			r.conflict[w][mk] = key
		}
	}
}

// store numbers the batch's fresh candidates in global order, copies them
// into the arena and turns their table references into node indices. It
// returns false when the cap was reached.
func (r *runner) store(segs []*segment, hi int) bool {
	g := r.g
	r.tally(segs)
	// Node indices per segment, and the cap: a truncated search stores
	// cap+1 nodes, the last one proving there is more.
	limit := g.Cap + 1
	r.starts = r.starts[:0]
	n := g.n
	for _, sg := range segs {
		r.starts = append(r.starts, n)
		n += sg.fresh
	}
	truncated := n >= limit
	r.stored = min(n, limit)
	if r.nmon > 0 {
		r.countLive(segs, r.stored)
	}
	g.grow(r.stored)
	r.run(phaseStore)
	g.n = r.stored
	if g.kept != nil {
		g.keepBatch(segs)
	}
	if !truncated {
		g.Expanded = hi
		return true
	}
	// The last stored node: its source is the first one whose successors
	// were not all stored.
	last := g.n - 1
	g.Expanded = int(g.link(last).parent)
	sg, k := r.candidateOf(segs, last)
	r.stopAt(edgeKey(int(sg.from[k]), int(sg.edge[k]), true))
	g.Truncated = true
	return false
}

// tally sums the workers' counts of the batch's new candidates per
// segment.
func (r *runner) tally(segs []*segment) {
	for si, sg := range segs {
		sg.fresh = 0
		clear(sg.live)
		for _, c := range r.counts {
			c = c[si*(1+r.nmon):]
			sg.fresh += c[0]
			for mk := range sg.live {
				sg.live[mk] += c[1+mk]
			}
		}
	}
}

// storeSegment stores the segment's fresh candidates from node index idx
// on, up to the cap, and puts their node indices (or, past the cap, dead
// marks) in their table slots. The slots are the segment's own, so the
// workers write disjoint words.
func (r *runner) storeSegment(sg *segment, idx int) {
	g := r.g
	sg.nodeOf = sg.nodeOf[:0]
	for k := range sg.trans {
		slot := *sg.answer(k)
		if slot == notNew {
			sg.nodeOf = append(sg.nodeOf, -1)
			continue
		}
		ref := uint64(deadRef)
		if idx < r.stored {
			sg.nodeOf = append(sg.nodeOf, int32(idx))
			g.store(idx, sg.cand(k, g.stride), link{sg.from[k], sg.trans[k]})
			for mk := range g.mon {
				g.mon[mk].set(idx, sg.monv[k*r.nmon+mk])
			}
			ref = uint64(idx) + 1
			idx++
		} else {
			sg.nodeOf = append(sg.nodeOf, -1)
		}
		t := g.shards[shardOf(sg.hashes[k])].table
		e := &t[slot]
		*e = *e>>32<<32 | ref
	}
}

// candidateOf returns the candidate stored as node idx of this batch.
func (r *runner) candidateOf(segs []*segment, idx int) (*segment, int) {
	w := len(segs) - 1
	for r.starts[w] > idx || r.starts[w]+segs[w].fresh <= idx {
		w--
	}
	sg := segs[w]
	for k, n := range sg.nodeOf {
		if int(n) == idx {
			return sg, k
		}
	}
	panic("explore: stored node without its candidate")
}

// countLive adds the batch's live nodes to each monitor's count and notes
// where a count first passes the cap.
func (r *runner) countLive(segs []*segment, stored int) {
	g := r.g
	for mk, mon := range r.s.Monitors {
		res := g.Monitors[mk]
		if res.Overflow != NoKey {
			continue
		}
		idx := g.n
		for _, sg := range segs {
			if res.Live+sg.live[mk] <= g.Cap && idx+sg.fresh <= stored {
				res.Live += sg.live[mk]
				idx += sg.fresh
				continue
			}
			for k := range sg.trans {
				if *sg.answer(k) == notNew || idx >= stored {
					continue
				}
				idx++
				if sg.monv[k*r.nmon+mk] == mon.Done {
					continue
				}
				if res.Live++; res.Live > g.Cap {
					res.Overflow = edgeKey(int(sg.from[k]), int(sg.edge[k]), true)
					break
				}
			}
			break
		}
	}
}

// stopAt marks where the search stopped early, for the monitors.
func (r *runner) stopAt(k Key) { r.g.monitorsStopAt(k) }
