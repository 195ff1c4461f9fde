package prove

import (
	"testing"
	"time"

	"github.com/stateproof/stateproof/internal/z3"
)

// Mining facts stops at the checker's deadline, before encoding a state
// or an edge: on a 2,000-ary predicate, encoding the start and the loop
// and skipping their 4,000 expired queries ran 1–3 s past the budget
// (issue 38 item 6, TestBudgetHoldsInEveryPhase in cmd/stateproof).
func TestMineFactsStopsAtTheDeadline(t *testing.T) {
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	p, err := CHCProblem(ctx, "fib.smt2", readFile(t, "../../bench/fib.smt2"))
	if err != nil {
		t.Fatal(err)
	}
	live, err := newChecker(ctx, p.Graph, 1000, time.Now().Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mineFacts(live); err != nil {
		t.Fatal(err)
	}
	if len(live.enc.states) == 0 {
		t.Fatal("mining with time left encoded no state: the test sees nothing")
	}
	expired, err := newChecker(ctx, p.Graph, 1000, time.Now().Add(-time.Second))
	if err != nil {
		t.Fatal(err)
	}
	fx, err := mineFacts(expired)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(expired.enc.states); n != 0 || len(fx.init) != 0 {
		t.Errorf("past the deadline, mining encoded %d state vectors and found %d initial values; want none", n, len(fx.init))
	}
}
