package explore

import (
	"sync"
	"testing"

	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/progress"
)

// Every snapshot a search sends says what the graph was then: states
// stored, the queue, and the breadth-first depth of the next node to
// expand, checked against the finished graph's parent links, on chains
// (epochs), wide levels (batches, pipelined, sharded) and whatever the
// workers.
func TestSearchProgressSnapshots(t *testing.T) {
	models := map[string]string{"counter": gen.Counter(300_000), "toggles": gen.Toggles(15), "toggles12": gen.Toggles(12)}
	for name, src := range models {
		mc := machine(t, src)
		for _, workers := range []int{1, 2, 4} {
			var mu sync.Mutex
			var snaps []progress.Snapshot
			rep := progress.Func(func(s progress.Snapshot) { mu.Lock(); snaps = append(snaps, s); mu.Unlock() })
			g := Search{Machine: mc, Cap: 1 << 30, Workers: workers, MinParallel: 1, Progress: rep, Task: "explore", progressEvery: -1}.Run()
			depth := make([]int, g.Len())
			for i := 1; i < g.Len(); i++ {
				p, _ := g.Parent(i)
				depth[i] = depth[p] + 1
			}
			if len(snaps) < 2 {
				t.Fatalf("%s, %d workers: %d snapshots of a %d-state search", name, workers, len(snaps), g.Len())
			}
			var last progress.Snapshot
			for _, s := range snaps {
				exp := int(s.States - s.Queue)
				switch {
				case s.Engine != progress.Search || s.Task != "explore":
					t.Fatalf("%s: snapshot %+v", name, s)
				case s.States < last.States || exp < int(last.States-last.Queue) || s.States > int64(g.Len()) || s.Queue < 0:
					t.Fatalf("%s, %d workers: snapshot %+v after %+v (graph %d)", name, workers, s, last, g.Len())
				case exp < g.Len() && s.Depth != depth[exp]:
					t.Fatalf("%s, %d workers: depth %d at node %d, want %d", name, workers, s.Depth, exp, depth[exp])
				}
				last = s
			}
		}
	}
}

// A search without a reporter sends nothing and is the same graph.
func TestSearchProgressChangesNothing(t *testing.T) {
	mc := machine(t, gen.Toggles(10))
	want := graphPrint(Search{Machine: mc, Cap: 500, Monitors: []Monitor{parity}}.Run())
	n := 0
	got := graphPrint(Search{Machine: mc, Cap: 500, Monitors: []Monitor{parity}, Progress: progress.Func(func(progress.Snapshot) { n++ }), progressEvery: -1}.Run())
	if got != want || n == 0 {
		t.Fatalf("with a reporter: same graph %v, %d snapshots", got == want, n)
	}
}
