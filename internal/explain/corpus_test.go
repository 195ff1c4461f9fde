package explain

import (
	"os"
	"path/filepath"
	"testing"
)

// corpus is the table of examples/explain/README.md: every infeasible
// query over the latch with its expected classification, core size and
// achieved mode under --explain proof.
var corpus = []struct {
	file, classification string
	core                 int
	achieved             string
}{
	{"01-two-values.fbmcq", "assumptions_self_conflict", 2, "proof"},
	{"02-empty-interval.fbmcq", "assumptions_self_conflict", 2, "proof"},
	{"03-excluded-state.fbmcq", "assumptions_self_conflict", 2, "proof"},
	{"04-no-state-left.fbmcq", "assumptions_domain_conflict", 6, "proof"},
	{"05-vented-both-ways.fbmcq", "assumptions_self_conflict", 2, "proof"},
	{"06-division-by-zero.fbmcq", "assumptions_self_conflict", 2, "proof"},
	{"07-event-assumptions.fbmcq", "assumptions_self_conflict", 2, "formal"},
	{"08-arm-sets-pressure.fbmcq", "assumptions_prefix_conflict", 3, "proof"},
	{"09-trip-increments.fbmcq", "assumptions_prefix_conflict", 4, "proof"},
	{"10-carried-back.fbmcq", "assumptions_prefix_conflict", 3, "formal"},
	{"11-cross-step.fbmcq", "assumptions_prefix_conflict", 4, "formal"},
	{"12-latched-too-soon.fbmcq", "assumptions_prefix_conflict", 3, "formal"},
	{"13-hot-start-contradicted.fbmcq", "assumptions_prefix_conflict", 2, "proof"},
	{"14-preceding-value.fbmcq", "assumptions_prefix_conflict", 4, "proof"},
}

func TestCorpus(t *testing.T) {
	files, _ := filepath.Glob("../../examples/explain/*.fbmcq")
	if len(files) != len(corpus) {
		t.Errorf("%d queries in examples/explain, %d rows in the table", len(files), len(corpus))
	}
	for _, row := range corpus {
		text, err := os.ReadFile(filepath.Join("../../examples/explain", row.file))
		if err != nil {
			t.Fatal(err)
		}
		r, _ := run(t, latch, string(text), "proof", nil)
		if r.Outcome != "scenario_infeasible" {
			t.Errorf("%s: outcome %s", row.file, r.Outcome)
			continue
		}
		ex := explanationOf(t, r)
		if ex.Classification != row.classification || ex.Core == nil || len(ex.Core.Items) != row.core || ex.AchievedMode != row.achieved {
			t.Errorf("%s: %s, core %d, achieved %s (%s); want %s, %d, %s", row.file, ex.Classification, len(ex.Core.Items), ex.AchievedMode, ex.Reason, row.classification, row.core, row.achieved)
		}
		if (ex.Status == "complete") != (ex.Reason == "") || r.Refinement.Reason != ex.Reason || r.Refinement.Status != ex.Status {
			t.Errorf("%s: status %s, reason %q, ledger %s %q", row.file, ex.Status, ex.Reason, r.Refinement.Status, r.Refinement.Reason)
		}
		if ex.Proof != nil {
			inputs := 0
			for _, n := range ex.Proof.Nodes {
				if n.Kind == "input" {
					inputs++
				}
			}
			if inputs != len(ex.Core.Items) {
				t.Errorf("%s: %d inputs for %d members", row.file, inputs, len(ex.Core.Items))
			}
		}
	}
}
