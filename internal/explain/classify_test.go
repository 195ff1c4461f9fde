package explain

import (
	"testing"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/smt"
	"github.com/stateproof/stateproof/internal/z3"
)

// TestClassificationByModel: the classifications a JSON model can reach,
// each from a query over the latch.
func TestClassificationByModel(t *testing.T) {
	cases := []struct{ query, want string }{
		{twoLines, "assumptions_self_conflict"},
		{"assume at 1: !active(\"IDLE\");\nassume at 1: !active(\"ARMED\");\nassume at 1: !active(\"LATCHED\");\nassume at 1: !active(\"VENTING\");\nassume at 1: !active(\"FAULT\");\ncheck reach <= 1: true;\n", "assumptions_domain_conflict"},
		{"assume at 1: pressure == 7;\ncheck reach <= 1: true;\n", "assumptions_prefix_conflict"},
		{"init state(\"IDLE\") where retries == 1;\ncheck reach <= 1: true;\n", "initialization_self_conflict"},
	}
	for _, c := range cases {
		r, _ := run(t, latch, c.query, "formal", nil)
		if ex := explanationOf(t, r); ex.Classification != c.want {
			t.Errorf("%q: classification %q, want %q", c.query, ex.Classification, c.want)
		}
	}
}

// TestClassificationDecisions drives the probes with scripted answers for
// the values a JSON model cannot reach (its kernel is always satisfiable
// and it has no frame-0 domain conflict), and for the fallbacks.
func TestClassificationDecisions(t *testing.T) {
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	mk := func(id string, stage smt.Stage, role string) *smt.Group {
		lit, _ := ctx.BoolConst("act!" + id)
		return &smt.Group{ID: id, Stage: stage, Role: role, Lit: lit}
	}
	ag := aggregate([]*smt.Group{
		mk("domain.frame.0000.state", smt.Kernel, "domain_rule"),
		mk("transition.step.0000", smt.Kernel, "transition_rule"),
		mk("initial.target", smt.Init, "initial_fact"),
		mk("assumption.0000.frame.0001", smt.Assumption, "assumption"),
	})
	script := func(answers ...string) *solverIO {
		k := 0
		return &solverIO{check: func([]*z3.Term) (bmc.Check, error) {
			a := answers[k]
			k++
			return bmc.Check{Status: a, Ran: a != "", Reason: map[bool]string{true: "timeout"}[a == "timeout"]}, nil
		}}
	}
	cases := []struct {
		stage   string
		answers []string
		want    string
		scope   string
	}{
		{"kernel", nil, "kernel_conflict", "kernel"},
		{"initialization", []string{"unsat"}, "initialization_self_conflict", "initialization_component"},
		{"initialization", []string{"sat", "unsat"}, "initialization_domain_conflict", "initialization_domain"},
		{"initialization", []string{"sat", "sat"}, "initialization_kernel_conflict", "initialization_prefix"},
		{"assumptions", []string{"unsat"}, "assumptions_self_conflict", "assumptions_component"},
		{"assumptions", []string{"sat", "unsat"}, "assumptions_domain_conflict", "assumptions_domain"},
		{"assumptions", []string{"sat", "sat"}, "assumptions_prefix_conflict", "assumptions_prefix"},
		{"assumptions", []string{"timeout"}, "", "assumptions_stage_fallback"},
		{"initialization", []string{"sat", "unknown"}, "", "initialization_stage_fallback"},
		{"initialization", []string{""}, "", "initialization_stage_fallback"},
	}
	for _, c := range cases {
		cl, err := classify(c.stage, ag, script(c.answers...), &ledger{})
		if err != nil {
			t.Fatal(err)
		}
		if cl.classification != c.want || cl.scope != c.scope {
			t.Errorf("%s %v: got %q/%q, want %q/%q", c.stage, c.answers, cl.classification, cl.scope, c.want, c.scope)
		}
	}
}
