package verify

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/jsonmodel"
	"github.com/stateproof/stateproof/internal/ltl"
)

// TestLTLReadsGraphEdges checks that the LTL check's view of the
// exploration (its events and, under fairness, the events enabled at each
// runtime) reads the graph's adjacency rather than copying it: building it
// allocates nothing in proportion to the edges (issue 42 item 3;
// docs/liveness.md#performance). The decision itself is still made.
func TestLTLReadsGraphEdges(t *testing.T) {
	src := strings.TrimSuffix(strings.TrimSpace(gen.Toggles(12)), "}") +
		`, "fairness": {"weak": "*"}, "invariants": [{"id": "resp", "description": "", "kind": "ltl", "formula": "G (!b0 -> F b0)"}]}`
	res, err := jsonmodel.Decode([]byte(src))
	if err != nil || !res.Valid() {
		t.Fatalf("model invalid: %v %v", err, res.Errors)
	}
	m := res.Model
	e := newEnv(m, DefaultOptions())
	g, adj := e.explored(), e.adjacency()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	sys := e.ltlSystem(g)
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(len(adj.To)) {
		t.Errorf("building the system allocated %d bytes for %d edges: it copies them", alloc, len(adj.To))
	}
	if sys.Enabled == nil {
		t.Fatal("no enabled events under a fairness block")
	}
	if got := sys.Enabled(0); len(got) != 12 {
		t.Errorf("%d events enabled at the initial runtime, want 12", len(got))
	}
	out := e.decideLTL(&m.Invariants[0])
	t.Logf("%d product nodes for %d runtimes", out.explored, g.Len())
	if out.violated || out.undecided {
		t.Fatalf("outcome %+v, want the property to hold", out)
	}
}

// TestFairLeadsToReadsGraphEdges checks that a fair leads-to invariant's
// region (the graph without the edges into its targets) reads the
// exploration's adjacency instead of copying its edges (issue 42 item 3),
// and that the invariant is still decided: under weak fairness of stop,
// every fair path of gen toggles 10 plus a stop to B reaches B.
func TestFairLeadsToReadsGraphEdges(t *testing.T) {
	src := strings.Replace(strings.TrimSuffix(strings.TrimSpace(gen.Toggles(10)), "}"),
		`"transitions": [`, `"transitions": [{"from": "ON", "event": "stop", "to": "B"}, `, 1)
	src = strings.Replace(src, `"states": [{"id": "ON"}]`, `"states": [{"id": "ON"}, {"id": "B", "terminal": true}]`, 1) +
		`, "fairness": {"weak": "*"}, "invariants": [{"id": "ends", "description": "", "kind": "leads-to", "from": "ON", "to": "B"}]}`
	res, err := jsonmodel.Decode([]byte(src))
	if err != nil || !res.Valid() {
		t.Fatalf("model invalid: %v %v", err, res.Errors)
	}
	m := res.Model
	e := newEnv(m, DefaultOptions())
	g, adj := e.explored(), e.adjacency()
	isTarget := []bool{false, true}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := newRegion(e.mc, g, adj, isTarget)
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(len(adj.To)) {
		t.Errorf("building the region allocated %d bytes for %d edges: it copies them", alloc, len(adj.To))
	}
	if r.Len() != g.Len() {
		t.Fatalf("region of %d nodes, graph of %d", r.Len(), g.Len())
	}
	if out := e.decideFairLeadsTo(&m.Invariants[0], isTarget); out.violated || out.undecided {
		t.Fatalf("outcome %+v, want the invariant to hold", out)
	}
}

// TestLTLCompareAllocatesNothing checks that a comparison atom is decided
// on the runtime's word itself when the word is the integer (as on every
// toggles runtime): the check asks once per runtime, and building two
// big.Int a time was most of what the product allocated besides its
// arrays (issue 42 item 3). A word past the band still compares exactly.
func TestLTLCompareAllocatesNothing(t *testing.T) {
	src := strings.TrimSuffix(strings.TrimSpace(gen.Toggles(4)), "}") +
		`, "invariants": [{"id": "resp", "description": "", "kind": "ltl", "formula": "G F b0"}]}`
	res, err := jsonmodel.Decode([]byte(src))
	if err != nil || !res.Valid() {
		t.Fatalf("model invalid: %v %v", err, res.Errors)
	}
	e := newEnv(res.Model, DefaultOptions())
	g := e.explored()
	sys := e.ltlSystem(g)
	atom := &ltl.Atom{Kind: ltl.Compare, Name: "b0", Cmp: "==", Value: 1, Bool: true}
	holds := 0
	allocs := testing.AllocsPerRun(10, func() {
		holds = 0
		for v := range g.Len() {
			if sys.Holds(atom, v) {
				holds++
			}
		}
	})
	if allocs != 0 {
		t.Errorf("%.0f allocations deciding b0 == true at %d runtimes", allocs, g.Len())
	}
	if holds != g.Len()/2 {
		t.Errorf("b0 == true at %d of %d runtimes, want half", holds, g.Len())
	}
	big := e.mc.IntWord(1 << 62)
	for _, c := range []struct {
		op   string
		want bool
	}{{">", true}, {"<", false}, {"==", false}, {"!=", true}} {
		if got := compareWord(e.mc, big, c.op, 1<<53-1); got != c.want {
			t.Errorf("2^62 %s 2^53-1: %v, want %v", c.op, got, c.want)
		}
	}
}
