package explore

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/runtime"
	"github.com/stateproof/stateproof/internal/spill"
)

func spillDir(t *testing.T, maxDisk int64) *spill.Dir {
	t.Helper()
	d, err := spill.Open(t.TempDir(), maxDisk)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// sameGraph fails unless two graphs hold the same nodes in the same order
// with the same parents, and stopped at the same place.
func sameGraph(t *testing.T, want, got *Graph) {
	t.Helper()
	if got.Len() != want.Len() || got.Expanded != want.Expanded || got.Truncated != want.Truncated || got.Cap != want.Cap {
		t.Fatalf("spilled graph: %d nodes, %d expanded, truncated %v, cap %d; in memory: %d, %d, %v, %d",
			got.Len(), got.Expanded, got.Truncated, got.Cap, want.Len(), want.Expanded, want.Truncated, want.Cap)
	}
	a, b := make([]int64, want.Width()), make([]int64, want.Width())
	for i := range want.Len() {
		want.Node(i, a)
		got.Node(i, b)
		wp, wv := want.Parent(i)
		gp, gv := got.Parent(i)
		if !slices.Equal(a, b) || wp != gp || wv != gv {
			t.Fatalf("node %d: spilled %v from %d by %d, in memory %v from %d by %d", i, b, gp, gv, a, wp, wv)
		}
	}
	if err := got.Err(); err != nil {
		t.Fatal(err)
	}
}

func sameAdjacency(t *testing.T, want, got *Adjacency) {
	t.Helper()
	if got == nil {
		t.Fatal("spilled graph gave no adjacency")
	}
	if !slices.Equal(want.Off, got.Off) || !slices.Equal(want.To, got.To) || !slices.Equal(want.Via, got.Via) {
		t.Fatalf("adjacency differs: %d/%d edges", len(got.To), len(want.To))
	}
}

// TestSpilledGraphIsTheSame forces searches to spill every few nodes and
// checks that the graph, truncated or not, and its edges are the
// in-memory search's.
func TestSpilledGraphIsTheSame(t *testing.T) {
	models := map[string]string{
		"counter":  gen.Counter(3000),
		"toggles":  gen.Toggles(12),
		"ring":     gen.Ring(40),
		"random":   gen.Random(7),
		"random2":  gen.Random(11),
		"pause":    gen.PauseCounter(500),
		"probes":   gen.Probes(5),
		"bigsteps": gen.BigSteps(3),
	}
	for name, src := range models {
		mc := machine(t, src)
		for _, cap := range []int{5000, 1000, 37} {
			want := Search{Machine: mc, Cap: cap}.Run()
			for _, nodes := range []int{3, 300} {
				got := Search{Machine: mc, Cap: cap, Spill: &Spill{Memory: 1 << 30, Dir: spillDir(t, 0), MemoryNodes: nodes}}.Run()
				if want.Len() > nodes+1 && !got.IsSpilled() {
					t.Fatalf("%s cap %d: the search did not spill", name, cap)
				}
				sameGraph(t, want, got)
				sameAdjacency(t, want.Adjacency(), got.Adjacency())
				if want.Len() > nodes && got.SpillStats().SpilledNodes == 0 {
					t.Fatalf("%s: nothing spilled", name)
				}
			}
		}
	}
}

// TestSpilledChunksReadBack searches a graph of several chunks with a
// byte budget small enough that its node chunks go to disk, then reads
// every node and path back.
func TestSpilledChunksReadBack(t *testing.T) {
	mc := machine(t, gen.Toggles(17)) // 131072 nodes: two chunks
	want := Search{Machine: mc, Cap: 1 << 20}.Run()
	got := Search{Machine: mc, Cap: 1 << 20, Spill: &Spill{Memory: 1 << 20, Dir: spillDir(t, 0)}}.Run()
	if !got.IsSpilled() || got.arena.resident() == got.arena.n {
		t.Fatalf("spilled %v, %d of %d chunks in memory", got.IsSpilled(), got.arena.resident(), got.arena.n)
	}
	sameGraph(t, want, got)
	last := want.Len() - 1
	if !slices.Equal(want.Path(last), got.Path(last)) {
		t.Fatal("paths differ")
	}
	if got.Adjacency() != nil {
		t.Fatal("a spilled graph's edges beyond the budget were built")
	}
}

// TestSpillFitsInMemory: with room for the whole search, nothing spills.
func TestSpillFitsInMemory(t *testing.T) {
	mc := machine(t, gen.Toggles(10))
	g := Search{Machine: mc, Cap: 1 << 20, Spill: &Spill{Memory: 1 << 30, Dir: spillDir(t, 0)}}.Run()
	if g.IsSpilled() || g.Truncated {
		t.Fatalf("spilled %v truncated %v", g.IsSpilled(), g.Truncated)
	}
}

func TestSpillDiskBudget(t *testing.T) {
	mc := machine(t, gen.Toggles(14))
	g := Search{Machine: mc, Cap: 1 << 20, Spill: &Spill{Memory: 1 << 30, Dir: spillDir(t, 4096), MemoryNodes: 100}}.Run()
	if !g.Truncated || !g.DiskBudgetReached() || !errors.Is(g.Err(), spill.ErrDiskBudget) {
		t.Fatalf("truncated %v, disk budget %v, err %v", g.Truncated, g.DiskBudgetReached(), g.Err())
	}
}

// TestSpillStoreError: a spill file that disappears under the search is
// an error of the graph, never a complete graph.
func TestSpillStoreError(t *testing.T) {
	mc := machine(t, gen.Toggles(17))
	d := spillDir(t, 0)
	g := Search{Machine: mc, Cap: 1 << 20, Spill: &Spill{Memory: 1 << 20, Dir: d}}.Run()
	if err := g.Err(); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(d.Path())
	for _, e := range ents {
		os.Truncate(filepath.Join(d.Path(), e.Name()), 0)
	}
	g.arena.disk.cache = [chunkCache]cached[int64]{{k: -1}, {k: -1}, {k: -1}, {k: -1}}
	g.Node(0, nil)
	if g.Err() == nil {
		t.Fatal("a truncated spill file read back without error")
	}
}

var _ = runtime.Compile

// A search with extra words and an edge callback (the pair searches of
// path invariants) spills to the same graph, and its callback sees the
// same edges in the same order, up to the same Stop.
func TestSpilledEdgeSearchIsTheSame(t *testing.T) {
	for _, src := range []string{gen.Random(3), gen.Probes(6), gen.Counter(400)} {
		mc := machine(t, src)
		w := mc.Width()
		for _, stopAfter := range []int{1 << 30, 500, 3} {
			search := func(sp *Spill) (*Graph, []int) {
				var seen []int
				s := Search{Machine: mc, Extra: 1, InitExtra: []int64{0}, Cap: 3000, Spill: sp,
					OnEdge: func(g *Graph, from, tr int, next []int64) Edge {
						seen = append(seen, from, tr)
						next[w] = (next[w] + int64(tr) + 1) % 3
						switch {
						case len(seen) > 2*stopAfter:
							return Stop
						case tr%5 == 4:
							return Prune
						}
						return Keep
					}}
				return s.Run(), seen
			}
			want, wantSeen := search(nil)
			got, gotSeen := search(&Spill{Memory: 1 << 30, Dir: spillDir(t, 0), MemoryNodes: 3, Now: true})
			sameGraph(t, want, got)
			if !slices.Equal(wantSeen, gotSeen) {
				t.Fatalf("stop after %d: the callback saw %d edges spilled, %d in memory", stopAfter, len(gotSeen)/2, len(wantSeen)/2)
			}
		}
	}
}

// TestChainBackEdgesSettledInMemory: a chain whose every node also steps
// back to an old node (Ring: each node resets to the initial one) meets a
// filter hit on a spilled node at every level. A level is settled before
// the next can be generated, so each hit cost a run block read — one disk
// round per state; the nodes found stored are remembered in memory, so the
// chain reads the initial node's block about once.
func TestChainBackEdgesSettledInMemory(t *testing.T) {
	mc := machine(t, gen.Ring(2000)) // 20000 nodes, one per level
	want := Search{Machine: mc, Cap: 1 << 20}.Run()
	got := Search{Machine: mc, Cap: 1 << 20, Spill: &Spill{Memory: 1 << 30, Dir: spillDir(t, 0), MemoryNodes: 500, Now: true}}.Run()
	sameGraph(t, want, got)
	st := got.SpillStats()
	if st.Spills < 10 {
		t.Fatalf("%d spills: the chain's start did not go to disk", st.Spills)
	}
	t.Logf("%d run blocks read, %d spills", st.BlockReads, st.Spills)
	if levels := got.Len(); st.BlockReads > int64(levels/100) {
		t.Fatalf("%d run blocks read for a chain of %d levels", st.BlockReads, levels)
	}
}

// TestLevelDedupStampsWrap: the level's dedup table is emptied by a new
// 16-bit stamp per level; when the stamps wrap round (a chain of 65,536
// levels), the table is cleared, so a candidate of a level 65,536 levels
// back is not taken for one of this level.
func TestLevelDedupStampsWrap(t *testing.T) {
	lv := &level{g: &Graph{stride: 1}}
	lv.add([]int64{7}, levelCand{h: 0xabcdef12345})
	if k := lv.seen([]int64{7}, 0xabcdef12345); k != 0 {
		t.Fatalf("the candidate just added: seen %d", k)
	}
	lv.nextGen()
	if k := lv.seen([]int64{7}, 0xabcdef12345); k != -1 {
		t.Fatalf("the next level: seen %d", k)
	}
	for range 1<<16 - 1 {
		lv.nextGen()
	}
	if k := lv.seen([]int64{7}, 0xabcdef12345); k != -1 {
		t.Fatalf("65,536 levels on, stamped the same: seen %d", k)
	}
}
