package runtime

import (
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// builder makes constructed models in Go for the unit tests, the way
// construction would: paths, lookups, resolved events and actions.
type builder struct {
	t *testing.T
	m *model.Model
}

func newBuilder(t *testing.T, root string) *builder {
	r := &model.State{Name: root, Path: root}
	m := &model.Model{File: "test.fcstm", Root: r,
		StateByPath: map[string]*model.State{root: r}, EventByPath: map[string]*model.Event{},
		VarByName: map[string]*model.Variable{}, ActionByPath: map[string]*model.Action{}}
	return &builder{t: t, m: m}
}

func (b *builder) intVar(name string, init int64) {
	v := &model.Variable{Name: name, Type: model.Int, Init: expr.IntVal(init)}
	b.m.Vars = append(b.m.Vars, v)
	b.m.VarByName[name] = v
}

func (b *builder) floatVar(name, init string) {
	v := &model.Variable{Name: name, Type: model.Float, InitExpr: b.expr(init)}
	b.m.Vars = append(b.m.Vars, v)
	b.m.VarByName[name] = v
}

func (b *builder) state(parent *model.State, name string) *model.State {
	s := &model.State{Name: name, Path: parent.Path + "." + name, Parent: parent}
	parent.Children = append(parent.Children, s)
	b.m.StateByPath[s.Path] = s
	return s
}

func (b *builder) pseudo(parent *model.State, name string) *model.State {
	s := b.state(parent, name)
	s.Pseudo = true
	return s
}

func (b *builder) event(path string) *model.Event {
	if e := b.m.EventByPath[path]; e != nil {
		return e
	}
	e := &model.Event{Name: path[strings.LastIndex(path, ".")+1:], Path: path}
	b.m.Events = append(b.m.Events, e)
	b.m.EventByPath[path] = e
	return e
}

func (b *builder) expr(src string) expr.Expr {
	e, err := expr.ParseExpr(src)
	if err != nil {
		b.t.Fatalf("parse %q: %v", src, err)
	}
	return e
}

// ops parses "x = e; y = e" (assignments only; a name that is not a
// variable is a temporary).
func (b *builder) ops(src string) []model.Stmt {
	var out []model.Stmt
	for _, part := range strings.Split(src, ";") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		name, rhs, ok := strings.Cut(part, "=")
		if !ok {
			b.t.Fatalf("bad statement %q", part)
		}
		name = strings.TrimSpace(name)
		out = append(out, &model.Assign{Name: name, Value: b.expr(rhs), Temp: b.m.VarByName[name] == nil})
	}
	return out
}

// trans adds owner's transition from -> to (nil: [*]); event is a full
// path or ""; guard and effect are source text or "".
func (b *builder) trans(owner, from, to *model.State, event, guard, effect string) *model.Transition {
	t := &model.Transition{Owner: owner, From: from, To: to}
	if event != "" {
		t.Event = b.event(event)
	}
	if guard != "" {
		t.Guard = b.expr(guard)
	}
	if effect != "" {
		t.Effect = b.ops(effect)
	}
	owner.Transitions = append(owner.Transitions, t)
	return t
}

// action adds a concrete action (ops != "") or an abstract one (ops == "").
func (b *builder) action(s *model.State, role model.ActionRole, name, ops string) *model.Action {
	a := &model.Action{State: s, Name: name, Role: role, Stage: stageOf(role), Kind: model.Concrete}
	if name != "" {
		a.Path = s.Path + "." + name
		b.m.ActionByPath[a.Path] = a
	}
	if ops == "" {
		a.Kind = model.Abstract
	} else {
		a.Ops = b.ops(ops)
	}
	b.add(s, a)
	return a
}

func (b *builder) ref(s *model.State, role model.ActionRole, name string, target *model.Action) *model.Action {
	a := &model.Action{State: s, Name: name, Role: role, Stage: stageOf(role), Kind: model.Ref, Target: target, RefPath: target.Path}
	if name != "" {
		a.Path = s.Path + "." + name
	}
	b.add(s, a)
	return a
}

func stageOf(role model.ActionRole) model.ActionStage {
	switch role {
	case model.RoleEnter:
		return model.StageEnter
	case model.RoleExit:
		return model.StageExit
	}
	return model.StageDuring
}

func (b *builder) add(s *model.State, a *model.Action) {
	switch a.Role {
	case model.RoleEnter:
		s.Enter = append(s.Enter, a)
	case model.RoleExit:
		s.Exit = append(s.Exit, a)
	case model.RoleDuring:
		s.During = append(s.During, a)
	case model.RoleDuringBefore:
		s.DuringBefore = append(s.DuringBefore, a)
	case model.RoleDuringAfter:
		s.DuringAfter = append(s.DuringAfter, a)
	case model.RoleAspectBefore:
		s.AspectBefore = append(s.AspectBefore, a)
	case model.RoleAspectAfter:
		s.AspectAfter = append(s.AspectAfter, a)
	}
}

func (b *builder) runtime(opts Options) *Runtime {
	b.t.Helper()
	r, err := New(b.m, opts)
	if err != nil {
		b.t.Fatalf("New: %v", err)
	}
	return r
}

// step runs one cycle and fails the test on an error.
func step(t *testing.T, r *Runtime, events ...string) *Cycle {
	t.Helper()
	c, err := r.Cycle(events)
	if err != nil {
		t.Fatalf("cycle %v: %v", events, err)
	}
	return c
}

func wantState(t *testing.T, r *Runtime, state string, vars map[string]int64) {
	t.Helper()
	if got := r.State(); got != state {
		t.Errorf("state = %q, want %q", got, state)
	}
	for name, want := range vars {
		v := r.Vars()[name]
		if v.Type() != expr.Int || v.Int() != want {
			t.Errorf("%s = %v, want %d", name, v, want)
		}
	}
}
