package inspect

import (
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/ast"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

// overrides reports forced transitions that repeat a normal one, events
// that shadow an enclosing scope's event of the same name, and normal
// transitions with neither an event nor a guard.
func (a *analysis) overrides() {
	states(a.m.Root, func(s *model.State) {
		a.forcedOverrides(s)
		for _, t := range s.Transitions {
			if t.Origin == nil && !t.Forced && t.From != nil && t.Event == nil && t.Guard == nil {
				span := a.stmtSpan(t.Pos)
				a.emit("I_TRANSITION_NEVER_EVENT_TRIGGERED", t.Pos.File, span,
					map[string]any{"from_path": t.From.Path, "to_path": endpointPath(t.To), "transition_span": span},
					"transition %s -> %s has no event and no guard: it is taken whenever it is tried", t.From.Path, endpointPath(t.To))
			}
		}
	})
	a.shadowedEvents()
}

// forcedOverrides reports each forced declaration that expands, in s, to
// a transition with the source, target, event and guard of a normal
// transition of s: the forced one is tried first, so the normal one is
// dead or the forced one is redundant.
func (a *analysis) forcedOverrides(s *model.State) {
	seen := map[[2]model.Pos]bool{}
	for _, f := range s.Transitions {
		if !f.Forced {
			continue
		}
		for _, n := range s.Transitions {
			if n.Forced || n.Origin != nil || n.From != f.From || n.To != f.To || !sameEvent(n.Event, f.Event) || !sameGuard(n.Guard, f.Guard) {
				continue
			}
			k := [2]model.Pos{f.Pos, n.Pos}
			if seen[k] {
				continue
			}
			seen[k] = true
			fs, ns := a.stmtSpan(f.Pos), a.stmtSpan(n.Pos)
			a.emit("W_FORCED_OVERRIDES_NORMAL", f.Pos.File, fs,
				map[string]any{"from_path": endpointPath(f.From), "to_path": endpointPath(f.To), "forced_declaration_span": fs, "normal_transition_span": ns},
				"forced transition %s -> %s repeats the normal one on line %d (same event and guard) and is tried before it", endpointPath(f.From), endpointPath(f.To), n.Pos.Line)
		}
	}
}

func sameEvent(x, y *model.Event) bool {
	return x == nil && y == nil || x != nil && y != nil && x.Path == y.Path
}

func sameGuard(x, y expr.Expr) bool {
	return x == nil && y == nil || x != nil && y != nil && expr.Format(x) == expr.Format(y)
}

// shadowedEvents reports each event whose name an event of an enclosing
// scope has too (Root.B.Tick and Root.Tick): `: Tick` and `:: Tick` then
// name different events, which is easy to misread. It is reported on the
// root file's declaration of the inner event, or else of the outer one;
// two events neither of which is declared there are not reported.
func (a *analysis) shadowedEvents() {
	if a.tree == nil || a.tree.Root == nil {
		return
	}
	decls := map[string]ast.Pos{}
	declStates(a.tree.Root, "", func(path string, d *ast.StateDecl) {
		for _, it := range d.Items {
			if e, ok := it.(*ast.EventDecl); ok {
				decls[path+"."+e.Name.Name] = e.Pos
			}
		}
	})
	for _, ev := range a.m.Events {
		outer := enclosingEvent(a.m, ev)
		if outer == nil {
			continue
		}
		p, ok := decls[ev.Path]
		if !ok {
			if p, ok = decls[outer.Path]; !ok {
				continue
			}
		}
		a.emit("W_SHADOWED_EVENT", a.file, a.stmtSpan(model.Pos{File: a.file, Line: p.Line, Col: p.Col}),
			map[string]any{"event_name": ev.Name, "local_path": ev.Path, "chain_path": outer.Path},
			"event %s has the name of the event %s of an enclosing scope: `: %s` and `:: %s` may name different events", ev.Path, outer.Path, ev.Name, ev.Name)
	}
}

// enclosingEvent returns the event of the nearest enclosing scope of ev
// with its name, or nil.
func enclosingEvent(m *model.Model, ev *model.Event) *model.Event {
	scope := strings.TrimSuffix(ev.Path, "."+ev.Name)
	for i := strings.LastIndexByte(scope, '.'); i >= 0; i = strings.LastIndexByte(scope, '.') {
		scope = scope[:i]
		if outer := m.EventByPath[scope+"."+ev.Name]; outer != nil {
			return outer
		}
	}
	return nil
}
