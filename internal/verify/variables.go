package verify

import (
	"fmt"
	"math/big"

	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/report"
)

// s8Variables checks declared monotonicity and declared ranges.
func (e *env) s8Variables() report.Check {
	c := report.Check{ID: "S8", Name: "Variable Declarations"}
	consts := guardConstants(e.m)
	for i := range e.m.Transitions {
		t := &e.m.Transitions[i]
		c.Findings = append(c.Findings, e.monotonicity(t)...)
		c.Findings = append(c.Findings, e.setOutside(t)...)
		c.Findings = append(c.Findings, e.domainEnforced(t, consts)...)
	}
	if len(c.Findings) == 0 {
		c.Detail = "Every update respects its variable's declared direction and range"
	} else {
		c.Detail = fmt.Sprintf("%s about variable declarations", plural(len(c.Findings), "finding", "findings"))
	}
	return c
}

func (e *env) monotonicity(t *jsonmodel.Transition) []report.Finding {
	var out []report.Finding
	for ui, u := range t.Updates {
		v := e.m.VariableByName(u.Variable)
		if v.Monotonic == "" {
			continue
		}
		var f report.Finding
		switch dir := direction(u); {
		case u.Op == "set":
			f = finding("S8_MONOTONIC_SET_REVIEW", report.Warning, fmt.Sprintf("Transition %d sets %q, declared monotonic %s: review that the new value never moves against that direction", t.Index, v.Name, v.Monotonic))
		case v.Monotonic == "inc" && dir < 0:
			f = finding("S8_MONOTONIC_DECREASE", report.Error, fmt.Sprintf("Transition %d decreases %q, declared monotonic inc", t.Index, v.Name))
		case v.Monotonic == "dec" && dir > 0:
			f = finding("S8_MONOTONIC_INCREASE", report.Error, fmt.Sprintf("Transition %d increases %q, declared monotonic dec", t.Index, v.Name))
		default:
			continue
		}
		f.Target = v.Name
		f.Evidence = report.O("variable", v.Name, "transition", t.Index, "update", ui)
		out = append(out, f)
	}
	return out
}

func (e *env) setOutside(t *jsonmodel.Transition) []report.Finding {
	var out []report.Finding
	for ui, u := range t.Updates {
		v := e.m.VariableByName(u.Variable)
		if u.Op != "set" || v.Kind != jsonmodel.Integer || inRange(u.Value, v.Min, v.Max) {
			continue
		}
		f := finding("S8_DOMAIN_SET_OUTSIDE", report.Error, fmt.Sprintf("Transition %d sets %q to %d, outside its declared range %s", t.Index, v.Name, u.Value, jsonmodel.RangeText(v.Min, v.Max)))
		f.Target = v.Name
		f.Evidence = report.O("variable", v.Name, "transition", t.Index, "update", ui, "value", u.Value)
		if v.Min != nil {
			f.Evidence = append(f.Evidence, report.KV{Key: "min", Value: *v.Min})
		}
		if v.Max != nil {
			f.Evidence = append(f.Evidence, report.KV{Key: "max", Value: *v.Max})
		}
		out = append(out, f)
	}
	return out
}

func inRange(x int64, mn, mx *int64) bool {
	return (mn == nil || x >= *mn) && (mx == nil || x <= *mx)
}

// domainEnforced asks, per inc/dec of a ranged variable, whether a value in
// range before the transition, with the guard true, can leave the range
// after it. One finding per (transition, variable, bound).
func (e *env) domainEnforced(t *jsonmodel.Transition, consts map[string][]int64) []report.Finding {
	var out []report.Finding
	reported := map[[2]string]bool{}
	type sym struct {
		constant bool
		value    big.Int // the constant, or the offset from the pre-value
	}
	state := map[string]*sym{}
	for ui, u := range t.Updates {
		v := e.m.VariableByName(u.Variable)
		if v.Kind != jsonmodel.Integer || (v.Min == nil && v.Max == nil) {
			continue
		}
		s := state[v.Name]
		if s == nil {
			s = &sym{}
			state[v.Name] = s
		}
		if u.Op == "set" {
			s.constant = true
			s.value.SetInt64(u.Value)
			continue
		}
		delta := u.Value
		if u.Op == "dec" {
			delta = -delta
		}
		s.value.Add(&s.value, big.NewInt(delta))
		for _, bound := range []string{"max", "min"} {
			if reported[[2]string{v.Name, bound}] {
				continue
			}
			f, ok := e.escape(t, ui, v, bound, s.constant, reduced(&s.value), consts)
			if ok {
				reported[[2]string{v.Name, bound}] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// reduced returns x, or ±2^55 when x lies beyond: every bound, and every
// in-range value an offset is added to, is a model literal within
// ±(2^53−1), so an offset or a constant beyond ±2^55 crosses a bound
// exactly when ±2^55 does. The reduction keeps the verdicts exact and the
// arithmetic of escape within int64.
func reduced(x *big.Int) int64 {
	const lim = 1 << 55
	switch {
	case x.Cmp(big.NewInt(lim)) > 0:
		return lim
	case x.Cmp(big.NewInt(-lim)) < 0:
		return -lim
	}
	return x.Int64()
}

// escape decides one bound of one update; see domainEnforced.
func (e *env) escape(t *jsonmodel.Transition, ui int, v *jsonmodel.Variable, bound string, constant bool, value int64, consts map[string][]int64) (report.Finding, bool) {
	limit := v.Max
	if bound == "min" {
		limit = v.Min
	}
	if limit == nil {
		return report.Finding{}, false
	}
	u := t.Updates[ui]
	mk := func(example report.Obj, reason string) report.Finding {
		f := finding("S8_DOMAIN_NOT_ENFORCED", report.Warning, fmt.Sprintf("Transition %d (%q --%s--> %q) can move %q past its declared %s %d: no guard keeps it in range", t.Index, t.From, t.Event, t.To, v.Name, bound, *limit))
		f.Target = v.Name
		f.Evidence = report.O("variable", v.Name, "transition", t.Index, "update", ui, "op", u.Op, "value", u.Value, "bound", bound, "limit", *limit)
		if example != nil {
			f.Evidence = append(f.Evidence, report.KV{Key: "example", Value: example})
		}
		if reason != "" {
			f.Evidence = append(f.Evidence, report.KV{Key: "reason", Value: reason})
		}
		return f
	}
	if constant {
		if (bound == "max" && value > *limit) || (bound == "min" && value < *limit) {
			return mk(nil, ""), true
		}
		return report.Finding{}, false
	}
	off := value
	if (bound == "max" && off <= 0) || (bound == "min" && off >= 0) {
		return report.Finding{}, false
	}
	example, capped := e.escapeWitness(t, v, bound, *limit, off, consts)
	switch {
	case capped:
		return mk(nil, "enumeration cap"), true
	case example != nil:
		return mk(example, ""), true
	}
	return report.Finding{}, false
}

// escapeWitness searches for a pre-state in range, guard true, whose value
// plus off crosses limit. The representatives of the pre-value are exact for
// guards comparing against constants.
func (e *env) escapeWitness(t *jsonmodel.Transition, v *jsonmodel.Variable, bound string, limit, off int64, consts map[string][]int64) (report.Obj, bool) {
	reps := []int64{limit, limit - off + 1}
	if bound == "min" {
		reps = []int64{limit, limit - off - 1}
	}
	if v.Min != nil {
		reps = append(reps, *v.Min)
	}
	if v.Max != nil {
		reps = append(reps, *v.Max)
	}
	for _, c := range consts[v.Name] {
		reps = append(reps, c-1, c, c+1)
	}
	var x0 []int64
	for _, x := range dedup(reps) {
		if inRange(x, v.Min, v.Max) {
			x0 = append(x0, x)
		}
	}
	names := []string{v.Name}
	doms := [][]int64{x0}
	if t.Guard != nil {
		for _, n := range guardVars([]*jsonmodel.Transition{t}) {
			if n != v.Name {
				names = append(names, n)
				doms = append(doms, domain(e.m.VariableByName(n), consts[n]))
			}
		}
	}
	if product(doms) > enumCap {
		return nil, true
	}
	var example report.Obj
	assignments(doms, func(vals []int64) bool {
		x := vals[0] + off
		crosses := (bound == "max" && x > limit) || (bound == "min" && x < limit)
		a := assignment{m: e.m, names: names, vals: vals}
		if crosses && (t.Guard == nil || t.Guard.Eval(a.lookup)) {
			example = a.obj()
			return false
		}
		return true
	})
	return example, false
}
