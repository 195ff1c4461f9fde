package bmc

import (
	"os"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/fcstm/lower"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/z3"
)

// checkTexts solves the FCSTM query of dir (model.fcstm, query.fbmcq) in a
// fresh Z3 context and returns the text of every check it made.
func checkTexts(t *testing.T, dir string) []string {
	t.Helper()
	m, err := model.Load(dir + "/model.fcstm")
	if err != nil {
		t.Fatal(err)
	}
	sys, err := lower.Lower(m)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(dir + "/query.fbmcq")
	if err != nil {
		t.Fatal(err)
	}
	q, err := query.Parse("query.fbmcq", string(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := query.Bind(q, sys, query.BindOptions{}); err != nil {
		t.Fatal(err)
	}
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	var texts []string
	if _, err := SolveAll(ctx, sys, []*query.Query{q}, Options{TimeoutMS: 60000, onCheck: func(s string) { texts = append(texts, s) }}); err != nil {
		t.Fatal(err)
	}
	return texts
}

// The solver's input is the same on every run: the same checks, and each
// the same SMT-LIB text, byte for byte. Every solve lowers and encodes
// anew in a fresh context, so a choice that followed Go's map order (a
// new random order for every map) or an earlier context's term IDs would
// show as a difference here, and so would a term whose ID depends on
// when the garbage collector ran: Z3 reuses the IDs of dead terms and
// orders terms by ID, so such a term changes Z3's search (issue 38 item 3,
// 0.4 s to 100 s on this query). The runs alternate between a collector
// that runs all the time and one that never runs.
func TestSolverInputIsDeterministic(t *testing.T) {
	const dir = "../../../shared/fixtures/bmc-stability"
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("fixture: %v", err)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	first := checkTexts(t, dir)
	if len(first) == 0 {
		t.Fatal("no check was made")
	}
	for run := 1; run < 5; run++ {
		debug.SetGCPercent([]int{1, -1}[run%2])
		texts := checkTexts(t, dir)
		if len(texts) != len(first) {
			t.Fatalf("run %d made %d checks, run 0 made %d", run, len(texts), len(first))
		}
		for i := range texts {
			if texts[i] != first[i] {
				a, b := strings.Split(first[i], "\n"), strings.Split(texts[i], "\n")
				for j := range min(len(a), len(b)) {
					if a[j] != b[j] {
						t.Fatalf("run %d, check %d differs from run 0 at line %d:\n%.300s\n%.300s", run, i, j+1, a[j], b[j])
					}
				}
				t.Fatalf("run %d, check %d: %d lines, run 0: %d", run, i, len(b), len(a))
			}
		}
	}
}
