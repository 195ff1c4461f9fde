package explicit

import (
	"errors"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/fcstm/runtime"
	"github.com/stateproof/stateproof/internal/frontend/concrete"
)

// MaxInputs is the most events one location's cycle may read (the input
// sets are bit sets). A location reading more is an undecided location.
const MaxInputs = 64

// Kind classifies a location.
type Kind uint8

// Location kinds.
const (
	Running   Kind = iota // the machine runs: the runtime's configuration
	Ended                 // the machine has ended
	Raised                // a cycle raised Err (the runtime stays where it was)
	Undecided             // the search cannot go on from here: Reason says why
)

// A Location is what word 0 of a state stands for.
type Location struct {
	Kind Kind
	// State is the runtime's current state (Runtime.State) when Running;
	// Started is false before the first cycle of a cold start.
	State   string
	Started bool
	Err     error  // Raised: the runtime's error
	Reason  string // Undecided
	control string
	events  []int    // Running: the events its cycle can read
	names   []string // their paths
	bits    []int8   // by event number: its bit among events, or -1
}

// Machine is an FCSTM model as a concrete.Machine. It is safe for
// concurrent use.
type Machine struct {
	m       *model.Model
	real    []bool   // per variable: a float
	bit     []bool   // per variable: an int that only holds 0 or 1 (bitVars)
	all     []int    // every event, for the unreduced enumeration of tests
	names   []string // every event's path
	reduce  bool
	changed []int
	init    []int64
	pool    sync.Pool // *stepper

	locs   interner[string, *Location]
	labels interner[label, label]
}

// label is one step: the location left, the input subset (a mask over
// the source location's events) and the location entered.
type label struct {
	from, to int
	mask     uint64
}

// stepper is one worker's runtime and scratch.
type stepper struct {
	rt  *runtime.Runtime
	src runtime.Snapshot
	err error // restoring src failed: every cycle from it raises this
	// restored says whether rt is at src (and err set): a cycle replayed
	// on words does not need it.
	restored bool
	ends     []int   // by rt's NextWords end number: 1 + its location's number, or 0
	from     []int64 // the words of src
	in       []int
	key      []byte // the Control of the configuration a cycle reached
	// changed is the last cycle's Outcome.Changed when it ran on words
	// (the variables its blocks may assign), nil when differ must find it.
	changed []int
	stack   []decided
	// Recent numbers of the shared tables, which only a miss asks.
	labels [cacheSize][2]cachedLabel // two ways: see cachedLabel
	locs   [cacheSize]cachedLoc
}

// cacheSize is the number of entries of a stepper's caches (a power of 2).
const cacheSize = 256

type cachedLabel struct {
	l  label
	n  int
	ok bool
}

type cachedLoc struct {
	key string
	n   int
}

// New prepares m for search. It fails when a cold start of m fails (a
// variable without an initial value).
func New(m *model.Model) (*Machine, error) {
	rt, err := runtime.New(m, runtime.Options{})
	if err != nil {
		return nil, err
	}
	mc := &Machine{m: m, reduce: true}
	for i, v := range m.Vars {
		mc.real = append(mc.real, v.Type == model.Float)
		mc.changed = append(mc.changed, i+1)
	}
	mc.names = rt.EventPaths()
	for i := range mc.names {
		mc.all = append(mc.all, i)
	}
	mc.pool.New = func() any {
		r, _ := runtime.New(m, runtime.Options{}) // the cold start succeeded above
		return &stepper{rt: r}
	}
	st := &stepper{rt: rt}
	mc.init = mc.pack(st, nil, make([]int64, mc.Width()))
	mc.pool.Put(st)
	mc.bit = bitVars(m, mc.init)
	return mc, nil
}

// Width is one word for the location and one per variable.
func (mc *Machine) Width() int { return 1 + len(mc.real) }

// Ranges gives the variables that only hold 0 or 1 as bits (bitVars)
// and nothing of the others; locations are numbered from 0.
func (mc *Machine) Ranges() []concrete.Range {
	rs := make([]concrete.Range, mc.Width())
	rs[0] = concrete.Range{Min: 0, Max: math.MaxInt32}
	for i := 1; i < len(rs); i++ {
		rs[i] = concrete.Unbounded
		if mc.bit[i-1] {
			rs[i] = concrete.Bit
		}
	}
	return rs
}

// Initial writes the cold start's state.
func (mc *Machine) Initial(dst []int64) []int64 {
	dst = dst[:mc.Width()]
	copy(dst, mc.init)
	return dst
}

// Location returns what word 0 value w stands for.
func (mc *Machine) Location(w int64) *Location {
	return mc.locs.at(int(w))
}

// Successors steps src on one input set per class of input sets that
// the cycle cannot tell apart (see the package comment), the empty set
// first; one outcome per input.
func (mc *Machine) Successors(src []int64, buf *concrete.Buffer) []concrete.Outcome {
	return mc.successors(src, buf, nil)
}

// An Input is the class of input sets one outcome of Successors stands
// for: the sets with every event of Present and none of Absent (runtime
// event indices, see Events); the cycle reads no other event, so the rest
// may be present or not. Queries use it to honour assumptions about the
// events of a step.
type Input struct{ Present, Absent []int }

// Inputs is Successors with the class of input sets of each outcome, in
// the same order, appended to dst.
func (mc *Machine) Inputs(src []int64, buf *concrete.Buffer, dst []Input) ([]concrete.Outcome, []Input) {
	out := mc.successors(src, buf, &dst)
	return out, dst
}

// Events returns the path of every event, by runtime event index.
func (mc *Machine) Events() []string { return mc.names }

func (mc *Machine) successors(src []int64, buf *concrete.Buffer, inputs *[]Input) []concrete.Outcome {
	buf.Reset()
	loc := mc.Location(src[0])
	if loc.Kind != Running {
		return buf.Outcomes()
	}
	events := loc.events
	if !mc.reduce {
		events = mc.all
	}
	w := mc.Width()
	if len(events) > MaxInputs || !mc.reduce && len(events) > 16 {
		next := buf.Next(w)
		mc.undecided(next, "a cycle in "+loc.State+" can read more than "+strconv.Itoa(MaxInputs)+" events")
		buf.Keep(mc.label(label{from: int(src[0]), to: int(next[0])}), next, mc.changed)
		if inputs != nil {
			*inputs = append(*inputs, Input{})
		}
		return buf.Outcomes()
	}
	st := mc.pool.Get().(*stepper)
	defer mc.pool.Put(st)
	st.src.Control = loc.control
	st.restored = false // until a cycle needs the runtime (see step)
	st.from = src
	if !mc.reduce {
		all := uint64(1)<<len(events) - 1
		for mask := uint64(0); mask < 1<<len(events); mask++ {
			next := buf.Next(w)
			mc.step(st, events, mask, next)
			buf.Keep(mc.label(label{from: int(src[0]), mask: mask, to: int(next[0])}), next, mc.changed)
			if inputs != nil {
				*inputs = append(*inputs, input(events, mask, all&^mask))
			}
		}
		return buf.Outcomes()
	}
	mc.tree(st, loc, int(src[0]), buf, inputs)
	return buf.Outcomes()
}

// tree steps st.src on the leaves of the input decision tree: a run with
// the events of on present tests some events; for each tested event not
// yet decided, one branch has it present and every undecided event
// tested before it absent. The leaves cover every input set once.
func (mc *Machine) tree(st *stepper, loc *Location, from int, buf *concrete.Buffer, inputs *[]Input) {
	w := mc.Width()
	st.stack = append(st.stack[:0], decided{})
	for len(st.stack) > 0 {
		d := st.stack[len(st.stack)-1]
		st.stack = st.stack[:len(st.stack)-1]
		next := buf.Next(w)
		off := d.off
		if mc.step(st, loc.events, d.on, next) {
			pushed := len(st.stack)
			for _, e := range st.rt.Tested() {
				b := loc.bit(e)
				if b < 0 {
					// Readable missed an event a cycle tested: say so
					// rather than skip inputs.
					st.stack, off, st.changed = st.stack[:pushed], d.off, nil
					mc.undecided(next, "a cycle in "+loc.State+" tested an event outside its readable set (an internal error; please report it)")
					break
				}
				if (d.on|off)&(1<<b) != 0 {
					continue
				}
				st.stack = append(st.stack, decided{on: d.on | 1<<b, off: off})
				off |= 1 << b
			}
		}
		changed := st.changed
		if changed == nil {
			changed = mc.differ(st.from, next)
		}
		buf.Keep(mc.cachedLabel(st, label{from: from, mask: d.on, to: int(next[0])}), next, changed)
		if inputs != nil {
			// This leaf's class: the events tested and not decided present
			// are absent (the branches pushed above have them present).
			*inputs = append(*inputs, input(loc.events, d.on, off))
		}
	}
}

// differ returns the words of next that may differ from src's, as
// Outcome.Changed: the span from the first variable that differs to the
// last, so that the visited set repacks only these (a cycle assigns a
// few variables of many).
func (mc *Machine) differ(src, next []int64) []int {
	lo, hi := len(next), 0
	for i := 1; i < len(next); i++ {
		if next[i] != src[i] {
			lo, hi = min(lo, i), i
		}
	}
	if hi == 0 {
		return mc.changed[:0]
	}
	return mc.changed[lo-1 : hi]
}

// wroteSpan returns the words of the variables of wrote (a bit set as
// Runtime.NextWrote's) as Outcome.Changed: the span from the first to the
// last, found without comparing any word.
func (mc *Machine) wroteSpan(wrote uint64) []int {
	if wrote == 0 {
		return mc.changed[:0:0]
	}
	lo, hi := bits.TrailingZeros64(wrote), 63-bits.LeadingZeros64(wrote)
	if hi == 63 {
		hi = len(mc.changed) - 1 // bit 63 stands for every later variable too
	}
	return mc.changed[lo : hi+1]
}

// input lists the events of the masks on and off.
func input(events []int, on, off uint64) Input {
	var in Input
	for i, e := range events {
		switch {
		case on&(1<<i) != 0:
			in.Present = append(in.Present, e)
		case off&(1<<i) != 0:
			in.Absent = append(in.Absent, e)
		}
	}
	return in
}

// decided is a node of the input decision tree: the events decided
// present (on) and absent (off), as bits over the location's events.
type decided struct{ on, off uint64 }

// bit returns the bit of event e among the location's events, or -1.
func (l *Location) bit(e int) int { return int(l.bits[e]) }

// Fired is Successors: every input is its own step.
func (mc *Machine) Fired(src []int64, buf *concrete.Buffer) []concrete.Outcome {
	return mc.Successors(src, buf)
}

// step runs one cycle from st.src (the configuration st.rt is in) with
// the events of mask and writes the resulting state into next. It reports
// whether the cycle ran.
func (mc *Machine) step(st *stepper, events []int, mask uint64, next []int64) bool {
	st.in = st.in[:0]
	for m := mask; m != 0; m &= m - 1 { // the set bits, lowest first
		st.in = append(st.in, events[bits.TrailingZeros64(m)])
	}
	// A replay on words first: it needs neither the runtime restored nor
	// the variables as values.
	copy(next[1:], st.from[1:])
	st.changed = nil
	if control, end, wrote, ok := st.rt.NextWords(st.src.Control, st.in, next[1:]); ok {
		st.changed = mc.wroteSpan(wrote)
		if end >= len(st.ends) || st.ends[end] == 0 {
			st.key = append(st.key[:0], control...)
			st.ends = append(st.ends, make([]int, max(0, end+1-len(st.ends)))...)
			st.ends[end] = 1 + mc.locate(st)
		}
		next[0] = int64(st.ends[end] - 1)
		return true
	}
	if !st.restored {
		st.src.Vars = mc.unpack(st.from, st.src.Vars[:0])
		st.err = st.rt.Restore(st.src)
		st.restored = true
	}
	if st.err != nil {
		mc.raised(next, st.err)
		return false
	}
	if err := st.rt.Next(st.in); err != nil {
		mc.raised(next, err)
		return true
	}
	mc.pack(st, st.from, next)
	return true
}

// pack writes the configuration st.rt's last Next reached (its own when
// none ran) as words. With src, the state the cycle started from, only
// the variables the cycle assigned are converted; the others are src's.
func (mc *Machine) pack(st *stepper, src, dst []int64) []int64 {
	vars := st.rt.NextVars()
	if src == nil {
		for i := range vars {
			if !mc.packVar(vars, i, dst) {
				return dst
			}
		}
	} else {
		copy(dst[1:], src[1:])
		for w := st.rt.NextWrote(); w != 0; w &= w - 1 {
			i := bits.TrailingZeros64(w)
			last := i
			if i == 63 {
				last = len(vars) - 1 // bit 63 stands for every later variable too
			}
			for ; i <= last; i++ {
				if !mc.packVar(vars, i, dst) {
					return dst
				}
			}
		}
	}
	st.key = st.rt.AppendNextControl(st.key[:0])
	dst[0] = int64(mc.locate(st))
	return dst
}

// locate returns the number of the location whose Control is st.key,
// describing it when new (st.rt must then have reached it by Next).
func (mc *Machine) locate(st *stepper) int {
	h := uint32(2166136261)
	for _, b := range st.key {
		h = (h ^ uint32(b)) * 16777619
	}
	e := &st.locs[h%cacheSize]
	if e.key != string(st.key) || e.key == "" {
		n, ok := find(&mc.locs, st.key)
		if !ok {
			n = mc.intern(string(st.key), func() *Location { return mc.describe(st) })
		}
		*e = cachedLoc{key: string(st.key), n: n}
	}
	return e.n
}

// packVar writes variable i into dst, or makes dst undecided (false)
// when an int leaves the 64-bit integers.
func (mc *Machine) packVar(vars []expr.Value, i int, dst []int64) bool {
	v := &vars[i]
	switch {
	case mc.real[i]:
		dst[1+i] = int64(math.Float64bits(v.Real()))
	case !v.IsInt64():
		mc.undecided(dst, "a variable leaves the 64-bit integers")
		return false
	default:
		dst[1+i] = v.Int()
	}
	return true
}

// cachedLabel is label through st's cache. A state's labels are asked
// for in turn, state after state, so two of them sharing a set of a
// direct-mapped cache would miss on every state (toggles 14 has such a
// pair): the cache keeps two per set, the newest first.
func (mc *Machine) cachedLabel(st *stepper, l label) int {
	h := (uint64(l.from)*0x9e3779b97f4a7c15 ^ uint64(l.to)*0xc2b2ae3d27d4eb4f ^ l.mask*0x165667b19e3779f9) * 0xff51afd7ed558ccd
	set := &st.labels[h>>32%cacheSize]
	switch {
	case set[0].ok && set[0].l == l:
		return set[0].n
	case set[1].ok && set[1].l == l:
		set[0], set[1] = set[1], set[0]
		return set[0].n
	}
	set[1], set[0] = set[0], cachedLabel{l: l, n: mc.label(l), ok: true}
	return set[0].n
}

// describe describes the configuration st.rt's last Next reached: it
// restores the runtime there to ask, and back to st.src.
func (mc *Machine) describe(st *stepper) *Location {
	control := string(st.key)
	next := runtime.Snapshot{Control: control, Vars: slices.Clone(st.rt.NextVars())}
	var loc *Location
	if err := st.rt.Restore(next); err != nil {
		loc = &Location{Kind: Undecided, Started: true, Reason: "the runtime does not restore its own configuration (an internal error; please report it): " + err.Error()}
	} else {
		loc = mc.running(st.rt, control)
	}
	if st.restored {
		st.err = st.rt.Restore(st.src)
	}
	return loc
}

// running describes the configuration rt is in.
func (mc *Machine) running(rt *runtime.Runtime, control string) *Location {
	if rt.Ended() {
		return &Location{Kind: Ended, Started: true, control: control}
	}
	loc := &Location{Kind: Running, State: rt.State(), Started: control[0] != 0, control: control, events: rt.Readable()}
	loc.bits = make([]int8, len(mc.names))
	for i := range loc.bits {
		loc.bits[i] = -1
	}
	for i, e := range loc.events {
		loc.names = append(loc.names, rt.EventPath(e))
		if i < MaxInputs {
			loc.bits[e] = int8(i)
		}
	}
	return loc
}

// unpack turns words into variable values.
func (mc *Machine) unpack(src []int64, dst []expr.Value) []expr.Value {
	for i, real := range mc.real {
		if real {
			dst = append(dst, expr.RealVal(math.Float64frombits(uint64(src[1+i]))))
		} else {
			dst = append(dst, expr.IntVal(src[1+i]))
		}
	}
	return dst
}

// raised makes dst the absorbing location of err. Its other words are
// zero: one node per distinct error, found by its shortest path.
func (mc *Machine) raised(dst []int64, err error) {
	clear(dst)
	var re *runtime.Error
	msg := err.Error()
	if errors.As(err, &re) {
		msg = string(re.Class) + ": " + msg
	}
	dst[0] = int64(mc.intern("R"+msg, func() *Location { return &Location{Kind: Raised, Err: err, Started: true} }))
}

// undecided makes dst the absorbing location of reason.
func (mc *Machine) undecided(dst []int64, reason string) {
	clear(dst)
	dst[0] = int64(mc.intern("U"+reason, func() *Location { return &Location{Kind: Undecided, Reason: reason, Started: true} }))
}

// intern numbers a location by key, describing it when new.
func (mc *Machine) intern(key string, describe func() *Location) int {
	return mc.locs.number(key, describe)
}

// label numbers a step.
func (mc *Machine) label(l label) int {
	return mc.labels.number(l, func() label { return l })
}

// interner numbers values by key, for the search's workers at once: a
// key seen before is found under the read lock, so only new ones wait.
type interner[K comparable, V any] struct {
	mu   sync.RWMutex
	idx  map[K]int
	vals []V
	// seen is vals as of the last addition, read without the lock: a
	// search looks up the location of every state it steps, and values
	// are only ever appended.
	seen atomic.Pointer[[]V]
}

// number returns key's number, adding describe() under it when key is new.
func (t *interner[K, V]) number(key K, describe func() V) int {
	t.mu.RLock()
	i, ok := t.idx[key]
	t.mu.RUnlock()
	if ok {
		return i
	}
	v := describe()
	t.mu.Lock()
	defer t.mu.Unlock()
	if i, ok := t.idx[key]; ok {
		return i
	}
	if t.idx == nil {
		t.idx = map[K]int{}
	}
	t.idx[key] = len(t.vals)
	t.vals = append(t.vals, v)
	vals := t.vals
	t.seen.Store(&vals)
	return len(t.vals) - 1
}

// find returns the number of key, given as bytes, if it has one; the
// lookup converts no string.
func find[V any](t *interner[string, V], key []byte) (int, bool) {
	t.mu.RLock()
	i, ok := t.idx[string(key)]
	t.mu.RUnlock()
	return i, ok
}

// at returns the value numbered i (a number number returned).
func (t *interner[K, V]) at(i int) V {
	return (*t.seen.Load())[i]
}

// Describe renders a step: the state it leaves, its input set in braces
// ("{}" for the empty cycle) and what it enters.
func (mc *Machine) Describe(t int) (from, input, to string) {
	l := mc.labels.at(t)
	src, dst := mc.locs.at(l.from), mc.locs.at(l.to)
	names := src.names
	if !mc.reduce {
		names = mc.names
	}
	var in []string
	for i, name := range names {
		if l.mask&(1<<i) != 0 {
			in = append(in, name)
		}
	}
	return src.String(), "{" + strings.Join(in, ", ") + "}", dst.String()
}

// String names the location in paths.
func (l *Location) String() string {
	switch l.Kind {
	case Ended:
		return "(ended)"
	case Raised:
		return "(raised: " + l.Err.Error() + ")"
	case Undecided:
		return "(undecided: " + l.Reason + ")"
	}
	if !l.Started {
		return l.State + " (not started)"
	}
	return l.State
}
