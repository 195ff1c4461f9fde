package explore

import (
	"runtime"
	"testing"

	"github.com/stateproof/stateproof/internal/gen"
)

// benchSearch runs the plain search of a generated model and reports the
// heap bytes per stored node (peak of the live heap after the search, as
// runtime.MemStats sees it) as B/state.
func benchSearch(b *testing.B, src string, workers int) {
	mc := machine(b, src)
	var states int
	var peak uint64
	for b.Loop() {
		g := Search{Machine: mc, Cap: 1 << 30, Workers: workers}.Run()
		states = g.Len()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
		runtime.KeepAlive(g)
	}
	b.ReportMetric(float64(peak)/float64(states), "B/state")
	b.ReportMetric(float64(states), "states")
}

func BenchmarkSearchCounter10M(b *testing.B) { benchSearch(b, gen.Counter(10_000_000), 1) }
func BenchmarkSearchCounter10MWorkers2(b *testing.B) {
	benchSearch(b, gen.Counter(10_000_000), 2)
}
func BenchmarkSearchToggles22(b *testing.B) { benchSearch(b, gen.Toggles(22), 1) }
func BenchmarkSearchToggles22Workers2(b *testing.B) {
	benchSearch(b, gen.Toggles(22), 2)
}

func BenchmarkSearchToggles16(b *testing.B) { benchSearch(b, gen.Toggles(16), 1) }

func BenchmarkSearchToggles18(b *testing.B) { benchSearch(b, gen.Toggles(18), 1) }

func BenchmarkSearchToggles20(b *testing.B) { benchSearch(b, gen.Toggles(20), 1) }

func BenchmarkSearchToggles20Workers2(b *testing.B) { benchSearch(b, gen.Toggles(20), 2) }
