package prove

import (
	"fmt"
	"strings"
	"testing"
)

// A state of many variables is clipped in text and says how many are
// left out; a small one is printed whole.
func TestAssignTextClipped(t *testing.T) {
	var as []Assignment
	for i := range 2000 {
		as = append(as, Assignment{Name: fmt.Sprint("x", i), Value: "0"})
	}
	got := assignText(as)
	if strings.Count(got, "=") != shownAssignments || !strings.Contains(got, "… 1976 more (all in --json)") {
		t.Errorf("2,000 variables print as %.200s", got)
	}
	if got := assignText(as[:2]); got != "{x0=0, x1=0}" {
		t.Errorf("two variables print as %s", got)
	}
}

// With --infer and no property, an undecided inference makes the run
// unknown: the header never says PROVED of nothing while the exit code
// says undecided.
func TestInferAloneUndecidedIsUnknown(t *testing.T) {
	r := &Result{Input: "m.json", InferReason: "timeout while making candidates"}
	r.finish()
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if r.Verdict != "unknown" || r.ExitCode() != 3 || !strings.HasPrefix(b.String(), "m.json: UNKNOWN") {
		t.Errorf("verdict %s, exit %d, text %q", r.Verdict, r.ExitCode(), b.String())
	}
	decided := &Result{Input: "m.json", Inferred: []NodeRSC{}}
	if decided.finish(); decided.Verdict != "proved" || decided.ExitCode() != 0 {
		t.Errorf("decided inference alone: verdict %s, exit %d", decided.Verdict, decided.ExitCode())
	}
}
