package lower

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stateproof/stateproof/internal/bmc"
	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest"
	"github.com/stateproof/stateproof/internal/fcstm/fcstmtest/reach"
	"github.com/stateproof/stateproof/internal/query"
	"github.com/stateproof/stateproof/internal/z3"
)

// TestPseudoChainShared: a chain of up to 40 branching pseudo states is
// lowered in linear size, not refused (one case per path, 2^n, was refused
// past 4096 at twelve states).
func TestPseudoChainShared(t *testing.T) {
	for n := 1; n <= 40; n++ {
		sys := lower(t, fcstmtest.PseudoChain(n, nil))
		a := sys.LocationByName("M.A")
		if got := len(sys.Cases[a.ID]); got > 3 {
			t.Fatalf("chain of %d: %d cases from M.A, want at most 3 (transition, fallback, their shared choice)\n%s", n, got, dump(sys))
		}
		effects := 0
		for _, c := range sys.Cases[a.ID] {
			effects += len(c.Effects)
		}
		if effects > 8*n {
			t.Errorf("chain of %d: %d effects from M.A, want at most %d (linear in the chain)", n, effects, 8*n)
		}
	}
}

// TestPseudoChainDifferential: on chains of 1 to 40 pseudo states (fixed
// and random branches), bmc decides within 4 cycles which values of y are
// reachable exactly as the runtime's exploration over every event subset
// finds them, and every witness replays on the runtime.
func TestPseudoChainDifferential(t *testing.T) {
	const depth = 4
	ctx, err := z3.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	rng := rand.New(rand.NewPCG(27, 8))
	lengths := []int{1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 40}
	if testing.Short() {
		lengths = []int{1, 3, 8, 40}
	}
	for _, n := range lengths {
		for _, r := range []*rand.Rand{nil, rng, rng} {
			src := fcstmtest.PseudoChain(n, r)
			m := build(t, src)
			sys, err := Lower(m)
			if err != nil {
				t.Fatalf("chain of %d: %v\n%s", n, err, src)
			}
			configs, err := reach.Explore(m, depth)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[int64]bool{}
			var ys []int64
			for _, c := range configs {
				if v, ok := c.Vars["y"]; ok && !seen[v.Int()] {
					seen[v.Int()] = true
					ys = append(ys, v.Int())
				}
			}
			slices.Sort(ys)
			// The extremes reached, and one past each: two witnesses and
			// two proofs of absence.
			for _, v := range []int64{ys[0], ys[len(ys)-1], ys[0] - 1, ys[len(ys)-1] + 1} {
				q, err := query.Parse("q.fbmcq", fmt.Sprintf("check reach <= %d: y == %d;", depth, v))
				if err != nil {
					t.Fatal(err)
				}
				res, err := bmc.Solve(ctx, sys, q, bmc.Options{TimeoutMS: solveTimeoutMS})
				if err != nil {
					t.Fatalf("chain of %d: %v\n%s", n, err, src)
				}
				if got := res.Outcome == "witness_found"; got != seen[v] || (!got && res.Outcome != "no_witness") {
					t.Fatalf("chain of %d: reach y == %d: bmc says %s, the runtime says reachable=%v\n%s", n, v, res.Outcome, seen[v], src)
				}
				if res.Trace != nil {
					if err := replay(m, res.Trace); err != nil {
						t.Fatalf("chain of %d: reach y == %d: replay: %v\n%s", n, v, err, src)
					}
				}
			}
		}
	}
}
