package rulecheck

import (
	"encoding/json"
	"fmt"
	"math/big"
)

// Check re-derives conclusion from premises by rule and reports why it
// does not follow. Only rules verified by rule_checker are accepted; the
// solver-discharged rules and source_fact are refused here.
func Check(rule string, premises []json.RawMessage, conclusion json.RawMessage) error {
	var ps []*fact
	for i, p := range premises {
		f, err := parse(p)
		if err != nil {
			return fmt.Errorf("premise %d: %w", i, err)
		}
		ps = append(ps, f)
	}
	claimed, err := asMap(conclusion)
	if err != nil {
		return fmt.Errorf("conclusion: %w", err)
	}
	expected, err := derive(rule, ps)
	if err != nil {
		return err
	}
	a, err := canonical(expected)
	if err != nil {
		return err
	}
	b, err := canonical(claimed)
	if err != nil {
		return err
	}
	if a != b {
		return fmt.Errorf("%s: the premises give %s, not %s", rule, trim(a), trim(b))
	}
	return nil
}

func trim(s string) string { return s[:len(s)-1] }

// contradiction is the conclusion of a closing rule.
func contradiction() map[string]any { return map[string]any{"kind": "false"} }

func derive(rule string, ps []*fact) (map[string]any, error) {
	need := func(n int, kinds ...string) error {
		if len(ps) != n {
			return fmt.Errorf("%s takes %d premises, got %d", rule, n, len(ps))
		}
		for i, k := range kinds {
			if ps[i].kind != k {
				return fmt.Errorf("%s: premise %d is %s, want %s", rule, i, ps[i].kind, k)
			}
		}
		return nil
	}
	switch rule {
	case "incompatible_equalities":
		if err := need(2, "variable_equality", "variable_equality"); err != nil {
			return nil, err
		}
		a, b := ps[0], ps[1]
		if !slot(a, b) || a.value.equal(*b.value) {
			return nil, fmt.Errorf("%s: the equalities are on different slots or agree", rule)
		}
		return contradiction(), nil
	case "boolean_complement":
		if err := need(2, "proposition", "proposition"); err != nil {
			return nil, err
		}
		if ps[0].identity != ps[1].identity || *ps[0].holds == *ps[1].holds {
			return nil, fmt.Errorf("%s: not one identity with opposite truth", rule)
		}
		return contradiction(), nil
	case "excluded_state_selected":
		if err := need(2, "variable_equality", "state_exclusion"); err != nil {
			return nil, err
		}
		e, x := ps[0], ps[1]
		if !e.stateSlot || e.frame != x.frame || e.value.name == nil || *e.value.name != x.state {
			return nil, fmt.Errorf("%s: the selected state is not the excluded one", rule)
		}
		return contradiction(), nil
	case "definedness_failure":
		if err := need(2, "definedness_guard", "variable_equality"); err != nil {
			return nil, err
		}
		g, e := ps[0], ps[1]
		if e.stateSlot || g.variable != e.variable || g.frame != e.frame || e.value.num == nil || e.value.num.Sign() != 0 {
			return nil, fmt.Errorf("%s: the equality does not make the divisor zero", rule)
		}
		return contradiction(), nil
	case "interval_intersection":
		return intervals(ps)
	case "state_domain_exhaustion":
		return exhaustion(ps)
	case "transition_assignment":
		return assignment(ps)
	case "equality_substitution":
		return substitution(ps)
	case "arithmetic_evaluation":
		return evaluation(ps)
	}
	return nil, fmt.Errorf("rule %q is not checked by the rule checker", rule)
}

func slot(a, b *fact) bool {
	return a.variable == b.variable && a.frame == b.frame && a.stateSlot == b.stateSlot
}

func intervals(ps []*fact) (map[string]any, error) {
	if len(ps) != 2 || ps[0].stateSlot || ps[1].stateSlot || ps[0].variable != ps[1].variable || ps[0].frame != ps[1].frame {
		return nil, fmt.Errorf("interval_intersection needs two facts on one numeric slot")
	}
	if ps[0].kind != "variable_bound" && ps[1].kind != "variable_bound" {
		return nil, fmt.Errorf("interval_intersection needs a variable_bound")
	}
	lo, loOpen, hi, hiOpen := (*big.Rat)(nil), false, (*big.Rat)(nil), false
	for _, f := range ps {
		if f.value == nil || f.value.num == nil {
			return nil, fmt.Errorf("interval_intersection: a non-numeric bound")
		}
		v := f.value.num
		isLo, isHi, open := false, false, false
		switch {
		case f.kind == "variable_equality":
			isLo, isHi = true, true
		case f.operator == "ge" || f.operator == "gt":
			isLo, open = true, f.operator == "gt"
		case f.operator == "le" || f.operator == "lt":
			isHi, open = true, f.operator == "lt"
		default:
			return nil, fmt.Errorf("interval_intersection: operator %q", f.operator)
		}
		if isLo && (lo == nil || v.Cmp(lo) > 0 || (v.Cmp(lo) == 0 && open)) {
			lo, loOpen = v, open
		}
		if isHi && (hi == nil || v.Cmp(hi) < 0 || (v.Cmp(hi) == 0 && open)) {
			hi, hiOpen = v, open
		}
	}
	if lo == nil || hi == nil || lo.Cmp(hi) < 0 || (lo.Cmp(hi) == 0 && !loOpen && !hiOpen) {
		return nil, fmt.Errorf("interval_intersection: the intersection is not empty")
	}
	return contradiction(), nil
}

func exhaustion(ps []*fact) (map[string]any, error) {
	if len(ps) < 2 || ps[0].kind != "state_domain" {
		return nil, fmt.Errorf("state_domain_exhaustion needs a state_domain and exclusions")
	}
	excluded := map[string]bool{}
	for _, x := range ps[1:] {
		if x.kind != "state_exclusion" || x.frame != ps[0].frame {
			return nil, fmt.Errorf("state_domain_exhaustion: premise is not an exclusion at frame %d", ps[0].frame)
		}
		excluded[x.state] = true
	}
	for _, s := range ps[0].states {
		if !excluded[s] {
			return nil, fmt.Errorf("state_domain_exhaustion: state %s is not excluded", s)
		}
	}
	return contradiction(), nil
}

func varOperand(name string, frame int) map[string]any {
	return map[string]any{"variable": name, "frame": frame}
}

func assignment(ps []*fact) (map[string]any, error) {
	if len(ps) == 1 && ps[0].kind == "transition_case" && !ps[0].hasCondition && ps[0].operation == "set" && ps[0].operand != nil && ps[0].targetFrame == ps[0].frame+1 {
		t := ps[0]
		return map[string]any{"kind": "arithmetic_expression", "variable": t.variable, "frame": t.targetFrame, "operation": "set",
			"operands": []any{map[string]any{"value": t.operand.out()}}}, nil
	}
	if len(ps) != 2 || ps[0].kind != "transition_case" || ps[1].kind != "variable_equality" {
		return nil, fmt.Errorf("transition_assignment needs a transition_case and a variable_equality")
	}
	t, e := ps[0], ps[1]
	if t.hasCondition {
		return nil, fmt.Errorf("transition_assignment needs an unconditional case")
	}
	if e.stateSlot || e.variable != t.variable || e.frame != t.frame || t.targetFrame != t.frame+1 {
		return nil, fmt.Errorf("transition_assignment: the equality is not the case variable before the step")
	}
	var second any
	switch {
	case t.operandVariable == t.variable:
		second = map[string]any{"value": e.value.out()}
	case t.operandVariable != "":
		second = varOperand(t.operandVariable, t.frame)
	case t.operand != nil:
		second = map[string]any{"value": t.operand.out()}
	default:
		return nil, fmt.Errorf("transition_assignment: the case has no operand")
	}
	ops := []any{map[string]any{"value": e.value.out()}, second}
	switch t.operation {
	case "set":
		ops = []any{second}
	case "add", "sub", "mul", "div":
	default:
		return nil, fmt.Errorf("transition_assignment: operation %q", t.operation)
	}
	return map[string]any{"kind": "arithmetic_expression", "variable": t.variable, "frame": t.targetFrame, "operation": t.operation, "operands": ops}, nil
}

func substitution(ps []*fact) (map[string]any, error) {
	if len(ps) != 2 || ps[0].kind != "variable_equality" || ps[1].kind != "arithmetic_expression" || ps[0].stateSlot {
		return nil, fmt.Errorf("equality_substitution needs a variable_equality and an arithmetic_expression")
	}
	e, a := ps[0], ps[1]
	ops := renderOperands(a.operands)
	for i, o := range a.operands {
		if o.value == nil && o.variable == e.variable && o.frame == e.frame {
			ops[i] = map[string]any{"value": e.value.out()}
			return map[string]any{"kind": "arithmetic_expression", "variable": a.variable, "frame": a.frame, "operation": a.operation, "operands": ops}, nil
		}
	}
	return nil, fmt.Errorf("equality_substitution: %s at frame %d is not an operand", e.variable, e.frame)
}

func evaluation(ps []*fact) (map[string]any, error) {
	if len(ps) != 1 || ps[0].kind != "arithmetic_expression" {
		return nil, fmt.Errorf("arithmetic_evaluation needs one ground arithmetic_expression")
	}
	a := ps[0]
	for _, o := range a.operands {
		if o.value == nil {
			return nil, fmt.Errorf("arithmetic_evaluation: the expression is not ground")
		}
	}
	out := func(s scalar) map[string]any {
		return map[string]any{"kind": "variable_equality", "variable": a.variable, "frame": a.frame, "value": s.out()}
	}
	if a.operation == "set" && len(a.operands) == 1 {
		return out(*a.operands[0].value), nil
	}
	if len(a.operands) != 2 || a.operands[0].value.num == nil || a.operands[1].value.num == nil {
		return nil, fmt.Errorf("arithmetic_evaluation: needs two numbers")
	}
	x, y := a.operands[0].value.num, a.operands[1].value.num
	r := new(big.Rat)
	switch a.operation {
	case "add":
		r.Add(x, y)
	case "sub":
		r.Sub(x, y)
	case "mul":
		r.Mul(x, y)
	case "div":
		if y.Sign() == 0 {
			return nil, fmt.Errorf("arithmetic_evaluation: division by zero")
		}
		if r.Quo(x, y); !r.IsInt() {
			return nil, fmt.Errorf("arithmetic_evaluation: a non-integral quotient is ambiguous (int or real)")
		}
	default:
		return nil, fmt.Errorf("arithmetic_evaluation: operation %q", a.operation)
	}
	return out(scalar{num: r}), nil
}
