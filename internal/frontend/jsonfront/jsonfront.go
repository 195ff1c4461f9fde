// Package jsonfront is the front end of JSON state-machine models (schema
// v1, docs/models.md): it decodes and validates a model, lowers it to a
// transition system, replays witnesses on the JSON runtime, and states
// the model's never-states and var-in-range invariants as placements.
package jsonfront

import (
	"fmt"
	"strings"

	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/frontend"
	"github.com/stateproof/stateproof/internal/input"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/runtime"
)

// Format is the JSON model format.
type Format struct{}

// Name implements frontend.Format.
func (Format) Name() string { return "json" }

// Extensions implements frontend.Format.
func (Format) Extensions() []string { return []string{".json"} }

// Load implements frontend.Format: a model that does not decode or
// validate is an error listing every problem with its JSON path.
func (Format) Load(rd input.Reader, path string) (*frontend.Model, error) {
	data, err := rd.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", path, err)
	}
	return Format{}.LoadSource(rd, path, data)
}

// LoadSource implements frontend.Format: data is the model's JSON text.
func (Format) LoadSource(_ input.Reader, path string, data []byte) (*frontend.Model, error) {
	res, err := jsonmodel.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if !res.Valid() {
		return nil, fmt.Errorf("%s is not a valid model:\n  %s", path, strings.Join(res.Errors, "\n  "))
	}
	return FromModel(res.Model, path), nil
}

// FromModel is the front-end model of an already decoded and validated
// JSON model.
func FromModel(m *jsonmodel.Model, path string) *frontend.Model {
	fm := &frontend.Model{Path: path, Format: "json", System: m.Lower(path), Replayer: runtime.Compile(m), Native: m}
	for i := range m.Invariants {
		inv, ok := invariant(m, &m.Invariants[i])
		if !ok {
			fm.Unchecked = append(fm.Unchecked, fmt.Sprintf("invariant %q (%s) is not a state predicate; --bound checks never-states and var-in-range only (verify decides it)", m.Invariants[i].ID, m.Invariants[i].Kind))
			continue
		}
		fm.Invariants = append(fm.Invariants, inv)
	}
	return fm
}

// invariant states a never-states invariant as `false` at each listed
// state, and a var-in-range invariant as its range at every state, at its
// `when` state only, or guarded by its `when` guard, with the range at the
// start when it is scoped; ok is false for the other kinds.
func invariant(m *jsonmodel.Model, inv *jsonmodel.Invariant) (out frontend.Invariant, ok bool) {
	out = frontend.Invariant{ID: inv.ID, Source: fmt.Sprintf("invariant %q (%s)", inv.ID, inv.Kind)}
	switch inv.Kind {
	case jsonmodel.NeverStates:
		for _, s := range inv.States {
			out.Placements = append(out.Placements, frontend.Placement{Location: s, Formula: &expr.BoolLit{Value: false}})
		}
		return out, true
	case jsonmodel.VarInRange:
		x := &expr.Ident{Name: inv.Variable}
		var rng expr.Expr
		if inv.Min != nil {
			rng = and(rng, &expr.Binary{Op: expr.Ge, X: x, Y: &expr.IntLit{Value: *inv.Min}})
		}
		if inv.Max != nil {
			rng = and(rng, &expr.Binary{Op: expr.Le, X: x, Y: &expr.IntLit{Value: *inv.Max}})
		}
		if rng == nil {
			rng = &expr.BoolLit{Value: true} // no bound on either side
		}
		switch {
		case inv.When == nil:
			out.Placements = []frontend.Placement{{Formula: rng}}
		case inv.When.Guard == nil:
			out.Placements = []frontend.Placement{{Location: inv.When.State, Formula: rng}}
			out.AtStart = rng
		default:
			guarded := &expr.Binary{Op: expr.Implies, X: jsonmodel.GuardExpr(inv.When.Guard, m), Y: rng}
			out.Placements = []frontend.Placement{{Formula: guarded}}
			out.AtStart = rng
		}
		return out, true
	}
	return out, false
}

func and(a, b expr.Expr) expr.Expr {
	if a == nil {
		return b
	}
	return &expr.Binary{Op: expr.Land, X: a, Y: b}
}
