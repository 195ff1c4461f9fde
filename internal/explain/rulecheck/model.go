package rulecheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
)

// allowed lists, per fact kind, every field a fact of that kind may carry.
var allowed = map[string][]string{
	"variable_equality":     {"kind", "variable", "frame", "value", "state_slot"},
	"variable_bound":        {"kind", "variable", "frame", "operator", "value"},
	"state_domain":          {"kind", "frame", "states"},
	"state_exclusion":       {"kind", "frame", "state"},
	"definedness_guard":     {"kind", "frame", "operation", "variable"},
	"proposition":           {"kind", "identity", "holds"},
	"transition_case":       {"kind", "variable", "frame", "target_frame", "operation", "operand", "operand_variable", "case", "condition"},
	"arithmetic_expression": {"kind", "variable", "frame", "operation", "operands"},
	"false":                 {"kind"},
}

// scalar is a fact value: an exact number, a boolean or a name.
type scalar struct {
	num  *big.Rat
	b    *bool
	name *string
}

func (s scalar) equal(o scalar) bool {
	switch {
	case s.num != nil && o.num != nil:
		return s.num.Cmp(o.num) == 0
	case s.b != nil && o.b != nil:
		return *s.b == *o.b
	case s.name != nil && o.name != nil:
		return *s.name == *o.name
	}
	return false
}

// out renders a scalar the way published facts write it: integers as JSON
// numbers, other rationals as "p/q" strings.
func (s scalar) out() any {
	switch {
	case s.num != nil && s.num.IsInt():
		return json.Number(s.num.Num().String())
	case s.num != nil:
		return s.num.RatString()
	case s.b != nil:
		return *s.b
	case s.name != nil:
		return *s.name
	}
	return nil
}

// operand is one operand of an arithmetic expression: a value or a
// variable at a frame.
type operand struct {
	value    *scalar
	variable string
	frame    int
}

// fact is the checker's own reading of a published fact.
type fact struct {
	kind                  string
	variable              string
	frame, targetFrame    int
	hasVariable, hasFrame bool
	value                 *scalar
	stateSlot             bool
	operator, operation   string
	states                []string
	state, identity       string
	holds                 *bool
	operand               *scalar
	operandVariable       string
	caseLabel, condition  string
	hasCondition          bool
	operands              []operand
	raw                   map[string]json.RawMessage
}

// parse reads one fact strictly: an unknown kind or a field outside the
// kind's list is refused.
func parse(data []byte) (*fact, error) {
	raw := map[string]json.RawMessage{}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("rulecheck: not a fact object: %w", err)
	}
	var kind string
	if err := json.Unmarshal(raw["kind"], &kind); err != nil {
		return nil, fmt.Errorf("rulecheck: fact without a kind")
	}
	fields, ok := allowed[kind]
	if !ok {
		return nil, fmt.Errorf("rulecheck: unknown fact kind %q", kind)
	}
	for k := range raw {
		if !contains(fields, k) {
			return nil, fmt.Errorf("rulecheck: field %q is not part of a %s fact", k, kind)
		}
	}
	f := &fact{kind: kind, raw: raw}
	return f, f.fill()
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func (f *fact) fill() error {
	r := f.raw
	var err error
	str := func(k string, dst *string) {
		if v, ok := r[k]; ok && err == nil {
			if e := json.Unmarshal(v, dst); e != nil {
				err = fmt.Errorf("rulecheck: field %s: %w", k, e)
			}
		}
	}
	integer := func(k string, dst *int, has *bool) {
		if v, ok := r[k]; ok && err == nil {
			if e := json.Unmarshal(v, dst); e != nil {
				err = fmt.Errorf("rulecheck: field %s: %w", k, e)
			}
			if has != nil {
				*has = true
			}
		}
	}
	str("variable", &f.variable)
	_, f.hasVariable = r["variable"]
	integer("frame", &f.frame, &f.hasFrame)
	integer("target_frame", &f.targetFrame, nil)
	str("operator", &f.operator)
	str("operation", &f.operation)
	str("state", &f.state)
	str("identity", &f.identity)
	str("operand_variable", &f.operandVariable)
	str("case", &f.caseLabel)
	str("condition", &f.condition)
	_, f.hasCondition = r["condition"]
	if err != nil {
		return err
	}
	if v, ok := r["states"]; ok {
		if err := json.Unmarshal(v, &f.states); err != nil {
			return fmt.Errorf("rulecheck: field states: %w", err)
		}
	}
	if v, ok := r["state_slot"]; ok {
		if err := json.Unmarshal(v, &f.stateSlot); err != nil || !f.stateSlot {
			return fmt.Errorf("rulecheck: state_slot must be true when present")
		}
	}
	if v, ok := r["holds"]; ok {
		var h bool
		if err := json.Unmarshal(v, &h); err != nil {
			return fmt.Errorf("rulecheck: field holds: %w", err)
		}
		f.holds = &h
	}
	for k, dst := range map[string]**scalar{"value": &f.value, "operand": &f.operand} {
		if v, ok := r[k]; ok {
			s, err := readScalar(v)
			if err != nil {
				return fmt.Errorf("rulecheck: field %s: %w", k, err)
			}
			*dst = s
		}
	}
	if v, ok := r["operands"]; ok {
		ops, err := readOperands(v)
		if err != nil {
			return err
		}
		f.operands = ops
	}
	return nil
}

func readScalar(v json.RawMessage) (*scalar, error) {
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, err
	}
	switch t := x.(type) {
	case json.Number:
		r, ok := new(big.Rat).SetString(t.String())
		if !ok {
			return nil, fmt.Errorf("not a number: %s", t)
		}
		return &scalar{num: r}, nil
	case bool:
		return &scalar{b: &t}, nil
	case string:
		if r, ok := new(big.Rat).SetString(t); ok {
			return &scalar{num: r}, nil
		}
		return &scalar{name: &t}, nil
	}
	return nil, fmt.Errorf("unsupported value %s", v)
}

func readOperands(v json.RawMessage) ([]operand, error) {
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(v, &items); err != nil {
		return nil, fmt.Errorf("rulecheck: operands: %w", err)
	}
	var out []operand
	for _, it := range items {
		keys := make([]string, 0, len(it))
		for k := range it {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		switch fmt.Sprint(keys) {
		case "[value]":
			s, err := readScalar(it["value"])
			if err != nil {
				return nil, fmt.Errorf("rulecheck: operand value: %w", err)
			}
			out = append(out, operand{value: s})
		case "[frame variable]":
			var o operand
			if err := json.Unmarshal(it["variable"], &o.variable); err != nil {
				return nil, fmt.Errorf("rulecheck: operand variable: %w", err)
			}
			if err := json.Unmarshal(it["frame"], &o.frame); err != nil {
				return nil, fmt.Errorf("rulecheck: operand frame: %w", err)
			}
			out = append(out, o)
		default:
			return nil, fmt.Errorf("rulecheck: operand with fields %v", keys)
		}
	}
	return out, nil
}

// canonical re-serialises a mapping with sorted keys, numbers as written.
func canonical(m map[string]any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// asMap reads a claimed conclusion as a generic mapping for the whole
// comparison, numbers normalised through the checker's scalar reading.
func asMap(data []byte) (map[string]any, error) {
	f, err := parse(data)
	if err != nil {
		return nil, err
	}
	return f.render(), nil
}

// render writes the checker's reading back as a mapping, so an expected
// conclusion and a claimed one compare field by field.
func (f *fact) render() map[string]any {
	m := map[string]any{"kind": f.kind}
	for k := range f.raw {
		switch k {
		case "variable":
			m[k] = f.variable
		case "frame":
			m[k] = f.frame
		case "target_frame":
			m[k] = f.targetFrame
		case "value":
			m[k] = f.value.out()
		case "operand":
			m[k] = f.operand.out()
		case "state_slot":
			m[k] = true
		case "operator":
			m[k] = f.operator
		case "operation":
			m[k] = f.operation
		case "states":
			m[k] = f.states
		case "state":
			m[k] = f.state
		case "identity":
			m[k] = f.identity
		case "holds":
			m[k] = *f.holds
		case "operand_variable":
			m[k] = f.operandVariable
		case "case":
			m[k] = f.caseLabel
		case "condition":
			m[k] = f.condition
		case "operands":
			m[k] = renderOperands(f.operands)
		}
	}
	return m
}

func renderOperands(ops []operand) []any {
	out := make([]any, len(ops))
	for i, o := range ops {
		if o.value != nil {
			out[i] = map[string]any{"value": o.value.out()}
		} else {
			out[i] = map[string]any{"variable": o.variable, "frame": o.frame}
		}
	}
	return out
}
