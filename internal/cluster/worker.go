package cluster

import (
	"cmp"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/frontend/concrete"
)

// key orders the candidates of a level as the one-process search meets
// them: by the global index of the source, then by the edge's rank among
// the source's successors (events in alphabet order, outcomes in step
// order). The least key of a new state is its canonical parent.
type key struct {
	parent int64
	rank   int32
}

func (a key) cmp(b key) int {
	if c := cmp.Compare(a.parent, b.parent); c != 0 {
		return c
	}
	return cmp.Compare(a.rank, b.rank)
}

// The states of an expansion (Status).
const (
	expRunning = iota
	expDone
	expFailed
)

// batchSize is how many successors a worker sends its owner per Deliver.
const batchSize = 4096

// sentToMax bounds worker.sentTo.
const sentToMax = 1 << 20

// worker is one partition: the states it owns, with their global indexes
// and canonical parents, and the level being collected. The owned states
// are in a store of their own (explore.NewStore), or, under a memory
// budget, in a spilling one (explore.NewSpillingStore): each state's
// canonical parent (its global index) and transition are its link there.
type worker struct {
	plan   plan
	mc     concrete.Portable
	probes []func(words []int64, root bool) bool
	marks  func(words []int64, root bool, mark func(key string, path bool))
	peers  []peer
	sent   *atomic.Int64
	// lastWord is when worker 0 last called (unix nanoseconds): the
	// liveness of the run as this worker sees it.
	lastWord atomic.Int64

	mu    sync.Mutex
	hello bool
	store *explore.Graph // owned states, in the order they were settled
	gidx  indexList      // per owned state: its global index
	// the owned states of the level to expand: local and global indexes
	frontier  []int32
	frontierG []int64
	level     int
	// the level being collected: candidates not owned before, their least
	// key and its transition, whether the store could not yet tell they
	// are not owned (a spilling store settles those once the level is
	// in), and (after Settle) their order
	pend        *explore.Graph
	pendKey     []key
	pendVia     []int32
	pendUnknown []bool
	unknowns    int // how many pendUnknown are set
	pendMax     int // the most candidates a level had (the store keeps their room)
	order       []int32
	// spill is the memory budget of a spilling store (nil: in memory)
	spill *explore.Spill
	// lvl holds a spilling worker's level once it passes its share of
	// the budget (levelchunk.go)
	lvl *chunkedLevel
	// atPeak, a test hook, is called where the worker holds the most of
	// a level
	atPeak func()
	// early holds batches of the next level that came before this
	// worker's Assign (a faster worker started expanding it): they are
	// taken once the level's states are stored.
	early [][]byte
	// the expansion of the current level: started, its state and
	// failure, how many peers said they sent all their successors of the
	// level, and ready, closed once this worker's and every peer's
	// expansion ended (or one failed): the level's candidates are all in
	started bool
	exp     int
	expErr  string
	ends    int
	ready   chan struct{}

	// sentTo holds the runtimes this worker sent to other owners (only
	// its expansions touch it): one sent again is dropped by its owner
	// anyway (already stored after an earlier level, or, in this level,
	// sent first with a smaller key: the frontier goes in global order),
	// so it is not sent again. Exact, not a filter; emptied when large.
	sentTo  *explore.Graph
	sentMax int // how many sentTo holds before it is emptied

	finish   chan error // receives the end of this worker's part once
	finished sync.Once
}

// plan is what every worker of a run must agree on (Hello checks it).
type plan struct {
	index, count int
	modelHash    string
	version      string
	cap          int
	peerTimeout  time.Duration
}

func newWorker(p plan, mc concrete.Portable, sent *atomic.Int64, sp *explore.Spill) (*worker, error) {
	w := &worker{plan: p, mc: mc, sent: sent, finish: make(chan error, 1), spill: sp, sentMax: sentToMax}
	if sp == nil {
		w.store = explore.NewStore(mc, 0, 1024)
		return w, nil
	}
	var err error
	if w.store, err = explore.NewSpillingStore(mc, *sp); err != nil {
		return nil, fmt.Errorf("worker %d: %v", p.index, err)
	}
	// what was sent is a cache: it takes an eighth of the budget at most
	w.sentMax = int(max(1024, min(sentToMax, sp.Memory/8/int64(w.store.MemoryPerNode()))))
	return w, nil
}

// owner is the worker that owns a runtime.
func owner(mc concrete.Portable, words []int64, count int) int {
	return int((ownerHash(mc, words) >> 32) % uint64(count))
}

func (w *worker) end(err error) {
	w.finished.Do(func() { w.finish <- err })
}

// handle answers a call; it counts the bytes it answers with as sent.
func (w *worker) handle(method string, req []byte) ([]byte, error) {
	if method != mDeliver {
		w.lastWord.Store(time.Now().UnixNano())
	}
	resp, err := w.answer(method, req)
	w.sent.Add(int64(len(resp)))
	return resp, err
}

func (w *worker) answer(method string, req []byte) ([]byte, error) {
	d := &dec{b: req}
	switch method {
	case mHello:
		return nil, w.onHello(d)
	case mExpand:
		return nil, w.onExpand(d)
	case mStatus:
		return w.onStatus(d)
	case mDeliver:
		return nil, w.onDeliver(d)
	case mAssign:
		return nil, w.onAssign(d)
	case mGather:
		return w.onGather(d)
	case mFirst:
		return w.onFirst(d)
	case mNode:
		return w.onNode(d)
	case mRelease:
		var e enc
		e.u(uint64(w.sent.Load()))
		go w.end(nil)
		return e.b, nil
	case mPing:
		return nil, nil
	case mAbort:
		reason := d.str()
		go w.end(fmt.Errorf("worker 0 stopped the run: %s", reason))
		return nil, nil
	}
	return nil, fmt.Errorf("cluster: no method %q", method)
}

func (w *worker) onHello(d *dec) error {
	hash, version, count, index, cap := d.str(), d.str(), int(d.u()), int(d.u()), int(d.u())
	if err := d.done(); err != nil {
		return err
	}
	p := w.plan
	switch {
	case version != p.version:
		return fmt.Errorf("worker %d runs stateproof %s, worker 0 runs %s", p.index, p.version, version)
	case hash != p.modelHash:
		return fmt.Errorf("worker %d has model %s, worker 0 has %s: every worker needs the same model", p.index, p.modelHash, hash)
	case count != p.count || index != p.index:
		return fmt.Errorf("worker 0 takes this worker for %d/%d, it was started as %d/%d (check --partition and the peer list)", index, count, p.index, p.count)
	case cap != p.cap:
		return fmt.Errorf("worker %d has --max-states %d, worker 0 has %d", p.index, p.cap, cap)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.hello {
		return nil
	}
	w.hello = true
	w.newLevel()
	root := w.mc.Initial(make([]int64, w.mc.Width()))
	if owner(w.mc, root, p.count) == p.index {
		w.store.AddNew(root, -1, -1)
		w.gidx.add(0)
		w.frontier, w.frontierG = []int32{0}, []int64{0}
	}
	return nil
}

func (w *worker) checkLevel(level int) error {
	if !w.hello || level != w.level {
		return fmt.Errorf("cluster: worker %d is at level %d, asked about level %d", w.plan.index, w.level, level)
	}
	return nil
}

func (w *worker) onExpand(d *dec) error {
	level := int(d.u())
	if err := d.done(); err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.checkLevel(level); err != nil {
		return err
	}
	w.startExpand()
	return nil
}

// startExpand expands the frontier in the background; w.mu is held.
func (w *worker) startExpand() {
	if w.started {
		return // asked again (a retried call): already under way
	}
	w.started, w.exp, w.expErr = true, expRunning, ""
	level, frontier, frontierG := w.level, w.frontier, w.frontierG
	go func() {
		err := w.expand(level, frontier, frontierG)
		w.mu.Lock()
		defer w.mu.Unlock()
		w.exp = expDone
		if err != nil {
			w.exp, w.expErr = expFailed, err.Error()
		}
		w.checkReady()
	}()
}

// newLevel resets the level's expansion; w.mu is held.
func (w *worker) newLevel() {
	w.started, w.exp, w.expErr, w.ends = false, expRunning, "", 0
	w.ready = make(chan struct{})
}

// checkReady closes ready once the level's candidates are all in, or the
// expansion failed; w.mu is held.
func (w *worker) checkReady() {
	if w.exp == expFailed || w.exp == expDone && w.ends == w.plan.count-1 {
		select {
		case <-w.ready:
		default:
			close(w.ready)
		}
	}
}

// onStatus answers whether the level's candidates are all in, waiting
// for them a while (a third of the peer timeout, so the answer comes in
// time): the expansion's state and failure, the bytes this worker sent,
// and once they are in, the candidates' keys in key order.
func (w *worker) onStatus(d *dec) ([]byte, error) {
	level := int(d.u())
	if err := d.done(); err != nil {
		return nil, err
	}
	w.mu.Lock()
	ready, started := w.ready, w.started
	err := w.checkLevel(level)
	w.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if !started {
		return nil, fmt.Errorf("cluster: worker %d was not asked to expand level %d", w.plan.index, level)
	}
	t := time.NewTimer(w.plan.peerTimeout / 3)
	defer t.Stop()
	select {
	case <-ready:
	case <-t.C:
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	var e enc
	state := w.exp
	if state == expDone && w.ends < w.plan.count-1 {
		state = expRunning
	}
	e.u(uint64(state))
	e.str(w.expErr)
	e.u(uint64(w.sent.Load()))
	if state == expDone {
		if err := w.settle(&e); err != nil {
			return nil, err
		}
	}
	return e.b, nil
}

// expand steps every state of the frontier and hands each successor to
// its owner, in batches (outbox.go). It returns when every batch was
// taken.
func (w *worker) expand(level int, frontier []int32, frontierG []int64) error {
	mc := w.mc
	out := newOutbox(w, level)
	src := make([]int64, mc.Width())
	var buf concrete.Buffer
	for k, li := range frontier {
		w.mu.Lock()
		w.store.Runtime(int(li), src)
		g := frontierG[k]
		w.mu.Unlock()
		// Fired, not Successors: every step has its rank, as the
		// one-process search's edges are ranked
		for rank, o := range mc.Fired(src, &buf) {
			d := owner(mc, o.Next, w.plan.count)
			if d == w.plan.index || w.firstSend(o.Next) {
				out.add(d, g, rank, o.Label, o.Next)
			}
		}
	}
	return out.finish()
}

// firstSend reports whether this worker never sent the runtime to its
// owner (as far as sentTo remembers), and remembers it.
func (w *worker) firstSend(r []int64) bool {
	switch {
	case w.sentTo == nil:
		w.sentTo = explore.NewStore(w.mc, 0, 1024)
	case w.sentTo.Len() >= w.sentMax:
		w.sentTo.Reset()
	}
	_, fresh := w.sentTo.Intern(r, -1, -1)
	return fresh
}

func (w *worker) onDeliver(d *dec) error {
	return w.deliver(d)
}

// deliver takes a batch of successors this worker owns: each that is not
// an owned state is a candidate of the level, and keeps its least key.
func (w *worker) deliver(d *dec) error {
	raw := d.b
	level, last := int(d.u()), d.u() == 1
	cands := decodeCands(w.mc, d)
	if err := d.done(); err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.hello && level == w.level+1 {
		w.early = append(w.early, raw)
		return nil
	}
	return w.take(level, last, cands)
}

// decodeCands reads a batch of successors after its level.
func decodeCands(mc concrete.Portable, d *dec) []cand {
	n := d.n()
	width := mc.Width()
	cands := make([]cand, n)
	flat := make([]int64, n*width)
	for j := range cands {
		c := &cands[j]
		c.k = key{int64(d.u()), int32(d.u())}
		c.via = int32(d.label(mc))
		c.words = flat[j*width : (j+1)*width]
		d.state(mc, c.words)
	}
	return cands
}

// take records delivered candidates, and the end of a peer's (last);
// w.mu is held.
func (w *worker) take(level int, last bool, cands []cand) error {
	if err := w.checkLevel(level); err != nil {
		return err
	}
	if last {
		defer func() {
			w.ends++
			w.checkReady()
		}()
	}
	if w.pend == nil {
		w.pend = explore.NewStore(w.mc, 0, 1024)
	}
	for _, c := range cands {
		if c.via < 0 || c.k.parent < 0 {
			return fmt.Errorf("cluster: a delivered successor has no source or step")
		}
		at := w.store.Probe(c.words)
		if at >= 0 {
			continue
		}
		p, fresh := w.pend.Intern(c.words, -1, -1)
		if fresh {
			w.pendKey, w.pendVia = append(w.pendKey, c.k), append(w.pendVia, c.via)
			w.pendUnknown = append(w.pendUnknown, at == explore.Unknown)
			if at == explore.Unknown {
				w.unknowns++
			}
		} else if c.k.cmp(w.pendKey[p]) < 0 {
			w.pendKey[p], w.pendVia[p] = c.k, c.via
		}
	}
	if w.spill != nil && w.unknowns > w.pruneAt() {
		if err := w.prune(); err != nil {
			return err
		}
	}
	w.checkpoint()
	if w.spill != nil && len(w.pendKey) > w.levelAt() {
		return w.toChunks()
	}
	return nil
}

// pruneAt is how many candidates the store could not place a spilling
// worker holds before it places them: a level's successors lead back to
// stored states as often as to new ones (toggling back, on gen toggles),
// and held to the end of the level those took a worker past its budget
// by twice the widest level. A batch placed is unpacked (a word a
// variable, for Place): it takes an eighth of the budget at most, where
// counted at 64 bytes a candidate it once took a worker on gen toggles 21
// with a 24 MiB budget to 54 MiB of batch.
func (w *worker) pruneAt() int {
	if w.spill.MemoryNodes > 0 {
		return w.spill.MemoryNodes
	}
	per := int64(8*w.mc.Width() + 8*w.store.Stride() + 64) // its words, packed copy, record and index
	return int(max(64, w.spill.Memory/8/per))
}

// prune places the candidates the store could not place as they came and
// drops those it owns, keeping the others (their keys and transitions)
// in a fresh store; w.mu is held.
func (w *worker) prune() error {
	owned, err := w.placeUnknown()
	if err != nil || owned == nil {
		return err
	}
	next := explore.NewStore(w.mc, 0, 1024)
	words := make([]int64, w.mc.Width())
	j := 0
	for i := range w.pendKey {
		if owned[i] {
			continue
		}
		next.Intern(w.pend.Runtime(i, words), -1, -1)
		w.pendKey[j], w.pendVia[j] = w.pendKey[i], w.pendVia[i]
		j++
	}
	w.pend = next
	w.pendKey, w.pendVia = w.pendKey[:j], w.pendVia[:j]
	w.pendUnknown = make([]bool, j)
	w.unknowns = 0
	return nil
}

// cand is one delivered successor.
type cand struct {
	k     key
	via   int32
	words []int64
}

// settle appends the level's new states' keys in key order; w.mu is
// held. The candidates the store could not place as they came are
// placed first, in one batch: those it owns are dropped.
func (w *worker) settle(e *enc) error {
	if w.lvl != nil && w.lvl.active {
		if !w.lvl.settled {
			if err := w.settleChunks(); err != nil {
				return err
			}
		}
		e.u(uint64(w.lvl.n))
		e.b = append(e.b, w.lvl.keys...)
		return nil
	}
	if w.order == nil {
		owned, err := w.placeUnknown()
		if err != nil {
			return fmt.Errorf("worker %d: %v", w.plan.index, err)
		}
		w.pendMax = max(w.pendMax, len(w.pendKey))
		w.order = make([]int32, 0, len(w.pendKey))
		for i := range w.pendKey {
			if owned == nil || !owned[i] {
				w.order = append(w.order, int32(i))
			}
		}
		slices.SortFunc(w.order, func(a, b int32) int { return w.pendKey[a].cmp(w.pendKey[b]) })
	}
	e.u(uint64(len(w.order)))
	prev := int64(0)
	for _, p := range w.order {
		k := w.pendKey[p]
		e.u(uint64(k.parent - prev)) // sorted: no negative delta
		e.u(uint64(k.rank))
		prev = k.parent
	}
	return nil
}

// placeUnknown asks the store about the level's candidates it could not
// place as they came, and returns which of the candidates it owns (nil:
// none).
func (w *worker) placeUnknown() ([]bool, error) {
	var at []int
	for i, u := range w.pendUnknown {
		if u {
			at = append(at, i)
		}
	}
	if len(at) == 0 {
		return nil, nil
	}
	width := w.mc.Width()
	words := make([]int64, len(at)*width)
	for j, i := range at {
		w.pend.Runtime(i, words[j*width:(j+1)*width])
	}
	idx := make([]int, len(at))
	if err := w.store.Place(words, idx); err != nil {
		return nil, err
	}
	w.checkpoint()
	owned := make([]bool, len(w.pendKey))
	for j, i := range at {
		owned[i] = idx[j] >= 0
	}
	return owned, nil
}

// onAssign stores the first k candidates (in key order) with the global
// indexes worker 0 settled, makes them the next frontier, and starts
// expanding it unless worker 0 says the search ends here.
func (w *worker) onAssign(d *dec) error {
	level, more, k := int(d.u()), d.u() == 1, d.n()
	idx := make([]int64, k)
	prev := int64(0)
	for j := range idx {
		idx[j] = prev + int64(d.u())
		prev = idx[j]
	}
	if err := d.done(); err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.checkLevel(level); err != nil {
		return err
	}
	w.frontier, w.frontierG = w.frontier[:0], w.frontierG[:0]
	if w.lvl != nil && w.lvl.active {
		if err := w.assignChunks(idx); err != nil {
			return err
		}
	} else {
		if k > len(w.order) {
			return fmt.Errorf("cluster: worker 0 assigned %d states, worker %d has %d", k, w.plan.index, len(w.order))
		}
		words := make([]int64, w.mc.Width())
		for j, p := range w.order[:k] {
			w.pend.Runtime(int(p), words)
			li := w.store.AddNew(words, int(w.pendKey[p].parent), int(w.pendVia[p]))
			w.gidx.add(idx[j])
			w.frontier, w.frontierG = append(w.frontier, int32(li)), append(w.frontierG, idx[j])
		}
		w.checkpoint()
	}
	if w.pend != nil {
		w.pend.Reset() // kept: a store a level cost a layout and a chunk each
	}
	w.pendKey, w.pendVia, w.pendUnknown, w.order = w.pendKey[:0], w.pendVia[:0], w.pendUnknown[:0], nil
	w.unknowns = 0
	if err := w.fit(); err != nil {
		return err
	}
	w.level++
	w.newLevel()
	early := w.early
	w.early = nil
	for _, msg := range early {
		d := &dec{b: msg}
		level, last := int(d.u()), d.u() == 1
		cands := decodeCands(w.mc, d)
		if err := d.done(); err != nil {
			return err
		}
		if err := w.take(level, last, cands); err != nil {
			return err
		}
	}
	if more {
		w.startExpand()
	}
	return nil
}

// gatherPage is how many states one Gather answer carries.
const gatherPage = 1 << 15

// onGather answers the owned states from a local index on: per state its
// global index, canonical parent, transition and words.
func (w *worker) onGather(d *dec) ([]byte, error) {
	from := int(d.u())
	if err := d.done(); err != nil {
		return nil, err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	n := w.gidx.len()
	from = min(from, n)
	to := min(n, from+gatherPage)
	var e enc
	e.u(uint64(to - from))
	words := make([]int64, w.mc.Width())
	it := w.gidx.from(from)
	for i := from; i < to; i++ {
		parent, via := w.store.Parent(i)
		e.u(uint64(it.next()))
		e.u(uint64(parent + 1))
		e.label(w.mc, via)
		e.state(w.mc, w.store.Runtime(i, words))
	}
	return e.b, w.store.Err()
}

// onFirst answers, for every location its owned states are in, the least
// global index of one, then for each probe the least global index of an
// owned state where it holds (plus one; zero: none), then each mark's
// key, least global index and whether its path is asked for: the states
// are stored in increasing global order, so the first met is the least.
func (w *worker) onFirst(d *dec) ([]byte, error) {
	if err := d.done(); err != nil {
		return nil, err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	seen := map[int]bool{}
	var locs []int
	var first []int64
	hits := make([]int64, len(w.probes)) // global index + 1
	var marks enc
	nmarks, marked := 0, map[string]bool{}
	var g int64
	mark := func(key string, path bool) {
		if !marked[key] {
			marked[key] = true
			nmarks++
			marks.str(key)
			marks.u(uint64(g))
			asked := uint64(0)
			if path {
				asked = 1
			}
			marks.u(asked)
		}
	}
	words := make([]int64, w.mc.Width())
	it := w.gidx.from(0)
	for i := range w.gidx.len() {
		g = it.next()
		if s := w.store.StateOf(i); !seen[s] {
			seen[s] = true
			locs, first = append(locs, s), append(first, g)
		}
		if len(w.probes) == 0 && w.marks == nil {
			continue
		}
		w.store.Runtime(i, words)
		for k, p := range w.probes {
			if hits[k] == 0 && p(words, g == 0) {
				hits[k] = g + 1
			}
		}
		if w.marks != nil {
			w.marks(words, g == 0, mark)
		}
	}
	if err := w.store.Err(); err != nil {
		return nil, err
	}
	var e enc
	e.u(uint64(len(locs)))
	for k, s := range locs {
		e.u(uint64(s))
		e.u(uint64(first[k]))
	}
	e.u(uint64(len(hits)))
	for _, h := range hits {
		e.u(uint64(h))
	}
	e.u(uint64(nmarks))
	return append(e.b, marks.b...), nil
}

// onNode answers whether this worker owns the state of a global index,
// and if so its canonical parent (plus one), step and words: worker 0
// follows a path's parents across owners so.
func (w *worker) onNode(d *dec) ([]byte, error) {
	g := int64(d.u())
	if err := d.done(); err != nil {
		return nil, err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	var e enc
	i, ok := w.gidx.find(g) // stored in increasing global order
	if !ok {
		e.u(0)
		return e.b, nil
	}
	parent, via := w.store.Parent(i)
	e.u(1)
	e.u(uint64(parent + 1))
	e.label(w.mc, via)
	e.state(w.mc, w.store.Runtime(i, make([]int64, w.mc.Width())))
	return e.b, w.store.Err()
}

// fit keeps a spilling store within the worker's budget once a level is
// stored (explore.Graph.Fit), counting what the worker holds beside it:
// the global indexes, the level's frontier and candidates, and what it
// remembers sending; w.mu is held.
func (w *worker) fit() error {
	if w.spill == nil {
		return nil
	}
	per := int64(w.store.MemoryPerNode())
	held := w.gidx.memBytes() + int64(cap(w.frontier))*4 + int64(cap(w.frontierG))*8 +
		int64(cap(w.pendKey))*16 + int64(cap(w.pendVia))*4 + int64(cap(w.pendUnknown))
	held += int64(w.pendMax) * per
	if w.sentTo != nil {
		held += int64(w.sentTo.Len()) * per
	}
	if w.lvl != nil {
		held += 2 * w.lvl.mem // the sorters a wide level fills, two at a time
	}
	frontier := w.store.Len()
	if len(w.frontier) > 0 {
		frontier = int(w.frontier[0])
	}
	if err := w.store.Fit(frontier, held); err != nil {
		return fmt.Errorf("worker %d: %v", w.plan.index, err)
	}
	return nil
}
