package runtime

import (
	"slices"
	"strconv"

	"github.com/stateproof/stateproof/internal/frontend/concrete"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/jsonvalue"
)

// Machine is a model compiled for stepping.
type Machine struct {
	Model    *jsonmodel.Model
	States   []string
	Vars     []jsonmodel.Variable
	Events   []string // the sorted alphabet
	stateIdx map[string]int
	varIdx   map[string]int
	eventIdx map[string]int
	groups   []group // [state*len(Events)+event]
	trans    []compiledTransition
	init     []int64
	ints     *bigTable // the integers outside the word band (see Word)
}

type group struct {
	guarded  []int32 // indexes into trans
	defaults []int32
}

type compiledTransition struct {
	from, to int32
	event    int32
	guard    *cguard
	updates  []cupdate
	writes   []int // variables the updates assign, without repeats
	changed  []int // their words (1+variable), for Outcome.Changed
}

type cupdate struct {
	v   int
	op  byte // '+' (inc, and dec with val negated) or '='
	val int64
}

type cguard struct {
	kind     jsonmodel.GuardKind
	v        int
	op       string
	val      int64
	children []*cguard
}

// Compile builds the step tables of a validated model.
func Compile(m *jsonmodel.Model) *Machine {
	mc := &Machine{Model: m, Vars: m.Variables, Events: m.Alphabet(), ints: &bigTable{}}
	mc.stateIdx = m.StateIndex()
	for _, s := range m.States {
		mc.States = append(mc.States, s.ID)
	}
	mc.varIdx = map[string]int{}
	mc.init = make([]int64, len(m.Variables))
	for i, v := range m.Variables {
		mc.varIdx[v.Name] = i
		mc.init[i] = mc.IntWord(v.Init)
	}
	mc.eventIdx = map[string]int{}
	for i, e := range mc.Events {
		mc.eventIdx[e] = i
	}
	mc.groups = make([]group, len(mc.States)*len(mc.Events))
	for i, t := range m.Transitions {
		ct := compiledTransition{
			from:  int32(mc.stateIdx[t.From]),
			to:    int32(mc.stateIdx[t.To]),
			event: int32(mc.eventIdx[t.Event]),
			guard: mc.compileGuard(t.Guard),
		}
		for _, u := range t.Updates {
			cu := cupdate{v: mc.varIdx[u.Variable], op: '+', val: u.Value}
			switch u.Op {
			case "dec":
				cu.val = -u.Value // a literal: |u.Value| ≤ 2^53−1
			case "set":
				cu.op = '='
			}
			ct.updates = append(ct.updates, cu)
			if !slices.Contains(ct.writes, mc.varIdx[u.Variable]) {
				ct.writes = append(ct.writes, mc.varIdx[u.Variable])
				ct.changed = append(ct.changed, 1+mc.varIdx[u.Variable])
			}
		}
		mc.trans = append(mc.trans, ct)
		g := &mc.groups[int(ct.from)*len(mc.Events)+int(ct.event)]
		if t.Guard != nil {
			g.guarded = append(g.guarded, int32(i))
		} else {
			g.defaults = append(g.defaults, int32(i))
		}
	}
	return mc
}

func (mc *Machine) compileGuard(g *jsonmodel.Guard) *cguard {
	if g == nil {
		return nil
	}
	c := &cguard{kind: g.Kind, op: g.Op, val: g.Value}
	if g.Kind == jsonmodel.GuardLeaf {
		c.v = mc.varIdx[g.Variable]
	}
	for _, ch := range g.Children {
		c.children = append(c.children, mc.compileGuard(ch))
	}
	return c
}

func (g *cguard) eval(vars []int64) bool {
	switch g.kind {
	case jsonmodel.GuardLeaf:
		return jsonmodel.Compare(vars[g.v], g.op, g.val)
	case jsonmodel.GuardAll:
		for _, c := range g.children {
			if !c.eval(vars) {
				return false
			}
		}
		return true
	case jsonmodel.GuardAny:
		for _, c := range g.children {
			if c.eval(vars) {
				return true
			}
		}
		return false
	}
	return !g.children[0].eval(vars)
}

// Width is the number of words of a runtime: the state, then the variables.
func (mc *Machine) Width() int { return 1 + len(mc.Vars) }

// Initial writes the initial runtime into dst (len Width) and returns it.
func (mc *Machine) Initial(dst []int64) []int64 {
	dst = dst[:mc.Width()]
	dst[0] = int64(mc.stateIdx[mc.Model.Init])
	copy(dst[1:], mc.init)
	return dst
}

// StateIndex returns the index of a state id, or -1.
func (mc *Machine) StateIndex(id string) int {
	if i, ok := mc.stateIdx[id]; ok {
		return i
	}
	return -1
}

// EventIndex returns the index of an event in the sorted alphabet, or -1.
func (mc *Machine) EventIndex(e string) int {
	if i, ok := mc.eventIdx[e]; ok {
		return i
	}
	return -1
}

// VarIndex returns the index of a variable, or -1.
func (mc *Machine) VarIndex(name string) int {
	if i, ok := mc.varIdx[name]; ok {
		return i
	}
	return -1
}

// Writes returns the indexes of the variables transition t assigns; every
// other variable keeps its value across t.
func (mc *Machine) Writes(t int) []int { return mc.trans[t].writes }

// Transition returns the model transition with the given index.
func (mc *Machine) Transition(i int) *jsonmodel.Transition { return &mc.Model.Transitions[i] }

// Outcome is one result of a step: the transition that fired (its Label)
// and the new runtime (which aliases the buffer passed to Step).
type Outcome = concrete.Outcome

// StepBuffer holds the outcome storage Step reuses between calls.
type StepBuffer = concrete.Buffer

// Step applies event e to runtime r and returns its outcomes, deduplicated
// with first-seen order kept. buf is reused for the outcome runtimes, so a
// caller that keeps an outcome past the next Step must copy it. An empty
// result means e is not enabled in r.
func (mc *Machine) Step(r []int64, e int, buf *StepBuffer) []Outcome {
	buf.Reset()
	mc.step(r, e, buf, true)
	return buf.Outcomes()
}

// Fire is Step without deduplication: one outcome per transition that
// fires, in step order, so that two transitions reaching the same runtime
// both appear (A12 charges each its own cost, A13 pools their weights).
func (mc *Machine) Fire(r []int64, e int, buf *StepBuffer) []Outcome {
	buf.Reset()
	mc.step(r, e, buf, false)
	return buf.Outcomes()
}

// step appends the outcomes of event e in r to buf; dedup merges an
// outcome into an identical one of the same event.
func (mc *Machine) step(r []int64, e int, buf *StepBuffer, dedup bool) {
	g := &mc.groups[int(r[0])*len(mc.Events)+e]
	vars := r[1:]
	first := len(buf.Outcomes())
	fired := false
	for _, ti := range g.guarded {
		if mc.trans[ti].guard.eval(vars) {
			mc.apply(r, int(ti), buf, dedup, first)
			fired = true
		}
	}
	if !fired {
		for _, ti := range g.defaults {
			mc.apply(r, int(ti), buf, dedup, first)
		}
	}
}

// Fires applies transition t to r if t is one of the branches that fire
// on event e in r (a guarded branch whose guard holds, or a default branch
// when no guarded sibling holds), and returns the resulting runtime. Like
// Fire it does not merge identical outcomes, so it can follow a branch
// whose outcome equals an earlier sibling's.
func (mc *Machine) Fires(r []int64, e, t int, buf *StepBuffer) ([]int64, bool) {
	for _, o := range mc.Fire(r, e, buf) {
		if o.Label == t {
			return o.Next, true
		}
	}
	return nil, false
}

// Enabled reports whether e has at least one outcome in r.
func (mc *Machine) Enabled(r []int64, e int) bool {
	g := &mc.groups[int(r[0])*len(mc.Events)+e]
	if len(g.defaults) > 0 {
		return true
	}
	for _, ti := range g.guarded {
		if mc.trans[ti].guard.eval(r[1:]) {
			return true
		}
	}
	return false
}

// HasGroup reports whether any transition leaves state s on event e.
func (mc *Machine) HasGroup(s, e int) bool {
	g := &mc.groups[s*len(mc.Events)+e]
	return len(g.guarded)+len(g.defaults) > 0
}

func (mc *Machine) apply(r []int64, ti int, buf *StepBuffer, dedup bool, first int) {
	next := buf.Next(mc.Width())
	copy(next, r)
	t := &mc.trans[ti]
	next[0] = int64(t.to)
	for _, u := range t.updates {
		x := &next[1+u.v]
		if u.op == '=' {
			*x = u.val
			continue
		}
		// The fast path of exact addition (see Word): a plain word plus a
		// literal cannot leave int64, and the sum stays a plain word when
		// its top two bits agree; anything else goes through big values.
		if s := *x + u.val; (*x^*x<<1)|(s^s<<1) >= 0 {
			*x = s
		} else {
			*x = mc.addBig(*x, u.val)
		}
	}
	if dedup {
		outs := buf.Outcomes()
		for k := first; k < len(outs); k++ {
			if equalWords(outs[k].Next, next) {
				return
			}
		}
	}
	buf.Keep(ti, next, t.changed)
}

func equalWords(a, b []int64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Key returns the runtime's identity text, `state|canonical(vars)`, as the
// reference defines it. It is for messages and tests; the explorer
// compares words.
func (mc *Machine) Key(r []int64) string {
	return mc.States[r[0]] + "|" + string(jsonvalue.Canonical(mc.VarsValue(r), false))
}

// VarsValue renders the variables of r as a JSON object.
func (mc *Machine) VarsValue(r []int64) *jsonvalue.Value {
	obj := &jsonvalue.Value{Kind: jsonvalue.Object, Members: []jsonvalue.Member{}}
	for i, v := range mc.Vars {
		obj.Members = append(obj.Members, jsonvalue.Member{Key: v.Name, Value: mc.ValueOf(i, r[1+i])})
	}
	return obj
}

// ValueOf renders one variable value as JSON (booleans as true/false).
func (mc *Machine) ValueOf(v int, x int64) *jsonvalue.Value {
	if mc.Vars[v].Kind == jsonmodel.Boolean {
		return &jsonvalue.Value{Kind: jsonvalue.Bool, Bool: x != 0}
	}
	if small(x) {
		return jsonvalue.Int64(x)
	}
	return jsonvalue.Integer(mc.Int(x))
}

// FormatValue renders a variable value for messages.
func (mc *Machine) FormatValue(v int, x int64) string {
	if mc.Vars[v].Kind == jsonmodel.Boolean {
		return strconv.FormatBool(x != 0)
	}
	return mc.formatInt(x)
}

// RuntimeValue renders r as `{ "state": id, "vars": {...} }`.
func (mc *Machine) RuntimeValue(r []int64) *jsonvalue.Value {
	return &jsonvalue.Value{Kind: jsonvalue.Object, Members: []jsonvalue.Member{
		{Key: "state", Value: &jsonvalue.Value{Kind: jsonvalue.String, Str: mc.States[r[0]]}},
		{Key: "vars", Value: mc.VarsValue(r)},
	}}
}
