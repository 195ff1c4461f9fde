package verify

import (
	"fmt"
	"slices"

	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
)

// s4s6 runs S4 Determinism and S6 Guard Completeness, which share the
// enumeration domain and the 200-finding cap.
func (e *env) s4s6() (s4, s6 report.Check) {
	s4 = report.Check{ID: "S4", Name: "Determinism"}
	s6 = report.Check{ID: "S6", Name: "Guard Completeness"}
	consts := guardConstants(e.m)
	total := func() int { return len(s4.Findings) + len(s6.Findings) }
	capped := false
	for _, g := range groups(e.m) {
		if total() >= findingCap {
			capped = true
			break
		}
		if len(g.defaults) > 1 {
			f := finding("S4_AMBIGUOUS_DEFAULT", report.Error, fmt.Sprintf("Group (%q, %q) has %d default transitions", g.from, g.event, len(g.defaults)))
			f.Target = g.from
			f.Evidence = report.O("event", g.event, "branches", targets(g.defaults))
			s4.Findings = append(s4.Findings, f)
		}
		if len(g.guarded) == 0 {
			continue
		}
		names := guardVars(g.guarded)
		doms := make([][]int64, len(names))
		for i, n := range names {
			doms[i] = domain(e.m.VariableByName(n), consts[n])
		}
		if n := product(doms); n > enumCap {
			f := finding("S6_UNBOUNDED_DOMAIN", report.Warning, fmt.Sprintf("Group (%q, %q) has more than %d guard assignments to enumerate; determinism and completeness were not checked", g.from, g.event, enumCap))
			f.Target = g.from
			f.Evidence = report.O("event", g.event, "variables", names, "combinations", n)
			s6.Findings = append(s6.Findings, f)
			continue
		}
		overlap, hole := scanGroup(e.m, g, names, doms)
		if overlap != nil {
			s4.Findings = append(s4.Findings, *overlap)
		}
		if hole != nil {
			s6.Findings = append(s6.Findings, *hole)
		}
	}
	dead, skipped := e.deadGuards()
	for _, f := range dead {
		if total() >= findingCap {
			capped = true
			break
		}
		s6.Findings = append(s6.Findings, f)
	}
	s4.Detail = "Every group has at most one firing branch per assignment"
	if len(s4.Findings) > 0 {
		s4.Detail = fmt.Sprintf("%s with more than one firing branch", plural(len(s4.Findings), "group", "groups"))
	}
	s6.Detail = "Every guarded group is exhaustive and every guard can fire"
	if len(s6.Findings) > 0 {
		s6.Detail = fmt.Sprintf("%s about guard completeness", plural(len(s6.Findings), "finding", "findings"))
	}
	if skipped > 0 {
		s6.Detail += fmt.Sprintf("; %s skipped by the dead-guard test (over %d value combinations)", plural(skipped, "transition", "transitions"), enumCap)
	}
	if capped {
		s4.Detail += fmt.Sprintf("; stopped after %d S4/S6 findings", findingCap)
		s6.Detail += fmt.Sprintf("; stopped after %d S4/S6 findings", findingCap)
	}
	return s4, s6
}

// scanGroup enumerates a group's guard assignments and returns the first
// overlap (S4) and, for a group without default, the first hole (S6).
func scanGroup(m *jsonmodel.Model, g *groupInfo, names []string, doms [][]int64) (overlap, hole *report.Finding) {
	needHole := len(g.defaults) == 0
	assignments(doms, func(vals []int64) bool {
		a := assignment{m: m, names: names, vals: vals}
		var fired []*jsonmodel.Transition
		for _, t := range g.guarded {
			if t.Guard.Eval(a.lookup) {
				fired = append(fired, t)
			}
		}
		if overlap == nil && len(fired) > 1 {
			f := finding("S4_NONDETERMINISTIC_GUARDS", report.Error, fmt.Sprintf("Group (%q, %q) is nondeterministic: %d guards are true for %s", g.from, g.event, len(fired), a))
			f.Target = g.from
			f.Evidence = report.O("event", g.event, "assignment", a.obj(), "branches", targets(fired))
			overlap = &f
		}
		if needHole && hole == nil && len(fired) == 0 {
			f := finding("S6_INCOMPLETE_GUARD", report.Error, fmt.Sprintf("Group (%q, %q) has no branch for %s and no default", g.from, g.event, a))
			f.Target = g.from
			f.Evidence = report.O("event", g.event, "assignment", a.obj(), "branches", targets(g.guarded))
			hole = &f
		}
		return overlap == nil || (needHole && hole == nil)
	})
	return overlap, hole
}

// producedValues returns representatives of the values a variable can take:
// its init and set constants, opened in the direction its inc/dec
// updates move, with the neighbours of the constants in consts.
func producedValues(m *jsonmodel.Model, v *jsonmodel.Variable, consts []int64) []int64 {
	base := []int64{v.Init}
	up, down := false, false
	for _, t := range m.Transitions {
		for _, u := range t.Updates {
			if u.Variable != v.Name {
				continue
			}
			switch dir := direction(u); {
			case u.Op == "set":
				base = append(base, u.Value)
			case dir > 0:
				up = true
			case dir < 0:
				down = true
			}
		}
	}
	if v.Kind == jsonmodel.Boolean || (!up && !down) {
		return dedup(base)
	}
	lo, hi := base[0], base[0]
	for _, b := range base {
		lo, hi = min(lo, b), max(hi, b)
	}
	cands := append([]int64(nil), base...)
	for _, c := range consts {
		cands = append(cands, c-1, c, c+1)
	}
	var out []int64
	for _, x := range cands {
		if (up && down) || (up && x >= lo) || (down && x <= hi) {
			out = append(out, x)
		}
	}
	return dedup(out)
}

// direction is +1 when an inc/dec update moves its variable up, -1 down,
// 0 when it does not move it (or is a set).
func direction(u jsonmodel.Update) int {
	delta := u.Value
	switch u.Op {
	case "dec":
		delta = -delta
	case "set":
		return 0
	}
	switch {
	case delta > 0:
		return 1
	case delta < 0:
		return -1
	}
	return 0
}

// deadGuards reports guarded transitions no producible value satisfies;
// skipped counts the transitions whose value product was too large.
func (e *env) deadGuards() (out []report.Finding, skipped int) {
	for i := range e.m.Transitions {
		t := &e.m.Transitions[i]
		if t.Guard == nil {
			continue
		}
		names := guardVars([]*jsonmodel.Transition{t})
		consts := guardConstants(&jsonmodel.Model{Transitions: []jsonmodel.Transition{*t}})
		doms := make([][]int64, len(names))
		for k, n := range names {
			doms[k] = producedValues(e.m, e.m.VariableByName(n), consts[n])
		}
		if product(doms) > enumCap {
			skipped++
			continue
		}
		sat := false
		assignments(doms, func(vals []int64) bool {
			sat = t.Guard.Eval(assignment{m: e.m, names: names, vals: vals}.lookup)
			return !sat
		})
		if sat {
			continue
		}
		tried := report.Obj{}
		for k, n := range names {
			a := assignment{m: e.m, names: names, vals: make([]int64, len(names))}
			var vals []any
			for _, x := range doms[k] {
				a.vals[k] = x
				vals = append(vals, a.value(k))
			}
			if vals == nil {
				vals = []any{}
			}
			tried = append(tried, report.KV{Key: n, Value: vals})
		}
		f := finding("S6_DEAD_GUARD", report.Warning, fmt.Sprintf("Transition %d (%q --%s--> %q) can never fire: no producible value satisfies its guard", t.Index, t.From, t.Event, t.To))
		f.Target = t.To
		f.Evidence = report.O("transition", t.Index, "from", t.From, "event", t.Event, "values", tried)
		out = append(out, f)
	}
	return out, skipped
}

func dedup(xs []int64) []int64 {
	out := append([]int64(nil), xs...)
	slices.Sort(out)
	return slices.Compact(out)
}
