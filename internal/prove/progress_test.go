package prove

import (
	"slices"
	"testing"

	"github.com/stateproof/stateproof/internal/progress"
)

type layers []progress.Snapshot

func (l *layers) Report(s progress.Snapshot) { *l = append(*l, s) }

func (l layers) names() []string {
	var out []string
	for _, s := range l {
		out = append(out, s.Layer)
	}
	return out
}

// The prover says which layer starts, in order, and at the end how many
// properties it proved.
func TestProveReportsLayers(t *testing.T) {
	var easy layers
	p := benchProblem(t, "counter2.smt2")
	r := mustProve(t, p, Options{Progress: &easy})
	if r.Verdict != "proved" {
		t.Fatalf("verdict %s, want proved (the test needs a provable problem)", r.Verdict)
	}
	if got := easy.names(); len(got) < 2 || got[0] != "triple" || got[len(got)-1] != "done" {
		t.Errorf("layers %q, want triple first and done last", got)
	}
	if last := easy[len(easy)-1]; last.Engine != progress.Prove || last.Task != "round 1" || last.Proved != len(p.Props) || last.Properties != len(p.Props) {
		t.Errorf("last snapshot %+v, want %d of %d proved in round 1", last, len(p.Props), len(p.Props))
	}
	var hard layers
	mustProve(t, benchProblem(t, "budget-hard.smt2"), Options{TimeoutMS: 1500, Progress: &hard})
	got := hard.names()
	if len(got) < 4 || got[0] != "triple" || !slices.Contains(got, "bmc") || got[len(got)-1] != "done" {
		t.Errorf("layers %q: want triple first, bmc, more layers, done last", got)
	}
	if last := hard[len(hard)-1]; last.Proved != 0 || last.Violated != 0 {
		t.Errorf("an undecided problem: %+v", last)
	}
}
