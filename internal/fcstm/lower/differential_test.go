package lower

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/expr"
	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest"
	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest/reach"
	"github.com/stateproof/stateproof/internal/fcstm/model"
	fcstmreplay "github.com/stateproof/stateproof/internal/fcstm/replay"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/trace"
	"github.com/stateproof/stateproof/internal/z3"
)

// explore returns, per configuration state of the runtime's breadth-first
// exploration to depth n ("" before the cold start, "$ended" after the
// end), the least depth it is reached at.
func explore(t *testing.T, m *model.Model, n int) map[string]int {
	t.Helper()
	configs, err := reach.Explore(m, n)
	if err != nil {
		t.Fatal(err)
	}
	depth := map[string]int{}
	for _, c := range configs {
		if d, ok := depth[c.State]; !ok || c.Depth < d {
			depth[c.State] = c.Depth
		}
	}
	return depth
}

// replay replays a witness on the runtime with the FCSTM replayer (the
// one the CLI uses) and returns its mismatches as an error.
func replay(m *model.Model, tr *trace.Trace) error {
	if rep := fcstmreplay.New(m).Replay(tr); !rep.OK() {
		return fmt.Errorf("%v", rep.Mismatches)
	}
	return nil
}

func activeAtom(name string) expr.Expr {
	return &expr.AtomCall{Name: "active", Args: []expr.Arg{{Value: &expr.StringLit{Value: name}}}}
}

// TestDifferentialReach: on generated FCSTM models, bmc `reach <= N:
// active(leaf)` (and terminated()) agrees with breadth-first exploration
// of the runtime over every event subset, and every witness replays on the
// runtime.
func TestDifferentialReach(t *testing.T) {
	const bound = 3
	models := 30
	if testing.Short() {
		models = 8
	}
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	for seed := uint64(1); seed <= uint64(models); seed++ {
		src := fcstmtest.RandomModel(seed)
		m := build(t, src)
		sys, err := Lower(m)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		depth := explore(t, m, bound)
		targets := map[string]expr.Expr{"$ended": &expr.AtomCall{Name: "terminated"}}
		for _, l := range sys.Locations {
			if n := m.StateByPath[l.Name]; n.Stoppable() {
				targets[l.Name] = activeAtom(l.Name)
			}
		}
		names := make([]string, 0, len(targets))
		for k := range targets {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, name := range names {
			q := &query.Query{Check: query.Check{Kind: query.Reach, Bound: bound, Body: targets[name]}}
			res, err := bmc.Solve(ctx, sys, q, bmc.Options{TimeoutMS: solveTimeoutMS})
			if err != nil {
				t.Fatalf("seed %d %s: %v", seed, name, err)
			}
			_, want := depth[name]
			if got := res.Outcome == "witness_found"; got != want {
				t.Fatalf("seed %d: reach %s: bmc says %s, the runtime says reachable=%v\n%s\n%s", seed, name, res.Outcome, want, src, dump(sys))
			}
			if res.Trace != nil {
				if err := replay(m, res.Trace); err != nil {
					t.Fatalf("seed %d: reach %s: replay: %v\n%s\n%s", seed, name, err, src, dump(sys))
				}
			}
		}
	}
}

// solveTimeoutMS bounds every solve of these tests, so that a solver that
// stalls fails the test (outcome timeout) instead of hanging it.
const solveTimeoutMS = 30000
