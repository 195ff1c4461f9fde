package explore

import (
	"slices"
	"unsafe"
)

// A breadth-first level can hold many times the budget: the widest level
// of gen toggles 24 is 2.7 million nodes, and its successors were held in
// memory until the level was numbered. Past its share of the budget, a
// level's candidates (settled against the visited set, so all new, and
// deduplicated since the last chunk) go to byKey, a sorter that writes
// them in sorted chunks. When the level is generated, the chunks are
// merged by key, which leaves each new node once, with the earliest edge
// that reached it (delayed duplicate detection); those go to bySeq,
// which gives them back in edge order to be numbered: the order, and so
// the graph, of the in-memory search.

// levelShare is the part of the budget a level's candidates may hold,
// and sortShare each sorter's: a quarter and an eighth of what the
// filters and the node chunks in memory leave (the filters grow with the
// states spilled, so the level's share shrinks as the search goes on).
func (lv *level) levelShare() int64 { return max(1<<16, lv.free()/4) }
func (lv *level) sortShare() int64  { return max(1<<16, lv.free()/8) }

func (lv *level) free() int64 {
	g := lv.g
	chunkBytes := int64(g.stride*8+8) << g.bits
	return g.spill.sp.Memory - g.spill.set.runs.MemoryBytes() - int64(g.arena.n-lv.evicted)*chunkBytes
}

// candBytes is what a candidate costs the level: its words, its record,
// and its share of the dedup table (sized four times the candidates).
func (lv *level) candBytes() int64 {
	return int64(lv.g.stride)*8 + int64(unsafe.Sizeof(levelCand{})) + 4*8
}

// full reports whether the level's candidates have reached their share
// (half of it by count: the slices' room doubles as they grow).
func (lv *level) full() bool {
	if n := lv.g.spill.sp.MemoryNodes; n > 0 {
		return len(lv.cands) > n
	}
	return 2*int64(len(lv.cands))*lv.candBytes() > lv.levelShare()
}

// bytes is what the level holds in memory.
func (lv *level) bytes() int64 {
	b := int64(cap(lv.words))*8 + int64(cap(lv.cands))*int64(unsafe.Sizeof(levelCand{})) + int64(len(lv.dedup))*8
	if lv.byKey != nil {
		b += lv.byKey.MemoryBytes() + lv.bySeq.MemoryBytes()
	}
	return b
}

// toChunk settles the level's candidates and moves the new ones to byKey.
func (lv *level) toChunk() bool {
	g := lv.g
	if !lv.settle() {
		return false
	}
	if !lv.chunked {
		// sorters sized for this level's share
		mem := lv.sortShare()
		if n := g.spill.sp.MemoryNodes; n > 0 {
			mem = int64(n) * int64(8*g.stride+16) // tests: chunks of a few nodes
		}
		lv.byKey = g.spill.sp.Dir.NewSorter(g.stride+2, mem)
		lv.bySeq = g.spill.sp.Dir.NewSorter(g.stride+2, mem)
		lv.rec = make([]uint64, g.stride+2)
	}
	st := g.stride
	for k, c := range lv.cands {
		if c.old {
			continue
		}
		rec := lv.rec
		copy(rec, asUint64s(lv.words[k*st:(k+1)*st]))
		rec[st] = uint64(c.from)<<32 | uint64(uint32(c.edge))
		rec[st+1] = uint64(uint32(c.via))
		if err := lv.byKey.Add(rec); err != nil {
			g.fail(err)
			return false
		}
	}
	lv.chunked = true
	lv.words, lv.cands = lv.words[:0], lv.cands[:0]
	lv.unknown = 0
	lv.gen++ // empties the dedup table
	return true
}

func asUint64s(w []int64) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(w))), len(w))
}

func asInt64s(w []uint64) []int64 {
	return unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(w))), len(w))
}

// storeSorted numbers and stores the new nodes of a level that went to
// byKey: merged by key, the first record of each key is its earliest
// edge (the order word follows the key); sorted again by that order, they
// come in the order the in-memory search stores them.
func (lv *level) storeSorted() bool {
	g := lv.g
	st := g.stride
	if !lv.toChunk() {
		return false
	}
	prev, have := make([]uint64, st), false
	var err error
	out := make([]uint64, st+2)
	if e := lv.byKey.Each(func(rec []uint64) bool {
		if int(rec[st]>>32) >= lv.cut || have && slices.Equal(prev, rec[:st]) {
			return true
		}
		copy(prev, rec[:st])
		have = true
		out[0], out[1] = rec[st], rec[st+1]
		copy(out[2:], rec[:st])
		err = lv.bySeq.Add(out)
		return err == nil
	}); e != nil {
		err = e
	}
	if err != nil {
		g.fail(err)
		return false
	}
	if e := lv.bySeq.Each(func(rec []uint64) bool {
		packed := asInt64s(rec[2:])
		return lv.keep(packed, HashWords(packed), link{int32(rec[0] >> 32), int32(rec[1])})
	}); e != nil {
		g.fail(e)
		return false
	}
	return lv.kept()
}
