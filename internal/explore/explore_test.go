package explore

import (
	"fmt"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/runtime"
)

func machine(t testing.TB, src string) *runtime.Machine {
	t.Helper()
	res, err := jsonmodel.Decode([]byte(src))
	if err != nil || !res.Valid() {
		t.Fatalf("model: %v %v", err, res.Errors)
	}
	return runtime.Compile(res.Model)
}

func TestCapStoresCapPlusOne(t *testing.T) {
	mc := machine(t, gen.Counter(100)) // 102 reachable runtimes
	g := Explore(mc, 1000)
	if g.Truncated || g.Len() != 102 {
		t.Fatalf("full search: %d nodes, truncated %v", g.Len(), g.Truncated)
	}
	g = Explore(mc, 102)
	if g.Truncated {
		t.Error("a cap equal to the reachable count must not truncate")
	}
	g = Explore(mc, 50)
	if !g.Truncated || g.Len() != 51 {
		t.Errorf("capped search: %d nodes, truncated %v; want 51 and true", g.Len(), g.Truncated)
	}
}

func TestShortestPaths(t *testing.T) {
	// Two routes to C: A->C directly, and A->B->C. BFS finds the direct one.
	mc := machine(t, `{"schemaVersion":1,"init":"A","states":[{"id":"A"},{"id":"B"},{"id":"C"}],
	  "transitions":[{"from":"A","event":"a","to":"B"},{"from":"B","event":"b","to":"C"},{"from":"A","event":"z","to":"C"}]}`)
	g := Explore(mc, 100)
	for i := 0; i < g.Len(); i++ {
		if mc.States[g.StateOf(i)] == "C" {
			p := g.Path(i)
			if len(p) != 1 || p[0].Event != "z" || g.Depth(i) != 1 {
				t.Errorf("path to C = %+v", p)
			}
		}
	}
	if p := g.Path(0); len(p) != 0 {
		t.Errorf("root path = %+v", p)
	}
}

// The packed layout must round-trip every runtime: more than 32 booleans
// (a second word), integers (negative included) and extra words.
func TestPackedLayoutRoundTrip(t *testing.T) {
	var vars []string
	for i := 0; i < 70; i++ {
		vars = append(vars, fmt.Sprintf(`{"name":"b%d","kind":"boolean","init":%t}`, i, i%3 == 0))
	}
	vars = append(vars, `{"name":"n","kind":"integer","init":-7}`)
	mc := machine(t, `{"schemaVersion":1,"init":"S","states":[{"id":"S"},{"id":"T"}],"transitions":[{"from":"S","event":"go","to":"T"}],"variables":[`+strings.Join(vars, ",")+`]}`)
	l := newLayout(mc, 2)
	// 70 booleans: 32 share word 0 with the state, 38 fill word 1; then n
	// and the two extra words.
	if l.packed != 5 {
		t.Fatalf("packed width %d, want 5", l.packed)
	}
	node := make([]int64, l.width)
	node[0] = 1
	for i := 0; i < 70; i++ {
		if i%5 == 0 || i == 69 {
			node[1+i] = 1
		}
	}
	node[71] = -123456789
	node[72], node[73] = 42, -1
	packed := make([]int64, l.packed)
	l.pack(packed, node)
	back := make([]int64, l.width)
	l.unpack(back, packed)
	for i := range node {
		if back[i] != node[i] {
			t.Fatalf("word %d: %d after the round trip, want %d", i, back[i], node[i])
		}
	}
	// patch after changing one boolean and the state equals a fresh pack.
	node2 := append([]int64(nil), node...)
	node2[0], node2[1+40] = 0, 1
	patched := append([]int64(nil), packed...)
	l.patch(patched, node2, []int{40})
	fresh := make([]int64, l.packed)
	l.pack(fresh, node2)
	for i := range fresh {
		if patched[i] != fresh[i] {
			t.Fatalf("patched word %d = %x, fresh pack %x", i, patched[i], fresh[i])
		}
	}
}

func TestSearchExtraWordsAndLookup(t *testing.T) {
	mc := machine(t, gen.Toggles(3))
	// Count flips in an extra word, pruning after two: runtimes reachable in
	// at most two flips, each with its flip count.
	g := Search{Machine: mc, Extra: 1, Cap: 1000, OnEdge: func(g *Graph, from, _ int, next []int64) Edge {
		next[mc.Width()]++
		if next[mc.Width()] > 2 {
			return Prune
		}
		return Keep
	}}.Run()
	// 1 at count 0; 3 at count 1; at count 2 the 3 two-switch settings and
	// the initial setting again (flipped back), which differs by its count.
	if g.Truncated || g.Len() != 1+3+4 {
		t.Fatalf("%d nodes", g.Len())
	}
	node := g.Node(g.Len()-1, nil)
	if j := g.Lookup(node); j != g.Len()-1 {
		t.Errorf("Lookup = %d, want %d", j, g.Len()-1)
	}
	node[mc.Width()] = 9
	if j := g.Lookup(node); j != -1 {
		t.Errorf("Lookup of an absent node = %d", j)
	}
}

// A compact layout keeps the node itself in its table slot: the key must
// give the node back, and tell apart nodes that differ in the state or in
// any boolean.
func TestCompactKeyRoundTrip(t *testing.T) {
	vars := func(n int) string {
		var vs []string
		for i := range n {
			vs = append(vs, fmt.Sprintf(`{"name":"b%d","kind":"boolean","init":false}`, i))
		}
		return strings.Join(vs, ",")
	}
	model := func(bools int) string {
		return `{"schemaVersion":1,"init":"S0","states":[{"id":"S0"},{"id":"S1"},{"id":"S2"},{"id":"S3"},{"id":"S4"}],"transitions":[{"from":"S0","event":"go","to":"S4"}],"variables":[` + vars(bools) + `]}`
	}
	// Five states take 3 bits: 29 booleans fit beside them, 30 do not.
	if l := newLayout(machine(t, model(30)), 0); l.compact {
		t.Fatal("3 state bits and 30 booleans called compact")
	}
	l := newLayout(machine(t, model(29)), 0)
	if !l.compact || l.stateBits != 3 {
		t.Fatalf("compact %v, state bits %d; want true, 3", l.compact, l.stateBits)
	}
	seen := map[uint64]int64{}
	for state := range int64(5) {
		for _, bools := range []int64{0, 1, 1 << 28, 0x1FFFFFFF, 0x0AAAAAAA} {
			w := state | bools<<32
			k := l.key([]int64{w}, 0)
			if k>>32 != 0 || l.unkey(k) != w {
				t.Fatalf("node %x: key %x gives back %x", w, k, l.unkey(k))
			}
			if o, dup := seen[k]; dup {
				t.Fatalf("nodes %x and %x share key %x", o, w, k)
			}
			seen[k] = w
		}
	}
}

// A search gives the same graph whether its nodes are compact or not: an
// extra word that never changes makes the layout wide (slots keep hash
// tags and probes compare the arena) without changing the runtimes.
func TestCompactSameGraphAsWide(t *testing.T) {
	models := map[string]string{"toggles": gen.Toggles(9), "ring": gen.Ring(4), "probes": gen.Probes(4), "counter": gen.Counter(300)}
	for seed := range uint64(6) {
		models[fmt.Sprintf("random-%d", seed)] = gen.Random(seed)
	}
	compact := 0
	for name, src := range models {
		mc := machine(t, src)
		for _, cap := range []int{40, 5000} {
			g := Search{Machine: mc, Cap: cap}.Run()
			if g.lay.compact {
				compact++
			}
			wide := Search{Machine: mc, Cap: cap, Extra: 1}.Run()
			if wide.lay.compact {
				t.Fatalf("%s: an extra word left the layout compact", name)
			}
			if graphPrint(g) != graphPrint(wide) {
				t.Errorf("%s cap %d: the compact search gives another graph", name, cap)
			}
			for i := 0; i < g.Len(); i++ {
				if j := g.Lookup(g.Node(i, nil)); j != i {
					t.Fatalf("%s: Lookup(node %d) = %d", name, i, j)
				}
			}
		}
	}
	if compact == 0 {
		t.Fatal("no model had a compact layout")
	}
}

// Words reads one word of stored nodes: the one Node unpacks, for the
// state, booleans in and past the first word, integers and extra words,
// from any node on (the graphs span several arena chunks).
func TestWordsAreTheUnpackedWords(t *testing.T) {
	models := map[string]string{"toggles-40": gen.Toggles(40), "counter": gen.Counter(150_000), "probes": gen.Probes(4)}
	for seed := range uint64(4) {
		models[fmt.Sprintf("random-%d", seed)] = gen.Random(seed)
		models[fmt.Sprintf("bigsteps-%d", seed)] = gen.BigSteps(seed)
	}
	for name, src := range models {
		mc := machine(t, src)
		g := Search{Machine: mc, Extra: 1, InitExtra: []int64{-7}, Cap: 3000}.Run()
		if name == "counter" {
			g = Search{Machine: mc, Extra: 1, InitExtra: []int64{-7}, Cap: 200_000}.Run()
		}
		node := make([]int64, g.Width())
		for p := range g.Width() {
			for _, lo := range []int{0, 1, g.Len() / 3} {
				col := make([]int64, g.Len()-lo)
				g.Words(p, lo, col)
				for k, got := range col {
					if want := g.Node(lo+k, node)[p]; got != want {
						t.Fatalf("%s node %d word %d: %d, want %d", name, lo+k, p, got, want)
					}
				}
			}
		}
	}
}

// A machine with wide states stores them in memory in proportion to what
// is stored: a chunk of 2^16 nodes was allocated whole, so a model with
// 100,000 variables and one state asked for tens of gigabytes and died
// with Go's fatal out-of-memory error (issue 38 item 8.2). Here 4,000
// unbounded integers (a chunk of 2 GiB before) must take a few megabytes.
func TestWideNodesSizedByWhatIsStored(t *testing.T) {
	var vars []string
	for i := range 4000 {
		vars = append(vars, fmt.Sprintf(`{"name":"v%d","kind":"integer","init":%d}`, i, i))
	}
	mc := machine(t, `{"schemaVersion":1,"init":"A","states":[{"id":"A"},{"id":"B","terminal":true}],
		"transitions":[{"from":"A","event":"go","to":"B","updates":[{"variable":"v0","op":"inc"}]}],
		"variables":[`+strings.Join(vars, ",")+`]}`)
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	g := Explore(mc, 1000)
	goruntime.ReadMemStats(&after)
	if g.Len() != 2 || g.Truncated {
		t.Fatalf("%d nodes, truncated %v; want 2 and false", g.Len(), g.Truncated)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
		t.Errorf("the search allocated %d MiB to store two states of %d words", got>>20, g.Width())
	}
}

// Adjacency sizes its edge arrays once from a sample of the nodes instead
// of growing them by appending, which allocated several times what it
// kept (issue 42 item 3: the edge list is the LTL check's largest cost).
func TestAdjacencySizedOnce(t *testing.T) {
	g := Explore(machine(t, gen.Toggles(14)), 100000)
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	a := g.Adjacency()
	goruntime.ReadMemStats(&after)
	kept := uint64(len(a.To)*4+len(a.Via)*4+len(a.Off)*8) + 64<<10 // and the step buffers
	if got := after.TotalAlloc - before.TotalAlloc; got > kept*3/2 {
		t.Errorf("Adjacency allocated %d bytes to keep %d (%d edges)", got, kept, len(a.To))
	}
}
