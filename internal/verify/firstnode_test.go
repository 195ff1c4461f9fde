package verify

import (
	"testing"

	"github.com/stateproof/stateproof/internal/explore"
	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/runtime"
)

// firstNode finds the first node that passes its test whatever the number
// of goroutines, with hits in one range, in several, or in none.
func TestFirstNodeIsTheFirst(t *testing.T) {
	res, err := jsonmodel.Decode([]byte(gen.Counter(300_000)))
	if err != nil || !res.Valid() {
		t.Fatal(err)
	}
	g := explore.Explore(runtime.Compile(res.Model), 1<<20)
	n := g.Len()
	cases := map[string][]int{"none": nil, "root": {0}, "last": {n - 1}, "second range": {n - 2, n/2 + 7}, "both ranges": {n - 5, 12345, n / 2}}
	for name, hits := range cases {
		want := -1
		set := map[int]bool{}
		for _, h := range hits {
			set[h] = true
			if want < 0 || h < want {
				want = h
			}
		}
		for _, workers := range []int{1, 2, 3, 8} {
			got := firstNode(g, workers, func(lo, hi int, s *scratch) int {
				if len(s.node) != g.Width() || hi-lo > len(s.col) || hi <= lo {
					t.Fatalf("scratch of %d and %d words for nodes %d to %d", len(s.node), len(s.col), lo, hi)
				}
				for i := lo; i < hi; i++ {
					if set[i] {
						return i
					}
				}
				return -1
			})
			if got != want {
				t.Errorf("%s, %d workers: node %d, want %d", name, workers, got, want)
			}
		}
	}
}

// passes settles a node from one stored word only where the whole
// runtime would pass too: for a never-states or an unscoped range it is
// exactly the runtime test's negation, for a scoped range it implies it.
func TestPassesAgreesWithTheRuntimeTest(t *testing.T) {
	checked, failing := 0, 0
	for name, data := range sameReportModels(t) {
		res, err := jsonmodel.Decode(data)
		if err != nil || !res.Valid() {
			continue // a broken example that does not load
		}
		e := newEnv(res.Model, Options{MaxStates: 1 << 14})
		g := e.explored()
		for k := range res.Model.Invariants {
			inv := &res.Model.Invariants[k]
			if inv.Kind != jsonmodel.NeverStates && inv.Kind != jsonmodel.VarInRange {
				continue
			}
			checked++
			bad := e.runtimePredicate(inv)
			word, passes := e.passes(inv)
			exact := inv.Kind == jsonmodel.NeverStates || inv.When == nil
			col := make([]int64, g.Len())
			g.Words(word, 0, col)
			for i := range g.Len() {
				_, b := bad(g.Runtime(i, nil), i == 0)
				p := passes(col[i])
				if p && b || exact && p == b {
					t.Fatalf("%s, invariant %q, node %d: passes %v, runtime test says violated %v", name, inv.ID, i, p, b)
				}
				if b {
					failing++
				}
			}
		}
	}
	if checked < 5 || failing == 0 {
		t.Fatalf("%d invariants checked, %d violating nodes: the test would not see a wrong answer", checked, failing)
	}
}
