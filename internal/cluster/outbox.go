package cluster

import (
	"context"
	"fmt"
	"sync"
)

// outbox batches one expansion's successors per owner: its own are taken
// directly, the others' go over Deliver from one goroutine per peer (a
// few batches queued), so expanding overlaps sending.
type outbox struct {
	w      *worker
	level  int
	bufs   []enc
	counts []int
	queues []chan []byte
	errs   []error // per owner: written by its goroutine, or by add for this worker
	wg     sync.WaitGroup
}

func newOutbox(w *worker, level int) *outbox {
	n := w.plan.count
	o := &outbox{w: w, level: level, bufs: make([]enc, n), counts: make([]int, n), queues: make([]chan []byte, n), errs: make([]error, n)}
	for d := range n {
		if d == w.plan.index {
			continue
		}
		o.queues[d] = make(chan []byte, 4)
		o.wg.Add(1)
		go o.send(d)
	}
	return o
}

// send delivers owner d's batches until its queue closes; after a failure
// it drops the rest (the expansion fails anyway).
func (o *outbox) send(d int) {
	defer o.wg.Done()
	w := o.w
	for msg := range o.queues[d] {
		if o.errs[d] != nil {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), w.plan.peerTimeout)
		_, err := w.peers[d].call(ctx, mDeliver, msg)
		cancel()
		if err != nil {
			o.errs[d] = fmt.Errorf("worker %d could not hand successors to worker %d: %v", w.plan.index, d, describe(err, w.plan.peerTimeout))
		}
	}
}

// add appends a successor for owner d: its source's global index, the
// edge's rank, the transition and the runtime.
func (o *outbox) add(d int, g int64, rank, via int, r []int64) {
	b := &o.bufs[d]
	b.u(uint64(g))
	b.u(uint64(rank))
	b.label(o.w.mc, via)
	b.state(o.w.mc, r)
	if o.counts[d]++; o.counts[d] == batchSize {
		o.flush(d, false)
	}
}

// flush hands owner d its batch; last says it is this expansion's final
// one for d.
func (o *outbox) flush(d int, last bool) {
	var h enc
	h.u(uint64(o.level))
	if last {
		h.u(1)
	} else {
		h.u(0)
	}
	h.u(uint64(o.counts[d]))
	msg := append(h.b, o.bufs[d].b...)
	o.bufs[d].b, o.counts[d] = nil, 0
	if d == o.w.plan.index {
		if err := o.w.deliver(&dec{b: msg}); err != nil {
			o.errs[d] = err
		}
		return
	}
	o.queues[d] <- msg
}

// finish sends every peer a last batch, empty or not (it tells the owner
// this worker sent all it had for the level), waits for them all to be
// taken, and returns the first failure.
func (o *outbox) finish() error {
	for d := range o.bufs {
		self := d == o.w.plan.index
		if o.counts[d] > 0 || !self {
			o.flush(d, !self)
		}
		if o.queues[d] != nil {
			close(o.queues[d])
		}
	}
	o.wg.Wait()
	for _, err := range o.errs {
		if err != nil {
			return err
		}
	}
	return nil
}
