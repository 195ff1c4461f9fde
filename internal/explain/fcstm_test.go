package explain

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/bmc/bmctest"
	"github.com/stateproof/stateproof/internal/fcstm/lower"
	"github.com/stateproof/stateproof/internal/fcstm/model"
)

const fcstmExamples = "../../examples/fcstm/explain/"

// runFCSTM solves the query file over an FCSTM model with an explanation
// of mode.
func runFCSTM(t *testing.T, modelPath, queryPath, mode string) *bmc.Result {
	t.Helper()
	m, err := model.Load(modelPath)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := lower.Lower(m)
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(queryPath)
	if err != nil {
		t.Fatal(err)
	}
	r := bmctest.Solve(t, sys, queryPath, string(text), bmc.Options{Explain: mode, Explainer: Explain})
	return r
}

// coreIDs lists the stable ids of an explanation's core.
func coreIDs(ex *Explanation) []string {
	var ids []string
	for _, it := range ex.Core.Items {
		ids = append(ids, it.ID)
	}
	return ids
}

// TestFCSTMKernelConflict: the root's enter action of raises.fcstm always
// divides by zero, so the transition relation alone is unsatisfiable; the
// step relation's item names the FCSTM site where the runtime raises.
func TestFCSTMKernelConflict(t *testing.T) {
	r := runFCSTM(t, fcstmExamples+"raises.fcstm", fcstmExamples+"raises.fbmcq", "formal")
	if r.Outcome != "scenario_infeasible" || r.Feasibility.InfeasibleStage != "kernel" {
		t.Fatalf("outcome %s, stage %q", r.Outcome, r.Feasibility.InfeasibleStage)
	}
	ex := explanationOf(t, r)
	if ex.Classification != "kernel_conflict" || ex.Core.Scope != "kernel" {
		t.Fatalf("classification %q, scope %q", ex.Classification, ex.Core.Scope)
	}
	if ids := coreIDs(ex); !slices.Equal(ids, []string{"transition.step.0000"}) || ex.Core.Reduction != "subset_minimal" {
		t.Fatalf("core %v (%s)", ids, ex.Core.Reduction)
	}
	it := ex.Core.Items[0]
	site := fcstmExamples + "raises.fcstm:7:13"
	if !slices.Contains(it.Raises, site) || !strings.Contains(it.HumanText, site) {
		t.Errorf("raise sites %v, text %q: want %s", it.Raises, it.HumanText, site)
	}
	refs := it.json()["constraint"].(map[string]any)["refs"].(map[string]any)
	if got, _ := refs["runtime_errors"].([]string); !slices.Contains(got, site) {
		t.Errorf("refs %v", refs)
	}
}

// TestFCSTMInitializationKernelConflict: zero-divisor.fcstm divides by a
// variable that starts at 0. The kernel (any initial values) is
// satisfiable; with the declared initial values the first cycle raises.
// The core is the initialiser, located at its FCSTM def line, and the step
// relation; with another initial value the same query has a witness.
func TestFCSTMInitializationKernelConflict(t *testing.T) {
	model := fcstmExamples + "zero-divisor.fcstm"
	r := runFCSTM(t, model, fcstmExamples+"zero-divisor.fbmcq", "formal")
	if r.Outcome != "scenario_infeasible" || r.Feasibility.InfeasibleStage != "initialization" || r.Feasibility.Kernel.Status != "sat" {
		t.Fatalf("outcome %s, stage %q, kernel %+v", r.Outcome, r.Feasibility.InfeasibleStage, r.Feasibility.Kernel)
	}
	ex := explanationOf(t, r)
	if ex.Classification != "initialization_kernel_conflict" || ex.Core.Scope != "initialization_prefix" {
		t.Fatalf("classification %q, scope %q", ex.Classification, ex.Core.Scope)
	}
	if ids := coreIDs(ex); !slices.Equal(ids, []string{"initial.variable.batch", "transition.step.0000"}) || ex.Core.Reduction != "subset_minimal" {
		t.Fatalf("core %v (%s)", ids, ex.Core.Reduction)
	}
	it := ex.Core.Items[0]
	if it.SourceKind != "fcstm" || it.Path != model || it.Line != 4 || it.Col != 9 || !it.Editable || it.JSONPath != "" {
		t.Errorf("initialiser item %s %s:%d:%d editable %v json path %q", it.SourceKind, it.Path, it.Line, it.Col, it.Editable, it.JSONPath)
	}
	if loc := it.location(); loc != model+":4:9" {
		t.Errorf("location %q", loc)
	}
	if !strings.Contains(ex.Text(), "What to edit: "+model+" lines 4") {
		t.Errorf("text:\n%s", ex.Text())
	}
	src := ex.Core.Items[0].json()["constraint"].(map[string]any)["source"].(map[string]any)
	if src["kind"] != "fcstm" || src["path"] != model {
		t.Errorf("published source %v", src)
	}

	// Control: a non-zero initial batch runs.
	data, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "batch4.fcstm")
	if err := os.WriteFile(other, []byte(strings.Replace(string(data), "batch = 0", "batch = 4", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runFCSTM(t, other, fcstmExamples+"zero-divisor.fbmcq", "formal"); r.Outcome != "witness_found" {
		t.Errorf("batch = 4: outcome %s, want witness_found", r.Outcome)
	}
}

// TestFCSTMProofBindsCaseUnits: a proof over an FCSTM step relation whose
// source has error cases (the division and the int writeback of the
// valve's effect) binds its input to the unit of the case it names: the
// units of a step relation follow its selectors, the exclusions of the
// error cases come after them.
func TestFCSTMProofBindsCaseUnits(t *testing.T) {
	model := fcstmExamples + "tank-level.fcstm"
	r := runFCSTM(t, model, fcstmExamples+"tank-level.fbmcq", "proof")
	ex := explanationOf(t, r)
	if ex.Classification != "assumptions_prefix_conflict" || r.Refinement.Status != "complete" || ex.Proof == nil {
		t.Fatalf("classification %q, status %s (%s)", ex.Classification, r.Refinement.Status, r.Refinement.Reason)
	}
	if ids := coreIDs(ex); !slices.Equal(ids, []string{"assumption.0000.frame.0001", "initial.variable.level", "transition.step.0000"}) {
		t.Fatalf("core %v", ids)
	}
	if loc := ex.Core.Items[1].location(); loc != model+":3:9" {
		t.Errorf("initialiser at %s", loc)
	}
	bound := false
	for _, n := range ex.Proof.Nodes {
		if n.Method == "core_binding_unit" && slices.Contains(n.Items, "transition.step.0000") {
			bound = n.UnitIndex >= 0 && n.UnitIndex < n.UnitCnt
		}
	}
	if !bound {
		t.Errorf("no input bound to a unit of transition.step.0000: %+v", ex.Proof.Nodes)
	}
}

// TestFCSTMColdStartLocated: a cold start's initial.target is located at
// the FCSTM root state, which the first cycle enters.
func TestFCSTMColdStartLocated(t *testing.T) {
	q := filepath.Join(t.TempDir(), "q.fbmcq")
	if err := os.WriteFile(q, []byte("assume at 0: active(\"Client.Idle\");\ncheck reach <= 1: true;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const model = "../../examples/fcstm/retry.fcstm"
	ex := explanationOf(t, runFCSTM(t, model, q, "formal"))
	for _, it := range ex.Core.Items {
		if it.ID == "initial.target" {
			if it.SourceKind != "fcstm" || it.location() != model+":10:1" {
				t.Errorf("initial.target: %s at %s", it.SourceKind, it.location())
			}
			return
		}
	}
	t.Errorf("core %v has no initial.target", coreIDs(ex))
}
