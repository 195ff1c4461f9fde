package prove

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The problems of testdata/lia-lin are written in the style of CHC-COMP's
// LIA-Lin track (SV-COMP loops with several counters, nested and
// sequential loops with one predicate per loop head, product programs for
// equivalence, Lustre step relations with an init flag or of two
// composed nodes), each safe one beside an unsafe variant; the file's
// :status says which. An unsafe
// one must be found violated with a trace and never proved; a safe one
// must never be found violated, and must be proved whenever Spacer alone
// proves it. The budgets are generous: this is about answers, not speed.
func TestLIALinProblems(t *testing.T) {
	files, err := filepath.Glob("testdata/lia-lin/*.smt2")
	if err != nil || len(files) == 0 {
		t.Fatalf("no problems in testdata/lia-lin: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".smt2"), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			safe := strings.Contains(string(src), ":status sat")
			if !safe && !strings.Contains(string(src), ":status unsat") {
				t.Fatalf("%s states no :status", f)
			}
			r := mustProve(t, chcProblem(t, string(src)), Options{TimeoutMS: 30000})
			if !safe {
				if r.Verdict != "violated" {
					t.Fatalf("unsafe problem: %s, want violated", r.Verdict)
				}
				for _, pr := range r.Props {
					if pr.Status == Violated && len(pr.Trace) == 0 {
						t.Errorf("%s violated without a trace", pr.ID)
					}
				}
				return
			}
			if r.Verdict == "violated" {
				t.Fatalf("safe problem found violated: %+v", r.Props)
			}
			if alone := runSpacerAlone(t, string(src), 10*time.Second); alone.Status == "safe" && r.Verdict != "proved" {
				t.Errorf("Spacer alone proves it, prove says %s: %+v", r.Verdict, r.Layers)
			}
		})
	}
}
