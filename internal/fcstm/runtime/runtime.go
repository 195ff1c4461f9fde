package runtime

import (
	"hash/maphash"
	"maps"
	"slices"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// Options configures a Runtime.
type Options struct {
	// InitialState, when set, is a hot start: the stack is built down to
	// this state (a dotted path from the root) without running any action.
	// A composite waits for its initial transition in the first cycle,
	// without its plain "during before". InitialVars must then give every
	// variable.
	InitialState string
	// InitialVars overrides variable initialisers (cold start) or gives
	// every variable (hot start). Values must be Ints or Reals; an integral
	// Real is accepted for an int variable.
	InitialVars map[string]expr.Value
	// Handlers implement abstract actions, by action path.
	Handlers  map[string]Handler
	ErrorMode ErrorMode
}

// Runtime is an FCSTM machine being executed. It is not safe for
// concurrent use.
type Runtime struct {
	ix       *index
	frames   []frame
	vars     []expr.Value
	started  bool // a cycle has entered the root (or a hot start built the stack)
	ended    bool
	handlers map[string]Handler
	errMode  ErrorMode
	seed     maphash.Seed
	events   []bool // scratch: present events of the running cycle
	tested   []int  // the events the last cycle's search tested, in order
	// taped is what Tested returns after NextWords: the replayed tape's
	// own list (read-only), which a search asks of every cycle and so
	// is not copied; nil after any other cycle.
	taped    []int
	marked   []bool // by event number: in tested
	s        search // the cycles' search, kept for its scratch storage
	next     *ctx   // the configuration Next reached (s.root); nil: the runtime's
	tapes    tapes  // the quiet cycles recorded (tape.go)
	noTapes  bool   // search every cycle (tests compare the two)
	restored string // the Control of the last Restore while the frames are its
}

// New prepares m for execution. It fails with a ClassInit error for a bad
// initial state or variable, or an initialiser that has no value or does
// not fit its variable, and with ClassLimit for a hot-start state deeper
// than MaxDepth.
func New(m *model.Model, opts Options) (*Runtime, error) {
	ix := newIndex(m)
	r := &Runtime{ix: ix, handlers: opts.Handlers, errMode: opts.ErrorMode, seed: maphash.MakeSeed(), events: make([]bool, len(ix.events)), marked: make([]bool, len(ix.events))}
	for _, name := range slices.Sorted(maps.Keys(opts.InitialVars)) { // the same one named on every run
		if _, ok := ix.varIdx[name]; !ok {
			return nil, errorf(ClassInit, model.Pos{}, nil, "initial_vars['%s']: the model has no variable %s", name, name)
		}
	}
	r.vars = make([]expr.Value, len(m.Vars))
	var missing []string
	for i, v := range m.Vars {
		if given, ok := opts.InitialVars[v.Name]; ok {
			val, err := initialValue(v, given)
			if err != nil {
				return nil, err
			}
			r.vars[i] = val
			continue
		}
		if opts.InitialState != "" {
			missing = append(missing, v.Name)
			continue
		}
		val, err := evalInitialiser(v)
		if err != nil {
			return nil, err
		}
		r.vars[i] = val
	}
	if len(missing) > 0 {
		return nil, errorf(ClassInit, model.Pos{}, nil, "a hot start needs every variable; initial_vars lacks %s", strings.Join(missing, ", "))
	}
	if opts.InitialState != "" {
		if err := r.hotStart(opts.InitialState); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func (r *Runtime) hotStart(path string) error {
	target := r.ix.byPath[path]
	if target == nil {
		return errorf(ClassInit, model.Pos{}, nil, "initial_state %s: no such state", path)
	}
	if target.depth > MaxDepth {
		return errorf(ClassLimit, target.st.Pos, nil, "initial_state %s exceeds the structural stack-depth safety limit (%d frames, limit %d)", path, target.depth, MaxDepth)
	}
	r.frames = make([]frame, target.depth)
	for s := target; s != nil; s = s.parent {
		r.frames[s.depth-1] = frame{s: s, mode: active}
	}
	if !target.leaf() {
		r.frames[len(r.frames)-1].mode = initWait
	}
	r.started = true
	return nil
}

// initialValue checks a supplied initial value against its variable.
func initialValue(v *model.Variable, given expr.Value) (expr.Value, error) {
	switch given.Type() {
	case expr.Bool:
		return expr.Value{}, errorf(ClassInit, v.Pos, nil, "initial_vars['%s'] must not be bool", v.Name)
	case expr.Int, expr.Real:
	default:
		return expr.Value{}, errorf(ClassInit, v.Pos, nil, "initial_vars['%s'] must be int or float", v.Name)
	}
	val, ok := expr.Convert(given, varType(v))
	if !ok {
		return expr.Value{}, errorf(ClassInit, v.Pos, nil, "initial_vars['%s']: variable '%s' is int type, cannot assign float %s", v.Name, v.Name, given)
	}
	return val, nil
}

// evalInitialiser returns a variable's initial value, converted to its
// type: construction evaluated it, or recorded why it has none (InitErr),
// which only a cold start needs to report.
func evalInitialiser(v *model.Variable) (expr.Value, error) {
	if v.InitErr != nil {
		return expr.Value{}, errorf(ClassInit, v.InitErr.Pos, nil, "%s", v.InitErr.Message)
	}
	val := v.Init
	if !val.Type().IsNumeric() && v.InitExpr != nil {
		var err error
		val, err = expr.Eval(v.InitExpr, expr.Vars(nil))
		if err != nil {
			e := exprError(v.Pos, err, "the initial value of '"+v.Name+"' cannot be computed")
			e.Class = ClassInit
			return expr.Value{}, e
		}
	}
	if !val.Type().IsNumeric() {
		return expr.Value{}, errorf(ClassInit, v.Pos, nil, "variable '%s' has no numeric initial value", v.Name)
	}
	out, ok := expr.Convert(val, varType(v))
	if !ok {
		return expr.Value{}, errorf(ClassInit, v.Pos, nil, "Variable '%s' is int type, cannot assign float %s", v.Name, val)
	}
	return out, nil
}

func varType(v *model.Variable) expr.Type {
	if v.Type == model.Float {
		return expr.Real
	}
	return expr.Int
}

// Model returns the model being executed.
func (r *Runtime) Model() *model.Model { return r.ix.m }

// State returns the path of the current state: the root before the first
// committed cycle of a cold start, "" once ended.
func (r *Runtime) State() string {
	switch {
	case r.ended:
		return ""
	case len(r.frames) == 0:
		return r.ix.root.st.Path
	}
	return r.frames[len(r.frames)-1].s.st.Path
}

// Ended reports whether the machine has terminated.
func (r *Runtime) Ended() bool { return r.ended }

// Vars returns a copy of the persistent variables.
func (r *Runtime) Vars() map[string]expr.Value { return r.varMap(r.vars) }

// Values returns the persistent variables in declaration order (a copy).
func (r *Runtime) Values() []expr.Value { return slices.Clone(r.vars) }

func (r *Runtime) varMap(vals []expr.Value) map[string]expr.Value {
	m := make(map[string]expr.Value, len(vals))
	for i, v := range vals {
		m[r.ix.varNames[i]] = v
	}
	return m
}

// Cycle runs one macro step with the given input events (docs/fcstm.md,
// "The runtime cycle"). On an error the runtime is unchanged and the
// returned Cycle holds the resolved events when resolution succeeded. Once
// the machine has ended, Cycle does nothing, as pyfcstm's: it never
// raises, reports the inputs that name an event as canonical paths
// resolved from the root (an input naming none is dropped), and none as
// unconsumed: no state is left to consume them, so pyfcstm reports [].
func (r *Runtime) Cycle(inputs []string) (*Cycle, error) {
	r.tested, r.taped = r.tested[:0], nil
	r.next = nil
	if r.ended {
		out := &Cycle{Ended: true}
		for _, in := range inputs {
			if i, err := r.ResolveEvent(in); err == nil && !slices.Contains(out.Events, r.ix.events[i].Path) {
				out.Events = append(out.Events, r.ix.events[i].Path)
			}
		}
		return out, nil
	}
	resolved, err := r.resolveEvents(inputs)
	if err != nil {
		return &Cycle{State: r.State()}, err
	}
	out := &Cycle{}
	for _, i := range resolved {
		out.Events = append(out.Events, r.ix.events[i].Path)
	}
	c, ok, err := r.search(resolved, false)
	if err != nil {
		out.State = r.State()
		return out, err
	}
	if !ok {
		out.Delta = true
		out.State = r.State()
		out.Unconsumed = out.Events
		return out, nil
	}
	if err := r.callHandlers(c, out); err != nil {
		out.State = r.State()
		return out, err
	}
	r.commit(c)
	out.Ended, out.State, out.Actions = r.ended, r.State(), c.actions
	for _, i := range c.consumed {
		out.Consumed = append(out.Consumed, r.ix.events[i].Path)
	}
	for _, e := range out.Events {
		if !slices.Contains(out.Consumed, e) {
			out.Unconsumed = append(out.Unconsumed, e)
		}
	}
	return out, nil
}

// search runs one cycle's search with the events numbered in present,
// on a copy of the runtime's configuration: c is the continuation found,
// ok false for a Delta. c is the runtime's scratch, valid until the next
// search; commit adopts it.
func (r *Runtime) search(present []int, quiet bool) (c *ctx, ok bool, err error) {
	clear(r.events)
	for _, i := range present {
		r.events[i] = true
	}
	r.tested, r.taped = r.tested[:0], nil
	r.next = nil
	clear(r.marked)
	s := &r.s
	if s.ix == nil {
		*s = search{ix: r.ix, events: r.events, seed: r.seed, tested: &r.tested, marked: r.marked}
	}
	c = s.start(r.frames, r.vars, quiet)
	var root *tapeNode
	if quiet && !r.noTapes {
		root = r.tapes.root(r.frames, r.started, r.ended)
		if ok, hit := s.replay(c, root); hit {
			r.tapes.hits++
			return c, ok, nil
		}
		if r.tapes.nodes < maxTapeNodes {
			s.record()
		}
	}
	ok = true
	if !r.started {
		err = s.enter(c, r.ix.root)
	}
	if err == nil {
		ok, err = s.run(c)
	}
	if s.rec.on {
		s.rec.on = false
		if err == nil {
			s.recorded(&r.tapes, root, c, ok)
		}
	}
	return c, ok, err
}

// commit makes c's configuration the runtime's, trading storage with c
// (the search's scratch) rather than sharing it.
func (r *Runtime) commit(c *ctx) {
	r.frames, c.frames = c.frames, r.frames[:0]
	r.vars, c.vars = c.vars, r.vars[:0]
	r.started = true
	r.ended = len(r.frames) == 0
	r.tapes.cur, r.restored = nil, ""
}

// Step is Cycle for a search: the input events are given by number
// (EventPath names them; out-of-range numbers are an error) and nothing
// is recorded, so it builds no trace and calls no abstract handler. The
// configuration and variables it leaves are Cycle's with the same
// events, and so is its error; Tested lists what it tested.
func (r *Runtime) Step(present []int) error {
	c, err := r.quiet(present)
	if c != nil {
		r.commit(c)
	}
	return err
}

// quiet runs Step's cycle: c is the configuration reached, nil when
// nothing changes (an ended machine, a Delta, an error).
func (r *Runtime) quiet(present []int) (*ctx, error) {
	r.tested, r.taped = r.tested[:0], nil
	r.next = nil
	if r.ended {
		return nil, nil
	}
	for _, i := range present {
		if i < 0 || i >= len(r.ix.events) {
			return nil, errorf(ClassEvent, model.Pos{}, nil, "event number %d: the model has %d events", i, len(r.ix.events))
		}
	}
	c, ok, err := r.search(present, true)
	if err != nil || !ok {
		return nil, err
	}
	return c, nil
}

// callHandlers turns the committed path's abstract calls into the trace
// and calls the handlers registered for them.
func (r *Runtime) callHandlers(c *ctx, out *Cycle) error {
	for i := range c.calls {
		call := c.calls[i].call
		call.Vars = r.varMap(c.calls[i].vars)
		out.Calls = append(out.Calls, call)
		h := r.handlers[call.Action]
		if h == nil {
			continue
		}
		if err := h.Handle(&out.Calls[len(out.Calls)-1]); err != nil {
			if r.errMode == Log {
				out.HandlerErrors = append(out.HandlerErrors, err)
				continue
			}
			return errorf(ClassHandler, model.Pos{}, err, "abstract handler of %s (%s in %s) failed: %v", call.Action, call.Stage, call.State, err)
		}
	}
	return nil
}
