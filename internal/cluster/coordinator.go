package cluster

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/stateproof/stateproof/internal/explore"
)

// coordinator is worker 0's second role: it runs the levels, settles
// every new state's global index and assembles the graph.
type coordinator struct {
	w    *worker
	cfg  Config
	cap  int
	sent []int64 // per worker, the bytes it reported sent
}

// each calls method on every worker at once, with the per-call deadline,
// and returns the answers or the first failure, named.
func (c *coordinator) each(ctx context.Context, method string, req func(i int) []byte) ([][]byte, error) {
	n := len(c.w.peers)
	out := make([][]byte, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i, p := range c.w.peers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cctx, cancel := context.WithTimeout(ctx, c.cfg.PeerTimeout)
			defer cancel()
			out[i], errs[i] = p.call(cctx, method, req(i))
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, c.failed(i, method, err)
		}
	}
	return out, nil
}

func (c *coordinator) failed(i int, method string, err error) error {
	return &Error{fmt.Sprintf("worker %d (%s), %s: %s", i, c.cfg.Peers[i], method, describe(err, c.cfg.PeerTimeout))}
}

func same(b []byte) func(int) []byte { return func(int) []byte { return b } }

func level(l int) func(int) []byte {
	var e enc
	e.u(uint64(l))
	return same(e.b)
}

// hello checks every worker runs the same plan, retrying a peer that is
// not up yet until StartTimeout.
func (c *coordinator) hello(ctx context.Context) error {
	deadline := time.Now().Add(c.cfg.StartTimeout)
	for i, p := range c.w.peers {
		var e enc
		e.str(c.cfg.ModelHash)
		e.str(c.cfg.Version)
		e.u(uint64(len(c.w.peers)))
		e.u(uint64(i))
		e.u(uint64(c.cap))
		for {
			cctx, cancel := context.WithTimeout(ctx, c.cfg.PeerTimeout)
			_, err := p.call(cctx, mHello, e.b)
			cancel()
			if err == nil {
				break
			}
			if !unavailable(err) || time.Now().After(deadline) || ctx.Err() != nil {
				return c.failed(i, mHello, err)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return nil
}

// heartbeat pings the other workers until stop is closed, so that they
// hear from worker 0 while it works alone (merging, gathering another
// worker's states).
func (c *coordinator) heartbeat(stop <-chan struct{}) {
	t := time.NewTicker(max(c.cfg.PeerTimeout/5, 10*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			for _, p := range c.w.peers[1:] {
				go func() {
					ctx, cancel := context.WithTimeout(context.Background(), c.cfg.PeerTimeout)
					defer cancel()
					p.call(ctx, mPing, nil) //nolint:errcheck // the main calls report failures
				}()
			}
		}
	}
}

func (c *coordinator) run(ctx context.Context) (*Result, error) {
	stop := make(chan struct{})
	defer close(stop)
	go c.heartbeat(stop)
	if err := c.hello(ctx); err != nil {
		return nil, err
	}
	c.sent = make([]int64, len(c.w.peers))
	start := time.Now()
	total, expanded, truncated := 1, 0, false
	res := &Result{}
	if _, err := c.each(ctx, mExpand, level(0)); err != nil {
		return nil, err
	}
	for l := 0; ; l++ {
		keys, err := c.await(ctx, l)
		if err != nil {
			return nil, err
		}
		nb, err := number(keys, total, c.cap)
		if err != nil {
			return nil, &Error{fmt.Sprintf("level %d: %v", l+1, err)}
		}
		res.Levels = l + 1
		if nb.kept == 0 {
			expanded = total
			break
		}
		kept := nb.kept
		more := uint64(0)
		if total+kept <= c.cap {
			more = 1 // not truncated: expand the next level at once
		}
		if _, err := c.each(ctx, mAssign, func(i int) []byte {
			var e enc
			e.u(uint64(l))
			e.u(more)
			e.u(uint64(nb.counts[i]))
			return append(e.b, nb.idx[i].b...)
		}); err != nil {
			return nil, err
		}
		total += kept
		if total > c.cap {
			truncated = true
			expanded = int(nb.last.parent)
			break
		}
		c.logf("level %d settled: %d new states, %d in all", l+1, kept, total)
	}
	res.Explore = time.Since(start)
	start = time.Now()
	if err := c.settled(ctx, res, total, expanded, truncated); err != nil {
		return nil, err
	}
	res.Gather = time.Since(start)
	answers, err := c.each(ctx, mRelease, same(nil))
	if err != nil {
		return nil, err
	}
	for _, a := range answers {
		d := &dec{b: a}
		res.BytesSent += int64(d.u())
	}
	return res, nil
}

// settled fills the result of a settled exploration of total states:
// its summary (Config.Summarize), or else the graph gathered from every
// worker.
func (c *coordinator) settled(ctx context.Context, res *Result, total, expanded int, truncated bool) error {
	if c.cfg.Summarize {
		sum := &Summary{Len: total, Expanded: expanded, Cap: c.cap, Truncated: truncated}
		if err := c.first(ctx, sum); err != nil {
			return err
		}
		res.Summary = sum
		return nil
	}
	g, err := c.gather(ctx, total)
	if err != nil {
		return err
	}
	g.Expanded, g.Truncated, g.Cap = expanded, truncated, c.cap
	res.Graph = g
	return nil
}

func (c *coordinator) logf(format string, args ...any) {
	if c.cfg.Log != nil {
		fmt.Fprintf(c.cfg.Log, "stateproof: partition: "+format+"\n", args...)
	}
}

// await asks every worker until the candidates of level l are all in,
// and returns each worker's keys (each answer waits for them a while).
func (c *coordinator) await(ctx context.Context, l int) ([][]byte, error) {
	keys := make([][]byte, len(c.w.peers))
	for {
		answers, err := c.each(ctx, mStatus, level(l))
		if err != nil {
			return nil, err
		}
		done := 0
		for i, a := range answers {
			d := &dec{b: a}
			state, msg, sent := d.u(), d.str(), d.u()
			if d.err != nil {
				return nil, c.failed(i, mStatus, d.err)
			}
			c.sent[i] = int64(sent)
			switch state {
			case expFailed:
				return nil, &Error{msg}
			case expDone:
				done++
				keys[i] = d.b
			}
		}
		if done == len(answers) {
			return keys, nil
		}
	}
}

// cursor reads one worker's states page by page: in its own order, which
// is increasing global order (each level's states are stored in key
// order, and numbered so).
type cursor struct {
	c      *coordinator
	i      int
	from   int
	page   *dec
	left   int
	g      int   // the head state's global index (-1: none left)
	parent int32 // and its parent, transition and words
	via    int32
	words  []int64
}

// next loads the following state into the head.
func (cu *cursor) next(ctx context.Context) error {
	if cu.left == 0 {
		if cu.page != nil {
			if err := cu.page.done(); err != nil {
				return cu.c.failed(cu.i, mGather, err)
			}
		}
		var e enc
		e.u(uint64(cu.from))
		cctx, cancel := context.WithTimeout(ctx, cu.c.cfg.PeerTimeout)
		b, err := cu.c.w.peers[cu.i].call(cctx, mGather, e.b)
		cancel()
		if err != nil {
			return cu.c.failed(cu.i, mGather, err)
		}
		cu.page = &dec{b: b}
		cu.left = cu.page.n()
		cu.from += cu.left
		if cu.left == 0 {
			cu.g = -1
			return cu.page.done()
		}
	}
	d := cu.page
	cu.g = int(d.u())
	cu.parent = int32(int64(d.u()) - 1)
	cu.via = int32(d.label(cu.c.w.mc))
	d.state(cu.c.w.mc, cu.words)
	cu.left--
	return d.err
}

// gather pulls every worker's states and builds the graph in global
// order, merging the workers' streams: worker 0 holds a page per worker
// besides the graph, not a second copy of every state.
func (c *coordinator) gather(ctx context.Context, total int) (*explore.Graph, error) {
	mc := c.w.mc
	curs := make([]*cursor, len(c.w.peers))
	for i := range curs {
		curs[i] = &cursor{c: c, i: i, words: make([]int64, mc.Width())}
		if err := curs[i].next(ctx); err != nil {
			return nil, err
		}
	}
	g := explore.NewStore(mc, 0, total)
	for i := range total {
		var cu *cursor
		for _, x := range curs {
			if x.g == i {
				cu = x
				break
			}
		}
		if cu == nil {
			return nil, &Error{fmt.Sprintf("no worker sent state %d", i)}
		}
		// a breadth-first parent comes first; only the root has none
		if int(cu.parent) >= i || (cu.parent < 0) != (i == 0) || (i > 0 && cu.via < 0) {
			return nil, &Error{fmt.Sprintf("worker %d sent state %d with parent %d by transition %d", cu.i, i, cu.parent, cu.via)}
		}
		if j, fresh := g.Intern(cu.words, int(cu.parent), int(cu.via)); !fresh || j != i {
			return nil, &Error{fmt.Sprintf("state %d was settled twice", i)}
		}
		if err := cu.next(ctx); err != nil {
			return nil, err
		}
	}
	for i, cu := range curs {
		if cu.g >= 0 {
			return nil, &Error{fmt.Sprintf("worker %d has more states than were settled", i)}
		}
	}
	return g, nil
}

// first asks every worker for its least state per location, probe and
// mark and keeps the least of all: what the exploration reached, without
// its states; then it fetches each probe's least state and its path, and
// each mark's that asks for it.
func (c *coordinator) first(ctx context.Context, sum *Summary) error {
	answers, err := c.each(ctx, mFirst, same(nil))
	if err != nil {
		return err
	}
	total := sum.Len
	sum.First, sum.Marks = map[int]int{}, map[string]Hit{}
	sum.Hits = make([]Hit, len(c.w.probes))
	for k := range sum.Hits {
		sum.Hits[k].Index = -1
	}
	paths := map[string]bool{}
	for i, a := range answers {
		d := &dec{b: a}
		for range d.n() {
			s, g := int(d.u()), int(d.u())
			if d.err == nil && (g >= total || s > 1<<31) {
				d.err = fmt.Errorf("location %d at state %d of %d", s, g, total)
			}
			if old, ok := sum.First[s]; !ok || g < old {
				sum.First[s] = g
			}
		}
		if n := d.n(); d.err == nil && n != len(sum.Hits) {
			d.err = fmt.Errorf("%d probes answered, %d asked", n, len(sum.Hits))
		}
		for k := range sum.Hits {
			g := int(d.u()) - 1
			if d.err == nil && g >= total {
				d.err = fmt.Errorf("probe %d at state %d of %d", k, g, total)
			}
			if g >= 0 && (sum.Hits[k].Index < 0 || g < sum.Hits[k].Index) {
				sum.Hits[k].Index = g
			}
		}
		for range d.n() {
			key, g, path := d.str(), int(d.u()), d.u() == 1
			if d.err == nil && g >= total {
				d.err = fmt.Errorf("mark at state %d of %d", g, total)
			}
			if old, ok := sum.Marks[key]; !ok || g < old.Index {
				sum.Marks[key] = Hit{Index: g}
			}
			paths[key] = paths[key] || path
		}
		if err := d.done(); err != nil {
			return c.failed(i, mFirst, err)
		}
	}
	for k := range sum.Hits {
		if sum.Hits[k].Index >= 0 {
			if err := c.path(ctx, &sum.Hits[k]); err != nil {
				return err
			}
		}
	}
	// in key order, so that the calls are the same from run to run
	for _, key := range slices.Sorted(maps.Keys(paths)) {
		if h := sum.Marks[key]; paths[key] {
			if err := c.path(ctx, &h); err != nil {
				return err
			}
			sum.Marks[key] = h
		}
	}
	return nil
}

// path fills a hit's words and path by following canonical parents from
// its state to the root, asking every worker for each state (its owner
// answers).
func (c *coordinator) path(ctx context.Context, h *Hit) error {
	var rev []int
	for g, first := h.Index, true; ; first = false {
		var e enc
		e.u(uint64(g))
		answers, err := c.each(ctx, mNode, same(e.b))
		if err != nil {
			return err
		}
		found, next := false, -1
		for i, a := range answers {
			d := &dec{b: a}
			if d.u() == 0 {
				if err := d.done(); err != nil {
					return c.failed(i, mNode, err)
				}
				continue
			}
			parent, via := int(d.u())-1, d.label(c.w.mc)
			words := make([]int64, c.w.mc.Width())
			d.state(c.w.mc, words)
			if err := d.done(); err != nil {
				return c.failed(i, mNode, err)
			}
			// a breadth-first parent comes first; only the root has none
			if found || parent >= g || (parent < 0) != (g == 0) || (g > 0 && via < 0) {
				return &Error{fmt.Sprintf("worker %d sent state %d with parent %d by step %d", i, g, parent, via)}
			}
			found = true
			if first {
				h.Words = words
			}
			if parent >= 0 {
				rev = append(rev, via)
			}
			next = parent
		}
		if !found {
			return &Error{fmt.Sprintf("no worker owns state %d", g)}
		}
		if g = next; g < 0 {
			break
		}
	}
	slices.Reverse(rev)
	h.Path = rev
	return nil
}

// abortAll tells every other worker the run failed, briefly: a worker
// that cannot be told stops on its own when worker 0 goes quiet.
func (c *coordinator) abortAll(err error) {
	var e enc
	e.str(err.Error())
	var wg sync.WaitGroup
	for i, p := range c.w.peers[1:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			p.call(ctx, mAbort, e.b) //nolint:errcheck // best effort
			_ = i
		}()
	}
	wg.Wait()
}
