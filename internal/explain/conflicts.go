package explain

import (
	"fmt"
	"math/big"
)

// The constructor's conflict rules: each proposes a contradiction
// from facts about one slot, one frame or one identity.

func (d *deriver) intervalIntersection() []application {
	var out []application
	cands := append(d.of("variable_bound"), d.of("variable_equality")...)
	for x := 0; x < len(cands); x++ {
		for y := 0; y < len(cands); y++ {
			i, j := cands[x], cands[y]
			if i >= j {
				continue
			}
			a, b := d.f(i), d.f(j)
			if a.kind() != "variable_bound" && b.kind() != "variable_bound" {
				continue
			}
			if a["state_slot"] != nil || b["state_slot"] != nil || !sameSlot(a, b) {
				continue
			}
			if emptyIntersection(a, b) {
				out = append(out, application{rule: "interval_intersection", premises: []int{i, j}, conclusion: falseFact()})
			}
		}
	}
	return out
}

// bound is one side of an interval: a value and whether it is included.
type bound struct {
	v      *big.Rat
	closed bool
}

func interval(f fact) (lo, hi *bound, ok bool) {
	v, ok := toRat(f["value"])
	if !ok {
		return nil, nil, false
	}
	if f.kind() == "variable_equality" {
		return &bound{v, true}, &bound{v, true}, true
	}
	switch f["operator"] {
	case "ge":
		return &bound{v, true}, nil, true
	case "gt":
		return &bound{v, false}, nil, true
	case "le":
		return nil, &bound{v, true}, true
	case "lt":
		return nil, &bound{v, false}, true
	}
	return nil, nil, false
}

// emptyIntersection reads the bounds over the rationals: empty there is
// empty over the integers too (sound, not complete for integer gaps).
func emptyIntersection(a, b fact) bool {
	alo, ahi, ok1 := interval(a)
	blo, bhi, ok2 := interval(b)
	if !ok1 || !ok2 {
		return false
	}
	lo, hi := tighterLo(alo, blo), tighterHi(ahi, bhi)
	if lo == nil || hi == nil {
		return false
	}
	c := lo.v.Cmp(hi.v)
	return c > 0 || (c == 0 && !(lo.closed && hi.closed))
}

func tighterLo(a, b *bound) *bound {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	if c := a.v.Cmp(b.v); c > 0 || (c == 0 && !a.closed) {
		return a
	}
	return b
}

func tighterHi(a, b *bound) *bound {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	if c := a.v.Cmp(b.v); c < 0 || (c == 0 && !a.closed) {
		return a
	}
	return b
}

func (d *deriver) domainExhaustion() []application {
	var out []application
	for _, i := range d.of("state_domain") {
		dom := d.f(i)
		prem := []int{i}
		covered := true
		for _, s := range dom["states"].([]any) {
			found := -1
			for _, j := range d.of("state_exclusion") {
				x := d.f(j)
				if fmt.Sprint(x["frame"]) == fmt.Sprint(dom["frame"]) && x["state"] == s {
					found = j
					break
				}
			}
			if found < 0 {
				covered = false
				break
			}
			prem = append(prem, found)
		}
		if covered {
			out = append(out, application{rule: "state_domain_exhaustion", premises: prem, conclusion: falseFact()})
		}
	}
	return out
}

func (d *deriver) definednessFailure() []application {
	var out []application
	for _, g := range d.of("definedness_guard") {
		guard := d.f(g)
		for _, e := range d.of("variable_equality") {
			eq := d.f(e)
			if eq["state_slot"] == nil && eq["variable"] == guard["variable"] && fmt.Sprint(eq["frame"]) == fmt.Sprint(guard["frame"]) {
				if v, ok := toRat(eq["value"]); ok && v.Sign() == 0 {
					out = append(out, application{rule: "definedness_failure", premises: []int{g, e}, conclusion: falseFact()})
				}
			}
		}
	}
	return out
}

func (d *deriver) incompatibleEqualities() []application {
	var out []application
	eqs := d.of("variable_equality")
	for x := range eqs {
		for y := x + 1; y < len(eqs); y++ {
			a, b := d.f(eqs[x]), d.f(eqs[y])
			if sameSlot(a, b) && fmt.Sprint(a["value"]) != fmt.Sprint(b["value"]) {
				out = append(out, application{rule: "incompatible_equalities", premises: []int{eqs[x], eqs[y]}, conclusion: falseFact()})
			}
		}
	}
	return out
}

func (d *deriver) booleanComplement() []application {
	var out []application
	ps := d.of("proposition")
	for x := range ps {
		for y := x + 1; y < len(ps); y++ {
			a, b := d.f(ps[x]), d.f(ps[y])
			if a["identity"] == b["identity"] && a["holds"] != b["holds"] {
				out = append(out, application{rule: "boolean_complement", premises: []int{ps[x], ps[y]}, conclusion: falseFact()})
			}
		}
	}
	return out
}

func (d *deriver) excludedStateSelected() []application {
	var out []application
	for _, e := range d.of("variable_equality") {
		eq := d.f(e)
		if eq["state_slot"] != true {
			continue
		}
		for _, x := range d.of("state_exclusion") {
			ex := d.f(x)
			if fmt.Sprint(ex["frame"]) == fmt.Sprint(eq["frame"]) && ex["state"] == eq["value"] {
				out = append(out, application{rule: "excluded_state_selected", premises: []int{e, x}, conclusion: falseFact()})
			}
		}
	}
	return out
}

// precedingValue proposes carrying a variable's value one frame back; the
// solver decides whether the core members entail it.
func (d *deriver) precedingValue() []application {
	if d.entail == nil {
		return nil
	}
	var out []application
	for _, e := range d.of("variable_equality") {
		eq := d.f(e)
		fr, _ := eq["frame"].(int)
		if eq["state_slot"] != nil || fr < 1 {
			continue
		}
		c := fact{"kind": "variable_equality", "variable": eq["variable"], "frame": fr - 1, "value": eq["value"]}
		out = append(out, application{rule: "preceding_value_entailment", premises: []int{e}, conclusion: c, items: []string{}})
	}
	return out
}
