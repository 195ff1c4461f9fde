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
