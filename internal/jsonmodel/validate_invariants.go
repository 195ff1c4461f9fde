package jsonmodel

import (
	"github.com/stateproof/stateproof/internal/ltl"
	"slices"
	"strings"

	"github.com/stateproof/stateproof/internal/jsonvalue"
)

// invariantKeys is the closed key set of each invariant kind, besides id,
// description and kind.
var invariantKeys = map[string][]string{
	NeverStates:      {"states"},
	VarInRange:       {"variable", "min", "max", "when"},
	EventBeforeState: {"event", "state"},
	LeadsTo:          {"from", "to"},
	Sequence:         {"events"},
	Atomicity:        {"events", "commit", "rollback"},
	Budget:           {"budget"},
	Probability:      {"target", "op", "p"},
	LTL:              {"formula"},
}

var invariantKinds = []string{NeverStates, VarInRange, EventBeforeState, LeadsTo, Sequence, Atomicity, Budget, Probability, LTL}

func (v *validator) invariants(is *jsonvalue.Value) []Invariant {
	elems, ok := v.array("invariants", is)
	if !ok {
		return nil
	}
	out := []Invariant{}
	ids := map[string]bool{}
	for i, e := range elems {
		p := index("invariants", i)
		if e.Kind != jsonvalue.Object {
			v.errorf(p, "expected object")
			continue
		}
		inv := Invariant{Index: i, Raw: StripMetadata(e)}
		if x := v.field(p, e, "id", true); x != nil {
			if s, ok := v.str(p+".id", x, true); ok {
				if ids[s] {
					v.errorf(p+".id", "duplicate invariant id %q", s)
				}
				ids[s] = true
				inv.ID = s
			}
		}
		if x := e.Get("description"); x == nil {
			v.errorf(p+".description", "required field missing (it is echoed into findings and is part of the model hash)")
			v.noDesc = append(v.noDesc, i)
		} else {
			inv.Description, _ = v.str(p+".description", x, false)
		}
		kind := v.field(p, e, "kind", true)
		if kind == nil {
			continue
		}
		k, ok := v.str(p+".kind", kind, true)
		if !ok {
			continue
		}
		allowed, known := invariantKeys[k]
		if !known {
			v.errorf(p+".kind", "unknown invariant kind %q (allowed: %s)", k, strings.Join(invariantKinds, ", "))
			continue
		}
		inv.Kind = k
		v.object(p, e, "kind "+k, append([]string{"id", "description", "kind"}, allowed...))
		v.invariantFields(p, e, &inv)
		out = append(out, inv)
	}
	return out
}

func (v *validator) invariantFields(p string, e *jsonvalue.Value, inv *Invariant) {
	switch inv.Kind {
	case NeverStates:
		if x := v.field(p, e, "states", true); x != nil {
			inv.States = v.list(p+".states", x, true, "state", v.stateRef)
		}
	case VarInRange:
		v.varInRange(p, e, inv)
	case EventBeforeState:
		if x := v.field(p, e, "event", true); x != nil {
			inv.Event, _ = v.eventRef(p+".event", x)
		}
		if x := v.field(p, e, "state", true); x != nil {
			inv.State, _ = v.stateRef(p+".state", x)
		}
	case LeadsTo:
		if x := v.field(p, e, "from", true); x != nil {
			inv.From, _ = v.stateRef(p+".from", x)
		}
		if x := v.field(p, e, "to", true); x != nil {
			if x.Kind == jsonvalue.Array {
				inv.ToIsList = true
				inv.To = v.list(p+".to", x, true, "state", v.stateRef)
			} else if s, ok := v.stateRef(p+".to", x); ok {
				inv.To = []string{s}
			}
		}
	case Sequence:
		if x := v.field(p, e, "events", true); x != nil {
			inv.Events = v.list(p+".events", x, true, "event", v.eventRef)
		}
	case Atomicity:
		v.atomicity(p, e, inv)
	case Budget:
		if x := v.field(p, e, "budget", true); x != nil {
			inv.Budget, _ = v.nonNegative(p+".budget", x)
		}
	case Probability:
		if x := v.field(p, e, "target", true); x != nil {
			inv.Target, _ = v.stateRef(p+".target", x)
		}
		if x := v.field(p, e, "op", true); x != nil {
			if s, ok := v.str(p+".op", x, true); ok {
				if !slices.Contains([]string{">=", "<=", ">", "<"}, s) {
					v.errorf(p+".op", "unknown bound %q (allowed: >=, <=, >, <)", s)
				}
				inv.Op = s
			}
		}
		if x := v.field(p, e, "p", true); x != nil {
			if f, ok := v.number(p+".p", x); ok {
				if f < 0 || f > 1 {
					v.errorf(p+".p", "must be within [0, 1]")
				}
				inv.P = f
			}
		}
	case LTL:
		if x := v.field(p, e, "formula", true); x != nil {
			v.formula(p+".formula", x, inv)
		}
	}
}

// formula parses an ltl invariant's formula against the model's names; a
// parse error is reported at the formula's JSON path with its line and
// column inside the formula.
func (v *validator) formula(path string, x *jsonvalue.Value, inv *Invariant) {
	src, ok := v.str(path, x, true)
	if !ok {
		return
	}
	voc := &ltl.Vocabulary{States: v.states, Events: v.events, Vars: map[string]bool{}}
	for name, k := range v.vars {
		voc.Vars[name] = k == Boolean
	}
	f, err := ltl.Parse(src, voc)
	if err != nil {
		v.errorf(path, "%v", err)
		return
	}
	inv.Formula, inv.LTL = src, f
}

func (v *validator) varInRange(p string, e *jsonvalue.Value, inv *Invariant) {
	known := false
	if x := v.field(p, e, "variable", true); x != nil {
		inv.Variable, known = v.varRef(p+".variable", x)
		if known && v.vars[inv.Variable] == Boolean {
			v.errorf(p+".variable", "var-in-range needs an integer variable; %q is boolean", inv.Variable)
		}
	}
	if x := e.Get("min"); x != nil {
		if n, ok := v.integer(p+".min", x); ok {
			inv.Min = &n
		}
	}
	if x := e.Get("max"); x != nil {
		if n, ok := v.integer(p+".max", x); ok {
			inv.Max = &n
		}
	}
	if !e.Has("min") && !e.Has("max") {
		v.errorf(p, "var-in-range needs at least one of min, max")
	}
	if inv.Min != nil && inv.Max != nil && *inv.Min > *inv.Max {
		v.errorf(p, "min must be <= max")
	}
	w := e.Get("when")
	if w == nil {
		return
	}
	if w.Kind == jsonvalue.Object && w.Has("state") {
		v.object(p+".when", w, "when", []string{"state"})
		if s, ok := v.stateRef(p+".when.state", w.Get("state")); ok {
			inv.When = &When{State: s}
		}
		return
	}
	exclude := ""
	if known {
		exclude = inv.Variable
	}
	if g := v.guard(p+".when", w, exclude); g != nil {
		inv.When = &When{Guard: g}
	}
}

func (v *validator) atomicity(p string, e *jsonvalue.Value, inv *Invariant) {
	if x := v.field(p, e, "events", true); x != nil {
		inv.Events = v.list(p+".events", x, true, "event", v.eventRef)
	}
	if x := v.field(p, e, "commit", true); x != nil {
		inv.Commit, _ = v.eventRef(p+".commit", x)
	}
	if x := e.Get("rollback"); x != nil {
		inv.Rollback, _ = v.eventRef(p+".rollback", x)
	}
	for _, closer := range []string{inv.Commit, inv.Rollback} {
		if closer != "" && slices.Contains(inv.Events, closer) {
			v.errorf(p+".events", "must not contain the closing event %q", closer)
		}
	}
}
