package explore

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/runtime"
)

// graphPrint is everything a search's result tells: nodes in order with
// their words, parents and monitor values, the flags and the cap verdict.
func graphPrint(g *Graph) string {
	var b strings.Builder
	fmt.Fprintf(&b, "len %d expanded %d truncated %v\n", g.Len(), g.Expanded, g.Truncated)
	for i := 0; i < g.Len(); i++ {
		p, t := g.Parent(i)
		fmt.Fprintf(&b, "%s %d %d", g.M.(*runtime.Machine).Key(g.Runtime(i, nil)), p, t)
		for k := range g.mon {
			fmt.Fprintf(&b, " m%d=%d", k, g.MonitorValue(k, i))
		}
		b.WriteByte('\n')
	}
	for _, r := range g.Monitors {
		fmt.Fprintf(&b, "%+v\n", *r)
	}
	return b.String()
}

// parity is a monitor that conflicts on most models: the parity of the
// path length.
var parity = Monitor{Init: 0, Done: 9, Small: true, Step: func(_ *Graph, _, _ int, next []int64, m int64) (int64, int) {
	if next[0] == 1 && m == 0 {
		return 1 - m, 0
	}
	return 1 - m, -1
}}

// The graph is the same whatever the number of workers: same nodes in the
// same order, same parents, same monitor results, at any cap.
func TestSameGraphForAnyWorkerCount(t *testing.T) {
	models := map[string]string{"toggles": gen.Toggles(7), "counter": gen.Counter(200), "probes": gen.Probes(6), "ring": gen.Ring(4)}
	for seed := range uint64(8) {
		models[fmt.Sprintf("bigsteps-%d", seed)] = gen.BigSteps(seed)
		models[fmt.Sprintf("random-%d", seed)] = gen.Random(seed)
	}
	for name, src := range models {
		mc := machine(t, src)
		for _, cap := range []int{5, 50, 3000} {
			want := graphPrint(Search{Machine: mc, Cap: cap, Monitors: []Monitor{parity}, batchesOnly: true}.Run())
			for _, workers := range []int{2, 4, 7} {
				got := graphPrint(Search{Machine: mc, Cap: cap, Monitors: []Monitor{parity}, Workers: workers, MinParallel: 1}.Run())
				if got != want {
					t.Errorf("%s cap %d: %d workers give another graph", name, cap, workers)
				}
			}
		}
	}
}

// Every stored node is found again by Lookup after a parallel search
// (the tables hold node indices, no leftover candidate references), and a
// successor the cap kept out is not.
func TestParallelTablesResolve(t *testing.T) {
	mc := machine(t, gen.Toggles(10))
	g := Search{Machine: mc, Cap: 700, Workers: 3, MinParallel: 1}.Run()
	if !g.Truncated || g.Len() != 701 {
		t.Fatalf("%d nodes, truncated %v", g.Len(), g.Truncated)
	}
	for i := 0; i < g.Len(); i++ {
		if j := g.Lookup(g.Node(i, nil)); j != i {
			t.Fatalf("Lookup(node %d) = %d", i, j)
		}
	}
	full := Search{Machine: mc, Cap: 1 << 20, Workers: 3, MinParallel: 1}.Run()
	if full.Len() != 1024 {
		t.Fatalf("full search: %d nodes", full.Len())
	}
	if j := g.Lookup(full.Node(1023, nil)); j != -1 {
		t.Errorf("a node past the cap is found at %d", j)
	}
	if !reflect.DeepEqual(g.Path(700), full.Path(700)) {
		t.Error("the capped search numbers nodes unlike the full one")
	}
}

// A search cancelled while two workers pipeline its batches stops as its
// cap would: truncated, with a horizon, and every node it stored is the
// node a one-worker search stored at that index.
func TestCancelWhilePipelined(t *testing.T) {
	mc := machine(t, gen.Toggles(12))
	full := Search{Machine: mc, Cap: 1 << 20, batchesOnly: true}.Run()
	done := make(chan struct{})
	var once sync.Once
	var steps atomic.Int64
	closer := Monitor{Init: 0, Done: 9, Small: true, Step: func(_ *Graph, _, _ int, _ []int64, m int64) (int64, int) {
		if steps.Add(1) == 3000 {
			once.Do(func() { close(done) })
		}
		return m, -1
	}}
	g := Search{Machine: mc, Cap: 1 << 20, Workers: 2, MinParallel: 1, Monitors: []Monitor{closer}, Done: done}.Run()
	if !g.Truncated || g.Monitors[0].Horizon == NoKey || g.Len() >= full.Len() {
		t.Fatalf("truncated %v, horizon %v, %d of %d nodes", g.Truncated, g.Monitors[0].Horizon, g.Len(), full.Len())
	}
	for i := 0; i < g.Len(); i++ {
		if !reflect.DeepEqual(g.Node(i, nil), full.Node(i, nil)) || !reflect.DeepEqual(g.Path(i), full.Path(i)) {
			t.Fatalf("node %d differs from the one-worker search's", i)
		}
	}
}

// Two workers share out the levels of a chain (see chain.go): the graph
// is still the one-worker graph, at any cap, on chains that end in a
// stored node, in a branch or at the cap, with or without monitors (one
// that reads the graph at the edge's source: its depth).
func TestChainSameGraph(t *testing.T) {
	models := map[string]string{"counter": gen.Counter(1000), "short": gen.Counter(70), "ring": gen.Ring(40), "toggles": gen.Toggles(6)}
	for seed := range uint64(8) {
		models[fmt.Sprintf("random-%d", seed)] = gen.Random(seed)
	}
	depth := Monitor{Init: 0, Done: 7, Small: true, Step: func(g *Graph, from, _ int, _ []int64, _ int64) (int64, int) {
		d := int64(g.Depth(from)+1) % 5
		if d == 4 && g.StateOf(from) == 0 {
			return d, 1
		}
		return d, -1
	}}
	monitors := map[string][]Monitor{"none": nil, "parity": {parity}, "depth": {depth, parity}}
	chainSameGraph(t, models, monitors, []int{5, 63, 64, 65, 100, 1000, 1001, 5000}, 0)
	// Short epochs, growing (100, 200, 400, ... levels): caps at and
	// around their edges, a ring that closes inside one, a chain that
	// outlasts the largest.
	long := map[string]string{"counter": gen.Counter(4000), "ring": gen.Ring(900)}
	chainSameGraph(t, long, monitors, []int{299, 300, 301, 364, 365, 700, 1499, 1500, 1501, 3100, 4700, 4701, 9000}, 100)
}

func chainSameGraph(t *testing.T, models map[string]string, monitors map[string][]Monitor, caps []int, epoch int) {
	t.Helper()
	for name, src := range models {
		mc := machine(t, src)
		for mname, mons := range monitors {
			for _, cap := range caps {
				want := graphPrint(Search{Machine: mc, Cap: cap, Monitors: mons, batchesOnly: true}.Run())
				for _, workers := range []int{1, 2} {
					if got := graphPrint(Search{Machine: mc, Cap: cap, Monitors: mons, Workers: workers, epochLevels: epoch}.Run()); got != want {
						t.Errorf("%s, monitors %s, cap %d, first epoch %d: epochs on %d workers give another graph", name, mname, cap, epoch, workers)
					}
				}
			}
		}
	}
}

// A guessed node's table entry can be withdrawn: find no longer sees it.
func TestKillWithdrawsAnEntry(t *testing.T) {
	g := NewStore(machine(t, gen.Counter(10)), 0, 16)
	a, _ := g.Intern([]int64{0, 1}, -1, -1)
	b, _ := g.Intern([]int64{0, 2}, a, 0)
	p := make([]int64, g.stride)
	g.lay.pack(p, []int64{0, 2})
	g.kill(HashWords(p), b)
	if i := g.Lookup([]int64{0, 2}); i != -1 {
		t.Fatalf("a withdrawn node is found at %d", i)
	}
	if i := g.Lookup([]int64{0, 1}); i != a {
		t.Fatalf("the other node is found at %d, want %d", i, a)
	}
}

// A steady monitor value is kept without calling Step, and the search's
// result is the one it has when Step is asked every time: in batches, and
// in chain epochs on one and two workers.
func TestSteadyValuesKeepTheResult(t *testing.T) {
	var atSteady atomic.Int64
	latch := func(steady bool) Monitor {
		m := Monitor{Init: 0, Done: 9, Small: true, Step: func(_ *Graph, _, tr int, next []int64, m int64) (int64, int) {
			if m == 1 && steady {
				atSteady.Add(1)
			}
			if tr == 0 || m == 1 {
				return 1, -1
			}
			if next[0] == 1 {
				return m, 0
			}
			return m, -1
		}}
		if steady {
			m.Steady = []int64{1}
		}
		return m
	}
	models := map[string]string{"counter": gen.Counter(300), "ring": gen.Ring(40), "toggles": gen.Toggles(6)}
	for seed := range uint64(6) {
		models[fmt.Sprintf("random-%d", seed)] = gen.Random(seed)
	}
	for name, src := range models {
		mc := machine(t, src)
		for _, cap := range []int{63, 100, 5000} {
			// alone, the latch lets a chain's fold rest; beside parity, never
			for _, others := range [][]Monitor{nil, {parity}} {
				want := graphPrint(Search{Machine: mc, Cap: cap, Monitors: append([]Monitor{latch(false)}, others...), batchesOnly: true}.Run())
				for _, s := range []Search{
					{Machine: mc, Cap: cap, batchesOnly: true},
					{Machine: mc, Cap: cap, Workers: 1},
					{Machine: mc, Cap: cap, Workers: 2},
				} {
					s.Monitors = append([]Monitor{latch(true)}, others...)
					if got := graphPrint(s.Run()); got != want {
						t.Errorf("%s cap %d, %d monitors, %d workers (batches only %v): a steady value changes the result", name, cap, len(s.Monitors), s.Workers, s.batchesOnly)
					}
				}
			}
		}
	}
	if n := atSteady.Load(); n != 0 {
		t.Errorf("Step was called %d times at a steady value", n)
	}
}
