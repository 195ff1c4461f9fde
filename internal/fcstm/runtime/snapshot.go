package runtime

import (
	"encoding/binary"
	"slices"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// A Snapshot is everything a cycle reads of a runtime: its control
// configuration and its variables. An explicit search stores states as
// snapshots and restores a runtime to one to step it, so taking and
// restoring one runs no action.
type Snapshot struct {
	// Control encodes the frame stack (each frame's state, mode and
	// pending "during before"), whether a cycle has entered the root and
	// whether the machine has ended. It is opaque but comparable: two
	// runtimes of one model have equal Controls exactly when their
	// configurations are equal.
	Control string
	// Vars are the persistent variables in declaration order.
	Vars []expr.Value
}

const (
	ctlStarted = 1 << iota
	ctlEnded
)

// Snapshot returns the runtime's configuration; dst's Vars storage is
// reused when it is large enough.
func (r *Runtime) Snapshot(dst Snapshot) Snapshot {
	dst.Control = string(appendControl(make([]byte, 0, 1+4*len(r.frames)), r.frames, r.started, r.ended))
	dst.Vars = append(dst.Vars[:0], r.vars...)
	return dst
}

// appendControl appends the Control encoding of a configuration to b.
func appendControl(b []byte, frames []frame, started, ended bool) []byte {
	var flags byte
	if started {
		flags |= ctlStarted
	}
	if ended {
		flags |= ctlEnded
	}
	b = append(b, flags)
	for _, f := range frames {
		b = binary.LittleEndian.AppendUint32(b, packFrame(f))
	}
	return b
}

// Next is Step without its commit: it runs the cycle from the runtime's
// configuration and leaves the runtime there; AppendNextControl and
// NextVars read the configuration the cycle reached (the runtime's own
// after a Delta or an error) until the next call that runs or changes the
// runtime. A search steps one configuration on many inputs this way
// without restoring it, and without allocating once the scratch has grown.
func (r *Runtime) Next(present []int) error {
	c, err := r.quiet(present)
	r.next = c
	return err
}

// AppendNextControl appends the Control of the configuration Next reached
// (the runtime's own configuration when no Next ran since it last
// changed) to b: Snapshot's Control without building a string.
func (r *Runtime) AppendNextControl(b []byte) []byte {
	if c := r.next; c != nil {
		return appendControl(b, c.frames, true, len(c.frames) == 0)
	}
	return appendControl(b, r.frames, r.started, r.ended)
}

// NextWrote returns the variables the cycle Next ran assigned, as a bit
// set: bit i for variable i, bit 63 for variable 63 and every later one.
// Every other variable of NextVars holds its value from before the cycle,
// so a search repacks only these. It is 0 when NextVars are the
// runtime's own.
func (r *Runtime) NextWrote() uint64 {
	if c := r.next; c != nil {
		return c.wrote
	}
	return 0
}

// NextVars returns the variables of the configuration Next reached (as
// AppendNextControl) in declaration order. They alias the runtime's
// storage: read them before the runtime runs or changes again.
func (r *Runtime) NextVars() []expr.Value {
	if c := r.next; c != nil {
		return c.vars
	}
	return r.vars
}

func packFrame(f frame) uint32 {
	p := uint32(0)
	if f.pending {
		p = 1
	}
	return uint32(f.s.id)<<3 | uint32(f.mode)<<1 | p
}

// Restore puts the runtime in the configuration of s, which must come
// from a runtime of the same model: it fails with a ClassInit error on a
// Control that does not decode to a frame stack of the model, or on
// variables of the wrong number or type.
func (r *Runtime) Restore(s Snapshot) error {
	c := s.Control
	if len(c) == 0 || (len(c)-1)%4 != 0 || c[0]&^(ctlStarted|ctlEnded) != 0 {
		return errorf(ClassInit, model.Pos{}, nil, "restore: malformed control configuration")
	}
	if len(s.Vars) != len(r.ix.varTypes) {
		return errorf(ClassInit, model.Pos{}, nil, "restore: %d variables, the model has %d", len(s.Vars), len(r.ix.varTypes))
	}
	for i, v := range s.Vars {
		if v.Type() != r.ix.varTypes[i] {
			return errorf(ClassInit, model.Pos{}, nil, "restore: variable '%s' is %s, not %s", r.ix.varNames[i], r.ix.varTypes[i], v.Type())
		}
	}
	r.next = nil
	if r.restored != "" && c == r.restored {
		// A search restores states of one location in a row: the frames
		// are those of the last Restore (a commit clears restored).
		r.vars = append(r.vars[:0], s.Vars...)
		return nil
	}
	r.tapes.cur, r.restored = nil, ""
	frames := r.frames[:0]
	var parent *stateInfo
	for k := 1; k < len(c); k += 4 {
		p := binary.LittleEndian.Uint32([]byte(c[k : k+4]))
		id, m := int(p>>3), mode(p>>1&3)
		if id >= len(r.ix.states) || r.ix.states[id].parent != parent {
			return errorf(ClassInit, model.Pos{}, nil, "restore: the control configuration is not a frame stack of this model")
		}
		parent = r.ix.states[id]
		frames = append(frames, frame{s: parent, mode: m, pending: p&1 != 0})
	}
	r.frames = frames
	r.started, r.ended = c[0]&ctlStarted != 0, c[0]&ctlEnded != 0
	r.vars = append(r.vars[:0], s.Vars...)
	r.restored = c
	return nil
}

// Readable returns, in increasing order, the numbers of the events
// (EventPath names them) that the next cycle may test: the events of
// every transition the cycle's search can try from the current
// configuration, whatever the guards and variables say. A cycle's outcome
// depends on its inputs only through these; an ended machine reads none.
func (r *Runtime) Readable() []int {
	if r.ended {
		return nil
	}
	w := readWalk{ix: r.ix, read: make([]bool, len(r.ix.events)), seen: map[readKey]bool{}}
	if !r.started || len(r.frames) == 0 {
		w.enter(r.ix.root)
	} else {
		top := r.frames[len(r.frames)-1]
		if top.mode == initWait {
			w.inits(top.s)
		} else {
			w.out(top.s)
		}
	}
	var out []int
	for i, ok := range w.read {
		if ok {
			out = append(out, i)
		}
	}
	return slices.Clip(out)
}

// readWalk follows every transition a cycle may take, ignoring guards:
// the search of run tries no other candidate.
type readWalk struct {
	ix   *index
	read []bool
	seen map[readKey]bool
}

type readKey struct {
	s     *stateInfo
	inits bool
}

// out visits the transitions leaving s (a leaf, or a composite after its
// child left through [*]).
func (w *readWalk) out(s *stateInfo) {
	if w.seen[readKey{s, false}] {
		return
	}
	w.seen[readKey{s, false}] = true
	for _, e := range s.out {
		w.edge(e, s.parent)
	}
}

// inits visits a composite's initial transitions.
func (w *readWalk) inits(s *stateInfo) {
	if w.seen[readKey{s, true}] {
		return
	}
	w.seen[readKey{s, true}] = true
	for _, e := range s.inits {
		w.edge(e, s)
	}
}

// edge visits one transition owned by owner and where it leads.
func (w *readWalk) edge(e edge, owner *stateInfo) {
	if e.event >= 0 {
		w.read[e.event] = true
	}
	switch {
	case e.to != nil:
		w.enter(e.to)
	case owner != nil && owner.parent != nil:
		w.out(owner) // post_child_exit: the owner's own transitions
	}
}

// enter visits what entering s leads to in the same cycle: a composite's
// initial transitions, a pseudo leaf's transitions; a stoppable leaf ends
// the cycle.
func (w *readWalk) enter(s *stateInfo) {
	switch {
	case !s.leaf():
		w.inits(s)
	case s.st.Pseudo:
		w.out(s)
	}
}

// Tested returns the numbers of the events the last cycle's search tested
// for presence, in the order first tested (valid until the next Cycle).
// The cycle depends on its inputs only through them: a cycle from the
// same configuration whose inputs agree with the last one's on these
// events does exactly what it did. An explicit search enumerates input
// sets by them.
func (r *Runtime) Tested() []int {
	if r.taped != nil {
		return r.taped
	}
	return r.tested
}
