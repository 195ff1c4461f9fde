package verify

import (
	"fmt"
	"slices"

	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/jsonvalue"
	"github.com/stateproof/stateproof/internal/ltl"
	"github.com/stateproof/stateproof/internal/report"
)

// d2Continuity re-decides every BEFORE invariant, mapped through the state
// mapping, in AFTER with the search its kind uses. e is AFTER's env.
func (e *env) d2Continuity(c *comparison) report.Check {
	ch := report.Check{ID: "D2", Name: "Invariant Continuity"}
	violated, open, skipped := 0, 0, 0
	for i := range c.before.Invariants {
		inv := &c.before.Invariants[i]
		m := mapInvariant(inv, c.mapState)
		if fs := e.d2Missing(m, inv, c); len(fs) > 0 {
			skipped++
			ch.Findings = append(ch.Findings, fs...)
			continue
		}
		out := e.decideInvariant(m)
		switch {
		case out.violated:
			violated++
			f := finding("D2_INVARIANT_REGRESSION", report.Error, described(fmt.Sprintf("Invariant %q of BEFORE is violated in AFTER after %s: %s", inv.ID, plural(len(out.path), "step", "steps"), out.what), inv.Description))
			f.Target = invariantTarget(m)
			f.Evidence = withCycle(report.O("beforeInvariant", inv.ID, "afterInvariant", m.Raw), out)
			ch.Findings = append(ch.Findings, withPath(f, out.path))
		case out.undecided:
			open++
			ch.Findings = append(ch.Findings, e.d2Undecided(m, inv, out))
		}
	}
	n := len(c.before.Invariants)
	switch {
	case n == 0:
		ch.Detail = "BEFORE declares no invariants"
	case violated+open+skipped == 0:
		ch.Detail = fmt.Sprintf("All %s hold in AFTER", plural(n, "BEFORE invariant", "BEFORE invariants"))
	default:
		ch.Detail = fmt.Sprintf("%d of %d BEFORE invariants violated in AFTER, %d not decided, %d skipped", violated, n, open, skipped)
	}
	return ch
}

// d2Missing returns the findings that skip the mapped invariant m: one
// D2_MAPPED_STATE_MISSING per state reference AFTER lacks, else one
// D2_VARIABLE_MISSING per variable it lacks (one finding per reference,
// as the reference engine gives them). A leads-to's `to` is not among the
// references: a removed target is simply never reached, so the invariant
// is re-decided and a BEFORE promise that no longer holds is a regression
// (docs/models.md, D2).
func (e *env) d2Missing(m, inv *jsonmodel.Invariant, c *comparison) []report.Finding {
	var out []report.Finding
	for _, s := range missingStates(m, c) {
		f := finding("D2_MAPPED_STATE_MISSING", report.Warning, described(fmt.Sprintf("Invariant %q of BEFORE names %q, which AFTER does not declare; not re-checked", inv.ID, s), inv.Description))
		f.Target = s
		f.Evidence = report.O("beforeInvariant", inv.ID, "missingState", s)
		out = append(out, f)
	}
	if len(out) > 0 {
		return out
	}
	for _, v := range e.missingVariables(m) {
		f := finding("D2_VARIABLE_MISSING", report.Warning, described(fmt.Sprintf("Invariant %q of BEFORE reads variable %q, which AFTER does not declare; not re-checked", inv.ID, v), inv.Description))
		f.Target = v
		f.Evidence = report.O("beforeInvariant", inv.ID, "missingVariable", v)
		out = append(out, f)
	}
	return out
}

// d2Undecided is D2_UNDECIDED for the mapped invariant m, quoting the cap
// that stopped its search.
func (e *env) d2Undecided(m, inv *jsonmodel.Invariant, out invariantOutcome) report.Finding {
	f := undecided("D2_UNDECIDED", fmt.Sprintf("invariant %q in AFTER", m.ID), out.cap, out.explored, out.capKind, m.ID)
	f.Message = described(f.Message, inv.Description)
	f.Target = invariantTarget(m)
	return f
}

// mapInvariant returns inv with id suffixed `:before` and every state
// reference mapped (state, states[], from, to[], target, when.state); Raw
// is mapped the same way, for the evidence.
func mapInvariant(inv *jsonmodel.Invariant, mp func(string) string) *jsonmodel.Invariant {
	m := *inv
	m.ID = inv.ID + ":before"
	m.States = mapAll(inv.States, mp)
	m.To = mapAll(inv.To, mp)
	for _, f := range []*string{&m.State, &m.From, &m.Target} {
		if *f != "" {
			*f = mp(*f)
		}
	}
	if inv.When != nil && inv.When.Guard == nil {
		m.When = &jsonmodel.When{State: mp(inv.When.State)}
	}
	if inv.LTL != nil {
		m.LTL = inv.LTL.MapStates(mp)
		m.Formula = m.LTL.String()
	}
	m.Raw = mapRaw(inv.Raw, m.ID, mp)
	if inv.LTL != nil {
		for i, mem := range m.Raw.Members {
			if mem.Key == "formula" {
				m.Raw.Members[i].Value = &jsonvalue.Value{Kind: jsonvalue.String, Str: m.Formula}
			}
		}
	}
	return &m
}

// formulaRefs returns the states and the variables an ltl invariant's
// formula names.
func formulaRefs(m *jsonmodel.Invariant) (states, vars []string) {
	if m.LTL == nil {
		return nil, nil
	}
	for _, a := range m.LTL.Atoms() {
		switch a.Kind {
		case ltl.InState:
			states = append(states, a.Name)
		case ltl.Compare:
			vars = append(vars, a.Name)
		}
	}
	return states, vars
}

func mapAll(ids []string, mp func(string) string) []string {
	if ids == nil {
		return nil
	}
	out := make([]string, len(ids))
	for i, s := range ids {
		out[i] = mp(s)
	}
	return out
}

// mapRaw copies an invariant object with its id replaced and its state
// references mapped.
func mapRaw(raw *jsonvalue.Value, id string, mp func(string) string) *jsonvalue.Value {
	out := &jsonvalue.Value{Kind: jsonvalue.Object, Members: make([]jsonvalue.Member, 0, len(raw.Members))}
	str := func(s string) *jsonvalue.Value { return &jsonvalue.Value{Kind: jsonvalue.String, Str: s} }
	mapValue := func(v *jsonvalue.Value) *jsonvalue.Value {
		switch v.Kind {
		case jsonvalue.String:
			return str(mp(v.Str))
		case jsonvalue.Array:
			a := &jsonvalue.Value{Kind: jsonvalue.Array, Elems: make([]*jsonvalue.Value, len(v.Elems))}
			for i, x := range v.Elems {
				a.Elems[i] = str(mp(x.Str))
			}
			return a
		}
		return v
	}
	for _, mem := range raw.Members {
		v := mem.Value
		switch mem.Key {
		case "id":
			v = str(id)
		case "state", "states", "from", "to", "target":
			v = mapValue(v)
		case "when":
			if s := v.Get("state"); s != nil && s.Kind == jsonvalue.String {
				v = &jsonvalue.Value{Kind: jsonvalue.Object, Members: []jsonvalue.Member{{Key: "state", Value: str(mp(s.Str))}}}
			}
		}
		out.Members = append(out.Members, jsonvalue.Member{Key: mem.Key, Value: v})
	}
	return out
}

// missingStates returns the mapped state ids of m that AFTER lacks, in
// reference order without repeats.
func missingStates(m *jsonmodel.Invariant, c *comparison) []string {
	refs := append([]string{}, m.States...)
	if m.Kind != jsonmodel.LeadsTo {
		refs = append(refs, m.To...)
	}
	refs = append(refs, m.State, m.From, m.Target)
	fs, _ := formulaRefs(m)
	refs = append(refs, fs...)
	if m.When != nil && m.When.Guard == nil {
		refs = append(refs, m.When.State)
	}
	var out []string
	for _, s := range refs {
		if s != "" && !c.inAfter(s) && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// missingVariables returns the variables m reads that AFTER lacks.
func (e *env) missingVariables(m *jsonmodel.Invariant) []string {
	var refs []string
	if m.Kind == jsonmodel.VarInRange {
		refs = append(refs, m.Variable)
		if m.When != nil && m.When.Guard != nil {
			refs = append(refs, m.When.Guard.Vars()...)
		}
	}
	_, fv := formulaRefs(m)
	refs = append(refs, fv...)
	var out []string
	for _, v := range refs {
		if e.mc.VarIndex(v) < 0 && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}
