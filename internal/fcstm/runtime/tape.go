package runtime

import (
	"math"

	"github.com/stateproof/stateproof/internal/expr"
)

// A quiet cycle (Step, Next) from a configuration depends on the
// variables only through the decisions its search makes: which events
// are present and which guards hold. Everything else — the candidates
// tried, the states left and entered, the operation blocks run, the
// configuration reached — follows from the configuration and those
// decisions. A runtime records each quiet cycle it runs as a tape (its
// decisions and blocks, in order) in a trie per configuration, and
// replays a cycle whose decisions follow a recorded path: it tests the
// same events and guards and runs the same blocks, skipping the search's
// bookkeeping. A decision that leaves the recorded paths, or an error,
// falls back to the search, which records the new path; an explicit
// search steps each configuration on many inputs and variable values,
// and replays nearly all of them (docs/fcstm.md, "Search speed").
//
// Only searches that never back out of a candidate are recorded: a
// candidate's path fails through a dead end or through having no
// candidate (both fixed by the decisions), or through a repeated
// configuration, which compares variables too. A recorded path ends
// where its search first backed out, with a node that sends the cycle to
// the search. A replay that follows a recorded path to its end meets no
// repeated configuration: from a repeat on, the cycle would run as it
// did from the first visit, and so would have reached the path's end
// earlier, where the recorded search (same frames, same decisions) did
// not stop.

// maxTapeNodes bounds the nodes of a runtime's tapes: past it, cycles
// that leave the recorded paths are searched and not recorded.
const maxTapeNodes = 1 << 16

type tapeKind uint8

const (
	tEvent  tapeKind = iota // is event present? next by the answer
	tGuard                  // does guard hold? next by the answer
	tBlock                  // run block, then next[0]
	tEnd                    // the cycle reached frames (a Delta when delta)
	tSearch                 // the search backs out from here: not taped
)

// tapeNode is a node of a configuration's trie of recorded cycles.
type tapeNode struct {
	kind   tapeKind
	event  int
	guard  *expr.Program
	src    expr.Expr // the guard's source
	block  []stmt
	next   [2]*tapeNode // by a decision's outcome; next[0] after a block
	frames []frame      // tEnd: the configuration reached
	tested []int        // tEnd: the events the search tested, in order
	delta  bool         // tEnd: the search found no continuation
	end    int          // tEnd: the number of control (tapes.ends)
	// control is a root's configuration, or a tEnd's (Snapshot's Control).
	control string
	// The word forms of a guard or block, compiled on first use (words).
	wstate uint8
	wguard *expr.IntProgram
	wblock []wstmt
	wwrote uint64 // the variables wblock may assign, as NextWrote
	// A tEvent's chain of event tests (eventRun), as of trie generation
	// runGen.
	run    []eventHop
	absent *tapeNode
	runGen int
	// runAt is, by event number, the position of its test in a long run
	// (or -1), so that a cycle with few events present finds the first
	// present one without testing the run's every event.
	runAt []int32
}

// tapeOp is one step of a cycle being recorded: a decision and its
// outcome (out) or a block.
type tapeOp struct {
	kind  tapeKind
	event int
	guard *expr.Program
	src   expr.Expr
	block []stmt
	out   bool
}

// recorder is the tape of the quiet cycle being searched.
type recorder struct {
	on  bool
	ops []tapeOp
	cut int // ops from cut on are not a tape: the search backed out there
}

// note records op when recording.
func (s *search) note(op tapeOp) {
	if s.rec.on {
		s.rec.ops = append(s.rec.ops, op)
	}
}

// backedOut records that the search backs out at op position at.
func (s *search) backedOut(at int) {
	if s.rec.on {
		s.rec.cut = min(s.rec.cut, at)
	}
}

// tapes are a runtime's recorded cycles: a trie per configuration.
type tapes struct {
	byControl map[string]*tapeNode // by Control; the root's next[0] is the first node
	nodes     int
	gen       int            // the number of insertions: a change of the trie
	ends      map[string]int // the Controls tapes end in, numbered
	hits      int            // cycles replayed (tests check that some are)
	key       []byte
	cur       *tapeNode // the root of the runtime's configuration; nil: look it up
	last      *tapeNode // the root looked up last
	// lastKey is last's Control as the caller gave it: a search passes
	// one location's string again and again, and a string compared with
	// itself is equal without reading its bytes.
	lastKey string
}

// root returns the trie root of the configuration of frames. A search
// restores configurations of one location many times in a row: the last
// one looked up is checked first.
func (t *tapes) root(frames []frame, started, ended bool) *tapeNode {
	if t.cur != nil {
		return t.cur
	}
	t.key = appendControl(t.key[:0], frames, started, ended)
	if t.last != nil && string(t.key) == t.last.control {
		t.cur = t.last
		return t.cur
	}
	n := t.byControl[string(t.key)]
	if n == nil {
		if t.byControl == nil {
			t.byControl = map[string]*tapeNode{}
		}
		n = &tapeNode{kind: tSearch, control: string(t.key)}
		t.byControl[n.control] = n
	}
	t.cur, t.last, t.lastKey = n, n, n.control
	return n
}

// insert adds the path of ops, ending in end, under root.
func (t *tapes) insert(root *tapeNode, ops []tapeOp, end *tapeNode) {
	if t.nodes+len(ops)+1 > maxTapeNodes {
		return
	}
	t.gen++
	p := &root.next[0]
	for i := range ops {
		op := &ops[i]
		n := *p
		switch {
		case n == nil:
			n = &tapeNode{kind: op.kind, event: op.event, guard: op.guard, src: op.src, block: op.block}
			*p = n
			t.nodes++
		case !n.is(op):
			return // cannot happen: the same decisions lead to the same step
		}
		p = &n.next[0]
		if op.out {
			p = &n.next[1]
		}
	}
	if *p == nil {
		*p = end
		t.nodes++
	}
}

// is reports whether n records op's step.
func (n *tapeNode) is(op *tapeOp) bool {
	if n.kind != op.kind || n.event != op.event || n.guard != op.guard || len(n.block) != len(op.block) {
		return false
	}
	return len(n.block) == 0 || &n.block[0] == &op.block[0]
}

// replay runs the cycle from c (the search's root path) along root's
// trie. hit is false when the cycle leaves the recorded paths or raises:
// c's variables are then rolled back for the search to run.
func (s *search) replay(c *ctx, root *tapeNode) (ok, hit bool) {
	n := root.next[0]
	for n != nil {
		switch n.kind {
		case tEvent:
			n = n.next[b2i(s.events[n.event])]
		case tGuard:
			s.env = varEnv{ix: s.ix, vars: c.vars}
			v, err := n.guard.Run(c.vars, &s.env)
			if err != nil || v.Type() != expr.Bool {
				n = nil
				break
			}
			n = n.next[b2i(v.Bool())]
		case tBlock:
			if err := s.block(c, n.block); err != nil {
				n = nil
				break
			}
			n = n.next[0]
		case tEnd:
			c.frames = append(c.frames[:0], n.frames...)
			*s.tested = append((*s.tested)[:0], n.tested...)
			return !n.delta, true
		default:
			n = nil
		}
	}
	s.rollback(c.vars, 0)
	c.wrote = 0
	return false, false
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// record starts recording the cycle about to be searched.
func (s *search) record() {
	s.rec.on, s.rec.ops, s.rec.cut = true, s.rec.ops[:0], math.MaxInt
}

// recorded adds the cycle searched to t under root:
// c and ok are the search's outcome, which raised no error.
func (s *search) recorded(t *tapes, root *tapeNode, c *ctx, ok bool) {
	ops := s.rec.ops
	end := &tapeNode{kind: tSearch}
	if s.rec.cut != math.MaxInt {
		ops = ops[:s.rec.cut]
	} else {
		end = &tapeNode{kind: tEnd, delta: !ok, tested: append([]int(nil), *s.tested...)}
		if ok {
			end.frames = append([]frame(nil), c.frames...)
			end.control = string(appendControl(nil, c.frames, true, len(c.frames) == 0))
			end.end = t.endNumber(end.control)
		}
	}
	t.insert(root, ops, end)
}

// wstmt is a statement compiled to words: an assignment to an int
// variable (value set) or an if.
type wstmt struct {
	slot   int
	value  *expr.IntProgram
	conds  []*expr.IntProgram
	bodies [][]wstmt
	els    []wstmt
}

// Word forms of a node (wordState).
const (
	wUnknown uint8 = iota
	wCompiled
	wNone // some part is not an int64 operation
)

// words compiles n's guard or block to words, once; false when it has
// no word form.
func (ix *index) words(n *tapeNode) bool {
	if n.wstate == wUnknown {
		n.wstate = wNone
		switch n.kind {
		case tGuard:
			if p, isBool, ok := expr.CompileInts(n.src, ix.intSlot); ok && isBool {
				n.wguard, n.wstate = p, wCompiled
			}
		case tBlock:
			if b, ok := ix.wordBlock(n.block); ok {
				n.wblock, n.wwrote, n.wstate = b, wordsWrote(b), wCompiled
			}
		}
	}
	return n.wstate == wCompiled
}

// wordsWrote returns the variables b may assign, on any of its branches,
// as a bit set like NextWrote's.
func wordsWrote(b []wstmt) uint64 {
	var w uint64
	for i := range b {
		st := &b[i]
		if st.value != nil {
			w |= 1 << min(st.slot, 63)
			continue
		}
		for _, body := range st.bodies {
			w |= wordsWrote(body)
		}
		w |= wordsWrote(st.els)
	}
	return w
}

// intSlot resolves an int variable to its slot.
func (ix *index) intSlot(name string) (int, bool) {
	i, ok := ix.varIdx[name]
	return i, ok && ix.varTypes[i] == expr.Int
}

// wordBlock compiles a block to words when every statement assigns an
// int variable an int or tests a condition, all of int64 operations:
// then no writeback converts anything and no temporary is involved.
func (ix *index) wordBlock(ops []stmt) ([]wstmt, bool) {
	out := make([]wstmt, 0, len(ops))
	for i := range ops {
		op := &ops[i]
		if op.assign != nil {
			if op.slot < 0 || ix.varTypes[op.slot] != expr.Int {
				return nil, false
			}
			p, isBool, ok := expr.CompileInts(op.assign.Value, ix.intSlot)
			if !ok || isBool {
				return nil, false
			}
			out = append(out, wstmt{slot: op.slot, value: p})
			continue
		}
		w := wstmt{slot: -1}
		var ok bool
		if w.els, ok = ix.wordBlock(op.els); !ok {
			return nil, false
		}
		for k := range op.conds {
			p, isBool, ok := expr.CompileInts(op.ifs.Branches[k].Cond, ix.intSlot)
			if !ok || !isBool {
				return nil, false
			}
			body, ok := ix.wordBlock(op.bodies[k])
			if !ok {
				return nil, false
			}
			w.conds, w.bodies = append(w.conds, p), append(w.bodies, body)
		}
		out = append(out, w)
	}
	return out, true
}

// runWords runs a block compiled to words on words; false when an
// operation must be left to Eval.
func runWords(b []wstmt, words []int64) bool {
	for i := range b {
		st := &b[i]
		if st.value != nil {
			v, ok := st.value.Run(words)
			if !ok {
				return false
			}
			words[st.slot] = v
			continue
		}
		body := st.els
		for k, cond := range st.conds {
			v, ok := cond.Run(words)
			if !ok {
				return false
			}
			if v == 1 {
				body = st.bodies[k]
				break
			}
		}
		if !runWords(body, words) {
			return false
		}
	}
	return true
}

// NextWords is Next for a search that keeps variables as words (an
// int's value, a float's IEEE bits, in declaration order): from the
// configuration control (a Snapshot's Control), whatever the runtime's
// own, it runs the cycle on present in place on words and returns the
// Control of the configuration reached, with Tested listing the events
// tested, end, a number the runtime gives that configuration (from 0
// up; the same for the same Control), by which a caller can keep what
// it learnt of it, and wrote, the variables the cycle may have assigned
// (as NextWrote, though it may name more: a block's every branch), so
// that a search compares and repacks only those words. It does so only for a cycle that replays a recorded tape whose
// guards and blocks are all int64 operations on int variables; otherwise
// (ok false, words then unspecified) the caller restores the runtime and
// calls Next, which records the tape. The values are Next's: the same
// operations of Eval, and where one would leave int64 or raise, ok false.
func (r *Runtime) NextWords(control string, present []int, words []int64) (next string, end int, wrote uint64, ok bool) {
	root := r.tapes.lookup(control)
	if root == nil || r.noTapes || len(words) != len(r.vars) {
		return "", 0, 0, false
	}
	r.next, r.taped = nil, nil
	clear(r.events)
	for _, i := range present {
		if i < 0 || i >= len(r.events) {
			return "", 0, 0, false
		}
		r.events[i] = true
	}
	for n := root.next[0]; n != nil; {
		switch {
		case n.kind == tEvent:
			n = r.tapes.eventRun(n, r.events, present)
		case n.kind == tEnd && !n.delta:
			r.tested, r.taped = r.tested[:0], n.tested
			r.tapes.hits++
			return n.control, n.end, wrote, true
		case n.kind == tGuard && r.ix.words(n):
			v, ok := n.wguard.Run(words)
			if !ok {
				return "", 0, 0, false
			}
			n = n.next[v]
		case n.kind == tBlock && r.ix.words(n) && runWords(n.wblock, words):
			wrote |= n.wwrote
			n = n.next[0]
		default:
			// A Delta (words must stay as they were), a step without a
			// word form, an untaped continuation.
			return "", 0, 0, false
		}
	}
	return "", 0, 0, false
}

// eventHop is one test of an event run: the node after event's test
// when it is present.
type eventHop struct {
	event   int
	present *tapeNode
}

// eventRun follows the chain of event tests from n (each absent event
// leads to the next test) to the node the present events (by number in
// present, listed in list) lead to. The chain is kept in n as one slice,
// rebuilt after the trie grows: a location with many events tests most
// of them in every cycle, and a slice is walked faster than as many
// nodes. A long chain also keeps each event's position in it, and a
// cycle with few events present (a search tries one at a time) looks
// only theirs up.
func (t *tapes) eventRun(n *tapeNode, present []bool, list []int) *tapeNode {
	if n.runGen != t.gen {
		n.run = n.run[:0]
		m := n
		for ; m != nil && m.kind == tEvent; m = m.next[0] {
			n.run = append(n.run, eventHop{m.event, m.next[1]})
		}
		n.absent, n.runGen, n.runAt = m, t.gen, n.runAt[:0]
		if len(n.run) >= longRun {
			n.runAt = append(n.runAt, make([]int32, len(present))...)
			for i := range n.runAt {
				n.runAt[i] = -1
			}
			for i := len(n.run) - 1; i >= 0; i-- { // the first test of an event wins
				n.runAt[n.run[i].event] = int32(i)
			}
		}
	}
	if len(n.runAt) != 0 && len(list) < len(n.run)/4 {
		first := int32(len(n.run))
		for _, e := range list {
			if at := n.runAt[e]; at >= 0 && at < first {
				first = at
			}
		}
		if int(first) < len(n.run) {
			return n.run[first].present
		}
		return n.absent
	}
	for _, h := range n.run {
		if present[h.event] {
			return h.present
		}
	}
	return n.absent
}

// longRun is the shortest chain of event tests whose positions eventRun
// keeps by event.
const longRun = 8

// endNumber numbers the Controls that tapes end in.
func (t *tapes) endNumber(control string) int {
	n, ok := t.ends[control]
	if !ok {
		if t.ends == nil {
			t.ends = map[string]int{}
		}
		n = len(t.ends)
		t.ends[control] = n
	}
	return n
}

// lookup returns the trie root of control, nil when none was recorded.
func (t *tapes) lookup(control string) *tapeNode {
	if t.last != nil && t.lastKey == control {
		t.lastKey = control // the caller's own string: equal by pointer next time
		return t.last
	}
	n := t.byControl[control]
	if n != nil {
		t.last, t.lastKey = n, control
	}
	return n
}
