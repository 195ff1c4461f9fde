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
// and sortShare each sorter's: a quarter and a third of what the filters
// and the node chunks in memory leave (the filters grow with the states
// spilled, so the level's share shrinks as the search goes on). The two
// sorters do not hold records at once: byKey's go before bySeq fills. An
// eighth made chunks of 20,000 records on gen toggles 22 at a tenth of
// its memory, 260 of them a wide level, each a file created, written,
// read and removed, and settled the unknown candidates in batches as
// small: a third takes 0.94× the CPU there (farm-bench -n 3) and 0.88×
// a quarter's on toggles 23 (-n 2, the same peak RSS); a half gains
// nothing more. The peak RSS stays under the runtime's memory limit
// (the budget + 40 MiB, cmd/stateproof), within the bound on toggles 24.
func (lv *level) levelShare() int64 { return max(1<<16, lv.free()/4) }
func (lv *level) sortShare() int64  { return max(1<<16, lv.free()/3) }

func (lv *level) free() int64 {
	g := lv.g
	chunkBytes := g.nodeBytes() << g.bits
	return g.spill.sp.Memory - g.spill.set.runs.MemoryBytes() - int64(g.arena.n-lv.evicted)*chunkBytes
}

// candBytes is what a candidate costs the level: its words, its record,
// and its share of the dedup table (sized four times the candidates).
func (lv *level) candBytes() int64 {
	return int64(lv.g.stride+len(lv.s.Monitors))*8 + int64(unsafe.Sizeof(levelCand{})) + 4*8
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
	b := int64(cap(lv.words)+cap(lv.monv))*8 + int64(cap(lv.cands))*int64(unsafe.Sizeof(levelCand{})) + int64(len(lv.dedup))*8
	if lv.byKey != nil {
		b += lv.byKey.MemoryBytes() + lv.bySeq.MemoryBytes()
	}
	return b
}

// toChunk moves the level's candidates to byKey, unsettled: they are
// settled after their duplicates are merged out. A record is the key, the
// order (source, edge), the transition (with unsettled set for a
// candidate the visited set could not place), then the monitor values.
// Candidates settling found stored are left out.
func (lv *level) toChunk() bool {
	g := lv.g
	st, nmon := g.stride, len(lv.s.Monitors)
	if !lv.chunked {
		// sorters sized for this level's share
		mem := lv.sortShare()
		if n := g.spill.sp.MemoryNodes; n > 0 {
			mem = int64(n) * int64(8*(st+nmon)+16) // tests: chunks of a few nodes
		}
		lv.byKey = g.spill.sp.Dir.NewSorter(st+2+nmon, mem)
		lv.bySeq = g.spill.sp.Dir.NewSorter(st+2+nmon, mem)
		lv.rec = make([]uint64, st+2+nmon)
	}
	for k, c := range lv.cands {
		if c.old {
			continue
		}
		rec := lv.rec
		copy(rec, asUint64s(lv.words[k*st:(k+1)*st]))
		rec[st] = uint64(c.from)<<32 | uint64(uint32(c.edge))
		rec[st+1] = uint64(uint32(c.via))
		if c.unknown {
			rec[st+1] |= unsettled
		}
		copy(rec[st+2:], asUint64s(lv.monv[k*nmon:(k+1)*nmon]))
		if err := lv.byKey.Add(rec); err != nil {
			g.fail(err)
			return false
		}
	}
	lv.chunked = true
	lv.words, lv.cands, lv.monv = lv.words[:0], lv.cands[:0], lv.monv[:0]
	lv.unknown = 0
	lv.nextGen() // empties the dedup table
	return true
}

// unsettled marks, in a record's transition word, a candidate the visited
// set could not place when it was generated: the set answers the others
// the same way until the level is stored (it learns nothing new before),
// so only these are asked again.
const unsettled = 1 << 32

func asUint64s(w []int64) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(w))), len(w))
}

func asInt64s(w []uint64) []int64 {
	return unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(w))), len(w))
}

// storeSorted numbers and stores the new nodes of a level that went to
// byKey: merged by key, the first record of each key is its earliest
// edge (the order word follows the key), and those the visited set does
// not hold, settled in sorted batches (so each run is read forward, about
// once per level), go to bySeq; sorted by that order, they come in the
// order the in-memory search stores them.
func (lv *level) storeSorted() bool {
	g := lv.g
	st, nmon := g.stride, len(lv.s.Monitors)
	if !lv.toChunk() {
		return false
	}
	prev, have := make([]uint64, st+nmon), false
	var err error
	lv.qwords, lv.qhashes, lv.qrecs = lv.qwords[:0], lv.qhashes[:0], lv.qrecs[:0]
	batch := int(max(1<<10, lv.sortShare()/int64(8*st+64)))
	if n := g.spill.sp.MemoryNodes; n > 0 {
		batch = n
	}
	if e := lv.byKey.Each(func(rec []uint64) bool {
		key, vals := rec[:st], asInt64s(rec[st+2:])
		from, edge := int(rec[st]>>32), int(uint32(rec[st]))
		if from >= lv.cut {
			return true
		}
		if have && slices.Equal(prev[:st], key) {
			if nmon > 0 {
				lv.clash(vals, from, edge, asInt64s(prev[st:]), -1)
			}
			return true
		}
		copy(prev, key)
		copy(prev[st:], rec[st+2:])
		have = true
		if rec[st+1]&unsettled == 0 {
			err = lv.toSeq(rec[st:], key)
			return err == nil
		}
		h := HashWords(asInt64s(key))
		switch at := g.spill.vis.Probe(asInt64s(key), h); {
		case at >= 0:
			if nmon > 0 {
				lv.clash(vals, from, edge, nil, at)
			}
			return true
		case at == Unknown:
			lv.qwords = append(lv.qwords, asInt64s(key)...)
			lv.qhashes = append(lv.qhashes, h)
			lv.qrecs = append(lv.qrecs, rec[st:]...)
			if len(lv.qhashes) >= batch {
				err = lv.settleSorted()
			}
		default:
			err = lv.toSeq(rec[st:], key)
		}
		return err == nil
	}); e != nil {
		err = e
	}
	if err == nil {
		err = lv.settleSorted()
	}
	// byKey is done with: its room goes to the visited table, which
	// grows as bySeq's nodes are stored
	lv.byKey.Free()
	if err != nil {
		g.fail(err)
		return false
	}
	if e := lv.bySeq.Each(func(rec []uint64) bool {
		packed := asInt64s(rec[2 : 2+st])
		return lv.keep(packed, HashWords(packed), link{int32(rec[0] >> 32), int32(rec[1])}, int(uint32(rec[0])), asInt64s(rec[2+st:]))
	}); e != nil {
		g.fail(e)
		return false
	}
	lv.bySeq.Free()
	return lv.kept()
}

// toSeq hands a new node of the level to bySeq: its order and
// transition (head), key, and monitor values (the rest of head).
func (lv *level) toSeq(head, key []uint64) error {
	out := append(lv.rec[:0], head[:2]...)
	out = append(out, key...)
	lv.rec = append(out, head[2:]...)
	return lv.bySeq.Add(lv.rec)
}

// settleSorted settles the batch of keys storeSorted could not place and
// hands the new ones to bySeq.
func (lv *level) settleSorted() error {
	n := len(lv.qhashes)
	if n == 0 {
		return nil
	}
	st, hw := lv.g.stride, 2+len(lv.s.Monitors)
	lv.qidx = slices.Grow(lv.qidx[:0], n)[:n]
	if err := lv.g.spill.vis.Settle(lv.qwords, lv.qhashes, lv.qidx); err != nil {
		return err
	}
	for i, at := range lv.qidx {
		head := lv.qrecs[i*hw : (i+1)*hw]
		if at >= 0 {
			if hw > 2 {
				lv.clash(asInt64s(head[2:]), int(head[0]>>32), int(uint32(head[0])), nil, at)
			}
			continue
		}
		if err := lv.toSeq(head, asUint64s(lv.qwords[i*st:(i+1)*st])); err != nil {
			return err
		}
	}
	lv.qwords, lv.qhashes, lv.qrecs = lv.qwords[:0], lv.qhashes[:0], lv.qrecs[:0]
	return nil
}
