package rulecheck

import (
	"encoding/json"
	"strings"
	"testing"
)

func raw(ss ...string) []json.RawMessage {
	out := make([]json.RawMessage, len(ss))
	for i, s := range ss {
		out[i] = json.RawMessage(s)
	}
	return out
}

const falseFact = `{"kind":"false"}`

// Each rule accepts its textbook instance and refuses a near miss: the
// checker must derive the conclusion itself, not take it on trust.
func TestRules(t *testing.T) {
	cases := []struct {
		name, rule string
		premises   []string
		conclusion string
		ok         bool
	}{
		{"equal values differ", "incompatible_equalities", []string{`{"kind":"variable_equality","variable":"x","frame":1,"value":1}`, `{"kind":"variable_equality","variable":"x","frame":1,"value":2}`}, falseFact, true},
		{"equal values agree", "incompatible_equalities", []string{`{"kind":"variable_equality","variable":"x","frame":1,"value":2}`, `{"kind":"variable_equality","variable":"x","frame":1,"value":2}`}, falseFact, false},
		{"different frames", "incompatible_equalities", []string{`{"kind":"variable_equality","variable":"x","frame":1,"value":1}`, `{"kind":"variable_equality","variable":"x","frame":2,"value":2}`}, falseFact, false},
		{"empty interval", "interval_intersection", []string{`{"kind":"variable_bound","variable":"p","frame":2,"operator":"gt","value":5}`, `{"kind":"variable_bound","variable":"p","frame":2,"operator":"lt","value":3}`}, falseFact, true},
		{"interval with room", "interval_intersection", []string{`{"kind":"variable_bound","variable":"p","frame":2,"operator":"gt","value":1}`, `{"kind":"variable_bound","variable":"p","frame":2,"operator":"lt","value":3}`}, falseFact, false},
		{"touching open bounds", "interval_intersection", []string{`{"kind":"variable_bound","variable":"p","frame":2,"operator":"ge","value":3}`, `{"kind":"variable_bound","variable":"p","frame":2,"operator":"lt","value":3}`}, falseFact, true},
		{"boolean complement", "boolean_complement", []string{`{"kind":"proposition","identity":"vented at frame 1","holds":true}`, `{"kind":"proposition","identity":"vented at frame 1","holds":false}`}, falseFact, true},
		{"same truth", "boolean_complement", []string{`{"kind":"proposition","identity":"vented at frame 1","holds":true}`, `{"kind":"proposition","identity":"vented at frame 1","holds":true}`}, falseFact, false},
		{"unknown rule", "wishful_thinking", []string{}, falseFact, false},
		{"premise with an unknown field", "incompatible_equalities", []string{`{"kind":"variable_equality","variable":"x","frame":1,"value":1,"trust":"me"}`, `{"kind":"variable_equality","variable":"x","frame":1,"value":2}`}, falseFact, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Check(c.rule, raw(c.premises...), json.RawMessage(c.conclusion))
			if (err == nil) != c.ok {
				t.Errorf("Check = %v, want ok=%v", err, c.ok)
			}
		})
	}
}

// Arithmetic is exact: rationals, not floats.
func TestArithmeticIsExact(t *testing.T) {
	tc := `{"kind":"transition_case","variable":"x","frame":0,"target_frame":1,"operation":"add","operand":1,"case":"A::transition::B::0"}`
	eq := `{"kind":"variable_equality","variable":"x","frame":0,"value":0}`
	good := `{"kind":"arithmetic_expression","variable":"x","frame":1,"operation":"add","operands":[{"value":0},{"value":1}]}`
	if err := Check("transition_assignment", raw(tc, eq), json.RawMessage(good)); err != nil {
		t.Fatalf("assignment refused: %v", err)
	}
	err := Check("transition_assignment", raw(tc, eq), json.RawMessage(strings.Replace(good, `{"value":1}`, `{"value":2}`, 1)))
	if err == nil || !strings.Contains(err.Error(), "the premises give") {
		t.Errorf("a wrong operand: %v", err)
	}
}
