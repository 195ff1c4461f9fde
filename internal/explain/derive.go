package explain

import (
	"encoding/json"
	"fmt"
	"math/big"
)

// This file is the constructor's side of the rule catalogue: it
// proposes applications and their conclusions. Whether a conclusion really
// follows is decided elsewhere — by package rulecheck, which shares no code
// with this file, or by the solver.

// node is one proof node under construction.
type node struct {
	kind       string // input, derived, contradiction
	rule       string
	premises   []int
	conclusion fact
	items      []string // core member ids
	method     string
	unitIndex  int // -1 unless core_binding_unit
	unitCount  int
}

// application is a candidate step: a rule, its premises and conclusion.
type application struct {
	rule       string
	premises   []int
	conclusion fact
	items      []string // solver rules: the core members cited
}

// deriver saturates the node list by the catalogue, in catalogue order.
type deriver struct {
	nodes []*node
	seen  map[string]bool
	apps  int
	// entail discharges a solver rule's candidate; nil disables the
	// solver rules (the formal narrative uses the facts alone).
	entail   func(a *application) (bool, error)
	rejected map[string]bool
}

const maxApplications = 4096

func canon(f any) string {
	b, err := json.Marshal(f)
	if err != nil {
		panic(fmt.Sprintf("explain: fact not serialisable: %v", err)) // facts are built from JSON shapes only
	}
	return string(b)
}

// saturate applies rules until a contradiction is found, nothing new
// appears, or the application limit is reached; it returns the root index
// or -1.
func (d *deriver) saturate() (int, error) {
	for changed := true; changed; {
		changed = false
		for _, r := range catalogue {
			for _, a := range r(d) {
				if d.apps >= maxApplications {
					return -1, nil
				}
				key := canon(a.conclusion)
				if d.seen[key] || d.rejected[a.rule+key] {
					continue
				}
				d.apps++
				if a.items != nil {
					ok, err := d.entail(&a)
					if err != nil {
						return -1, err
					}
					if !ok {
						d.rejected[a.rule+key] = true
						continue
					}
				}
				d.seen[key] = true
				n := &node{kind: "derived", rule: a.rule, premises: a.premises, conclusion: a.conclusion, items: a.items, method: "rule_checker", unitIndex: -1}
				if a.items != nil {
					n.method = "solver_entailment"
				}
				if a.conclusion.kind() == "false" {
					n.kind = "contradiction"
					d.nodes = append(d.nodes, n)
					return len(d.nodes) - 1, nil
				}
				d.nodes = append(d.nodes, n)
				changed = true
			}
		}
	}
	return -1, nil
}

// internalFact translates a published fact into the proof's fact kinds;
// nil for a structural constraint (no rule reads it).
func internalFact(f fact) fact {
	switch f.kind() {
	case "variable_comparison":
		op := f["operator"].(string)
		if op == "==" {
			return fact{"kind": "variable_equality", "variable": f["variable"], "frame": f["frame"], "value": f["value"]}
		}
		if bop, ok := map[string]string{"<": "lt", "<=": "le", ">": "gt", ">=": "ge"}[op]; ok {
			return fact{"kind": "variable_bound", "variable": f["variable"], "frame": f["frame"], "operator": bop, "value": f["value"]}
		}
	case "state_membership":
		if f["holds"] == false {
			return fact{"kind": "state_exclusion", "frame": f["frame"], "state": f["state"]}
		}
		return fact{"kind": "variable_equality", "variable": "state", "frame": f["frame"], "value": f["state"], "state_slot": true}
	case "state_domain":
		return fact{"kind": "state_domain", "frame": f["frame"], "states": f["states"]}
	case "definedness_condition":
		return fact{"kind": "definedness_guard", "frame": f["frame"], "operation": f["operation"], "variable": f["variable"]}
	case "proposition":
		return fact{"kind": "proposition", "identity": f["identity"], "holds": f["holds"]}
	case "transition_case":
		out := fact{}
		for k, v := range f {
			out[k] = v
		}
		return out
	}
	return nil
}

// catalogue lists the rules in their catalogue order (Decision: the
// saturation order).
var catalogue = []func(d *deriver) []application{
	(*deriver).caseCondition,
	(*deriver).transitionAssignment,
	(*deriver).equalitySubstitution,
	(*deriver).arithmeticEvaluation,
	(*deriver).intervalIntersection,
	(*deriver).domainExhaustion,
	(*deriver).definednessFailure,
	(*deriver).incompatibleEqualities,
	(*deriver).booleanComplement,
	(*deriver).excludedStateSelected,
	(*deriver).precedingValue,
}

func (d *deriver) of(kind string) []int {
	var out []int
	for i, n := range d.nodes {
		if n.conclusion.kind() == kind {
			out = append(out, i)
		}
	}
	return out
}

func (d *deriver) f(i int) fact { return d.nodes[i].conclusion }

func sameSlot(a, b fact) bool {
	return a["variable"] == b["variable"] && fmt.Sprint(a["frame"]) == fmt.Sprint(b["frame"]) && a["state_slot"] == b["state_slot"]
}

func falseFact() fact { return fact{"kind": "false"} }

func (d *deriver) caseCondition() []application {
	if d.entail == nil {
		return nil
	}
	var out []application
	for _, i := range d.of("transition_case") {
		f := d.f(i)
		if _, ok := f["condition"]; !ok {
			continue
		}
		c := fact{}
		for k, v := range f {
			if k != "condition" {
				c[k] = v
			}
		}
		out = append(out, application{rule: "case_condition_entailment", premises: []int{i}, conclusion: c, items: []string{}})
	}
	return out
}

func (d *deriver) transitionAssignment() []application {
	var out []application
	for _, t := range d.of("transition_case") {
		tc := d.f(t)
		if _, cond := tc["condition"]; cond {
			continue
		}
		if _, lit := tc["operand"]; lit && tc["operation"] == "set" {
			// Setting a literal does not read the value before the step.
			out = append(out, application{rule: "transition_assignment", premises: []int{t}, conclusion: fact{
				"kind": "arithmetic_expression", "variable": tc["variable"], "frame": tc["target_frame"], "operation": "set",
				"operands": []any{map[string]any{"value": tc["operand"]}}}})
			continue
		}
		for _, e := range d.of("variable_equality") {
			eq := d.f(e)
			if eq["state_slot"] != nil || eq["variable"] != tc["variable"] || fmt.Sprint(eq["frame"]) != fmt.Sprint(tc["frame"]) {
				continue
			}
			var second any
			if ov, ok := tc["operand_variable"]; ok {
				second = map[string]any{"variable": ov, "frame": tc["frame"]}
				if ov == tc["variable"] {
					second = map[string]any{"value": eq["value"]}
				}
			} else {
				second = map[string]any{"value": tc["operand"]}
			}
			operands := []any{map[string]any{"value": eq["value"]}, second}
			if tc["operation"] == "set" {
				operands = []any{second}
			}
			out = append(out, application{rule: "transition_assignment", premises: []int{t, e}, conclusion: fact{
				"kind": "arithmetic_expression", "variable": tc["variable"], "frame": tc["target_frame"], "operation": tc["operation"], "operands": operands}})
		}
	}
	return out
}

func (d *deriver) equalitySubstitution() []application {
	var out []application
	for _, a := range d.of("arithmetic_expression") {
		ax := d.f(a)
		for _, e := range d.of("variable_equality") {
			eq := d.f(e)
			if eq["state_slot"] != nil {
				continue
			}
			ops := ax["operands"].([]any)
			for k, o := range ops {
				om := o.(map[string]any)
				if om["variable"] == eq["variable"] && fmt.Sprint(om["frame"]) == fmt.Sprint(eq["frame"]) {
					repl := append([]any(nil), ops...)
					repl[k] = map[string]any{"value": eq["value"]}
					c := fact{"kind": "arithmetic_expression", "variable": ax["variable"], "frame": ax["frame"], "operation": ax["operation"], "operands": repl}
					out = append(out, application{rule: "equality_substitution", premises: []int{e, a}, conclusion: c})
					break
				}
			}
		}
	}
	return out
}

func (d *deriver) arithmeticEvaluation() []application {
	var out []application
	for _, a := range d.of("arithmetic_expression") {
		ax := d.f(a)
		v, ok := evaluate(ax["operation"].(string), ax["operands"].([]any))
		if !ok {
			continue
		}
		out = append(out, application{rule: "arithmetic_evaluation", premises: []int{a}, conclusion: fact{"kind": "variable_equality", "variable": ax["variable"], "frame": ax["frame"], "value": v}})
	}
	return out
}

// evaluate computes a ground expression exactly; quotients that are not
// integers are declined (their int/real reading is ambiguous).
func evaluate(op string, operands []any) (any, bool) {
	var vals []any
	for _, o := range operands {
		v, ok := o.(map[string]any)["value"]
		if !ok {
			return nil, false
		}
		vals = append(vals, v)
	}
	if op == "set" && len(vals) == 1 {
		return vals[0], true
	}
	if len(vals) != 2 {
		return nil, false
	}
	x, ok1 := toRat(vals[0])
	y, ok2 := toRat(vals[1])
	if !ok1 || !ok2 {
		return nil, false
	}
	r := new(big.Rat)
	switch op {
	case "add":
		r.Add(x, y)
	case "sub":
		r.Sub(x, y)
	case "mul":
		r.Mul(x, y)
	case "div":
		if y.Sign() == 0 {
			return nil, false
		}
		r.Quo(x, y)
		if !r.IsInt() {
			return nil, false
		}
	default:
		return nil, false
	}
	return fromRat(r), true
}

func toRat(v any) (*big.Rat, bool) {
	switch x := v.(type) {
	case int64:
		return new(big.Rat).SetInt64(x), true
	case int:
		return new(big.Rat).SetInt64(int64(x)), true
	case string:
		return new(big.Rat).SetString(x)
	}
	return nil, false
}

func fromRat(r *big.Rat) any {
	if r.IsInt() && r.Num().IsInt64() {
		return r.Num().Int64()
	}
	return r.RatString()
}
