package explore

import (
	"runtime"
	"sync/atomic"
)

// rounds hands out the tasks of one round at a time (a batch of the
// pipeline, an epoch of a chain) to the goroutine that posts it and to a
// second one that waits for it. Both wait by spinning: a round takes a
// fraction of a millisecond, less than parking and waking a goroutine
// costs on some virtual machines.
type rounds struct {
	posted atomic.Int64 // rounds posted so far
	// taken holds the posted round's number in its high 32 bits and how
	// many of its tasks were handed out in the low 32, so that a
	// goroutine still asking about an older round takes nothing from a
	// newer one.
	taken atomic.Int64
	left  atomic.Int64 // tasks of the posted round not yet done
	quit  atomic.Bool
	n     int64 // tasks per round, set once
}

// post opens a round and returns its number. What its tasks read must be
// written before, and the round before must be over.
func (r *rounds) post() int64 {
	r.left.Store(r.n)
	b := r.posted.Load() + 1
	r.taken.Store(b << 32)
	r.posted.Store(b)
	return b
}

// take hands out the next task of round b, or -1 when none is left.
func (r *rounds) take(b int64) int {
	for {
		v := r.taken.Load()
		if v>>32 != b || v&(1<<32-1) >= r.n {
			return -1
		}
		if r.taken.CompareAndSwap(v, v+1) {
			return int(v & (1<<32 - 1))
		}
	}
}

// done says that a task taken is done.
func (r *rounds) done() { r.left.Add(-1) }

// wait spins until every task of the posted round is done.
func (r *rounds) wait() {
	for r.left.Load() > 0 {
		runtime.Gosched()
	}
}

// await spins until a round after round seen is posted and returns its
// number, or returns 0 when quit is set first.
func (r *rounds) await(seen int64) int64 {
	for {
		if b := r.posted.Load(); b != seen {
			return b
		}
		if r.quit.Load() {
			return 0
		}
		runtime.Gosched()
	}
}
