package lower

import (
	"testing"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/bmc/bmctest"
	"github.com/stateproof/stateproof/internal/explain"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/sts"
)

// check parses and binds FBMCQ text against the lowering of src and
// solves it.
func check(t *testing.T, src, fbmcq string, opts bmc.Options) (*model.Model, *sts.System, *bmc.Result) {
	t.Helper()
	m := build(t, src)
	sys, err := Lower(m)
	if err != nil {
		t.Fatal(err)
	}
	r := bmctest.Solve(t, sys, "q.fbmcq", fbmcq, opts)
	return m, sys, r
}

// Seed 002, worked example 1: a response whose window outlives the bound
// is incomplete (main unsat, tail sat).
func TestSeedResponseIncomplete(t *testing.T) {
	m, _, r := check(t, "state Root;", "check response <= 1: trigger true -> within 2 false;", bmc.Options{})
	if r.Outcome != "incomplete" || r.Satisfied != nil || bmc.ExitCode(r.Outcome, true) != 3 {
		t.Fatalf("outcome %s, satisfied %v, exit %d", r.Outcome, r.Satisfied, bmc.ExitCode(r.Outcome, true))
	}
	if r.Trace == nil || r.Trace.Role != "incomplete_suffix" {
		t.Fatalf("want an incomplete_suffix model, got %+v", r.Trace)
	}
	if err := replay(m, r.Trace); err != nil {
		t.Errorf("replay: %v", err)
	}
}

// Seed 002, worked example 2: reach Root in one step, two frames, one
// initial step, six trace symbols (equation 5 with K_0 = 2).
func TestSeedReachRootSixSymbols(t *testing.T) {
	m, _, r := check(t, "state Root;", `check reach <= 1: active("Root");`, bmc.Options{})
	if r.Outcome != "witness_found" || r.Trace == nil {
		t.Fatalf("outcome %s", r.Outcome)
	}
	tr := r.Trace
	if len(tr.Frames) != 2 || len(tr.Steps) != 1 || tr.Frames[0].Sentinel != "init" || tr.Frames[1].State != "Root" {
		t.Fatalf("frames %+v steps %d", tr.Frames, len(tr.Steps))
	}
	if st := tr.Steps[0]; st.CaseKind != "initial" || st.CaseLabel != "__init__::initial::Root::0" {
		t.Errorf("step %s (%s)", st.CaseLabel, st.CaseKind)
	}
	if r.Symbols != 6 {
		t.Errorf("%d trace symbols, want 6", r.Symbols)
	}
	if err := replay(m, tr); err != nil {
		t.Errorf("replay: %v", err)
	}
}

// Seed 002, worked example 3: two assumptions at one frame conflict; the
// proof explanation has a subset-minimal core of both, each bound by
// core_binding.
func TestSeedTwoAssumptionsProof(t *testing.T) {
	_, _, r := check(t, "def int x = 0;\nstate Root;", "assume at 1: var(\"x\") == 1;\nassume at 1: var(\"x\") == 2;\ncheck reach <= 1: true;",
		bmc.Options{Explain: "proof", Explainer: explain.Explain})
	if r.Outcome != "scenario_infeasible" || r.Feasibility.InfeasibleStage != "assumptions" {
		t.Fatalf("outcome %s, stage %q", r.Outcome, r.Feasibility.InfeasibleStage)
	}
	if r.Refinement == nil || r.Refinement.Explanation == nil {
		t.Fatalf("no explanation: %+v", r.Refinement)
	}
	j := r.Refinement.Explanation.JSON()
	core, _ := j["core"].(map[string]any)
	if items, _ := core["items"].([]any); len(items) != 2 {
		t.Errorf("core %v, want 2 items", core)
	}
	if core["reduction"] != "subset_minimal" || core["subset_minimality"] != "proven" {
		t.Errorf("reduction %v, minimality %v", core["reduction"], core["subset_minimality"])
	}
	proof, _ := j["proof"].(map[string]any)
	nodes, _ := proof["nodes"].([]any)
	if len(nodes) != 3 {
		t.Fatalf("proof nodes %v, want 3", nodes)
	}
	for i, want := range []string{"core_binding", "core_binding", "rule_checker"} {
		if n := nodes[i].(map[string]any); n["verification_method"] != want {
			t.Errorf("node %d: %v, want %s", i, n["verification_method"], want)
		}
	}
	if r.Refinement.Status != "complete" {
		t.Errorf("refinement status %q, want complete", r.Refinement.Status)
	}
}

// A division whose int writeback fails is a runtime error: the step is
// invisible, not a fallback with the event present.
func TestWritebackErrorIsInvisible(t *testing.T) {
	src := "def int x = 1;\nstate R {\n  state A;\n  state B;\n  [*] -> A;\n  A -> B :: Go effect { x = x / 2; }\n}\n"
	_, sys, r := check(t, src, "assume event(\"R.A.Go\", 1) == true;\ncheck reach <= 2: true;", bmc.Options{})
	if r.Outcome != "scenario_infeasible" {
		t.Fatalf("outcome %s, want scenario_infeasible\n%s", r.Outcome, dump(sys))
	}
	// With x even the same step is a transition.
	_, _, r = check(t, "def int x = 4;\n"+src[len("def int x = 1;\n"):], "assume event(\"R.A.Go\", 1) == true;\ncheck reach <= 2: active(\"R.B\") && var(\"x\") == 2;", bmc.Options{})
	if r.Outcome != "witness_found" {
		t.Fatalf("outcome %s, want witness_found", r.Outcome)
	}
}
