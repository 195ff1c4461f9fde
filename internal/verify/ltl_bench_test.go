package verify

import (
	"strings"
	"testing"

	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/jsonmodel"
)

// togglesResponse is gen toggles k (2^k runtimes, k events) with the
// response property G (!b0 -> F b0), which holds under weak fairness of
// flip0 and only then.
func togglesResponse(b *testing.B, k int) *jsonmodel.Model {
	src := strings.TrimSuffix(strings.TrimSpace(gen.Toggles(k)), "}") +
		`, "fairness": {"weak": ["flip0"]}, "invariants": [{"id": "resp", "description": "", "kind": "ltl", "formula": "G (!b0 -> F b0)"}]}`
	res, err := jsonmodel.Decode([]byte(src))
	if err != nil || !res.Valid() {
		b.Fatalf("model invalid: %v %v", err, res.Errors)
	}
	return res.Model
}

// BenchmarkLTLToggles18 decides the response property under fairness,
// exploration included: compare with BenchmarkReachToggles18, the plain
// reachability search of the same model (docs/liveness.md#performance).
func BenchmarkLTLToggles18(b *testing.B) { benchLTLToggles(b, 18) }

// BenchmarkLTLToggles16 is BenchmarkLTLToggles18 at a quarter of the size,
// quick enough to profile while iterating.
func BenchmarkLTLToggles16(b *testing.B) { benchLTLToggles(b, 16) }

func benchLTLToggles(b *testing.B, k int) {
	m := togglesResponse(b, k)
	opts := DefaultOptions()
	opts.MaxStates = 1 << (k + 1)
	for b.Loop() {
		e := newEnv(m, opts)
		out := e.decideLTL(&m.Invariants[0])
		if out.violated || out.undecided {
			b.Fatalf("outcome %+v", out)
		}
	}
}

// BenchmarkReachToggles18 is the plain reachability search of the model
// BenchmarkLTLToggles18 decides.
func BenchmarkReachToggles18(b *testing.B) {
	m := togglesResponse(b, 18)
	opts := DefaultOptions()
	opts.MaxStates = 1 << 19
	for b.Loop() {
		if g := newEnv(m, opts).explored(); g.Truncated || g.Len() != 1<<18 {
			b.Fatalf("explored %d", g.Len())
		}
	}
}
