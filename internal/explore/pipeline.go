package explore

// With two workers a wide search is pipelined instead of split: while the
// calling goroutine interns one batch in order, exactly as a one-worker
// search does, the other goroutine expands the next batch. Interning is
// about half the work of a search, so both stay busy, and nothing is
// spent on splitting the visited set into shards, which costs about a
// quarter more work than interning in order (see batch.go); from three
// workers on, the sharded phases scale further and are used instead.
//
// A batch is cut into pipeParts parts, which the expander takes in order;
// the interner, done with its batch, takes those still left, so that
// neither waits long for the other when expanding and interning do not
// cost the same. The goroutines hand batches over by spinning on
// counters: a batch takes a fraction of a millisecond, less than parking
// and waking a goroutine costs on some virtual machines.
//
// A batch's sources must be stored before it is expanded, so the next
// batch is overlapped only when at least minParallel stored nodes wait
// beyond the batch being interned: a wide level always has them, a chain
// never does and stays on one goroutine. The expander reads stored nodes
// only, the interner writes new ones past them; the chunk directories are
// reserved before each overlap so that neither writes a word the other
// reads.

// pipeBatch is the most sources per pipelined batch, and pipeParts the
// parts it is cut into.
const (
	pipeBatch = 1024
	pipeParts = 8
)

// pipe is what the two goroutines of a pipelined search share: the
// posted batch, sources lo..hi-1, per to a part, into parts.
type pipe struct {
	rounds
	lo, hi, per int
	parts       []*segment
}

// work expands parts of batch b until none is left to take.
func (r *runner) work(p *pipe, b int64) {
	for i := p.take(b); i >= 0; i = p.take(b) {
		a := p.lo + i*p.per
		r.expand(p.parts[i], a, min(p.hi, a+p.per), false)
		p.done()
	}
}

// expander is the second goroutine: it expands each posted batch.
func (r *runner) expander(p *pipe) {
	for b := p.await(0); b != 0; b = p.await(b) {
		r.work(p, b)
	}
}

// post hands sources lo..hi-1 to the expander, into parts (pipeParts of
// them). The batch before must be finished.
func (p *pipe) post(parts []*segment, lo, hi int) {
	p.lo, p.hi, p.per = lo, hi, (hi-lo+pipeParts-1)/pipeParts
	p.parts = parts
	p.rounds.post()
}

// finish expands what is left of the posted batch and waits until the
// expander is done with its parts.
func (p *pipe) finish(r *runner) {
	r.work(p, p.posted.Load())
	p.wait()
}

// stop ends the expander, after its batch: the graph is the caller's
// alone when pipelined returns.
func (p *pipe) stop(r *runner) {
	p.quit.Store(true)
	p.finish(r)
}

// pipelined searches from source lo on, overlapping the expansion of each
// batch with the interning of the one before, for as long as the frontier
// is wide. It returns false when the search must end (cap reached or
// cancelled).
func (r *runner) pipelined(lo int) bool {
	g := r.g
	cur, spare := r.segs[:pipeParts], r.segs[pipeParts:2*pipeParts]
	p := &pipe{rounds: rounds{n: pipeParts}}
	go r.expander(p)
	defer p.stop(r)
	// the first batch leaves at least as many stored sources to the next
	hi := lo + min(pipeBatch, (g.Len()-lo)/2)
	p.post(cur, lo, hi)
	p.finish(r)
	for {
		next := min(g.Len(), hi+pipeBatch)
		overlap := next-hi >= r.minParallel
		if overlap {
			g.reserve(g.Len() + candidates(cur))
			p.post(spare, hi, next)
		}
		if !r.internParts(cur) {
			return false
		}
		if !overlap {
			return true
		}
		p.finish(r)
		r.progress()
		if r.s.Done != nil && r.s.cancelled() {
			g.Truncated = true
			r.stopAt(edgeKey(hi, 0, false))
			return false
		}
		cur, spare, hi = spare, cur, next
	}
}

// internParts interns a batch's parts in order.
func (r *runner) internParts(parts []*segment) bool {
	for _, sg := range parts {
		r.flagAll(sg)
		if !r.internInOrder(sg, sg.end) {
			return false
		}
	}
	return true
}

// candidates counts a batch's candidates.
func candidates(parts []*segment) int {
	n := 0
	for _, sg := range parts {
		n += len(sg.trans)
	}
	return n
}
