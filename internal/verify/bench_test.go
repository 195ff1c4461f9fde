package verify

import (
	"testing"

	"github.com/stateproof/stateproof/internal/gen"
	"github.com/stateproof/stateproof/internal/jsonmodel"
)

func benchModel(b *testing.B, src string, maxStates int) {
	res, err := jsonmodel.Decode([]byte(src))
	if err != nil || !res.Valid() {
		b.Fatalf("generated model invalid: %v %v", err, res.Errors)
	}
	opts := DefaultOptions()
	opts.MaxStates = maxStates
	b.ReportAllocs()
	for b.Loop() {
		r := Run(res, opts)
		if r.Truncated {
			b.Fatal("benchmark model truncated")
		}
	}
}

// BenchmarkVerifyToggles20: 2^20 switch settings, 1,048,576 runtime
// states reached through 40 events each, all S-checks.
func BenchmarkVerifyToggles20(b *testing.B) { benchModel(b, gen.Toggles(20), 1_100_000) }

// BenchmarkVerifyCounter1M: a counter to one million, 1,000,002 runtime
// states, with a var-in-range and an event-before-state invariant.
func BenchmarkVerifyCounter1M(b *testing.B) { benchModel(b, gen.Counter(1_000_000), 2_000_000) }

// BenchmarkProbes100k: the probes model with k = 316, 100,492 runtime
// states; every check S1-S8 and A1-A14 runs and decides.
func BenchmarkProbes100k(b *testing.B) { benchModel(b, gen.Probes(316), 200_000) }

// BenchmarkProbes1M: the probes model with k = 1000, 1,002,004 runtime
// states.
func BenchmarkProbes1M(b *testing.B) { benchModel(b, gen.Probes(1000), 2_000_000) }
