package explore

import (
	"slices"
	"testing"

	"github.com/stateproof/stateproof/internal/gen"
)

// testMonitors are monitors that flag, conflict, end in Done and rest in
// steady values on the generated models: a count of edges modulo 5 (it
// differs between paths of different lengths to one node, so it
// conflicts), one that is Done after transition 0 and flags entering
// state 0 before it, and a wide one (not Small) that hashes the labels in
// order (so two paths of one level, such as toggles' diamonds, conflict),
// and that one again, Done on an edge that lowers the sum of the
// variables: on gen toggles its first conflict is then two edges of one
// level, not an edge back to an older one.
func testMonitors() []Monitor {
	return []Monitor{
		{Init: 0, Done: 9, Small: true, Step: func(_ *Graph, _, t int, next []int64, m int64) (int64, int) {
			m = (m + 1) % 5
			if m == 4 && next[0] == 0 {
				return m, t % 3
			}
			return m, -1
		}},
		{Init: 0, Done: 2, Steady: []int64{1}, Small: true, Step: func(_ *Graph, _, t int, next []int64, m int64) (int64, int) {
			if t == 0 {
				return 2, -1
			}
			if next[0] == 0 && t%2 == 1 {
				return 1, 0
			}
			return m, -1
		}},
		{Init: 1000, Done: -1, Step: func(_ *Graph, _, t int, _ []int64, m int64) (int64, int) {
			return (m*3+int64(t)+1)%1_000_003 + 1000, -1
		}},
		{Init: 1000, Done: -1, Step: func(g *Graph, from, t int, next []int64, m int64) (int64, int) {
			if sum(next[1:]) < sum(g.Runtime(from, nil)[1:]) {
				return -1, -1
			}
			return (m*3+int64(t)+1)%1_000_003 + 1000, -1
		}},
	}
}

func sum(w []int64) int64 {
	s := int64(0)
	for _, x := range w {
		s += x
	}
	return s
}

// sameMonitors fails unless two searches' monitors saw the same things
// and hold the same value at every node.
func sameMonitors(t *testing.T, what string, want, got *Graph) {
	t.Helper()
	if len(got.Monitors) != len(want.Monitors) {
		t.Fatalf("%s: %d monitor results, want %d", what, len(got.Monitors), len(want.Monitors))
	}
	for k, w := range want.Monitors {
		g := got.Monitors[k]
		if !slices.Equal(g.Flags, w.Flags) || g.Conflict != w.Conflict || g.Overflow != w.Overflow || g.Live != w.Live || g.Horizon != w.Horizon {
			t.Fatalf("%s monitor %d: spilled %+v, in memory %+v", what, k, *g, *w)
		}
		for i := range want.Len() {
			if a, b := want.MonitorValue(k, i), got.MonitorValue(k, i); a != b {
				t.Fatalf("%s monitor %d node %d: spilled %d, in memory %d", what, k, i, b, a)
			}
		}
	}
	if err := got.Err(); err != nil {
		t.Fatal(err)
	}
}

// TestSpilledMonitorsAreTheSame: monitors riding on a spilling search
// (spilling every few nodes, wide levels going to sorted chunks, capped
// or not) see what they see on the in-memory search: the same flags,
// conflict, overflow, live count and horizon, and the same value at
// every node.
func TestSpilledMonitorsAreTheSame(t *testing.T) {
	models := map[string]string{
		"counter": gen.Counter(500),
		"toggles": gen.Toggles(7),
		"ring":    gen.Ring(40),
		"random":  gen.Random(7),
		"random2": gen.Random(11),
		"probes":  gen.Probes(5),
	}
	conflicts, flags := 0, 0
	for name, src := range models {
		mc := machine(t, src)
		for _, cap := range []int{5000, 1000, 37} {
			want := Search{Machine: mc, Cap: cap, Monitors: testMonitors()}.Run()
			for _, nodes := range []int{3, 300} {
				got := Search{Machine: mc, Cap: cap, Monitors: testMonitors(), Spill: &Spill{Memory: 1 << 30, Dir: spillDir(t, 0), MemoryNodes: nodes}}.Run()
				if want.Len() > nodes+1 && !got.IsSpilled() {
					t.Fatalf("%s cap %d: the search did not spill", name, cap)
				}
				sameGraph(t, want, got)
				sameMonitors(t, name, want, got)
			}
			for _, res := range want.Monitors {
				if res.Conflict != NoKey {
					conflicts++
				}
				flags += len(res.Flags)
			}
		}
	}
	// the monitors are worth comparing: they conflict and flag
	if conflicts < 10 || flags < 10 {
		t.Fatalf("%d conflicts and %d flags in all", conflicts, flags)
	}
}

// TestSpilledMonitorsReadBack: a search whose node chunks, and with them
// the monitors' values, go to disk compares the values of the nodes it
// meets again with those read back.
func TestSpilledMonitorsReadBack(t *testing.T) {
	mc := machine(t, gen.Toggles(17)) // 131072 nodes: two chunks
	want := Search{Machine: mc, Cap: 1 << 20, Monitors: testMonitors()}.Run()
	got := Search{Machine: mc, Cap: 1 << 20, Monitors: testMonitors(), Spill: &Spill{Memory: 1 << 20, Dir: spillDir(t, 0)}}.Run()
	if !got.IsSpilled() || got.mon[0].small.resident() == got.mon[0].small.n {
		t.Fatalf("spilled %v, %d of %d monitor chunks in memory", got.IsSpilled(), got.mon[0].small.resident(), got.mon[0].small.n)
	}
	sameMonitors(t, "toggles 17", want, got)
}
