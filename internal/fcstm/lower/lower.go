package lower

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/sts"
)

// Limits of the expansion. The step and depth limits are the runtime's;
// the others bound the work and the size of one source's case list.
const (
	MaxCasesPerSource = 4096
	maxWork           = model.MaxWork
)

// Error is a model the lowering cannot encode exactly: an unsupported
// operator (Unsupported is true), or a cycle the symbolic replica cannot
// bound.
type Error struct {
	Pos         model.Pos
	Unsupported bool
	Msg         string
}

func (e *Error) Error() string {
	loc := e.Pos.File
	if e.Pos.Line > 0 {
		loc += fmt.Sprintf(":%d:%d", e.Pos.Line, e.Pos.Col)
	}
	if e.Unsupported {
		return loc + ": unsupported_bmc_core: " + e.Msg
	}
	return loc + ": " + e.Msg
}

// node is a state with its transitions resolved.
type node struct {
	st     *model.State
	parent *node
	depth  int
	out    []edge // transitions leaving the state, in priority order
	inits  []edge // a composite's initial transitions
}

type edge struct {
	t     *model.Transition
	to    *node // nil: [*]
	event int   // -1: none
}

func (n *node) leaf() bool    { return len(n.st.Children) == 0 }
func (n *node) deadEnd() bool { return n.st.Pseudo && len(n.out) == 0 }

// lowering holds the model being lowered and the source being expanded.
type lowering struct {
	m      *model.Model
	sys    *sts.System
	nodes  []*node // by state id
	events map[string]int
	vars   map[string]int

	src   int        // the source being expanded
	cases []sts.Case // its cases so far
	tests []sts.Test // its event tests so far
	work  int
	ntemp int
	// deadEnds counts the paths that ended without a case (a dead end, a
	// refused candidate list, a pruned loop): a shared choice is exact
	// only when its continuation adds none (share.go).
	deadEnds int
}

// Lower builds the symbolic transition system of m: one location per
// state (its pre-order id), one boolean input per event, one variable per
// persistent variable, and the macro-step cases of every source.
func Lower(m *model.Model) (*sts.System, error) {
	l := &lowering{m: m, events: map[string]int{}, vars: map[string]int{}}
	l.sys = &sts.System{Name: m.File, Format: "fcstm", Cases: map[int][]sts.Case{}, Tests: map[int][]sts.Test{}, Start: sts.InitID, StartActive: m.Root.Path, StartOnly: true, Entry: map[int]bool{sts.InitID: true}}
	l.index()
	if err := l.checkModel(); err != nil {
		return nil, err
	}
	if err := l.expandAll(); err != nil {
		return nil, err
	}
	return l.sys, nil
}

func posSource(p model.Pos, path string) sts.Source {
	return sts.Source{File: p.File, Line: p.Line, Col: p.Col, Path: path}
}

// index numbers states, events and variables as the runtime does.
func (l *lowering) index() {
	m, sys := l.m, l.sys
	for i, v := range m.Vars {
		l.vars[v.Name] = i
		sv := sts.Var{Name: v.Name, Sort: sts.Int, Src: posSource(v.Pos, v.Name)}
		if v.Type == model.Float {
			sv.Sort = sts.Real
		}
		if v.InitErr == nil {
			sv.Init = valueLit(v.Init)
		}
		sys.Vars = append(sys.Vars, sv)
	}
	for _, e := range m.Events {
		l.event(e)
	}
	byState := map[*model.State]*node{}
	var walk func(s *model.State, parent *node)
	walk = func(s *model.State, parent *node) {
		n := &node{st: s, parent: parent, depth: 1}
		var anc []string
		if parent != nil {
			n.depth = parent.depth + 1
			for a := parent; a != nil; a = a.parent {
				anc = append([]string{a.st.Path}, anc...)
			}
		}
		byState[s] = n
		l.nodes = append(l.nodes, n)
		sys.Locations = append(sys.Locations, sts.Location{ID: len(sys.Locations), Name: s.Path, Ancestors: anc, Src: posSource(s.Pos, s.Path)})
		for _, c := range s.Children {
			walk(c, n)
		}
	}
	walk(m.Root, nil)
	sys.StartSrc = posSource(m.Root.Pos, "cold start: the first cycle enters "+m.Root.Path)
	for _, n := range l.nodes {
		for _, t := range n.st.Transitions {
			e := edge{t: t, to: byState[t.To], event: -1}
			if t.Event != nil {
				e.event = l.event(t.Event)
			}
			if t.From == nil {
				n.inits = append(n.inits, e)
			} else if from := byState[t.From]; from != nil {
				from.out = append(from.out, e)
			}
		}
	}
}

func (l *lowering) event(e *model.Event) int {
	if i, ok := l.events[e.Path]; ok {
		return i
	}
	l.events[e.Path] = len(l.sys.Events)
	l.sys.Events = append(l.sys.Events, sts.Event{Name: e.Path, Src: posSource(e.Pos, e.Path)})
	return len(l.sys.Events) - 1
}

func varType(v *model.Variable) expr.Type {
	if v.Type == model.Float {
		return expr.Real
	}
	return expr.Int
}

func valueLit(v expr.Value) expr.Expr {
	if v.Type() == expr.Real {
		return &expr.FloatLit{Value: v.Real()}
	}
	if !v.IsInt64() {
		return &expr.IntLit{Big: v.BigInt()}
	}
	return &expr.IntLit{Value: v.Int()}
}

// expandAll computes the cases of every source.
func (l *lowering) expandAll() error {
	// The cold start: the root is entered first.
	if err := l.expand(sts.InitID, func(p *path) error {
		if err := l.enter(p, l.nodes[0]); err != nil {
			return err
		}
		return l.run(p)
	}); err != nil {
		return err
	}
	for _, n := range l.nodes {
		switch {
		case n.st.Stoppable():
			if err := l.expand(n.st.ID, func(p *path) error {
				p.frames = stackTo(n)
				return l.run(p)
			}); err != nil {
				return err
			}
		default:
			// A hot start into a composite: its initial transition runs
			// in the first cycle, without its plain "during before". One
			// into a pseudo leaf tries its transitions (none: a delta).
			l.sys.Entry[n.st.ID] = true
			if err := l.expand(n.st.ID, func(p *path) error {
				p.frames = stackTo(n)
				if !n.leaf() {
					p.frames[len(p.frames)-1].mode = initWait
				}
				return l.run(p)
			}); err != nil {
				return err
			}
		}
	}
	var none []sts.EventLit
	for i := range l.sys.Events {
		none = append(none, sts.EventLit{Event: i})
	}
	l.sys.Cases[sts.TerminatedID] = []sts.Case{{
		Kind: sts.Absorb, Label: "__terminate__::absorb::__terminate__::0",
		Source: sts.TerminatedID, Target: sts.TerminatedID, Events: none, Origin: -1,
	}}
	return nil
}

// stackTo is the runtime stack of a hot start on n: every frame active.
func stackTo(n *node) []frame {
	fs := make([]frame, n.depth)
	for s := n; s != nil; s = s.parent {
		fs[s.depth-1] = frame{n: s, mode: active}
	}
	return fs
}

// expand runs start on a fresh path of source src and stores the cases.
// An init or entry source also gets its semantic delta case: the cycle
// reaches no stoppable leaf, and nothing changes.
func (l *lowering) expand(src int, start func(*path) error) error {
	l.src, l.cases, l.tests, l.work = src, nil, nil, 0
	p := &path{}
	for _, v := range l.m.Vars {
		p.types = append(p.types, varType(v))
	}
	if err := start(p); err != nil {
		return err
	}
	if src == sts.InitID || !l.nodes[src].st.Stoppable() {
		prio := make([]int, len(l.cases))
		for i := range prio {
			prio[i] = i
		}
		l.add(sts.Case{Kind: sts.Delta, Source: src, Target: src, Priority: prio, Delta: true})
	}
	if len(l.cases) > MaxCasesPerSource {
		return &Error{Pos: l.srcPos(), Msg: fmt.Sprintf("one cycle from %s expands to %d cases, more than %d: the symbolic engines cannot check this model (a chain of pseudo states doubles the cases with each branching state; docs/fcstm.md, \"Known gaps\")", l.sys.LocationName(src), len(l.cases), MaxCasesPerSource)}
	}
	l.sys.Cases[src] = l.cases
	if len(l.tests) > 0 {
		l.sys.Tests[src] = l.tests
	}
	return nil
}

func (l *lowering) srcPos() model.Pos {
	if l.src >= 0 {
		return l.nodes[l.src].st.Pos
	}
	return l.m.Root.Pos
}

// add appends c with its label: SOURCE::kind::TARGET::ordinal, the ordinal
// counting earlier cases of the source with the same kind and target.
func (l *lowering) add(c sts.Case) {
	ord := 0
	for i := range l.cases {
		if l.cases[i].Kind == c.Kind && l.cases[i].Target == c.Target {
			ord++
		}
	}
	c.Label = fmt.Sprintf("%s::%s::%s::%d", l.sys.LocationName(c.Source), c.Kind, l.sys.LocationName(c.Target), ord)
	c.Origin = -1
	l.cases = append(l.cases, c)
}
