package jsonmodel

import (
	"fmt"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/jsonvalue"
	"github.com/stateproof/stateproof/internal/sts"
)

// Lower builds the symbolic transition system of the model (docs/architecture.md):
// one location per state, one event input per alphabet event (sorted, as
// the runtime orders them) with exactly one event per step, and per state
// one case per outgoing transition plus a stutter case that holds when no
// event is enabled at all. file names the model in source references.
func (m *Model) Lower(file string) *sts.System {
	sys := &sts.System{Name: file, Format: "json", Cases: map[int][]sts.Case{}, OneEventPerStep: true}
	idx := m.StateIndex()
	for i, s := range m.States {
		sys.Locations = append(sys.Locations, sts.Location{ID: i, Name: s.ID, Terminal: s.Terminal, Src: m.source(file, fmt.Sprintf("states[%d]", i), "states", i)})
	}
	sys.Start = idx[m.Init]
	for i, v := range m.Variables {
		sv := sts.Var{Name: v.Name, Sort: sts.Int, Init: &expr.IntLit{Value: v.Init}, Src: m.source(file, fmt.Sprintf("variables[%d]", i), "variables", i)}
		if v.Kind == Boolean {
			sv.Sort, sv.Init = sts.Bool, &expr.BoolLit{Value: v.Init != 0}
		}
		sys.Vars = append(sys.Vars, sv)
	}
	for _, e := range m.Alphabet() {
		sys.Events = append(sys.Events, sts.Event{Name: e})
	}
	// The transitions of each state, in declaration order: looked up once,
	// since scanning every transition per state (and per transition, for
	// its siblings) made lowering a model of 30,000 states take a minute.
	from := map[string][]*Transition{}
	for i := range m.Transitions {
		t := &m.Transitions[i]
		from[t.From] = append(from[t.From], t)
	}
	ordinals := map[[2]string]int{}
	for si, s := range m.States {
		var enabled []expr.Expr
		for _, t := range from[s.ID] {
			key := [2]string{t.From, t.To}
			c := m.transitionCase(sys, file, idx, t, from[s.ID], ordinals[key])
			ordinals[key]++
			sys.Cases[si] = append(sys.Cases[si], c)
			if c.Guard == nil {
				enabled = append(enabled, &expr.BoolLit{Value: true})
			} else {
				enabled = append(enabled, c.Guard)
			}
		}
		stuck := sts.Case{
			Kind: sts.Delta, Label: s.ID + "::stuck::" + s.ID + "::0",
			Source: si, Target: si, Delta: true, Origin: -1,
			Src: m.source(file, fmt.Sprintf("states[%d]", si), "states", si),
		}
		if len(enabled) > 0 {
			stuck.Guard = &expr.Unary{Op: expr.Not, X: disjunction(enabled)}
		}
		sys.Cases[si] = append(sys.Cases[si], stuck)
	}
	return sys
}

// transitionCase lowers t; idx is StateIndex, siblings the transitions
// from t's source.
func (m *Model) transitionCase(sys *sts.System, file string, idx map[string]int, t *Transition, siblings []*Transition, ordinal int) sts.Case {
	path := fmt.Sprintf("transitions[%d]", t.Index)
	c := sts.Case{
		Kind: sts.Transition, Label: fmt.Sprintf("%s::transition::%s::%d", t.From, t.To, ordinal),
		Source: idx[t.From], Target: idx[t.To], Origin: t.Index,
		Guard:  m.enabling(t, siblings),
		Events: []sts.EventLit{{Event: sys.EventIndex(t.Event), Present: true}},
		Src:    m.source(file, path, "transitions", t.Index),
	}
	c.Consumes = []int{sys.EventIndex(t.Event)}
	if t.Guard != nil {
		c.GuardSrc = m.sourceAt(file, path+".guard", m.rawElem("transitions", t.Index).Get("guard"))
	}
	for _, a := range m.States[idx[t.From]].OnExit {
		c.Calls = append(c.Calls, sts.Call{Action: a, Stage: "exit", Role: "state_exit", State: t.From, ActiveLeaf: t.From, Src: c.Src})
	}
	for ui, u := range t.Updates {
		v := sys.VarIndex(u.Variable)
		c.Effects = append(c.Effects, sts.Effect{Var: v, Value: updateExpr(u, sys.Vars[v].Sort), Src: m.sourceAt(file, fmt.Sprintf("%s.updates[%d]", path, ui), m.rawElem("transitions", t.Index).Get("updates").Elems[ui])})
	}
	for _, a := range m.States[idx[t.To]].OnEntry {
		c.Calls = append(c.Calls, sts.Call{Action: a, Stage: "enter", Role: "state_enter", State: t.To, ActiveLeaf: t.To, After: len(c.Effects), Src: c.Src})
	}
	return c
}

// enabling is A' of docs/architecture.md: the guard of a guarded transition, and for
// a default branch the negation of every guard of its group.
func (m *Model) enabling(t *Transition, siblings []*Transition) expr.Expr {
	if t.Guard != nil {
		return GuardExpr(t.Guard, m)
	}
	var guards []expr.Expr
	for _, o := range siblings {
		if o.From == t.From && o.Event == t.Event && o.Guard != nil {
			guards = append(guards, GuardExpr(o.Guard, m))
		}
	}
	if len(guards) == 0 {
		return nil
	}
	return &expr.Unary{Op: expr.Not, X: disjunction(guards)}
}

// GuardExpr translates a guard node into the shared expression language.
func GuardExpr(g *Guard, m *Model) expr.Expr {
	switch g.Kind {
	case GuardLeaf:
		ops := map[string]expr.Op{"==": expr.Eq, "!=": expr.Ne, "<": expr.Lt, "<=": expr.Le, ">": expr.Gt, ">=": expr.Ge}
		var val expr.Expr = &expr.IntLit{Value: g.Value}
		if v := m.VariableByName(g.Variable); v != nil && v.Kind == Boolean {
			val = &expr.BoolLit{Value: g.Value != 0}
		}
		return &expr.Binary{Op: ops[g.Op], X: &expr.Ident{Name: g.Variable}, Y: val}
	case GuardAll:
		if len(g.Children) == 0 {
			return &expr.BoolLit{Value: true}
		}
		return fold(g.Children, expr.Land, m)
	case GuardAny:
		if len(g.Children) == 0 {
			return &expr.BoolLit{Value: false}
		}
		return fold(g.Children, expr.Lor, m)
	}
	return &expr.Unary{Op: expr.Not, X: GuardExpr(g.Children[0], m)}
}

func fold(gs []*Guard, op expr.Op, m *Model) expr.Expr {
	out := GuardExpr(gs[0], m)
	for _, g := range gs[1:] {
		out = &expr.Binary{Op: op, X: out, Y: GuardExpr(g, m)}
	}
	return out
}

func disjunction(es []expr.Expr) expr.Expr {
	out := es[0]
	for _, e := range es[1:] {
		out = &expr.Binary{Op: expr.Lor, X: out, Y: e}
	}
	return out
}

func updateExpr(u Update, sort sts.Sort) expr.Expr {
	x := &expr.Ident{Name: u.Variable}
	switch {
	case sort == sts.Bool:
		return &expr.BoolLit{Value: u.Value != 0}
	case u.Op == "inc":
		return &expr.Binary{Op: expr.Add, X: x, Y: &expr.IntLit{Value: u.Value}}
	case u.Op == "dec":
		return &expr.Binary{Op: expr.Sub, X: x, Y: &expr.IntLit{Value: u.Value}}
	}
	return &expr.IntLit{Value: u.Value}
}

func (m *Model) rawElem(key string, i int) *jsonvalue.Value {
	if arr := m.Raw.Get(key); arr != nil && i < len(arr.Elems) {
		return arr.Elems[i]
	}
	return nil
}

func (m *Model) source(file, path, key string, i int) sts.Source {
	return m.sourceAt(file, path, m.rawElem(key, i))
}

// sourceAt points at a JSON element: its position and its compact text.
func (m *Model) sourceAt(file, path string, v *jsonvalue.Value) sts.Source {
	s := sts.Source{File: file, Path: path}
	if v != nil {
		s.Line, s.Col = v.Pos.Line, v.Pos.Col
		raw, _ := StripMetadata(v).MarshalJSON()
		s.Excerpt = string(raw)
	}
	return s
}
