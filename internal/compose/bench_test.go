package compose

import (
	"testing"

	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/jsonmodel"
)

// BenchmarkRings3x100: three generated rings of 100 runtime states each
// (gen.Ring(10)), no rendezvous: 10^6 composite states, six successors
// each, explored to the end.
func BenchmarkRings3x100(b *testing.B) {
	res, err := jsonmodel.Decode([]byte(gen.Ring(10)))
	if err != nil || !res.Valid() {
		b.Fatalf("generated ring invalid: %v %v", err, res.Errors)
	}
	in := []Input{{Name: "a", Result: res}, {Name: "b", Result: res}, {Name: "c", Result: res}}
	opts := DefaultOptions()
	opts.MaxStates = 1_100_000
	b.ReportAllocs()
	for b.Loop() {
		r := Run(in, opts)
		if r.Truncated || r.CompositeStates != 1_000_000 || len(r.Checks[0].Findings) != 0 {
			b.Fatalf("truncated %v, %d composite states, C1 %v", r.Truncated, r.CompositeStates, r.Checks[0].Findings)
		}
	}
}
