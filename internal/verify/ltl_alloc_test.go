package verify

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/jsonmodel"
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
