package cluster

import (
	"fmt"
	"slices"

	"github.com/stateproof/stateproof/internal/spill"
)

// A spilling worker's level can hold many times its budget: on gen
// toggles 22 a worker was delivered some 700,000 candidates of the widest
// level, and kept them in memory until the level was numbered. Past its
// share of the budget (levelAt) the level goes to sorted chunks on disk,
// as the one-process spilling search does with a wide level (explore's
// levelsort.go): the candidates held go to byState, keyed by their packed
// state and then their key, so that merged, each state comes once with
// its least key (delayed duplicate detection); those the store does not
// own, placed in sorted batches, go to byKey, and merged by key they are
// the level's new states in the order worker 0 numbers them (settle's
// answer). They are written again, in that order, to ready, which
// onAssign reads to store them.
type chunkedLevel struct {
	byState, byKey, ready *spill.Sorter
	mem                   int64 // each sorter's share of the budget
	active                bool  // this level went to chunks
	settled               bool  // keys holds its answer, ready its states
	keys                  []byte
	n                     int // the new states in ready
	rec                   []uint64
	packed                []int64
}

// levelAt is how many candidates a spilling worker holds in memory before
// they go to chunks: a quarter of its budget's worth.
func (w *worker) levelAt() int {
	if n := w.spill.MemoryNodes; n > 0 {
		return n // tests: chunks of a few states
	}
	per := int64(w.store.MemoryPerNode()) + 16 + 4 + 1 // the state, its key, transition, flag
	return int(max(64, w.spill.Memory/4/per))
}

// toChunks moves the candidates held to byState, emptying the level's
// memory; w.mu is held.
func (w *worker) toChunks() error {
	st := w.store.Stride()
	if w.lvl == nil {
		mem := w.spill.Memory / 8
		if n := w.spill.MemoryNodes; n > 0 {
			mem = int64(n) * int64(8*(st+2)+32)
		}
		d := w.spill.Dir
		w.lvl = &chunkedLevel{mem: mem, byState: d.NewSorter(st+2, mem), byKey: d.NewSorter(st+2, mem),
			ready: d.NewSorter(st+2, mem), rec: make([]uint64, st+2), packed: make([]int64, st)}
	}
	lv := w.lvl
	lv.active = true
	w.pendMax = max(w.pendMax, len(w.pendKey))
	words := make([]int64, w.mc.Width())
	for i, k := range w.pendKey {
		w.store.Pack(lv.packed, w.pend.Runtime(i, words))
		for j, x := range lv.packed {
			lv.rec[j] = uint64(x)
		}
		lv.rec[st], lv.rec[st+1] = uint64(k.parent), uint64(k.rank)<<32|uint64(uint32(w.pendVia[i]))
		if err := lv.byState.Add(lv.rec); err != nil {
			return fmt.Errorf("worker %d: %v", w.plan.index, err)
		}
	}
	w.pend.Reset()
	w.pendKey, w.pendVia, w.pendUnknown = w.pendKey[:0], w.pendVia[:0], w.pendUnknown[:0]
	w.unknowns = 0
	return nil
}

// settleChunks settles a level that went to chunks: its new states go to
// ready in key order, their keys to lv.keys; w.mu is held.
func (w *worker) settleChunks() error {
	if err := w.toChunks(); err != nil {
		return err
	}
	lv := w.lvl
	st, width := w.store.Stride(), w.mc.Width()
	batch := w.pruneAt()
	var qwords []int64
	var qrecs []uint64
	idx := make([]int, 0, batch)
	words := make([]int64, width)
	prev, have := make([]uint64, st), false
	// toKey hands a new state to byKey: its key, transition and state
	toKey := func(rec []uint64) error {
		out := append(lv.rec[:0], rec[st], rec[st+1])
		lv.rec = append(out, rec[:st]...)
		return lv.byKey.Add(lv.rec)
	}
	place := func() error {
		if len(qrecs) == 0 {
			return nil
		}
		idx = slices.Grow(idx[:0], len(qrecs)/(st+2))[:len(qrecs)/(st+2)]
		if err := w.store.Place(qwords, idx); err != nil {
			return err
		}
		w.checkpoint()
		for i, at := range idx {
			if at < 0 {
				if err := toKey(qrecs[i*(st+2) : (i+1)*(st+2)]); err != nil {
					return err
				}
			}
		}
		qwords, qrecs = qwords[:0], qrecs[:0]
		return nil
	}
	var err error
	if e := lv.byState.Each(func(rec []uint64) bool {
		if have && slices.Equal(prev, rec[:st]) {
			return true // the same state by a greater key
		}
		copy(prev, rec[:st])
		have = true
		for j := range lv.packed {
			lv.packed[j] = int64(rec[j])
		}
		w.store.Unpack(words, lv.packed)
		switch at := w.store.Probe(words); {
		case at >= 0:
		case at == -1:
			err = toKey(rec)
		default:
			qwords, qrecs = append(qwords, words...), append(qrecs, rec...)
			if len(qrecs) >= batch*(st+2) {
				err = place()
			}
		}
		return err == nil
	}); e != nil {
		err = e
	}
	if err == nil {
		err = place()
	}
	lv.byState.Free()
	w.checkpoint()
	if err != nil {
		return fmt.Errorf("worker %d: %v", w.plan.index, err)
	}
	return w.orderChunks()
}

// orderChunks reads byKey in key order: the keys, delta-coded, are
// settle's answer, and the states go to ready in that order.
func (w *worker) orderChunks() error {
	lv := w.lvl
	st := w.store.Stride()
	var e enc
	prev := int64(0)
	lv.n = 0
	var err error
	if e2 := lv.byKey.Each(func(rec []uint64) bool {
		parent := int64(rec[0])
		e.u(uint64(parent - prev)) // sorted: no negative delta
		e.u(rec[1] >> 32)
		prev = parent
		lv.n++
		err = lv.ready.Add(rec[:st+2])
		return err == nil
	}); e2 != nil {
		err = e2
	}
	lv.byKey.Free()
	w.checkpoint()
	if err != nil {
		return fmt.Errorf("worker %d: %v", w.plan.index, err)
	}
	lv.keys, lv.settled = e.b, true
	return nil
}

// assignChunks stores the first k states of ready with their global
// indexes as the next frontier; w.mu is held.
func (w *worker) assignChunks(idx []int64) error {
	lv := w.lvl
	if len(idx) > lv.n {
		return fmt.Errorf("cluster: worker 0 assigned %d states, worker %d has %d", len(idx), w.plan.index, lv.n)
	}
	words := make([]int64, w.mc.Width())
	j, every := 0, w.levelAt()
	var err error
	if e := lv.ready.Each(func(rec []uint64) bool {
		if j == len(idx) {
			return false
		}
		// the level's states are a level's worth of the store's table:
		// it spills as they come, not once they are all in
		if j > 0 && j%every == 0 {
			if err = w.fit(); err != nil {
				return false
			}
		}
		for i := range lv.packed {
			lv.packed[i] = int64(rec[2+i])
		}
		w.store.Unpack(words, lv.packed)
		li := w.store.AddNew(words, int(rec[0]), int(uint32(rec[1])))
		w.gidx.add(idx[j])
		w.frontier, w.frontierG = append(w.frontier, int32(li)), append(w.frontierG, idx[j])
		j++
		return true
	}); e != nil {
		err = e
	}
	w.checkpoint()
	lv.ready.Free()
	lv.active, lv.settled, lv.keys, lv.n = false, false, nil, 0
	if err == nil {
		err = w.store.Err()
	}
	if err != nil {
		return fmt.Errorf("worker %d: %v", w.plan.index, err)
	}
	return nil
}

// checkpoint calls the test hook, if any, where a worker holds the most
// of a level.
func (w *worker) checkpoint() {
	if w.atPeak != nil {
		w.atPeak()
	}
}
