package bmc

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/progress"
)

// recorder keeps every snapshot as "query/queries bound/max stage".
type recorder []string

func (r *recorder) Report(s progress.Snapshot) {
	if s.Engine != progress.BMC {
		*r = append(*r, "engine "+s.Engine)
		return
	}
	*r = append(*r, fmt.Sprintf("%d/%d %d/%d %s", s.Query, s.Queries, s.Bound, s.MaxBound, s.Stage))
}

// A solve says which bound it encodes and solves and at which stage it is,
// in order; queries solved over one unrolling, or one by one, are
// numbered.
func TestSolveReportsProgress(t *testing.T) {
	_, sys := loadModel(t, "../../examples/order.json")
	var one recorder
	solve(t, sys, parseAll(t, sys, `check forbid <= 3: active("SHIPPED") && !paid;`)[0], Options{Progress: &one})
	want := []string{"1/1 1/3 encoding", "1/1 2/3 encoding", "1/1 3/3 encoding", "1/1 3/3 solving", "1/1 3/3 feasibility"}
	if !slices.Equal(one, want) {
		t.Errorf("one query:\n got %q\nwant %q", one, want)
	}
	var shortest recorder
	solve(t, sys, parseAll(t, sys, `check reach <= 5: active("PAID");`)[0], Options{Progress: &shortest, Shortest: true})
	if !slices.Contains(shortest, "1/1 1/5 solving") || slices.Contains(shortest, "1/1 5/5 solving") {
		t.Errorf("shortest solves bound by bound and stops at the first witness: %q", shortest)
	}
	var shared recorder
	solveAll(t, sys, parseAll(t, sys, orderChecks[:3]...), Options{Progress: &shared})
	for _, w := range []string{"1/3 12/12 encoding", "1/3 12/12 solving", "2/3 12/12 solving", "3/3 12/12 solving"} {
		if !slices.Contains(shared, w) {
			t.Errorf("shared unrolling: no %q in %q", w, shared)
		}
	}
	var each recorder
	solveAll(t, sys, parseAll(t, sys, orderChecks[0], `check reach <= 11: active("DONE");`), Options{Progress: &each})
	if !slices.Contains(each, "1/2 12/12 solving") || !slices.Contains(each, "2/2 11/11 solving") {
		t.Errorf("one by one: %s", strings.Join(each, "; "))
	}
}
