package runtime

import (
	"hash/maphash"
	"math"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// The search limits are the language's (model.MaxSteps, MaxDepth,
// MaxWork), shared with the symbolic lowering.
const (
	MaxSteps = model.MaxSteps
	MaxDepth = model.MaxDepth
	MaxWork  = model.MaxWork
)

type mode uint8

const (
	active        mode = iota
	afterEntry         // a leaf that has just run its during chain
	initWait           // a composite that must take an initial transition
	postChildExit      // a composite whose child has left through [*]
)

type frame struct {
	s       *stateInfo
	mode    mode
	pending bool // the composite's plain "during before" has not run yet
}

// ctx is one search path: the state being built and what it has done.
// A candidate's ctx starts as a copy of its parent's frames; the
// variables are the parent's, every assignment journaled so that a
// failed candidate's are undone (see try); the append-only slices share
// the parent's prefix.
type ctx struct {
	frames   []frame
	vars     []expr.Value
	steps    int
	seen     []signature // shares its backing array along the path (see fork)
	actions  []Action
	calls    []pendingCall
	consumed []int
	wrote    uint64 // the variables assigned on the path: bit min(i, 63) for variable i
}

// pendingCall is an abstract call recorded on a search path; its variables
// become a map only once the path is committed.
type pendingCall struct {
	call AbstractCall
	vars []expr.Value
}

// signature is a configuration seen on a search path: its frames and
// variables live in the search's arenas, at the offsets given.
type signature struct {
	hash           uint64
	frame, nframes int // sigFrames[frame : frame+nframes]
	vars           int // sigVars[vars : vars+len(ctx.vars)]
}

func capped[T any](s []T) []T { return s[:len(s):len(s)] }

func (c *ctx) top() *frame { return &c.frames[len(c.frames)-1] }

// search is one cycle's search: the index, the input events and the work
// done. A Runtime keeps one between cycles so that the scratch storage
// below is reused: once grown, a quiet cycle (Step) allocates nothing.
type search struct {
	ix     *index
	events []bool // by event number: present in this cycle
	work   int
	seed   maphash.Seed
	tested *[]int // the events tested so far, in order
	marked []bool // by event number: in tested
	quiet  bool   // record no trace, no call, no consumed event (Step)

	root      ctx
	spare     []*ctx // by choose depth: the ctx its candidates run on
	depth     int
	seen      []signature // the largest backing array the paths grew
	sigFrames []frame
	sigVars   []expr.Value
	env       varEnv
	temps     []temp
	assigned  []assignment
	undo      []undo // the journal of assignments, oldest first
	rec       recorder
}

// undo is an assignment journaled: the variable and its previous value.
type undo struct {
	idx int
	old expr.Value
}

// set assigns variable idx of vars, journaling its previous value.
func (s *search) set(vars []expr.Value, idx int, v expr.Value) {
	s.undo = append(s.undo, undo{idx, vars[idx]})
	vars[idx] = v
}

// rollback undoes the assignments journaled since mark.
func (s *search) rollback(vars []expr.Value, mark int) {
	for k := len(s.undo) - 1; k >= mark; k-- {
		vars[s.undo[k].idx] = s.undo[k].old
	}
	s.undo = s.undo[:mark]
}

// start prepares the search of one cycle from frames and vars, returning
// the root path.
func (s *search) start(frames []frame, vars []expr.Value, quiet bool) *ctx {
	s.work, s.depth, s.quiet = 0, 0, quiet
	s.undo = s.undo[:0]
	c := &s.root
	c.frames = append(c.frames[:0], frames...)
	c.vars = append(c.vars[:0], vars...)
	c.steps, c.wrote = 0, 0
	c.seen = s.seen[:0]
	// The trace slices of a committed cycle are handed to the caller:
	// each cycle starts new ones.
	c.actions, c.calls, c.consumed = nil, nil, nil
	return c
}

// fork returns a path continuing c, for one candidate. It is the spare
// ctx of the current depth: the search is depth first, so a candidate's
// path is dead once the next candidate at its depth is tried. The seen
// slice shares c's backing array for the same reason: what a dead path
// appended past c's length is garbage that the next path overwrites.
func (s *search) fork(c *ctx) *ctx {
	if s.depth == len(s.spare) {
		s.spare = append(s.spare, new(ctx))
	}
	cl := s.spare[s.depth]
	s.depth++
	cl.frames = append(cl.frames[:0], c.frames...)
	cl.vars = c.vars
	cl.steps, cl.wrote = c.steps, c.wrote
	cl.seen = c.seen
	cl.actions = capped(c.actions)
	cl.calls = capped(c.calls)
	cl.consumed = capped(c.consumed)
	return cl
}

// adopt makes c the successful path cl, which gets c's frames' storage.
func adopt(c, cl *ctx) {
	frames := c.frames
	*c = *cl
	cl.frames = frames[:0]
}

// run continues the inner loop on c until it stops: true when c reached a
// stoppable leaf or ended the machine, false when this path fails (a dead
// end, no candidate, a repeated configuration). c holds the continuation
// on success.
func (s *search) run(c *ctx) (bool, error) {
	for {
		if len(c.frames) == 0 {
			return true, nil
		}
		top := c.top()
		if !top.s.st.Stoppable() {
			// Only these configurations can recur within a cycle: a
			// stoppable leaf stops as soon as it has been entered.
			if s.repeats(c) {
				return false, nil
			}
		}
		c.steps++
		s.work++
		switch {
		case c.steps > MaxSteps:
			return false, errorf(ClassLimit, model.Pos{}, nil, "the cycle exceeds the step safety limit (%d steps) without reaching a stoppable state", MaxSteps)
		case len(c.frames) > MaxDepth:
			return false, errorf(ClassLimit, top.s.st.Pos, nil, "the cycle exceeds the structural stack-depth safety limit (%d frames) entering %s, nested deeper than the runtime can run", MaxDepth, top.s.st.Path)
		case s.work > MaxWork:
			return false, errorf(ClassLimit, model.Pos{}, nil, "the cycle's search exceeds its work limit (%d steps over all continuations tried)", MaxWork)
		}
		st := top.s
		switch {
		case st.deadEnd():
			return false, nil
		case st.leaf() && top.mode == afterEntry:
			top.mode = active
			if st.st.Stoppable() {
				return true, nil
			}
		case st.leaf():
			ok, err := s.choose(c, st.out, false)
			if ok || err != nil || st.st.Pseudo {
				// A pseudo state cannot stay: without a transition its
				// path fails (its during does not run again).
				return ok, err
			}
			if err := s.duringChain(c, st); err != nil {
				return false, err
			}
			c.top().mode = afterEntry
		case top.mode == initWait:
			return s.choose(c, st.inits, true)
		case top.mode == postChildExit:
			return s.choose(c, st.out, false)
		default:
			return false, errorf(ClassLimit, st.st.Pos, nil, "internal error: composite %s is on top of the stack without a child", st.st.Path)
		}
	}
}

// choose tries the enabled candidates in order, each on a fork of c, and
// adopts the first whose continuation succeeds. initial says whether
// they are initial transitions (takeInitial) or not (takeTransition).
func (s *search) choose(c *ctx, cands []edge, initial bool) (bool, error) {
	for _, e := range cands {
		if on, err := s.enabled(c, e); err != nil || !on {
			if err != nil {
				return false, err
			}
			continue
		}
		ok, err := s.try(c, e, initial)
		if err != nil {
			return false, err
		}
		if ok {
			return true, nil
		}
	}
	return false, nil
}

// try takes e on a fork of c and runs it on; a success becomes c.
func (s *search) try(c *ctx, e edge, initial bool) (bool, error) {
	mark, at := len(s.undo), len(s.rec.ops)
	cl := s.fork(c)
	ok, err := s.follow(cl, e, initial)
	s.depth--
	switch {
	case err != nil:
		// The cycle fails: the root's variables are a copy, dropped.
	case ok:
		adopt(c, cl)
	default:
		s.rollback(c.vars, mark)
		s.backedOut(at)
	}
	return ok, err
}

// follow takes e on cl and runs on.
func (s *search) follow(cl *ctx, e edge, initial bool) (bool, error) {
	var err error
	if initial {
		err = s.takeInitial(cl, e)
	} else {
		err = s.takeTransition(cl, e)
	}
	if err != nil {
		return false, err
	}
	return s.run(cl)
}

// enabled tests a transition's event (first) and then its guard.
func (s *search) enabled(c *ctx, e edge) (bool, error) {
	if e.event >= 0 {
		if !s.marked[e.event] {
			s.marked[e.event] = true
			*s.tested = append(*s.tested, e.event)
		}
		present := s.events[e.event]
		s.note(tapeOp{kind: tEvent, event: e.event, out: present})
		if !present {
			return false, nil
		}
	}
	if e.guard == nil {
		return true, nil
	}
	s.env = varEnv{ix: s.ix, vars: c.vars}
	v, err := e.guard.Run(c.vars, &s.env)
	if err != nil {
		return false, exprError(e.t.Pos, err, "transition guard evaluation failed")
	}
	if v.Type() != expr.Bool {
		return false, errorf(ClassExpression, e.t.Pos, nil, "transition guard evaluation failed: the guard is %s, not a condition", v.Type())
	}
	s.note(tapeOp{kind: tGuard, guard: e.guard, src: e.t.Guard, out: v.Bool()})
	return v.Bool(), nil
}

// takeTransition leaves the state on top (a leaf, or a composite whose
// child has exited) through e.
func (s *search) takeTransition(c *ctx, e edge) error {
	src := c.top().s
	if err := s.actions(c, src.st.Exit, src, src, StageExit); err != nil {
		return err
	}
	if err := s.effect(c, e, src.st.Name); err != nil {
		return err
	}
	c.frames = c.frames[:len(c.frames)-1]
	return s.arrive(c, e)
}

// takeInitial takes an initial transition of the composite on top.
func (s *search) takeInitial(c *ctx, e edge) error {
	if err := s.effect(c, e, Exit); err != nil {
		return err
	}
	return s.arrive(c, e)
}

// arrive finishes a transition in the composite now on top: into a
// sibling, or out through [*].
func (s *search) arrive(c *ctx, e edge) error {
	owner := c.top()
	if e.to == nil {
		return s.exitToParent(c)
	}
	if owner.pending && !e.to.st.Pseudo {
		// The plain "during before" waits until a routing chain of pseudo
		// states reaches a real child.
		owner.pending = false
		os := owner.s
		if err := s.actions(c, os.st.DuringBefore, os, os, StageDuring); err != nil {
			return err
		}
	}
	return s.enter(c, e.to)
}

// exitToParent ends the composite on top's child: its plain "during
// after", then post_child_exit, or the end of the machine at the root.
func (s *search) exitToParent(c *ctx) error {
	owner := c.top()
	owner.pending = false
	os := owner.s
	if err := s.actions(c, os.st.DuringAfter, os, os, StageDuring); err != nil {
		return err
	}
	if os.parent != nil {
		c.top().mode = postChildExit
		return nil
	}
	if err := s.actions(c, os.st.Exit, os, os, StageExit); err != nil {
		return err
	}
	c.frames = c.frames[:0]
	return nil
}

// enter pushes st and runs its entry (docs/fcstm.md, "Entering a state").
func (s *search) enter(c *ctx, st *stateInfo) error {
	c.frames = append(c.frames, frame{s: st, mode: active})
	if st.deadEnd() {
		return nil // the loop fails here; nothing runs
	}
	if err := s.actions(c, st.st.Enter, st, st, StageEnter); err != nil {
		return err
	}
	if st.leaf() {
		if err := s.duringChain(c, st); err != nil {
			return err
		}
		c.top().mode = afterEntry
		return nil
	}
	top := c.top()
	top.mode, top.pending = initWait, true
	return nil
}

// effect runs a transition's effect and records its event as consumed.
func (s *search) effect(c *ctx, e edge, from string) error {
	if s.quiet {
		return s.block(c, e.effect)
	}
	if e.event >= 0 && !containsInt(c.consumed, e.event) {
		c.consumed = append(c.consumed, e.event)
	}
	if len(e.t.Effect) == 0 {
		return nil
	}
	to := Exit
	if e.to != nil {
		to = e.to.st.Name
	}
	owner := e.t.Owner
	c.actions = append(c.actions, Action{Role: RoleEffect, State: owner.Path, From: from, To: to})
	return s.block(c, e.effect)
}

func containsInt(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// repeats records c's configuration on its path and reports whether it
// was already there.
func (s *search) repeats(c *ctx) bool {
	var h maphash.Hash
	h.SetSeed(s.seed)
	for _, f := range c.frames {
		p := uint64(0)
		if f.pending {
			p = 1
		}
		putWord(&h, uint64(f.s.id)<<8|uint64(f.mode)<<1|p)
	}
	for _, v := range c.vars {
		if v.Type() == expr.Real {
			putWord(&h, math.Float64bits(v.Real()))
		} else {
			putWord(&h, uint64(v.Int()))
		}
	}
	sum := h.Sum64()
	for _, sg := range c.seen {
		if sg.hash == sum && sameFrames(s.sigFrames[sg.frame:sg.frame+sg.nframes], c.frames) && sameValues(s.sigVars[sg.vars:sg.vars+len(c.vars)], c.vars) {
			return true
		}
	}
	// The arenas past c's last signature belong to dead paths (see fork).
	nf, nv := 0, 0
	if n := len(c.seen); n > 0 {
		last := c.seen[n-1]
		nf, nv = last.frame+last.nframes, last.vars+len(c.vars)
	}
	s.sigFrames = append(s.sigFrames[:nf], c.frames...)
	s.sigVars = append(s.sigVars[:nv], c.vars...)
	c.seen = append(c.seen, signature{hash: sum, frame: nf, nframes: len(c.frames), vars: nv})
	if cap(c.seen) > cap(s.seen) {
		s.seen = c.seen[:0]
	}
	return false
}

// putWord hashes x as 8 little-endian bytes.
func putWord(h *maphash.Hash, x uint64) {
	var buf [8]byte
	for i := range buf {
		buf[i] = byte(x >> (8 * i))
	}
	h.Write(buf[:])
}

func sameFrames(a, b []frame) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// sameValues compares variable values exactly: same type, same number.
func sameValues(a, b []expr.Value) bool {
	for i := range a {
		if a[i].Type() != b[i].Type() {
			return false
		}
		if c, ok := expr.Compare(a[i], b[i]); !ok || c != 0 {
			return false
		}
	}
	return true
}
