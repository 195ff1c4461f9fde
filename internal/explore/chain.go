package explore

import (
	"slices"

	"github.com/stateproof/stateproof/internal/frontend/concrete"
)

// A chain (a counter stepped up to its bound, a timer) has one node per
// level, so a batch has one source and each level waits for the one before:
// neither splitting batches nor pipelining them gives a second worker
// anything to do, and one worker cannot overlap the cache misses of the
// visited set. Its cost is stepping each level's node and interning it (a
// cache miss in the visited set, and the rehashing as the set grows), and
// both go faster when the chain is guessed ahead. A chain is therefore
// searched in epochs, of chainEpoch levels at first and twice as many each
// time up to chainGrowth times that (a chain that soon closes in a cycle
// wastes little guessing past it; a long one pays for handing out an
// epoch's tasks rarely): the calling goroutine walks an epoch from the one
// frontier node as if every node were new, writing each node's words and
// link at the index it would get; then the visited set's shards, in
// groups, are interned, each group's nodes in order with their slots
// fetched well ahead, and the monitors' values are folded along the epoch.
// With two workers or more a second goroutine takes those tasks while the
// calling goroutine walks the next epoch from the last guessed node. The
// first node of an epoch that is found stored ends the chain: the nodes
// before it are exactly what the batches would store, at the same indices,
// with the same parents and monitor values, and its flags, live counts and
// conflicts are settled in level order as the batches would; what was
// guessed past it is dropped (its indices are given out again).
//
// An epoch runs when the frontier is one node, no edge callback watches,
// and the cap is more than chainMin nodes away (an epoch stops short of
// the cap, so the one-worker code decides truncation).

// chainEpoch is the most levels of a chain's first epoch; chainMin the
// fewest a first walk must find for the chain to be searched in epochs
// (else the search goes on in batches for chainBackoff of them before it
// looks again).
const (
	chainEpoch   = 4096
	chainGrowth  = 16 // the largest epoch, in first epochs
	chainMin     = 64
	chainBackoff = 256
	// chainGroups is how many groups of shards the interning is shared
	// out in.
	chainGroups = 16
)

// epochWalk is one epoch's guessed chain.
type epochWalk struct {
	first  int      // the index of its first node (walked from first-1)
	words  []int64  // the frontier node's packed words, then the chain's
	hashes []uint64 // per level, the node's hash
	trans  []int32  // per level, the transition that reached it
	monv   []int64  // per level up to rest, its monitor values (nmon each)
	rest   int      // the level from which every level holds restv
	restv  []int64  // the resting values (see keep)
	flags  []chainFlag
	group  [chainGroups][]int32 // per group of shards, its levels
	levels int                  // levels walked
	full   bool                 // the walk stopped at its limit, not at a branch
	// what interning found, per group: the first level found stored (or
	// levels) and the node it was found as
	dup, dupNode [chainGroups]int
}

// chainFlag is a flag a monitor raised on the edge into a level.
type chainFlag struct {
	level int
	f     segFlag
}

// chain is what the two workers of a chain search share.
type chain struct {
	rounds            // an epoch's tasks: the groups, and the fold when monitors ride
	epoch  *epochWalk // the posted epoch
	walks  [2]epochWalk
	// the walker's scratch, and the fold's
	node, succ, next, cur []int64
	buf                   concrete.Buffer
	sink                  uint64
	helperSink            uint64
	off                   int           // batches until the next attempt
	first                 int           // levels of a chain's first epoch
	helping               bool          // the helper runs
	gone                  chan struct{} // closed when it has returned
}

func newChain(g *Graph, nmon, first int) *chain {
	c := &chain{rounds: rounds{n: chainGroups}, first: first}
	if nmon > 0 {
		c.n++ // the fold
	}
	// The walker writes node and succ while the fold writes next and
	// cur: each alone on its cache lines, or the two cores would pass
	// the lines to and fro on every level.
	c.node, c.succ, c.next, c.cur = padded(g.lay.width), padded(g.lay.width), padded(g.lay.width), padded(nmon)
	return c
}

// padded returns n words with a cache line of nothing either side.
func padded(n int) []int64 { return make([]int64, n+16)[8 : 8+n : 8+n] }

// walk guesses ew's levels from node src (words srcWords), up to max of
// them, stopping before a node with other than one successor or one that
// steps only to itself. It writes each guessed node's words and link at
// its index-to-be, which the caller has grown the arena for (their
// monitor values come after, see fold).
func (r *runner) walk(ew *epochWalk, src int, srcWords []int64, max int) {
	g, c, m := r.g, r.chain, r.s.Machine
	w, stride := m.Width(), g.stride
	ew.first = src + 1
	ew.words = append(ew.words[:0], srcWords...)
	ew.hashes, ew.trans = ew.hashes[:0], ew.trans[:0]
	for i := range ew.group {
		ew.group[i] = ew.group[i][:0]
	}
	ew.full = true
	for k := 0; k < max; k++ {
		from := src + k
		cur := ew.words[k*stride : (k+1)*stride]
		g.lay.unpack(c.node, cur)
		outs := m.Successors(c.node[:w], &c.buf)
		if len(outs) != 1 {
			ew.full = false
			break
		}
		next, via := len(ew.words), outs[0].Label
		successor(c.succ, outs[0].Next, c.node)
		ew.words = append(ew.words, cur...)
		packed := ew.words[next:]
		g.lay.patch(packed, c.succ, outs[0].Changed)
		if slices.Equal(packed, ew.words[k*stride:next]) {
			// A node that steps only to itself (a machine at rest that
			// idles, as an FCSTM one does) ends the chain as a branch
			// would: past it the walk would guess the same node as new
			// level after level, until the interning found it stored.
			ew.words = ew.words[:next]
			ew.full = false
			break
		}
		h := HashWords(packed)
		ew.hashes = append(ew.hashes, h)
		ew.trans = append(ew.trans, int32(via))
		gr := shardOf(h) * chainGroups / shardCount
		ew.group[gr] = append(ew.group[gr], int32(k))
		idx := from + 1
		g.store(idx, packed, link{int32(from), int32(via)})
	}
	ew.levels = len(ew.hashes)
}

// fold gives ew's nodes their monitor values, level by level from the
// values c.cur of the node it was walked from, and keeps its flags; c.cur
// ends with the values of its last node. It runs beside the interning, a
// task like a group of shards, so that the monitors are off the walk that
// the chain waits for.
func (r *runner) fold(ew *epochWalk) {
	g, c := r.g, r.chain
	ew.monv, ew.flags, ew.rest = ew.monv[:0], ew.flags[:0], ew.levels
	for k := range ew.levels {
		if r.resting(c.cur) {
			r.keep(ew, k)
			return
		}
		from, t := ew.first-1+k, int(ew.trans[k])
		g.lay.unpack(c.next, ew.words[(k+1)*g.stride:(k+2)*g.stride])
		for mk := range r.s.Monitors {
			v, f, flagged := r.s.Monitors[mk].over(g, from, 0, t, c.next, c.cur[mk])
			if flagged {
				ew.flags = append(ew.flags, chainFlag{k, segFlag{mk, f}})
			}
			ew.monv = append(ew.monv, v)
			g.mon[mk].set(from+1, v)
			c.cur[mk] = v
		}
	}
}

// resting reports whether every monitor value in cur rests (see
// Monitor.rests), so that no edge from here on changes them.
func (r *runner) resting(cur []int64) bool {
	for mk := range r.s.Monitors {
		if !r.s.Monitors[mk].rests(cur[mk]) {
			return false
		}
	}
	return true
}

// keep gives ew's levels from k on the resting values c.cur: what fold
// would compute for them, without unpacking a node or listing them.
func (r *runner) keep(ew *epochWalk, k int) {
	g, c := r.g, r.chain
	for mk, v := range c.cur {
		g.mon[mk].fill(ew.first+k, ew.first+ew.levels, v)
	}
	ew.rest, ew.restv = k, append(ew.restv[:0], c.cur...)
}

// monAt is monitor mk's value at level k of a folded epoch.
func (ew *epochWalk) monAt(k, mk, nmon int) int64 {
	if k >= ew.rest {
		return ew.restv[mk]
	}
	return ew.monv[k*nmon+mk]
}

// internGroup interns, in level order, the nodes of ew that hash into
// group gr, until one is found stored.
func (ew *epochWalk) internGroup(g *Graph, gr int) uint64 {
	stride := g.stride
	var sink uint64
	var hashes [prefetchGroup]uint64
	levels := ew.group[gr]
	ew.dup[gr], ew.dupNode[gr] = ew.levels, -1
	for i, k := range levels {
		if i%prefetchGroup == 0 {
			n := 0
			for _, j := range levels[i:min(len(levels), i+prefetchGroup)] {
				hashes[n] = ew.hashes[j]
				n++
			}
			sink += g.prefetch(hashes[:n])
		}
		words := ew.words[(int(k)+1)*stride : (int(k)+2)*stride]
		h := ew.hashes[k]
		idx, slot := g.find(words, h)
		if idx >= 0 {
			ew.dup[gr], ew.dupNode[gr] = int(k), idx
			return sink
		}
		g.put(words, h, slot, ew.first+int(k))
	}
	return sink
}

// chainWork runs tasks of epoch e until none is left to take: the fold
// first (when monitors ride), then the groups of shards.
func (r *runner) chainWork(e int64) uint64 {
	c := r.chain
	var sink uint64
	for t := c.take(e); t >= 0; t = c.take(e) {
		if t -= int(c.n) - chainGroups; t < 0 {
			r.fold(c.epoch)
		} else {
			sink += c.epoch.internGroup(r.g, t)
		}
		c.done()
	}
	return sink
}

// post hands ew's tasks out.
func (c *chain) post(ew *epochWalk) {
	c.epoch = ew
	c.rounds.post()
}

// helper is the second worker: it runs the tasks of each epoch posted
// after the seen first.
func (r *runner) helper(seen int64) {
	c := r.chain
	defer close(c.gone)
	for e := c.await(seen); e != 0; e = c.await(e) {
		c.helperSink += r.chainWork(e)
	}
}

// stop ends the helper; the graph is the caller's alone afterwards.
func (c *chain) stop() {
	if c.helping {
		c.quit.Store(true)
		<-c.gone
		c.helping = false
	}
}

// chained searches the chain from the frontier node lo, the only one, in
// epochs for as long as it goes on, and reports whether it did (when not,
// the caller searches on in batches).
func (r *runner) chained(lo int) bool {
	g, c := r.g, r.chain
	cur, next := &c.walks[0], &c.walks[1]
	size, room := c.first, 2*chainGrowth*c.first // epoch levels; arena room ahead
	max := min(size, g.Cap-g.Len())
	if max < chainMin {
		return false
	}
	for mk := range c.cur {
		c.cur[mk] = g.mon[mk].get(lo)
	}
	g.reserve(lo + 1 + room)
	g.grow(lo + 1 + max)
	r.walk(cur, lo, g.packedNode(lo), max)
	if cur.levels < chainMin {
		c.off = chainBackoff
		return false
	}
	if !c.helping && r.nw > 1 {
		c.quit.Store(false)
		c.helping = true
		c.gone = make(chan struct{})
		go r.helper(c.posted.Load())
	}
	defer c.stop()
	for {
		end := cur.first + cur.levels
		r.progress() // the helper waits: the graph is this goroutine's
		more := cur.full && !(r.s.Done != nil && r.s.cancelled())
		size = min(2*size, chainGrowth*c.first)
		max := min(size, g.Cap-end)
		if more = more && max >= chainMin; more {
			// room for the next walk, made before the helper reads
			g.reserve(end + room)
			g.grow(end + max)
		}
		c.post(cur)
		if more {
			last := cur.words[cur.levels*g.stride:]
			r.walk(next, end-1, last, max)
		}
		c.sink += r.chainWork(c.posted.Load())
		c.wait()
		if !r.settle(cur) || !more || next.levels == 0 {
			return true
		}
		cur, next = next, cur
	}
}

// settle makes the valid part of an interned epoch the graph's, as the
// one-worker search would have stored it, and reports whether all of it
// was valid.
func (r *runner) settle(ew *epochWalk) bool {
	g := r.g
	valid := ew.levels
	dupNode := -1
	for gr := range ew.dup {
		if ew.dup[gr] < valid {
			valid, dupNode = ew.dup[gr], ew.dupNode[gr]
		}
	}
	for gr, levels := range ew.group {
		for _, k := range levels {
			if int(k) >= valid && int(k) < ew.dup[gr] {
				g.kill(ew.hashes[k], ew.first+int(k)) // guessed past the end
			}
		}
	}
	// Flags in level order, up to the edge into the first stored node.
	for _, f := range ew.flags {
		if f.level < valid || f.level == valid && dupNode >= 0 {
			g.Monitors[f.f.mon].flag(f.f.f)
		}
	}
	for mk, mon := range r.s.Monitors {
		res := g.Monitors[mk]
		for k := range min(valid, ew.rest) {
			if ew.monv[k*r.nmon+mk] != mon.Done {
				res.Live++ // never past the cap: an epoch stops short of it
			}
		}
		if valid > ew.rest && ew.restv[mk] != mon.Done {
			res.Live += valid - ew.rest
		}
		if dupNode < 0 {
			continue
		}
		if v := ew.monAt(valid, mk, r.nmon); v != mon.Done && v != g.mon[mk].get(dupNode) {
			if key := edgeKey(ew.first+valid-1, 0, true); key < res.Conflict {
				res.Conflict = key
			}
		}
	}
	g.n = ew.first + valid
	g.Expanded = g.n - 1 // the last node's successors are not known yet
	if dupNode >= 0 {
		g.Expanded = g.n // its one successor was found stored
	}
	if g.kept != nil {
		ew.keepEdges(g.kept, valid, dupNode)
	}
	return valid == ew.levels
}
