package explain

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/explain/rulecheck"
	"github.com/stateproof/stateproof/internal/smt"
	"github.com/stateproof/stateproof/internal/z3"
)

const twoLines = "assume at 1: var(\"retries\") == 1;\nassume at 1: var(\"retries\") == 2;\ncheck reach <= 1: true;\n"

func groupByID(req *bmc.ExplainRequest, id string) *smt.Group {
	for _, g := range req.Enc.Groups {
		if g.ID == id {
			return g
		}
	}
	return nil
}

// TestEquations6And7: the published core is UNSAT (6) and removing any
// member makes it SAT (7), checked again on the solve's solver.
func TestEquations6And7(t *testing.T) {
	r, req := run(t, latch, "assume at 1: retries == 1;\nassume at 1: pressure == 5;\nassume at 1: retries == 2;\ncheck reach <= 1: true;\n", "formal", nil)
	ex := explanationOf(t, r)
	if ex.Core.Reduction != "subset_minimal" || ex.Core.SubsetMinimality != "proven" || len(ex.Core.Items) != 2 {
		t.Fatalf("core %+v", ex.Core)
	}
	var core []*z3.Term
	for _, it := range ex.Core.Items {
		core = append(core, groupByID(req, it.ID).Lit)
	}
	if res, _ := req.Enc.Solver.CheckAssumptions(core...); res != z3.Unsat {
		t.Errorf("equation 6: core is %v", res)
	}
	for k := range core {
		rest := append(append([]*z3.Term(nil), core[:k]...), core[k+1:]...)
		if res, _ := req.Enc.Solver.CheckAssumptions(rest...); res != z3.Sat {
			t.Errorf("equation 7: without %s the core is %v", ex.Core.Items[k].ID, res)
		}
	}
}

// TestEquation8BothDirections: a fact merely implied by its member (one
// direction) is refused; the exact restatement is accepted.
func TestEquation8BothDirections(t *testing.T) {
	_, req := run(t, latch, twoLines, "proof", nil)
	p := &prover{req: req, io: newSolverIO(req)}
	g := groupByID(req, "assumption.0000.frame.0001")
	exact, _ := p.encodeFact(fact{"kind": "variable_comparison", "variable": "retries", "frame": 1, "operator": "==", "value": int64(1)})
	weaker, _ := p.encodeFact(fact{"kind": "variable_comparison", "variable": "retries", "frame": 1, "operator": ">=", "value": int64(1)})
	stronger, _ := p.encodeFact(fact{"kind": "variable_comparison", "variable": "retries", "frame": 1, "operator": "==", "value": int64(2)})
	if ok, err := p.bind(g.Formula, exact, "t"); err != nil || !ok {
		t.Errorf("exact restatement refused: %v", err)
	}
	if ok, _ := p.bind(g.Formula, weaker, "t"); ok {
		t.Error("a fact implied by the member (member => fact only) was accepted")
	}
	if ok, _ := p.bind(g.Formula, stronger, "t"); ok {
		t.Error("a fact that does not follow from the member was accepted")
	}
}

// TestEquation9Bijection: one input per member, each naming one member.
func TestEquation9Bijection(t *testing.T) {
	r, _ := run(t, latch, twoLines, "proof", nil)
	ex := explanationOf(t, r)
	if ex.AchievedMode != "proof" || ex.Status != "complete" || len(ex.Proof.Nodes) != 3 {
		t.Fatalf("explanation %s/%s, proof %+v", ex.AchievedMode, ex.Status, ex.Proof)
	}
	seen := map[string]bool{}
	inputs := 0
	for _, n := range ex.Proof.Nodes {
		if n.Kind != "input" {
			continue
		}
		inputs++
		if len(n.Items) != 1 || seen[n.Items[0]] || n.Method != "core_binding" {
			t.Errorf("input %s: items %v, method %s", n.ID, n.Items, n.Method)
		}
		seen[n.Items[0]] = true
	}
	if inputs != len(ex.Core.Items) {
		t.Errorf("%d inputs for %d members", inputs, len(ex.Core.Items))
	}
}

// TestTwoMembersOneFactRefused: two distinct members stating one fact
// cannot share a node, so the proof is refused rather than merged.
func TestTwoMembersOneFactRefused(t *testing.T) {
	text := "assume at 1: retries == 1;\nassume at 1: var(\"retries\") == 1;\nassume at 1: retries == 2;\ncheck reach <= 1: true;\n"
	_, req := run(t, latch, text, "proof", nil)
	io := newSolverIO(req)
	src := newSources(req)
	var members []*smt.Group
	for _, id := range []string{"assumption.0000.frame.0001", "assumption.0001.frame.0001", "assumption.0002.frame.0001"} {
		members = append(members, groupByID(req, id))
	}
	c := &coreResult{scope: "assumptions_component", members: members, reduction: "subset_minimal"}
	core := publishCore(c, src)
	pr, reason, err := buildProof(req, core, c, io, &ledger{}, src)
	if err != nil {
		t.Fatal(err)
	}
	if pr != nil || !strings.Contains(reason, "same fact") {
		t.Errorf("proof %v, reason %q", pr, reason)
	}
}

// TestRuleCheckerRefusesExtraField is the mutation test: a conclusion
// carrying a field its kind does not have is refused, even when the rest
// is right.
func TestRuleCheckerRefusesExtraField(t *testing.T) {
	prem := []json.RawMessage{
		json.RawMessage(`{"kind":"variable_equality","variable":"x","frame":1,"value":1}`),
		json.RawMessage(`{"kind":"variable_equality","variable":"x","frame":1,"value":2}`),
	}
	if err := rulecheck.Check("incompatible_equalities", prem, json.RawMessage(`{"kind":"false"}`)); err != nil {
		t.Fatalf("a correct step was refused: %v", err)
	}
	if err := rulecheck.Check("incompatible_equalities", prem, json.RawMessage(`{"kind":"false","why":"x"}`)); err == nil {
		t.Error("a conclusion with an extra field was accepted")
	}
	tc := json.RawMessage(`{"kind":"transition_case","variable":"x","frame":0,"target_frame":1,"operation":"add","operand":1,"case":"A::transition::B::0"}`)
	eq := json.RawMessage(`{"kind":"variable_equality","variable":"x","frame":0,"value":0}`)
	good := `{"kind":"arithmetic_expression","variable":"x","frame":1,"operation":"add","operands":[{"value":0},{"value":1}]}`
	if err := rulecheck.Check("transition_assignment", []json.RawMessage{tc, eq}, json.RawMessage(good)); err != nil {
		t.Fatalf("assignment refused: %v", err)
	}
	bad := strings.Replace(good, `"operation"`, `"note":"trust me","operation"`, 1)
	if err := rulecheck.Check("transition_assignment", []json.RawMessage{tc, eq}, json.RawMessage(bad)); err == nil {
		t.Error("an assignment with an extra field was accepted")
	}
	wrong := strings.Replace(good, `{"value":1}`, `{"value":2}`, 1)
	if err := rulecheck.Check("transition_assignment", []json.RawMessage{tc, eq}, json.RawMessage(wrong)); err == nil {
		t.Error("a wrong operand was accepted")
	}
}

// TestBudgetExhaustedMidMinimisation: when the budget runs out after the
// core is extracted, the core is published as partial_minimized, not
// minimal, and the explanation is partial.
func TestBudgetExhaustedMidMinimisation(t *testing.T) {
	text := "assume at 1: retries == 1;\nassume at 1: pressure == 5;\nassume at 1: retries == 2;\ncheck reach <= 1: true;\n"
	r, _ := run(t, latch, text, "proof", func(req *bmc.ExplainRequest) (*bmc.Refinement, error) {
		io := newSolverIO(req)
		calls, inner := 0, io.check
		io.check = func(ls []*z3.Term) (bmc.Check, error) {
			calls++
			if calls > 3 { // probe, core, one deletion test
				return bmc.Check{}, nil
			}
			return inner(ls)
		}
		// Force a raw core with a spare member, so there is work left.
		io.core = func() ([]*z3.Term, error) {
			var out []*z3.Term
			for _, g := range req.Enc.Groups {
				if g.Stage == smt.Assumption && !strings.Contains(g.ID, "definedness") {
					out = append(out, g.Lit)
				}
			}
			return out, nil
		}
		return explainWith(req, io)
	})
	ex := explanationOf(t, r)
	if ex.Core == nil || ex.Core.Reduction != "partial_minimized" || ex.Core.SubsetMinimality != "not_proven" {
		t.Fatalf("core %+v", ex.Core)
	}
	if ex.Status != "partial" || ex.AchievedMode != "formal" || ex.Reason == "" {
		t.Errorf("status %s, achieved %s, reason %q", ex.Status, ex.AchievedMode, ex.Reason)
	}
	found := false
	for _, c := range r.Refinement.Checks {
		if c.Name == "unsat_core_minimization" && c.Status == "timeout" {
			found = true
		}
	}
	if !found {
		t.Errorf("ledger %+v", r.Refinement.Checks)
	}
}
